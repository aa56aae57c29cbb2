"""Draw the report's figures on worker processes (a `forkserver` that imports the drawing modules
once, so a worker costs a fork, not a fresh import), results in order."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PRELOAD = ["polar_inspect.report.plots", "polar_inspect.report.heatmaps"]


def default_jobs() -> int:
    """Worker processes to use by default: none on 2 CPUs or fewer (a worker's start costs more
    than it saves there: docs/large-runs.md#polar-report-on-full-runs), else the CPUs, at most 4."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        available = os.cpu_count() or 1
    return 1 if available <= 2 else min(4, available)


@contextmanager
def worker_pool(jobs: int) -> Iterator[Executor | None]:
    """A process pool with `jobs` workers, or None (run in this process) when jobs <= 1."""
    if jobs <= 1:
        yield None
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_jobs(
    pool: Executor | None,
    function: Callable[[T], R],
    items: Sequence[T],
    advance: Callable[[], None] | None = None,
) -> list[R]:
    """`[function(item) for item in items]`, on the pool when there is one."""
    tick = advance or (lambda: None)
    if pool is None or len(items) <= 1:
        results = []
        for item in items:
            results.append(function(item))
            tick()
        return results
    futures = [pool.submit(function, item) for item in items]
    for future in as_completed(futures):
        future.result()  # the first job to fail stops the report
        tick()
    return [future.result() for future in futures]
