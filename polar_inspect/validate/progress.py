"""Progress of a slow detector (the judge) on stderr: a live line on a terminal; otherwise a
line every `every` cases, after a quiet spell of `quiet_seconds`, and at the end."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class CaseProgress:
    """A context manager; call `advance(done)` after each case."""

    def __init__(
        self,
        total: int,
        label: str,
        stream: TextIO | None = None,
        every: int = 10,
        quiet_seconds: float = 30.0,
    ) -> None:
        self.total, self.label, self.every = total, label, max(1, every)
        self.quiet_seconds = quiet_seconds
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self._started = self._last_line = time.monotonic()
        self._printed = -1

    def __enter__(self) -> CaseProgress:
        self._line(0)
        return self

    def advance(self, done: int) -> None:
        """`done` cases of `total` are finished."""
        if (
            self.live
            or done % self.every == 0
            or done == self.total
            or time.monotonic() - self._last_line >= self.quiet_seconds
        ):
            self._line(done)

    def _line(self, done: int) -> None:
        """The count so far: a new line, or on a terminal the live line rewritten."""
        if done == self._printed:
            return
        self._printed = done
        self._last_line = time.monotonic()
        elapsed = self._last_line - self._started
        text = f"{self.label}: {done}/{self.total} cases, {elapsed:.0f} s"
        print(f"\r{text}" if self.live else text, end="" if self.live else "\n", file=self.stream)
        self.stream.flush()

    def __exit__(self, *exc_info: object) -> None:
        if self.live:
            print(file=self.stream)
