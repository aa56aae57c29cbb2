"""`-T gc_tuning`: fewer collector pauses (docs/large-runs.md, "Garbage-collector tuning")."""

from __future__ import annotations

import atexit
import gc
import sys
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from inspect_ai.hooks import Hooks, RunEnd, RunStart, TaskEnd, TaskStart, hooks

PYTHON_DEFAULT_THRESHOLDS = (700, 10, 10)
#: The young and middle thresholds Python starts with (3.11-3.12: 700; 3.13 and later: 2000).
_PYTHON_DEFAULTS = {PYTHON_DEFAULT_THRESHOLDS[:2], (2000, 10)}
TUNED_THRESHOLDS = (50_000, 20, 10)


class _Tuning:
    """What this process's tuning changed, so that it can be put back (one per process)."""

    def __init__(self) -> None:
        self.replaced: tuple[int, ...] | None = None  # the thresholds before tuning
        self.froze = False
        self.until_exit = False  # under the inspect command: kept, and frozen again at exit
        self.tasks: set[str] = set()  # the eval ids of the running tasks that asked for it

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
def task_build(enabled: bool) -> Iterator[None]:
    """A task's build with `gc_tuning` `enabled`: the cyclic collector off inside (if it was on),
    and `CollectorTuning` registered (once), which tunes only when a task that asks starts."""
    if enabled and not _REGISTERED:  # once: Inspect prints the hooks it has before each eval
        hooks(name="gc_tuning", description="fewer GC pauses (-T gc_tuning)")(CollectorTuning)
        _REGISTERED.append(CollectorTuning)
    paused = enabled and gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


_TUNING = _Tuning()
_REGISTERED: list[type] = []  # `CollectorTuning`, once a task build registered it with Inspect
#: The tasks polar_inspect built in this process (`tasks.PolarTask`), for `on_run_start`.
BUILT_TASKS: weakref.WeakSet[Any] = weakref.WeakSet()


def asks_for_tuning(metadata: Mapping[str, Any] | None) -> bool:
    """Whether a task's metadata is a polar_inspect run's with `gc_tuning` on."""
    config = (metadata or {}).get("config") if "polar_inspect_version" in (metadata or {}) else None
    return isinstance(config, Mapping) and config.get("gc_tuning") is True


class CollectorTuning(Hooks):
    """Tunes as the run starts (under the `inspect` command) or the first task that asks starts;
    puts back when the last one ends or the eval does (a task that failed reports no end)."""

    async def on_run_start(self, data: RunStart) -> None:
        """Under the `inspect` command, for a run of a task built asking (and none of its name
        not asking): tune before Inspect's run set-up allocates over the unfrozen dataset."""
        built = [(task.name, asks_for_tuning(task.metadata)) for task in list(BUILT_TASKS)]
        asking = {name for name, asks in built if asks} - {name for name, asks in built if not asks}
        if running_inspect_command() and asking & set(data.task_names):
            _TUNING.tune()

    async def on_task_start(self, data: TaskStart) -> None:
        """Tune, for a task whose metadata asks for it."""
        if asks_for_tuning(data.spec.metadata):
            _TUNING.tasks.add(data.eval_id)
            _TUNING.tune()

    async def on_task_end(self, data: TaskEnd) -> None:
        """Put back once no task that asked for it runs."""
        self._end({data.eval_id})

    async def on_run_end(self, data: RunEnd) -> None:
        """Put back: every task of the eval has ended."""
        self._end(set(_TUNING.tasks))

    def _end(self, ended: set[str]) -> None:
        if _TUNING.tasks and not _TUNING.tasks - ended:
            _TUNING.restore()
        _TUNING.tasks -= ended
