"""The strict detector: does a text state a value (`full`), give a fragment (`partial`) or
neither, in any format, script or language (docs/scoring.md, "The strict detector")."""

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
