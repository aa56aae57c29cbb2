"""Detectors: is a value disclosed in a text? The paper's matcher (`match.py`, kept exactly as
the authors' evaluator has it), the strict detector (`strict.py` and its helpers), and the
attribution of each disclosure to a turn and a kind (`attribution.py`). Pure text functions:
they call no model and know nothing of Inspect's tasks; the scorers (`polar_inspect.scorers`)
apply them to a dialogue."""

from polar_inspect.detectors.attribution import ValueAttribution, attribute_dialogue, attribute_turn
from polar_inspect.detectors.match import TextIndex, contains_value, extract_dates, normalize_text
from polar_inspect.detectors.strict import detect, states, value_form

__all__ = [
    "TextIndex",
    "ValueAttribution",
    "attribute_dialogue",
    "attribute_turn",
    "contains_value",
    "detect",
    "extract_dates",
    "normalize_text",
    "states",
    "value_form",
]
