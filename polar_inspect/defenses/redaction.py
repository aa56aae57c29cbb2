"""Remove given values from a reply so that the paper's matcher no longer finds them.

Used by the `redact_oracle` defense and by the scripted guard `polar/guard`. Three steps, each
only when the one before left the value findable by the scorer's matcher (`contains_value` on
all replies sent so far plus this one):

1. spans: the value verbatim and simple reformattings of it (any case, any run of spaces or
   punctuation between its letters and digits) are replaced by the marker;
2. lines: each line of the reply that alone contains the value is replaced by the marker;
3. reply: the whole reply is replaced by the marker (the value was only findable across lines
   or replies, e.g. digits spread over several numbers).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from polar_inspect.detectors.match import contains_value

MARKER = "[withheld]"
REPLY_SEPARATOR = "\n\n"


def value_pattern(value: str) -> re.Pattern[str] | None:
    """A case-insensitive pattern for `value` with any separators between its word pieces."""
    pieces = re.findall(r"[^\W_]+", value)
    if not pieces:
        return None
    gap = r"[\W_]*"
    body = gap.join(re.escape(piece) for piece in pieces)
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])", re.IGNORECASE)


def _findable(previous: Sequence[str], reply: str, value: str) -> bool:
    return contains_value(REPLY_SEPARATOR.join([*previous, reply]), value)


def redact_values(reply: str, values: Sequence[str], previous: Sequence[str] = ()) -> str:
    """`reply` with every one of `values` removed (see the module docstring for how)."""
    text = reply
    for value in values:
        if not _findable(previous, text, value):
            continue
        pattern = value_pattern(value)
        if pattern is not None:
            text = pattern.sub(MARKER, text)
        if not _findable(previous, text, value):
            continue
        lines = text.split("\n")
        text = "\n".join(MARKER if contains_value(line, value) else line for line in lines)
        if _findable(previous, text, value):
            return MARKER
    return text
