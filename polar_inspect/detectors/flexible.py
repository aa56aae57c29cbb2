"""Check 6 of the paper's matcher, the flexible pattern, searched in linear time without a regex
(why and how: docs/scoring.md, "The paper's matcher")."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate

_NON_WORD_RUN = re.compile(r"(\W+)")
_FLEX_SEPARATORS = " -_/.,:'\u2019()"
_FLEX_SEPARATOR_RUN = re.compile("[" + re.escape(_FLEX_SEPARATORS) + "]+")


def drop_flex_separators(text: str) -> str:
    """`text` without the characters check 6 lets a gap absorb."""
    # str.replace is much faster than str.translate on non-ASCII strings.
    for char in _FLEX_SEPARATORS:
        if char in text:
            text = text.replace(char, "")
    return text


def flex_breaks(norm: str) -> list[int]:
    """Positions of the separator-free text right after a deleted separator run (ascending)."""
    chunks = _FLEX_SEPARATOR_RUN.split(norm)  # the separator-free pieces between the runs
    return list(accumulate(map(len, chunks[:-1])))


def _flex_words(value: str) -> list[str]:
    """The value's word runs, as check 6 reads them (stripped, lowercased, split on `\\W+`)."""
    return _NON_WORD_RUN.split(value.strip().lower())[0::2]


def _smallest_period(word: str) -> int:
    """The smallest p > 0 with word[i] == word[i + p] for every i (KMP failure function)."""
    failure = [0] * len(word)
    k = 0
    for i in range(1, len(word)):
        while k and word[i] != word[k]:
            k = failure[k - 1]
        if word[i] == word[k]:
            k += 1
        failure[i] = k
    return len(word) - failure[-1]


def _periodic_end(text: str, start: int, period: int) -> int:
    """The end of the stretch from `start` on where text[i] == text[i - period] (galloping)."""
    end, step = start, max(period, 64)
    while end < len(text):
        span = min(step, len(text) - end)
        if text[end : end + span] == text[end - period : end - period + span]:
            end += span
            step *= 2
        elif span <= 64:
            while end < len(text) and text[end] == text[end - period]:
                end += 1
            return end
        else:
            step = span // 2
    return end


def _occurrence_runs(joined: str, flex_text: str) -> Iterator[tuple[int, int, int]]:
    """Every occurrence of `joined` in `flex_text`, as arithmetic runs (first, count, step):
    close occurrences lie in one periodic stretch, measured once (linear in the text)."""
    length = len(joined)
    period = _smallest_period(joined)
    position = flex_text.find(joined)
    while position >= 0:
        if 2 * period > length:
            yield position, 1, period
            position = flex_text.find(joined, position + 1)
            continue
        end = _periodic_end(flex_text, position + length, period)
        count = (end - length - position) // period + 1
        yield position, count, period
        position = flex_text.find(joined, position + (count - 1) * period + 1)


#: Above this many occurrences in one run, they are checked together with numpy.
_VECTOR_THRESHOLD = 32


def flexible_found(value: str, flex_text: str, breaks: Callable[[], list[int]]) -> bool:
    """Check 6: the value's words, concatenated, occur in the separator-free text with every
    deleted separator run inside the occurrence on a boundary between two words."""
    words = [word for word in _flex_words(value) if word]
    joined = "".join(words)
    if not joined:
        return True  # a value without word characters: the pattern matches the empty string
    if "_" in joined or joined not in flex_text:
        return False
    boundaries: set[int] = set()
    offset = 0
    for word in words[:-1]:
        offset += len(word)
        boundaries.add(offset)
    return _occurs_on_boundaries(joined, flex_text, breaks(), boundaries)


def _occurs_on_boundaries(
    joined: str, flex_text: str, runs: list[int], boundaries: set[int]
) -> bool:
    """Whether some occurrence of `joined` has deleted separator runs only on `boundaries`."""
    correlation: _BreakCounts | None = None
    for first, count, step in _occurrence_runs(joined, flex_text):
        if count <= _VECTOR_THRESHOLD:
            starts = range(first, first + count * step, step)
            if any(_only_boundary_breaks(runs, q, len(joined), boundaries) for q in starts):
                return True
            continue
        if correlation is None:
            correlation = _BreakCounts(runs, len(flex_text), len(joined), boundaries)
        if correlation.any_match(first, count, step):
            return True
    return False


def _only_boundary_breaks(runs: list[int], start: int, length: int, boundaries: set[int]) -> bool:
    """True if every deleted run strictly inside [start, start + length) is at a boundary."""
    index = bisect_right(runs, start)
    end = start + length
    while index < len(runs) and runs[index] < end:
        if runs[index] - start not in boundaries:
            return False
        index += 1
    return True


class _BreakCounts:
    """For every start q: the deleted runs inside (q, q + length) and those on a boundary."""

    def __init__(self, runs: list[int], size: int, length: int, boundaries: set[int]) -> None:
        import numpy as np

        present = np.zeros(size + 1, dtype=np.int64)
        present[np.asarray(runs, dtype=np.int64)] = 1
        self._prefix = np.concatenate(([0], np.cumsum(present)))
        mask = np.zeros(length, dtype=np.float64)
        mask[sorted(boundaries)] = 1.0
        n = 1 << (size + 1 + length).bit_length()
        spectrum = np.fft.rfft(present.astype(np.float64), n) * np.conj(np.fft.rfft(mask, n))
        self._on_boundary = np.rint(np.fft.irfft(spectrum, n)[: size + 1]).astype(np.int64)
        self._length = length

    def any_match(self, first: int, count: int, step: int) -> bool:
        """Whether some start first + i * step (i < count) has only boundary runs inside."""
        import numpy as np

        starts = first + step * np.arange(count, dtype=np.int64)
        inside = self._prefix[starts + self._length] - self._prefix[starts + 1]
        return bool(np.any(inside == self._on_boundary[starts]))
