"""Wall time of the report's steps, by section (printed by benchmarks/bench_report.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class Timings(dict[str, float]):
    """Seconds spent per named step; a step timed twice adds up."""

    def add(self, name: str, seconds: float) -> None:
        """Count `seconds` more for `name`."""
        self[name] = self.get(name, 0.0) + seconds

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time the block as `name`."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - started)


def timed_call(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> tuple[Any, float]:
    """Run one `(function, args)` job; return its result and the seconds it took."""
    function, args = job
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def section_of(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> str:
    """The section a figure job belongs to: its drawing module's name."""
    return "figures: " + job[0].__module__.rsplit(".", 1)[-1]
