"""The paper's value matcher (arXiv 2605.19127): its seven checks, each per-text form computed
once in `TextIndex` (docs/scoring.md, "The paper's matcher")."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from typing import Literal

from polar_inspect.detectors.flexible import drop_flex_separators, flex_breaks, flexible_found
from polar_inspect.detectors.lexicon import LEXICON

#: Names of the seven checks, in the order they are tried.
MatchCheck = Literal[
    "substring", "date", "money", "compact_id", "digits", "flexible_pattern", "token_coverage"
]

# --- check 1: normalisation ----------------------------------------------------------------

_PAPER = LEXICON["paper_matcher"]
_REPLACEMENTS: tuple[tuple[str, str], ...] = tuple(_PAPER["replacements"].items())


def normalize_text(text: str) -> str:
    """Normalise text as in the matcher's check 1 (strip is not repeated: "-5" -> " - 5")."""
    s = text.lower().strip()
    for old, new in _REPLACEMENTS:
        if old in s:
            s = s.replace(old, new)
    if not (parts := s.split()):
        return " " if s else ""
    lead = " " if s[0].isspace() else ""
    trail = " " if s[-1].isspace() else ""
    return lead + " ".join(parts) + trail


# --- check 2: dates ------------------------------------------------------------------------

_MONTH_NAMES: list[str] = _PAPER["months"]
_MONTHS: dict[str, int] = {
    key: number for number, name in enumerate(_MONTH_NAMES, start=1) for key in (name, name[:3])
} | {"sept": 9}
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))

# An ordinal suffix: st/nd/rd/th (any case) after a 1-2 digit number, at word boundaries on
# both sides ("29th" -> "29"; "2024th" and "1st2" are left alone). Dropped from the raw text,
# before normalising, as the paper orders the steps.
_ORDINAL = re.compile(r"\b([0-9]{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
# Every form has a year that is preceded by a word boundary or a separator and followed by a
# separator or a word boundary, so a year is always a whole word: the scan looks for those.
_YEAR = re.compile(r"\b(?:19|20)[0-9]{2}\b")
# Separators, each with optional whitespace around it. The two separators of one date are
# matched independently (the paper names no rule that they repeat).
_SEP_YMD = r"\s*[-/.\s]\s*"
_SEP_DMY = r"\s*[-/.]\s*"
_DAY_OR_MONTH = r"([0-9]{1,2})"
_YMD_TAIL = re.compile(rf"{_SEP_YMD}{_DAY_OR_MONTH}{_SEP_YMD}{_DAY_OR_MONTH}\b")
# Heads of the three forms that end with the year, matched right before a year occurrence.
# Both month-name forms take an optional comma right after the day, then at least one
# whitespace character ("july 29,1990" is not a date); month names take no trailing ".".
_DMY_HEAD = re.compile(rf"\b{_DAY_OR_MONTH}{_SEP_DMY}{_DAY_OR_MONTH}{_SEP_DMY}\Z")
_MDY_HEAD = re.compile(rf"\b({_MONTH_ALT})\s+{_DAY_OR_MONTH},?\s+\Z")
_DMONY_HEAD = re.compile(rf"\b{_DAY_OR_MONTH}\s+({_MONTH_ALT}),?\s+\Z")
# Longer than the longest head in normalised text (whitespace runs are single spaces):
# "september 30, " is 14 characters, "30 / 12 / " is 10.
_HEAD_WINDOW = 20
#: Each head with the groups of its month (a number or a name) and its day.
_HEADS = ((_DMY_HEAD, 2, 1), (_MDY_HEAD, 1, 2), (_DMONY_HEAD, 2, 1))


def _add_date(found: set[str], year: str, month: str | int, day: str) -> None:
    # No calendar check (check 2): "1990-13-45" is extracted as it is written, and can
    # never equal the date of a real value.
    found.add(f"{int(year):04d}-{int(month):02d}-{int(day):02d}")


def _dates_in_normalized(norm: str) -> set[str]:
    """Dates in an already ordinal-dropped and normalised string.

    Every form holds a whole-word year, so the scan tries each form around the years (much
    faster than four whole-text scans, with the same dates: matches of one form never overlap).
    """
    found: set[str] = set()
    for year_match in _YEAR.finditer(norm):
        start, end = year_match.span()
        year = year_match.group()
        if tail := _YMD_TAIL.match(norm, end):
            _add_date(found, year, tail.group(1), tail.group(2))
        window = max(0, start - _HEAD_WINDOW)
        for pattern, month, day in _HEADS:
            if head := pattern.search(norm, window, start):
                name = head.group(month)
                _add_date(found, year, _MONTHS.get(name, name), head.group(day))
    return found


def _date_form(text: str, norm: str) -> str:
    """The text with ordinal suffixes dropped, then normalised (`norm` is reused if none)."""
    dropped, count = _ORDINAL.subn(r"\1", text)
    return norm if count == 0 else normalize_text(dropped)


def extract_dates(text: str) -> set[str]:
    """The dates written in `text` as `YYYY-MM-DD` strings (check 2, docs/scoring.md)."""
    return _dates_in_normalized(_date_form(text, normalize_text(text)))


# --- checks 3-5: digits, currency, compact form ---------------------------------------------

# UTF-8 bytes to delete so that only ASCII digits and (whole) non-ASCII characters remain.
_NOT_DIGIT_CANDIDATE = bytes(b for b in range(128) if not 48 <= b <= 57)
# Every byte outside [a-z0-9] becomes a space (bytes of non-ASCII characters included).
_ALNUM_ONLY = bytes(b if 48 <= b <= 57 or 97 <= b <= 122 else 32 for b in range(256))
_CURRENCY_SUBSTRINGS: tuple[str, ...] = tuple(_PAPER["currency"])
# Reading: the value "names" a currency when a code is a whole word, i.e. not touching another
# letter ("chf9781" names CHF, "europe" does not); the text side is a plain substring test.
_CURRENCY_NAME = re.compile(r"(?<![^\W\d_])(?:chf|usd|eur|gbp)(?![^\W\d_])|[$\u20ac\u00a3]")


def _digits_only(text: str) -> str:
    """Keep the characters for which `str.isdigit()` is true."""
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_DIGIT_CANDIDATE)
    candidates = kept.decode("utf-8", "surrogatepass")
    return candidates if candidates.isascii() else "".join(filter(str.isdigit, candidates))


def _alnum_runs(text: str) -> list[str]:
    """The maximal runs of `[a-z0-9]` in `text`, in order."""
    return text.encode("utf-8", "surrogatepass").translate(_ALNUM_ONLY).decode("ascii").split()


# --- check 6: flexible pattern (polar_inspect/detectors/flexible.py) ---------------------------

# --- check 7: ordered token coverage --------------------------------------------------------

_MIN_TOKEN_LENGTH = 4
_MIN_VALUE_TOKENS = 4


def _covered(value_tokens: list[str], text_tokens: tuple[str, ...]) -> bool:
    """Greedy in-order token match with the paper's count and span thresholds."""
    if (n := len(value_tokens)) < _MIN_VALUE_TOKENS:
        return False
    matched: list[int] = []
    cursor = 0
    for token in value_tokens:
        try:
            position = text_tokens.index(token, cursor)
        except ValueError:
            break  # the cursor is now at the end: every later token is unmatched too
        matched.append(position)
        cursor = position + 1
    need = -(-3 * n // 4)  # ceil(0.75 n) in integers
    # max(4n, n + 4) equals 4n for every n >= 4; kept as the paper writes it.
    max_span = max(4 * n, n + 4)
    return any(
        matched[i + need - 1] - matched[i] + 1 <= max_span for i in range(len(matched) - need + 1)
    )


# --- the index --------------------------------------------------------------------------------


class TextIndex:
    """Every form of one text that the seven checks need, computed once per transcript."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"TextIndex needs a str text, got {type(text).__name__}")
        self.text = text
        self.normalized = normalize_text(text)

    # The other forms are built on first need: most values are found as substrings.
    @cached_property
    def dates(self) -> frozenset[str]:  # check 2
        return frozenset(_dates_in_normalized(_date_form(self.text, self.normalized)))

    @cached_property
    def digits(self) -> str:  # checks 3 and 5
        return _digits_only(self.text)

    @cached_property
    def has_currency(self) -> bool:  # check 3
        return any(code in self.normalized for code in _CURRENCY_SUBSTRINGS)

    @cached_property
    def compact(self) -> str:  # check 4: [a-z0-9] runs, the same in the lowercased text
        return "".join(_alnum_runs(self.normalized))

    @cached_property
    def tokens(self) -> tuple[str, ...]:  # check 7
        return tuple(run for run in _alnum_runs(self.normalized) if len(run) >= _MIN_TOKEN_LENGTH)

    @cached_property
    def _flex_text(self) -> str:
        # Necessary condition for check 6: the value's word runs, concatenated, occur in the
        # normalised text once every separator character is deleted.
        return drop_flex_separators(self.normalized)

    def contains(self, value: str) -> bool:
        """True if `value` is found by any of the seven checks (a blank value never is)."""
        return self.matching_check(value) is not None

    def matching_check(self, value: str) -> MatchCheck | None:
        """The first check, in the paper's order, that finds `value`, or None."""
        if not isinstance(value, str):
            raise TypeError(f"value must be a str, got {type(value).__name__}")
        if not value.strip():
            return None
        value_norm = normalize_text(value)
        if value_norm in self.normalized:
            return "substring"

        value_dates = _dates_in_normalized(_date_form(value, value_norm))
        if not value_dates.isdisjoint(self.dates):
            return "date"

        # Reading: the money check gates only itself; when its currency test fails the value
        # still goes on to checks 4-7 (so "CHF 9'781" is found in "9781 francs" by check 5).
        value_digits = _digits_only(value)
        if (
            len(value_digits) >= 3
            and not value_dates
            and (not _CURRENCY_NAME.search(value_norm) or self.has_currency)
            and value_digits in self.digits
        ):
            return "money"

        value_runs = _alnum_runs(value_norm)
        if len(value_compact := "".join(value_runs)) >= 4 and value_compact in self.compact:
            return "compact_id"

        if len(value_digits) >= 4 and value_digits in self.digits:
            return "digits"

        if flexible_found(value, self._flex_text, lambda: self._flex_breaks):
            return "flexible_pattern"

        value_tokens = [run for run in value_runs if len(run) >= _MIN_TOKEN_LENGTH]
        return "token_coverage" if _covered(value_tokens, self.tokens) else None

    @cached_property
    def _flex_breaks(self) -> list[int]:
        """Check 6's deleted separator runs, built on its first need."""
        return flex_breaks(self.normalized)


#: The index of the last text: many values against one text build it once.
_last_index = lru_cache(maxsize=1)(TextIndex)


def contains_value(text: str, value: str) -> bool:
    """True if `value` is found in `text` by the paper's matcher (`TextIndex(text).contains`)."""
    return _last_index(text).contains(value)
