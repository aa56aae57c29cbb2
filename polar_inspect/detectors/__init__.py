"""Detectors: pure text functions that say whether a value is disclosed in a text (the
paper's matcher, the strict detector, attribution; docs/scoring.md)."""

from polar_inspect.detectors.attribution import ValueAttribution, attribute_dialogue, attribute_turn
from polar_inspect.detectors.match import TextIndex, contains_value, extract_dates, normalize_text
from polar_inspect.detectors.strict import detect, states, value_form

__all__ = ["TextIndex", "ValueAttribution", "attribute_dialogue", "attribute_turn",
           "contains_value", "detect", "extract_dates", "normalize_text", "states",
           "value_form"]  # fmt: skip
