"""Run independent report jobs (log reads, figures) on worker processes, results in order.

Workers come from a `forkserver` context that imports the report's modules once, so starting
a worker costs a fork, not a fresh import of inspect_ai, pandas and matplotlib.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PRELOAD = [
    "polar_inspect.report.inventory",
    "polar_inspect.report.samples",
    "polar_inspect.report.plots",
    "polar_inspect.report.heatmaps",
]


def default_jobs() -> int:
    """Worker processes to use by default: the CPUs available, at most 4."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        available = os.cpu_count() or 1
    return max(1, min(4, available))


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
    *,
    on_result: Callable[[R], None] | None = None,
    bound: int = 0,
) -> list[R]:
    """`[function(item) for item in items]`, on the pool when there is one, calling `advance`
    and `on_result(result)` as each finishes. With a `bound`, at most that many items are in
    the pool at once, so that jobs `on_result` submits are not queued behind all the rest."""

    def finish(result: R) -> R:
        if on_result is not None:
            on_result(result)
        if advance is not None:
            advance()
        return result

    if pool is None or len(items) <= 1:
        return [finish(function(item)) for item in items]
    return _in_pool(pool, function, items, finish, bound or len(items))


def _in_pool(
    pool: Executor, function: Callable[[T], R], items: Sequence[T], finish: Callable[[R], R],
    bound: int,
) -> list[R]:  # fmt: skip
    queue = deque(enumerate(items))
    running: dict[Future[R], int] = {}
    finished: dict[int, R] = {}
    while queue or running:
        while queue and len(running) < bound:
            index, item = queue.popleft()
            running[pool.submit(function, item)] = index
        for future in wait(running, return_when=FIRST_COMPLETED).done:
            finished[running.pop(future)] = finish(future.result())
    return [finished[index] for index in range(len(items))]
