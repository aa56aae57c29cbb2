"""From paths to the runs a report uses and their per-sample scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path

import pandas as pd

from polar_inspect.report.inventory import (
    Inventory,
    KeepPolicy,
    RunHeader,
    SkippedLog,
    expand_inputs,
)
from polar_inspect.report.parallel import run_jobs
from polar_inspect.report.run_labels import resolve_duplicates
from polar_inspect.report.samples import collect_samples, scan_log, try_read_run_samples

#: Makes a progress callback for a step: (description, total) -> advance().
Stepper = Callable[[str, int], Callable[[], None] | None]

Scanned = tuple[RunHeader | SkippedLog, pd.DataFrame | None]


def _no_progress(label: str, total: int) -> None:
    return None


def _scan_all(
    paths: list[str], pool: Executor | None, workers: int, advance: Callable[[], None] | None
) -> tuple[list[Scanned], dict[str, tuple[str, Future]]]:
    """Scan every header; on a pool, start reading one log's summaries per data source as
    soon as that source is first seen, so the slow read overlaps the remaining scans."""
    prefetch: dict[str, tuple[str, Future]] = {}
    sources: set[str] = set()

    def scanned(result: Scanned) -> None:
        run = result[0]
        if pool is not None and isinstance(run, RunHeader) and run.source_key not in sources:
            sources.add(run.source_key)
            prefetch[run.path] = (run.source_key, pool.submit(try_read_run_samples, run))

    return run_jobs(pool, scan_log, paths, advance, on_result=scanned, bound=workers), prefetch


def load_runs(
    inputs: Sequence[str | Path],
    *,
    keep: KeepPolicy = "newest",
    pool: Executor | None = None,
    workers: int = 1,
    step: Stepper = _no_progress,
) -> tuple[Inventory, pd.DataFrame]:
    """Find logs, choose the runs to report, and gather their per-sample scores.

    Returns the inventory (used runs, skipped logs with reasons) and one frame of samples
    whose column `run` is the run's position in `inventory.runs`. With a `pool` of `workers`
    processes, logs are read in parallel.
    """
    paths = expand_inputs(inputs)
    scanned, prefetch = _scan_all(paths, pool, workers, step("reading log headers", len(paths)))
    runs = [result for result, _ in scanned if isinstance(result, RunHeader)]
    skipped = [result for result, _ in scanned if isinstance(result, SkippedLog)]
    reduced = {r.path: scores for r, scores in scanned if isinstance(r, RunHeader)}
    found = Inventory(runs=runs, skipped=skipped, files_seen=len(paths))
    inventory = resolve_duplicates(found, keep)

    chosen = inventory.runs
    advance = step("reading samples", len(chosen))

    def read(indices: list[int]) -> list[pd.DataFrame | str]:
        return run_jobs(pool, try_read_run_samples, [chosen[i] for i in indices], advance)

    ready = {path: (key, future.result()) for path, (key, future) in prefetch.items()}
    samples, failures = collect_samples(chosen, reduced, read, advance, ready)
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
