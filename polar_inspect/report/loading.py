"""From paths to the runs a report uses and their per-sample scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from polar_inspect.report.inventory import Inventory, KeepPolicy, RunHeader, SkippedLog
from polar_inspect.report.parallel import run_jobs
from polar_inspect.report.run_labels import resolve_duplicates
from polar_inspect.report.samples import SampleReadError, combine, read_run_samples, scan_log

#: Makes a progress callback for a step: (description, total) -> advance().
Stepper = Callable[[str, int], Callable[[], None] | None]


def _no_progress(label: str, total: int) -> None:
    return None


def load_runs(
    paths: Sequence[str], *, keep: KeepPolicy = "newest", step: Stepper = _no_progress
) -> tuple[Inventory, pd.DataFrame]:
    """Read the log files `paths` (`expand_inputs`), choose the runs to report, and gather
    their per-sample scores, in this process: a worker pool costs more than it saves
    (docs/large-runs.md#polar-report-on-full-runs).

    Returns the inventory (used runs, skipped logs with reasons) and one frame of samples
    whose column `run` is the run's position in `inventory.runs`.
    """
    scanned = run_jobs(None, scan_log, paths, step("reading log headers", len(paths)))
    runs = [result for result in scanned if isinstance(result, RunHeader)]
    skipped = [result for result in scanned if isinstance(result, SkippedLog)]
    found = Inventory(runs=runs, skipped=skipped, files_seen=len(paths))
    inventory = resolve_duplicates(found, keep)
    skipped = list(inventory.skipped)  # with the duplicates dropped
    used: list[RunHeader] = []
    frames: dict[int, pd.DataFrame] = {}
    advance = step("reading samples", len(inventory.runs))
    for run in inventory.runs:
        try:
            frames[len(used)] = read_run_samples(run)
            used.append(run)
        except SampleReadError as err:
            detail = str(err)[:200]
            skipped.append(
                SkippedLog(
                    path=run.path,
                    reason="unreadable samples",
                    detail=detail,
                    model=run.label,
                    task=run.task,
                )
            )
        if advance is not None:
            advance()
    return Inventory(runs=used, skipped=skipped, files_seen=len(paths)), combine(frames)
