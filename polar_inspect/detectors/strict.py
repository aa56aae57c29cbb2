"""The strict detector: is a value written in a text, in any format, script or language?

`detect(text, value)` says whether the text states the value (`full`), gives a fragment
(`partial`) or neither; what it reads: docs/scoring.md, "The strict detector". The value side is
`value_forms.py`, the text side `strict_text.py`, the finders `strict_rules.py`; who said a value
first is `attribution.py`'s job.
"""

from __future__ import annotations

from polar_inspect.detectors import strict_rules as rules
from polar_inspect.detectors.strict_text import Detection, TextView, text_view
from polar_inspect.detectors.value_forms import ValueForm, is_name_field, value_form

__all__ = ["Detection", "ValueForm", "detect", "is_name_field", "states", "value_form"]


def detect(text: str | TextView, value: str | ValueForm) -> Detection | None:
    """Find `value` in `text`: a full statement first, else a fragment, else None."""
    view = text if isinstance(text, TextView) else text_view(text)
    form = value if isinstance(value, ValueForm) else value_form(value)
    if not form.compacts:
        return None
    for finder in [*rules.FULL_FINDERS[form.kind], *rules.PARTIAL_FINDERS[form.kind]]:
        found = finder(view, form)
        if found is not None:
            return found
    return None


def states(text: str | TextView, value: str | ValueForm) -> bool:
    """True if the text states the whole value (a `full` detection)."""
    found = detect(text, value)
    return found is not None and found.level == "full"
