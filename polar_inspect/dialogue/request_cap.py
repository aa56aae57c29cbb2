"""One cap on model requests in flight across both roles (`-T max_in_flight`), the dialogue
with the most calls left first (docs/large-runs.md, "Concurrency")."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio


@dataclass(order=True)
class _Waiter:
    rank: tuple[int, int]  # (-remaining calls, arrival): the smallest goes first
    event: anyio.Event = field(compare=False, default_factory=anyio.Event)
    gone: bool = field(compare=False, default=False)


class PriorityLimiter:
    """At most `limit` holders; a released slot goes to the waiter with the most calls left."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self._waiters: list[_Waiter] = []
        self._arrivals = itertools.count()

    async def acquire(self, remaining: int) -> None:
        """Wait for a slot; `remaining` is how many model calls the caller's dialogue has left."""
        if self.held < self.limit and not self._waiters:
            self.held += 1
            return
        waiter = _Waiter((-remaining, next(self._arrivals)))
        heapq.heappush(self._waiters, waiter)
        try:
            await waiter.event.wait()
        except BaseException:
            if waiter.event.is_set():  # the slot was handed over as we were cancelled
                self.release()
            else:
                waiter.gone = True
            raise

    def release(self) -> None:
        """Hand the slot to the first waiter still waiting, or free it."""
        while self._waiters:
            if not (waiter := heapq.heappop(self._waiters)).gone:
                waiter.event.set()  # the slot passes on: `held` is unchanged
                return
        self.held -= 1


_LIMITERS: dict[int, PriorityLimiter] = {}


@asynccontextmanager
async def request_slot(limit: int | None, remaining: int = 1) -> AsyncIterator[None]:
    """Hold one of `limit` shared slots around a model call (None: no cap); `remaining`: the
    model calls the dialogue still has to make, this one included."""
    if limit is None:
        yield
        return
    limiter = _LIMITERS.setdefault(limit, PriorityLimiter(limit))
    await limiter.acquire(remaining)
    try:
        yield
    finally:
        limiter.release()
