"""Progress of a slow detector (the judge) on stderr: a live line on a terminal; otherwise a
line every `every` cases, after a quiet spell of `quiet_seconds`, and at the end."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)


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
        self._last_line = 0.0
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self._started = time.monotonic()
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._printed = 0

    def __enter__(self) -> CaseProgress:
        self._started = time.monotonic()
        if self.live:
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("cases"),
                TimeElapsedColumn(),
                console=Console(file=self.stream),
                refresh_per_second=2,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.label, total=self.total)
        else:
            self._line(0)
        return self

    def advance(self, done: int) -> None:
        """`done` cases of `total` are finished."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=done)
        elif (
            done % self.every == 0
            or done == self.total
            or time.monotonic() - self._last_line >= self.quiet_seconds
        ):
            self._line(done)

    def _line(self, done: int) -> None:
        if done == self._printed and done:
            return
        self._printed = done
        self._last_line = time.monotonic()
        elapsed = self._last_line - self._started
        print(f"{self.label}: {done}/{self.total} cases, {elapsed:.0f} s", file=self.stream)
        self.stream.flush()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
