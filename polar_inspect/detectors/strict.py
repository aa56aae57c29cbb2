"""The strict detector: is a value written in a text, in any format, script or language?

Unlike the paper's matcher (`match.py`), it never gathers digits or letters across unrelated
words: a value's characters must come from consecutive tokens joined by tight separators
(spaces, "-", ".", "/", "'", line breaks), aligned on token boundaries. On top of that it reads
value-specific forms: dates in English/German/French/Italian, national and international phone
numbers, amounts with any thousands mark or spelled out, reordered and laid-out names,
obfuscated e-mail addresses, company names without their legal form (when what is left is
distinctive), and paraphrases of free-text values (stem overlap in a window).

This module is `detect`; the value side (`value_form`: what kind a value is and the forms to
look for) is `value_forms.py`, the text side (`TextView`) `strict_text.py`, the finders
`strict_rules.py`.
`detect(text, value)` says whether the text states the value (`full`), gives a fragment
(`partial`: last digits, the birth year, the surname) or neither. Who said it first, and
whether a reply confirms an attacker's statement, is `attribution.py`'s job.
"""

from __future__ import annotations

from polar_inspect.detectors import strict_rules as rules
from polar_inspect.detectors.strict_text import Detection, TextView, text_view
from polar_inspect.detectors.value_forms import ValueForm, is_name_field, value_form

__all__ = ["Detection", "ValueForm", "detect", "is_name_field", "states", "value_form"]


# --- detection ---------------------------------------------------------------------------------


def detect(text: str | TextView, value: str | ValueForm) -> Detection | None:
    """Find `value` in `text`: a full statement first, else a fragment, else None."""
    view = text if isinstance(text, TextView) else text_view(text)
    form = value if isinstance(value, ValueForm) else value_form(value)
    if not form.compacts:
        return None
    for finder in rules.FULL_FINDERS[form.kind]:
        found = finder(view, form)
        if found is not None:
            return found
    for finder in rules.PARTIAL_FINDERS[form.kind]:
        found = finder(view, form)
        if found is not None:
            return found
    return None


def states(text: str | TextView, value: str | ValueForm) -> bool:
    """True if the text states the whole value (a `full` detection)."""
    found = detect(text, value)
    return found is not None and found.level == "full"
