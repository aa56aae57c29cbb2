"""Scoring: the deterministic value matcher (and, later, the scorer)."""

from polar_inspect.scoring.match import TextIndex, contains_value, extract_dates, normalize_text

__all__ = ["TextIndex", "contains_value", "extract_dates", "normalize_text"]
