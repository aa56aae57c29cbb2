"""From paths to the runs a report uses and their per-sample scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor

import pandas as pd

from polar_inspect.report.inventory import Inventory, KeepPolicy, RunHeader, SkippedLog
from polar_inspect.report.parallel import run_jobs
from polar_inspect.report.run_labels import resolve_duplicates
from polar_inspect.report.samples import collect_samples, scan_log, try_read_run_samples

#: Makes a progress callback for a step: (description, total) -> advance().
Stepper = Callable[[str, int], Callable[[], None] | None]

Scanned = tuple[RunHeader | SkippedLog, pd.DataFrame | None]


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
    their per-sample scores.

    Returns the inventory (used runs, skipped logs with reasons) and one frame of samples
    whose column `run` is the run's position in `inventory.runs`. With a `pool` of worker
    processes, logs are read in parallel.
    """
    scanned = run_jobs(pool, scan_log, paths, step("reading log headers", len(paths)))
    runs = [result for result, _ in scanned if isinstance(result, RunHeader)]
    skipped = [result for result, _ in scanned if isinstance(result, SkippedLog)]
    reduced = {r.path: scores for r, scores in scanned if isinstance(r, RunHeader)}
    found = Inventory(runs=runs, skipped=skipped, files_seen=len(paths))
    inventory = resolve_duplicates(found, keep)

    chosen = inventory.runs
    advance = step("reading samples", len(chosen))

    def read(indices: list[int]) -> list[pd.DataFrame | str]:
        return run_jobs(pool, try_read_run_samples, [chosen[i] for i in indices], advance)

    samples, failures = collect_samples(chosen, reduced, read, advance)
    if not failures:
        return inventory, samples
    kept = [i for i in range(len(chosen)) if i not in failures]
    positions = {old: new for new, old in enumerate(kept)}
    samples = samples[samples["run"].isin(positions)].copy()
    samples["run"] = samples["run"].map(positions)
    bad = [
        SkippedLog(
            path=chosen[i].path,
            reason="unreadable samples",
            detail=detail[:200],
            model=chosen[i].label,
            task=chosen[i].task,
        )
        for i, detail in failures.items()
    ]
    return Inventory(
        runs=[chosen[i] for i in kept],
        skipped=[*inventory.skipped, *bad],
        files_seen=inventory.files_seen,
    ), samples
