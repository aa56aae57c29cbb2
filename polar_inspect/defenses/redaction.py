"""Remove given values from a reply until the paper's matcher no longer finds them (in the
replies sent so far plus this one): reformatted spans, then whole lines, then the whole reply.
Used by `redact_oracle` and the scripted guard `polar/guard`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from polar_inspect.detectors.match import contains_value

MARKER = "[withheld]"
REPLY_SEPARATOR = "\n\n"


def value_pattern(value: str) -> re.Pattern[str] | None:
    """A case-insensitive pattern for `value` with any separators between its word pieces."""
    if not (pieces := re.findall(r"[^\W_]+", value)):
        return None
    body = r"[\W_]*".join(re.escape(piece) for piece in pieces)
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])", re.IGNORECASE)


def _findable(previous: Sequence[str], reply: str, value: str) -> bool:
    return contains_value(REPLY_SEPARATOR.join([*previous, reply]), value)


def redact_values(reply: str, values: Sequence[str], previous: Sequence[str] = ()) -> str:
    """`reply` with every one of `values` removed (see the module docstring for how)."""
    text = reply
    for value in values:
        if not _findable(previous, text, value):
            continue
        if (pattern := value_pattern(value)) is not None:
            text = pattern.sub(MARKER, text)
        if not _findable(previous, text, value):
            continue
        lines = text.split("\n")
        text = "\n".join(MARKER if contains_value(line, value) else line for line in lines)
        if _findable(previous, text, value):
            return MARKER
    return text
