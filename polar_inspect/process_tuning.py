"""`-T gc_tuning`: fewer collector pauses (docs/large-runs.md, "Garbage-collector tuning")."""

from __future__ import annotations

import atexit
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
from inspect_ai.solver import TaskState

PYTHON_DEFAULT_THRESHOLDS = (700, 10, 10)
#: The young and middle thresholds Python starts with (3.11-3.12: 700; 3.13 and later: 2000).
_PYTHON_DEFAULTS = {PYTHON_DEFAULT_THRESHOLDS[:2], (2000, 10)}
TUNED_THRESHOLDS = (50_000, 20, 10)
#: How long the last sample out waits for another one to start before the tuning is put back.
RESTORE_GRACE_S = 0.1


class _Tuning:
    """What this process's tuning changed, so that it can be put back (one per process)."""

    def __init__(self) -> None:
        self.replaced: tuple[int, ...] | None = None  # the thresholds before tuning
        self.froze = False
        self.until_exit = False  # under the inspect command: kept, and frozen again at exit

    def tune(self) -> None:
        """Freeze and raise the thresholds if the process runs with Python's defaults."""
        current = gc.get_threshold()
        if self.replaced is not None or current[:2] not in _PYTHON_DEFAULTS or not gc.isenabled():
            return  # tuned earlier in this run, the process's own thresholds, or no collector
        self.replaced = current
        if gc.get_freeze_count() == 0:  # the program froze nothing of its own
            gc.freeze()
            self.froze = True
        gc.set_threshold(*TUNED_THRESHOLDS)
        if not self.until_exit and running_inspect_command():
            atexit.register(gc.freeze)  # the command's shutdown then walks nothing (see docs)
            self.until_exit = True

    def restore(self) -> None:
        """Put back what `tune` changed (thresholds only if nobody changed them since)."""
        if self.replaced is None or self.until_exit:
            return
        if gc.get_threshold()[:2] == TUNED_THRESHOLDS[:2]:
            gc.set_threshold(*self.replaced)
        if self.froze:
            gc.unfreeze()
        self.replaced, self.froze = None, False


def running_inspect_command() -> bool:
    """Whether this process is the `inspect` command (or `python -m inspect_ai`)."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    if program.name == "__main__.py":
        return program.parent.name == "inspect_ai"
    return program.stem == "inspect"


@contextmanager
def collector_paused(enabled: bool) -> Iterator[None]:
    """The cyclic collector off inside (a task's build), if `enabled` and it was on."""
    paused = enabled and gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


_TUNING = _Tuning()
#: The samples (id, epoch) running under the tuning; the last one out restores it.
_RUNNING: set[tuple[str, int]] = set()


def enter_sample(state: TaskState) -> None:
    """A sample of a run with `gc_tuning` on starts: tune if it is the first one running."""
    if not _RUNNING:
        _TUNING.tune()
    _RUNNING.add((str(state.sample_id), state.epoch))


async def leave_sample(state: TaskState) -> None:
    """A sample is done (the task's cleanup): restore once no tuned sample has run for
    `RESTORE_GRACE_S` (at once if the wait is cancelled)."""
    key = (str(state.sample_id), state.epoch)
    if key not in _RUNNING:
        return
    _RUNNING.discard(key)
    if _RUNNING:
        return
    try:
        await anyio.sleep(RESTORE_GRACE_S)  # a sample that starts meanwhile keeps the tuning
    finally:
        if not _RUNNING:
            _TUNING.restore()
