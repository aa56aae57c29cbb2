"""The strict detector's text side: `TextView`, a text prepared once for the many values looked
up in it (folded forms, token runs joined only across tight separators, dates, numbers, stems,
each computed on first use); `Detection`, what a finder reports, quoting the original text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal, TypeVar

from polar_inspect.detectors import textdates as td
from polar_inspect.detectors import textforms as tf

Level = Literal["full", "partial"]
T = TypeVar("T")


@dataclass(frozen=True)
class Detection:
    """Where and how a value (or a fragment of it) was found in a text."""

    level: Level
    how: str
    quote: str
    span: tuple[int, int] | None  # offsets in the original text, when known


# --- the text side -----------------------------------------------------------------------------

_TIGHT_CHARS = frozenset(" \t\u00a0\u202f-./'@+()[]#|:")
_LAYOUT_NOISE = frozenset(" \t\n\r\u00a0\u202f-*\u2022|")


def _tight(gap: str, left_digit: bool, right_digit: bool, spelled: bool = False) -> bool:
    """Whether two tokens separated by `gap` may be read as parts of one value (`spelled`: the
    text had spelled-out numbers, read group by group: "zero seven six, four")."""
    if "\n" in gap or "\r" in gap:
        return len(gap) <= 6 and set(gap) <= _LAYOUT_NOISE
    if len(gap) > 4:
        return False
    if left_digit and right_digit:
        if gap == "," or (spelled and gap == ", "):
            return True  # a thousands mark, or spelled digit groups
        if ":" in gap or "," in gap or (". " in gap):
            return False
    return set(gap) <= _TIGHT_CHARS


@dataclass
class _Runs:
    """Token-aligned compact form of a text: tokens joined inside runs of tight gaps."""

    compact: str
    bounds: set[int]
    #: (compact offset, text offset) of each token's start, for `textforms.form_offset`
    points: list[tuple[int, int]]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The text span of `compact[start:end]`."""
        return tf.form_offset(self.points, start), tf.form_offset(self.points, end - 1) + 1


def _build_runs(text: str, spelled: bool = False) -> _Runs:
    parts: list[str] = []
    bounds: set[int] = set()
    points: list[tuple[int, int]] = []
    length = 0
    previous: tuple[str, int, int] | None = None
    for match in tf.TOKEN.finditer(text):
        token, start, end = match.group(), match.start(), match.end()
        joined = previous is not None and _tight(
            text[previous[2] : start], previous[0][-1].isdigit(), token[0].isdigit(), spelled
        )
        if previous is not None and not joined:
            parts.append("\x00")
            length += 1
        bounds.add(length)
        points.append((length, start))
        if not (token.isalpha() or token.isdigit()):  # letter/digit switches are bounds too
            for i in range(1, len(token)):
                if token[i].isdigit() != token[i - 1].isdigit():
                    bounds.add(length + i)
        parts.append(token)
        length += len(token)
        bounds.add(length)
        previous = (token, start, end)
    return _Runs("".join(parts), bounds, points)


# whitespace runs other than one plain space
_SPACE_RUN = re.compile(r"(?:\s(?=\s)|[^\S ])\s*")


class TextView:
    """One text prepared once for many values: folded forms, runs, dates, numbers, stems."""

    def __init__(self, text: str) -> None:
        self.original = text
        self.folded = tf.fold(text)
        self.base = self.folded.text
        self._cache: dict[str, Any] = {}

    @cached_property
    def numeric(self) -> str:
        """The base text with spelled-out numbers as digits (the same object if none)."""
        return tf.numbers_as_digits(self.base)

    @cached_property
    def forms(self) -> tuple[str, ...]:
        """The names of the text's forms: base, and numeric when it differs."""
        return ("base",) if self.numeric is self.base else ("base", "numeric")

    def text(self, which: str) -> str:
        """One form of the text by name: base, numeric or a lazily derived form."""
        if which == "base":
            return self.base
        if which == "numeric":
            return self.numeric
        return str(self._cache[which])

    def squeezed(self, which: str) -> str:
        """The form with every whitespace run as one space (see `squeeze_points`)."""
        return self.lazy("squeezed:" + which, lambda: _SPACE_RUN.sub(" ", self.text(which)))

    def squeeze_points(self, which: str) -> list[tuple[int, int]]:
        """(squeezed_offset, form_offset) where `squeezed(which)` and the form diverge."""

        def make() -> list[tuple[int, int]]:
            points: list[tuple[int, int]] = []
            cursor = squeezed_length = 0
            for match in _SPACE_RUN.finditer(self.text(which)):
                start, end = match.span()
                squeezed_length += start - cursor + 1  # the text before, and one space
                points.append((squeezed_length, end))
                cursor = end
            return points

        return self.lazy("squeeze_points:" + which, make)

    def may_hold_compact(self, which: str, compact: str) -> bool:
        """False when `compact` cannot be in `runs(which).compact` (it is not even in the form's
        tokens joined): saves building runs for most texts."""
        joined = self.lazy("joined:" + which, lambda: "".join(tf.TOKEN.findall(self.text(which))))
        return compact in joined

    def runs(self, which: str) -> _Runs:
        """Runs of the base text or of its spelled-numbers-as-digits form."""
        return self.lazy(
            "runs:" + which, lambda: _build_runs(self.text(which), spelled=which != "base")
        )

    def lazy(self, key: str, make: Callable[[], T]) -> T:
        """A per-text derived form, computed on first use."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def dates(self) -> list[td.DateMention]:
        """Dates and date fragments in the base text."""
        return self.lazy("dates", lambda: td.dates_in(self.base))

    def numbers(self) -> list[tuple[float, int, int, str]]:
        """Numbers in the base and spelled-numbers forms: (value, start, end, form)."""
        return self.lazy(
            "numbers",
            lambda: [(v, s, e, w) for w in self.forms for v, s, e in tf.numbers_in(self.text(w))],
        )

    def tokens(self) -> list[tuple[str, int, int]]:
        """Tokens of the base text with their spans (`textforms.tokens`)."""
        return self.lazy("tokens", lambda: tf.tokens(self.base))

    def stems(self) -> list[tuple[str, int, int]]:
        """Light stems of the spelled-numbers form's tokens, with spans in that form."""
        return self.lazy("stems", lambda: [(stem(t), s, e) for t, s, e in tf.tokens(self.numeric)])

    def detection(self, level: Level, how: str, form: str, start: int, end: int) -> Detection:
        """A Detection quoting `form[start:end]`, mapped to the original when form is base."""
        if form == "base":
            o_start, o_end = self.folded.to_original(start, end)
            return Detection(level, how, self.original[o_start:o_end], (o_start, o_end))
        return Detection(level, how, self.text(form)[start:end], None)


@lru_cache(maxsize=64)
def text_view(text: str) -> TextView:
    """The prepared view of `text` (cached: a dialogue often repeats the same reply)."""
    return TextView(text)


# --- stems -----------------------------------------------------------------------------------

_SUFFIXES = ("ations", "ation", "ions", "ion", "ing", "ive", "edly", "ed", "es", "ly", "s")


@lru_cache(maxsize=16384)
def stem(token: str) -> str:
    """A light, language-agnostic stem: numbers lose leading zeros; words lose a common
    suffix and are cut to five characters ("depressive", "depression" -> "depre")."""
    if token.isdigit():
        return token.lstrip("0") or "0"
    for suffix in _SUFFIXES:
        if len(token) - len(suffix) >= 4 and token.endswith(suffix):
            token = token[: -len(suffix)]
            break
    return token[:5]
