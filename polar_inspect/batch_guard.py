"""A deadline on every model call, so that a request whose batch result was lost fails.

Inspect's file batchers (OpenAI and the providers built on its batcher) map a batch's result
lines back to requests by `custom_id` and never answer a request without a line: a cancelled
batch's unfinished requests, a result file lacking a line, a line repeating another request's
`custom_id` (which also gives that request's dialogue a reply that is not its own). Such a
sample would wait for ever (docs/large-runs.md#known-limits). A provider ends a batch within
its 24-hour completion window, and a request may first wait for an earlier batch to free a
slot, so a call unanswered after 49 hours is lost: `answered` then fails it with
`LostBatchResult`, which fails its sample (Inspect does not retry it) and, with the default
`--fail-on-error`, the run, so that no run ends in success beside a misplaced reply.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import anyio

__all__ = ["DEADLINE_SECONDS", "LostBatchResult", "answered"]

T = TypeVar("T")
#: Two 24-hour completion windows and an hour: longer than any answered call waits.
DEADLINE_SECONDS = 49 * 3600.0


class LostBatchResult(RuntimeError):
    """A model call got no answer within `DEADLINE_SECONDS`."""


async def answered(call: Awaitable[T]) -> T:
    """The result of a model call, or `LostBatchResult` once it has waited too long."""
    deadline = DEADLINE_SECONDS
    with anyio.move_on_after(deadline):
        return await call
    raise LostBatchResult(
        f"no answer to a model call after {deadline / 3600:.3g} h: a batch lost its result "
        "(a missing or repeated custom_id, a cancelled batch); another sample of that batch "
        "may hold a reply that is not its own, so run the task again from the start rather "
        "than with eval-retry (docs/large-runs.md#known-limits)"
    )
