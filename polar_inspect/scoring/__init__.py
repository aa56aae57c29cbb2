"""Scoring: the deterministic value matcher, the visible-text filter and the scorer."""

from polar_inspect.scoring.match import TextIndex, contains_value, extract_dates, normalize_text
from polar_inspect.scoring.scorer import judge_replies, polar_scorer
from polar_inspect.scoring.visible import visible_text

__all__ = [
    "TextIndex",
    "contains_value",
    "extract_dates",
    "judge_replies",
    "normalize_text",
    "polar_scorer",
    "visible_text",
]
