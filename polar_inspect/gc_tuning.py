"""Fewer garbage-collection pauses in the eval process (the `gc_tuning` task parameter).

Every model call allocates many small container objects (pydantic models, transcript events,
SDK request and response objects), so with Python's default thresholds (700, 10, 10) the cyclic
garbage collector runs hundreds of times a second during a large run, and its full collections
walk every object the process holds: imported modules, the parsed records, every sample's
transcript. Each pass stops the one event loop that all dialogues share, so requests that are
due wait and fewer are in flight. `tune_garbage_collection()` moves the objects alive when the
task is built (imports, the data) into the permanent generation
(`gc.freeze()`: they are never walked again; objects are still freed by reference counting as
usual) and raises the thresholds so that collections are rarer: a young collection every
`YOUNG_THRESHOLD` allocations instead of 700, a full one (over what the run itself allocated)
after 10 middle ones, as Python does. Cyclic garbage is still collected, in larger batches.

At interpreter exit (an `atexit` handler, registered once per process) it depends on who runs
the eval:

- Under the `inspect` command, it freezes everything once more. Python's shutdown otherwise
  runs full collections over all the eval still holds (every sample's transcript, ~430,000
  objects after a 400-sample run), which took 0.7 s of an `inspect eval` run's last second
  here. Frozen objects are left to the operating system: Inspect has written and closed its
  log and trace files by then, but an object that other code (an installed hook, say) left in
  a reference cycle with a file it never closed is not finalized, so that file's unflushed
  writes are lost. Run with `-T gc_tuning=false` if you rely on that.
- Anywhere else (`inspect_ai.eval()` in a script, a notebook, a test run), it unfreezes
  everything instead, so that Python's shutdown finalizes the program's objects as it would
  without this tuning: a file a script left open is flushed as usual.

It changes settings of the whole Python process, for the rest of its life (a notebook or a
service that calls `eval()` keeps the raised thresholds and the frozen objects), and only when
they are Python's defaults (700 or, from Python 3.13, 2000 for the young generation, and 10):
a program that set its own thresholds keeps them. Its effect is measured by
`benchmarks/bench_vs_bare.py --runners bare,polar,polar-gc-default`; peak memory of a
full-size run by `benchmarks/bench_eval_run.py`.
"""

from __future__ import annotations

import atexit
import gc
import sys
from pathlib import Path

from pydantic import BaseModel

PYTHON_DEFAULT_THRESHOLDS = (700, 10, 10)
#: The young and middle thresholds Python starts with (3.11-3.12: 700; 3.13 and later: 2000).
_PYTHON_DEFAULTS = {PYTHON_DEFAULT_THRESHOLDS[:2], (2000, 10)}
YOUNG_THRESHOLD = 50_000
TUNED_THRESHOLDS = (YOUNG_THRESHOLD, 20, 10)


class GcSettings(BaseModel):
    """What the eval process's garbage collector runs with (recorded in the eval metadata)."""

    tuned: bool
    thresholds: tuple[int, int, int]
    note: str


def tune_garbage_collection(enabled: bool) -> GcSettings:
    """Freeze what is alive and raise the collector's thresholds, if they are Python's defaults.

    With `enabled` false, or when the process already runs with other thresholds (its own
    choice, or an earlier call), nothing changes and the current settings are reported (only
    the young and middle thresholds are compared: Python 3.14 reports its third as 0).
    """
    current = gc.get_threshold()
    tuned_before = current[:2] == TUNED_THRESHOLDS[:2]
    if not enabled:
        note = "gc_tuning=false" + (
            ", but an earlier task in this process raised the thresholds: they stay raised"
            if tuned_before
            else ""
        )
        return GcSettings(tuned=tuned_before, thresholds=current, note=note)
    if tuned_before:
        return GcSettings(tuned=True, thresholds=current, note="tuned earlier in this process")
    if current[:2] not in _PYTHON_DEFAULTS:
        return GcSettings(
            tuned=False, thresholds=current, note="the process set its own thresholds: kept"
        )
    if not gc.isenabled():
        return GcSettings(tuned=False, thresholds=current, note="the collector is disabled")
    # No gc.collect() first: it takes ~0.1 s at this point (before the first request) to free
    # a few dozen objects, which stay frozen instead.
    gc.freeze()
    gc.set_threshold(*TUNED_THRESHOLDS)
    _register_exit_handler()
    return GcSettings(
        tuned=True,
        thresholds=TUNED_THRESHOLDS,
        note=(
            "objects alive at task build frozen; thresholds raised; at exit: frozen again "
            "under the inspect command, unfrozen elsewhere"
        ),
    )


_exit_hook_registered = False


def _register_exit_handler() -> None:
    """Register (once per process) the handler that settles the frozen objects at exit."""
    global _exit_hook_registered
    if not _exit_hook_registered:
        atexit.register(_settle_at_exit)
        _exit_hook_registered = True


def _settle_at_exit() -> None:
    """Freeze everything under the `inspect` command; unfreeze it anywhere else (see module)."""
    if running_inspect_command():
        gc.freeze()
    else:
        gc.unfreeze()


def running_inspect_command() -> bool:
    """Whether this process is the `inspect` command (or `python -m inspect_ai`)."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    if program.name == "__main__.py":
        return program.parent.name == "inspect_ai"
    return program.stem == "inspect"
