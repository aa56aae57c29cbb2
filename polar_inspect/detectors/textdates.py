"""Dates in a folded text (`textforms.fold`), for the strict detector: complete dates in numeric
and month-name forms (English, German, French, Italian; ordinal words too) and the fragments
month+year, day+month and a year on its own."""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from polar_inspect.detectors.lexicon import LEXICON, ORDINALS

_MONTH_WORDS = {
    name: number for number, names in enumerate(LEXICON["months"], 1) for name in names.split()
}
_MONTH = "(" + "|".join(sorted(_MONTH_WORDS, key=len, reverse=True)) + r")\b\.?"
_ORDINAL_WORDS = {w: i for i, w in enumerate(ORDINALS, start=1)} | dict.fromkeys(
    LEXICON["first_day"], 1
)
_DAY = (
    r"(\d{1,2}|"
    + "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True))
    + r")(?:st|nd|rd|th|er|re|e|o|°)?\.?"
)
_YEAR = r"((?:19|20)\d{2})(?!\d)"
_OF = r"(?:\s*(?:of|de|di|del|du)\s+|\s*)"
_DATE_FORMS = (
    ("ymd", re.compile(r"(?<!\d)((?:19|20)\d{2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?!\d)")),
    (
        "num",
        re.compile(r"(?<![\d.])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?((?:19|20)?\d{2})(?!\d)"),
    ),
    ("dmy", re.compile(rf"\b{_DAY}{_OF}{_MONTH}\s*,?\s*{_YEAR}")),
    ("mdy", re.compile(rf"\b{_MONTH}\s*(?:the\s+)?{_DAY}\s*,?\s*{_YEAR}")),
    ("my", re.compile(rf"\b{_MONTH}\s*,?\s*{_YEAR}")),
    ("dm", re.compile(rf"\b{_DAY}{_OF}{_MONTH}(?!\s*,?\s*(?:19|20)\d\d)")),
    ("md", re.compile(rf"\b{_MONTH}\s*{_DAY}\b(?!\s*,?\s*(?:19|20)\d\d)")),
)
_YEAR_ALONE = re.compile(r"(?<![\d.\-/])((?:19|20)\d{2})(?![\d\-/])")


@dataclass(frozen=True)
class DateMention:
    """A date or a date fragment found in a folded text."""

    year: int | None
    month: int | None
    day: int | None
    start: int
    end: int

    @property
    def complete(self) -> bool:
        """Year, month and day are all known."""
        return None not in (self.year, self.month, self.day)


def _day(text: str) -> int:
    return int(text) if text.isdigit() else _ORDINAL_WORDS.get(text, 0)


def _valid(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= monthrange(year, month)[1]


def dates_in(folded_text: str) -> list[DateMention]:
    """Complete dates and fragments (month+year, day+month, year) in a folded text; numeric
    D/M/Y forms are read both day-first and month-first (the reader may know which)."""
    found: list[DateMention] = []
    covered: list[tuple[int, int]] = []
    for kind, pattern in _DATE_FORMS:
        for m in pattern.finditer(folded_text):
            found.extend(_new_mentions(kind, m, covered))
    for m in _YEAR_ALONE.finditer(folded_text):
        start, end = m.span()
        if not any(s <= start < e for s, e in covered):
            found.append(DateMention(int(m.group(1)), None, None, start, end))
    return found


def _new_mentions(kind: str, m: re.Match[str], covered: list[tuple[int, int]]) -> list[DateMention]:
    """The dates a match of `kind` reads, unless it overlaps a span already read (the match's
    span is then added to `covered`)."""
    start, end = m.span()
    if any(s <= start < e or s < end <= e for s, e in covered):
        return []
    if mentions := _read(kind, m):
        covered.append((start, end))
    return [DateMention(y, mo, d, start, end) for y, mo, d in mentions]


_Reading = tuple[int | None, int | None, int | None]
#: How each single-reading form is read: (year or None, month, day or None) from its groups.
_READERS: dict[str, Callable[[tuple[str, ...]], tuple[int | None, int, int | None]]] = {
    "ymd": lambda g: (int(g[0]), int(g[2]), int(g[3])),  # one separator: not "2026 - 07.07"
    "dmy": lambda g: (int(g[2]), _MONTH_WORDS[g[1]], _day(g[0])),
    "mdy": lambda g: (int(g[2]), _MONTH_WORDS[g[0]], _day(g[1])),
    "my": lambda g: (int(g[1]), _MONTH_WORDS[g[0]], None),
    "dm": lambda g: (None, _MONTH_WORDS[g[1]], _day(g[0])),
    "md": lambda g: (None, _MONTH_WORDS[g[0]], _day(g[1])),
}


def _read(kind: str, m: re.Match[str]) -> list[_Reading]:
    """The valid dates a match of `kind` reads (a day and month without a year are checked
    against a leap year, 2000; a month and year need no check)."""
    if kind == "num":
        return _read_numeric(m.groups())
    year, month, day = _READERS[kind](m.groups())
    valid = day is None or _valid(2000 if year is None else year, month, day)
    return [(year, month, day)] if valid else []


def _read_numeric(g: tuple[str, ...]) -> list[_Reading]:
    """A numeric D/M/Y (or M/D/Y) date read both ways, with a two-digit year in both centuries."""
    out: list[_Reading] = []
    a, b = int(g[0]), int(g[2])
    years = [int(g[3])] if len(g[3]) == 4 else [1900 + int(g[3]), 2000 + int(g[3])]
    for y in years:
        for d, mo in ((a, b), (b, a)):
            if _valid(y, mo, d) and (y, mo, d) not in out:
                out.append((y, mo, d))
    return out


def as_date(mention: DateMention) -> date | None:
    """The mention as a `datetime.date` when complete."""
    if mention.complete:
        assert mention.year and mention.month and mention.day
        return date(mention.year, mention.month, mention.day)
    return None
