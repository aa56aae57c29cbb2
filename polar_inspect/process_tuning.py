"""Fewer garbage-collection pauses while a POLAR-Bench run is going (`-T gc_tuning`).

Every model call allocates many small container objects (pydantic models, transcript events,
SDK request and response objects), so with Python's default thresholds (700, 10, 10) the cyclic
garbage collector runs hundreds of times a second during a large run, and its full collections
walk every object the process holds: imported modules, the parsed records, every sample's
transcript. Each pass stops the one event loop that all dialogues share, so requests that are
due wait and fewer are in flight.

It is done at run time and only while samples run, never when a task is built:

- when the first sample of a polar_inspect run starts (the solver's first step) with
  `gc_tuning` on (the default), the objects alive then (imports, the data) are moved to the
  permanent generation (`gc.freeze()`: never walked again, still freed by reference counting)
  and the thresholds are raised to `TUNED_THRESHOLDS`: a young collection every 50,000
  allocations instead of 700, a full one after 20 middle ones. Cyclic garbage is still
  collected, in larger batches;
- when the last running sample is done (the task's per-sample cleanup) and no other sample has
  started `RESTORE_GRACE_S` later, what it changed is put back: the thresholds it replaced, and
  the objects it froze are unfrozen, so the rest of the program (a notebook, a script that calls
  `inspect_ai.eval()`, Python's shutdown) runs as it would have. The grace matters: with a fast
  model the running set is empty for an instant between samples many times in a run, and each
  put-back then costs a full collection of everything the process holds (back at Python's
  thresholds) and a new freeze, which also moves the cyclic garbage of the moment into the
  permanent generation (53 such cycles in 600 samples of `polar/mixed`, docs/large-runs.md).

Nothing changes when the process runs with thresholds of its own (not Python's defaults: 700,
or 2000 from Python 3.13, and 10), when it froze objects itself, or when the collector is
disabled: the program's choices are left alone. Building a task changes nothing. The effect is
measured by `benchmarks/bench_vs_bare.py --runners bare,polar,polar-gc-default`.
"""

from __future__ import annotations

import gc

import anyio
from inspect_ai.solver import TaskState

PYTHON_DEFAULT_THRESHOLDS = (700, 10, 10)
#: The young and middle thresholds Python starts with (3.11-3.12: 700; 3.13 and later: 2000).
_PYTHON_DEFAULTS = {PYTHON_DEFAULT_THRESHOLDS[:2], (2000, 10)}
YOUNG_THRESHOLD = 50_000
TUNED_THRESHOLDS = (YOUNG_THRESHOLD, 20, 10)
#: How long the last sample out waits for another one to start before the tuning is put back.
RESTORE_GRACE_S = 0.1


class _Tuning:
    """What this process's tuning changed, so that it can be put back (one per process)."""

    def __init__(self) -> None:
        self.replaced: tuple[int, ...] | None = None  # the thresholds before tuning
        self.froze = False

    def tune(self) -> str:
        """Freeze and raise the thresholds if the process runs with Python's defaults."""
        current = gc.get_threshold()
        if self.replaced is not None:
            return "tuned earlier in this run"
        if current[:2] not in _PYTHON_DEFAULTS:
            return "the process set its own thresholds: kept"
        if not gc.isenabled():
            return "the collector is disabled: kept"
        self.replaced = current
        if gc.get_freeze_count() == 0:  # the program froze nothing of its own
            gc.freeze()
            self.froze = True
        gc.set_threshold(*TUNED_THRESHOLDS)
        return "tuned"

    def restore(self) -> None:
        """Put back what `tune` changed (thresholds only if nobody changed them since)."""
        if self.replaced is None:
            return
        if gc.get_threshold()[:2] == TUNED_THRESHOLDS[:2]:
            gc.set_threshold(*self.replaced)
        if self.froze:
            gc.unfreeze()
        self.replaced, self.froze = None, False


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
