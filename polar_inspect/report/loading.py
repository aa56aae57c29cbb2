"""From paths to the runs a report uses and their per-sample scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor

import pandas as pd

from polar_inspect.report.inventory import Inventory, KeepPolicy, RunHeader, SkippedLog
from polar_inspect.report.parallel import run_jobs
from polar_inspect.report.run_labels import resolve_duplicates
from polar_inspect.report.samples import combine, scan_log, try_read_run_samples

#: Makes a progress callback for a step: (description, total) -> advance().
Stepper = Callable[[str, int], Callable[[], None] | None]


def _no_progress(label: str, total: int) -> None:
    return None


def load_runs(
    paths: Sequence[str],
    *,
    keep: KeepPolicy = "newest",
    pool: Executor | None = None,
    step: Stepper = _no_progress,
) -> tuple[Inventory, pd.DataFrame]:
    """Read the log files `paths` (`expand_inputs`), choose the runs to report, and gather
    their per-sample scores (with a `pool` of worker processes, logs are read in parallel).

    Returns the inventory (used runs, skipped logs with reasons) and one frame of samples
    whose column `run` is the run's position in `inventory.runs`.
    """
    scanned = run_jobs(pool, scan_log, paths, step("reading log headers", len(paths)))
    runs = [result for result in scanned if isinstance(result, RunHeader)]
    skipped = [result for result in scanned if isinstance(result, SkippedLog)]
    found = Inventory(runs=runs, skipped=skipped, files_seen=len(paths))
    inventory = resolve_duplicates(found, keep)
    chosen = inventory.runs
    read = run_jobs(pool, try_read_run_samples, chosen, step("reading samples", len(chosen)))
    used: list[RunHeader] = []
    frames: dict[int, pd.DataFrame] = {}
    bad: list[SkippedLog] = []
    for run, rows in zip(chosen, read, strict=True):
        if isinstance(rows, str):
            reason, detail = "unreadable samples", rows[:200]
            bad.append(
                SkippedLog(
                    path=run.path, reason=reason, detail=detail, model=run.label, task=run.task
                )
            )
        else:
            frames[len(used)] = rows
            used.append(run)
    skipped = [*inventory.skipped, *bad]
    return Inventory(runs=used, skipped=skipped, files_seen=inventory.files_seen), combine(frames)
