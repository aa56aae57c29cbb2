"""A deadline on every model call, so that a lost batch result fails (docs/large-runs.md)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import anyio

T = TypeVar("T")
#: Two 24-hour completion windows and an hour: longer than any answered call waits.
DEADLINE_SECONDS = 49 * 3600.0


class LostBatchResult(RuntimeError):
    """A model call got no answer within `DEADLINE_SECONDS`."""


async def answered(call: Awaitable[T]) -> T:
    """The result of a model call, or `LostBatchResult` once it has waited too long."""
    with anyio.move_on_after(DEADLINE_SECONDS):
        return await call
    raise LostBatchResult(
        f"no answer to a model call after {DEADLINE_SECONDS / 3600:.3g} h: a batch lost its result "
        "(a missing or repeated custom_id, a cancelled batch); another sample of that batch "
        "may hold a reply that is not its own, so run the task again from the start rather "
        "than with eval-retry (docs/large-runs.md#known-limits)"
    )
