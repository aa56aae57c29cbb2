"""A limit or a cancellation inside the dialogue (also inside an exception group): recorded as
a cut at the call it hit, then re-raised for Inspect (docs/architecture.md, "Scored = delivered").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio
from inspect_ai.util import LimitExceededError, sample_limits

from polar_inspect.dialogue.state import DialogueState


def cut_limit(exc: BaseException) -> tuple[str, str] | None:
    """(limit type, message) when `exc` is how Inspect ends a sample early, else None."""
    if isinstance(exc, BaseExceptionGroup):
        found = (cut_limit(inner) for inner in exc.exceptions)
        return next((limit for limit in found if limit is not None), None)
    if isinstance(exc, LimitExceededError):
        return exc.type, exc.message
    if isinstance(exc, TimeoutError):
        return "time", str(exc) or "a timeout cancelled the call in progress"
    if isinstance(exc, Exception) or not isinstance(exc, _cancelled_class()):
        return None
    limit = _exhausted_clock()
    what = f"the {limit} limit" if limit != "cancelled" else "a cancellation"
    return limit, f"{what} cancelled the call in progress"


def _cancelled_class() -> type[BaseException]:
    """The running async backend's cancellation (asyncio's outside any event loop)."""
    try:
        return anyio.get_cancelled_exc_class()
    except RuntimeError:  # anyio's NoEventLoopError: no backend is running
        return asyncio.CancelledError


def _exhausted_clock() -> str:
    """`time` or `working` when that sample limit is used up (the cancellation is its),
    else `cancelled` (an operator, the eval, or another cancel)."""
    try:
        limits = sample_limits()
    except RuntimeError:  # not inside a running sample
        return "cancelled"
    for name, limit in (("working", limits.working), ("time", limits.time)):
        if limit.limit is not None and limit.usage >= limit.limit * 0.99:
            return name
    return "cancelled"


@contextmanager
def recording_cut(record: DialogueState, call: Callable[[], str]) -> Iterator[None]:
    """Record a limit or cancellation raised inside the block as the dialogue's cut (at the
    call `call()` names), then re-raise it. Anything else passes through untouched."""
    try:
        yield
    except BaseException as exc:
        if (found := cut_limit(exc)) is not None and record.cut is None:
            record.close_cut(*found, call=call())
        raise
