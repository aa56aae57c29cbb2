"""Text forms for the strict detector: Unicode folding (with a map back to the original text,
so a finding quotes the span the reader saw), tokens, company names, numbers."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from polar_inspect.detectors.lexicon import (
    LEGAL_FORM_JOINERS,
    LEGAL_FORMS,
    LEXICON,
    STOPWORDS,
    alternation,
)

# --- folding ---------------------------------------------------------------------------------

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_APOSTROPHES = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'"}


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    if char in _APOSTROPHES:
        return _APOSTROPHES[char]
    if char.isspace():
        return " "
    if char in "\u2010\u2011\u2012\u2013\u2014\u2212":
        return "-"
    kept = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return kept.casefold()


@dataclass(frozen=True)
class Folded:
    """A case-folded, accent-free form of a text; `segments` map it back to the original:
    (folded_start, original_start) at every point where lengths diverge."""

    original: str
    text: str
    segments: tuple[tuple[int, int], ...]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a folded span back to a span of the original text."""
        end_at = min(form_offset(self.segments, end), len(self.original))
        return min(form_offset(self.segments, start), len(self.original)), end_at


def form_offset(points: Sequence[tuple[int, int]], position: int) -> int:
    """Map an offset of a derived text back to its source, given the (derived, source) offset
    pairs where the two diverge (`Folded.segments`, `TextView.squeeze_points`)."""
    index = bisect_right(points, (position, 1 << 62)) - 1
    if index < 0:
        return position
    derived_at, source_at = points[index]
    return source_at + (position - derived_at)


@lru_cache(maxsize=512)
def fold(text: str) -> Folded:
    """Fold `text`: NFKD, combining marks dropped, casefolded, dashes/apostrophes unified."""
    if text.isascii():
        return Folded(text, text.lower(), ())
    parts: list[str] = []
    segments: list[tuple[int, int]] = []
    folded_len = 0
    cursor = 0
    for match in _NON_ASCII.finditer(text):
        start, end = match.span()
        ascii_part = text[cursor:start].lower()
        parts.append(ascii_part)
        folded_len += len(ascii_part)
        for offset, char in enumerate(match.group()):
            segments.append((folded_len, start + offset))
            piece = _fold_char(char)
            parts.append(piece)
            folded_len += len(piece)
        segments.append((folded_len, end))
        cursor = end
    parts.append(text[cursor:].lower())
    return Folded(text, "".join(parts), tuple(segments))


# --- tokens ------------------------------------------------------------------------------------

TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[tuple[str, int, int]]:
    """Alphanumeric tokens of an already folded text, with their spans."""
    return [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]


# --- company names ---------------------------------------------------------------------------

#: A company name without its legal form is distinctive enough to match on its own when it keeps
#: two content words ("Hoffmann Gartenbau") or one of at least this many letters ("Syngenta").
DISTINCTIVE_SINGLE_WORD = 8


def without_legal_form(folded_tokens: list[str]) -> list[str]:
    """The tokens of a company name with its trailing legal forms removed ("Meier und Co. AG"
    -> ["meier"]); the tokens unchanged when the name has no legal form or nothing else."""
    core = list(folded_tokens)
    while len(core) > 1:
        for n in (4, 3, 2, 1):
            if len(core) > n and "".join(core[-n:]) in LEGAL_FORMS:
                core = core[:-n]
                while len(core) > 1 and core[-1] in LEGAL_FORM_JOINERS:
                    core = core[:-1]
                break
        else:
            break
    return core


def distinctive_name(folded_tokens: list[str]) -> bool:
    """Whether a name (without its legal form) is unlikely to be written by coincidence: two
    content words (six letters or more in all), or one word of `DISTINCTIVE_SINGLE_WORD` letters
    or more ("Syngenta"; "Lindt" is not)."""
    content = [t for t in folded_tokens if t not in STOPWORDS and not t.isdigit()]
    if len(content) >= 2:
        return sum(len(t) for t in content) >= 6  # "K & M AG" keeps too little
    return len(content) == 1 and len(content[0]) >= DISTINCTIVE_SINGLE_WORD


# --- spelled-out numbers ------------------------------------------------------------------------

_UNITS: dict[str, int] = LEXICON["number_words"]
_SCALES: dict[str, int] = LEXICON["number_scales"]
_POINT = frozenset(LEXICON["decimal_point"])
_ANY_NUMBER_WORD = "|".join(sorted([*_UNITS, *_SCALES, *_POINT, "and"], key=len, reverse=True))
_NUMBER_WORD = re.compile(rf"\b(?:{_ANY_NUMBER_WORD})\b(?:[\s-]+\b(?:{_ANY_NUMBER_WORD})\b)*")


class _SpelledNumbers:
    """A run of number words read as digit strings in `out` ("forty two thousand" -> ["42000"]).

    A unit directly after a unit or a teen ("seven seven") starts a new number, so spelled
    digit sequences become separate digits. "point" introduces decimals digit by digit.
    """

    def __init__(self, words: list[str]) -> None:
        self.out: list[str] = []
        self._reset()
        for word in words:
            self.read(word)
        self.flush()

    def _reset(self) -> None:
        self.total, self.current, self.seen, self.last_unit = 0, 0, False, -1
        self.decimals: list[str] | None = None

    def flush(self) -> None:
        """End the number being read (if any) and start a new one."""
        if self.seen:
            number = str(self.total + self.current)
            if self.decimals:
                number += "." + "".join(self.decimals)
            self.out.append(number)
        self._reset()

    def read(self, word: str) -> None:
        """Read one word of the run."""
        if word == "and":
            return
        if word in _POINT:
            if self.seen and self.decimals is None:
                self.decimals = []
            return
        if self.decimals is not None:
            if word in _UNITS and _UNITS[word] < 10:
                self.decimals.append(str(_UNITS[word]))
                return
            self.flush()
        if word in _UNITS:
            self._unit(_UNITS[word])
        elif word in _SCALES:
            self._scale(_SCALES[word])

    def _unit(self, unit: int) -> None:
        if (last := self.last_unit) >= 0 and (last < 20 or unit >= 10 or last % 10):
            self.flush()
        self.current += unit
        self.last_unit = unit
        self.seen = True

    def _scale(self, scale: int) -> None:
        self.current = max(self.current, 1) * scale if scale == 100 else self.current
        if scale > 100:
            self.total += max(self.current, 1) * scale
            self.current = 0
        self.last_unit = -1
        self.seen = True


_SCALE_OF: dict[str, int] = LEXICON["number_suffixes"]
_SCALED = re.compile(rf"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?{alternation(list(_SCALE_OF), True)}\b")


def _scaled(match: re.Match[str]) -> str:
    number = float(match.group(1).replace(",", "."))
    value = number * _SCALE_OF[match.group(2)]
    return str(int(value)) if value == int(value) else str(value)


def numbers_as_digits(folded_text: str) -> str:
    """The folded text with spelled-out numbers replaced by digits ("four point eight" -> 4.8,
    "85k" -> 85000). Returns the text unchanged (same object) when there is nothing to do.
    """
    if _SCALED.search(folded_text):
        folded_text = _SCALED.sub(_scaled, folded_text)
    if not _NUMBER_WORD.search(folded_text):
        return folded_text

    def replace(match: re.Match[str]) -> str:
        words = re.split(r"[\s-]+", match.group())
        if all(w == "and" for w in words):
            return match.group()
        return " ".join(_SpelledNumbers(words).out) or match.group()

    return _NUMBER_WORD.sub(replace, folded_text)


# --- numbers -----------------------------------------------------------------------------------

_NUMBER = re.compile(
    r"(?<![\w.,'])(\d{1,3}(?:(?:[ '\u00a0\u202f]|,|\.)\d{3})+|\d+)(?:[.,](\d+))?(?![\d])"
)


def numbers_in(folded_text: str) -> list[tuple[float, int, int]]:
    """Numbers written in a folded text, with spans: thousands marks ' , . space; decimals . ,.

    An ambiguous "42.300" yields both 42300 and 42.3.
    """
    found: list[tuple[float, int, int]] = []
    for match in _NUMBER.finditer(folded_text):
        whole, frac = match.group(1), match.group(2)
        start, end = match.span()
        digits = re.sub(r"\D", "", whole)
        if frac is not None:
            found.append((float(f"{digits}.{frac}"), start, end))
            if len(frac) == 3:
                found.append((float(digits + frac), start, end))
        else:
            found.append((float(digits), start, end))
            marks = re.sub(r"\d", "", whole)
            if len(marks) == 1 and marks in ".," and not whole.endswith("000"):  # "50,000": 50000
                found.append((float(whole.replace(",", ".")), start, end))
    return found
