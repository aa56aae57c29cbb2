"""`dialogue.cut`: what counts as Inspect ending a sample early, and what is recorded."""

from __future__ import annotations

import anyio
import pytest
from inspect_ai.util import LimitExceededError, Store

from polar_inspect.dialogue.cut import cut_limit, recording_cut
from polar_inspect.dialogue.state import DialogueState


def _limit(kind: str) -> LimitExceededError:
    return LimitExceededError(kind, value=2, limit=1, message=f"{kind} limit exceeded")


def test_limits_and_cancellations_are_cuts_and_nothing_else_is() -> None:
    assert cut_limit(_limit("token")) == ("token", "token limit exceeded")
    assert cut_limit(ExceptionGroup("tools", [ValueError("x"), _limit("message")])) == (
        "message",
        "message limit exceeded",
    )
    assert cut_limit(TimeoutError())[0] == "time"  # type: ignore[index]
    assert cut_limit(ValueError("a bug")) is None
    assert cut_limit(ExceptionGroup("tools", [ValueError("x")])) is None


def test_a_cancellation_outside_a_sample_is_named_as_such() -> None:
    async def cancelled() -> tuple[str, str] | None:
        with anyio.CancelScope() as scope:
            scope.cancel()
            try:
                await anyio.sleep(1)
            except anyio.get_cancelled_exc_class() as exc:
                return cut_limit(exc)
        return None

    found = anyio.run(cancelled)
    assert found is not None and found[0] == "cancelled"


def test_the_cut_is_recorded_at_the_call_in_progress_and_re_raised() -> None:
    record = DialogueState(store=Store())
    record.begin_round(2)
    record.deliver_attacker("Who?")
    with pytest.raises(LimitExceededError), recording_cut(record, lambda: "guard"):
        raise _limit("token")
    assert record.stop_reason == "limit" and record.cut_by_limit
    assert record.cut is not None
    assert (record.cut.round, record.cut.call, record.cut.limit) == (2, "guard", "token")
    assert record.delivered_replies() == [] and record.never_answered


def test_any_other_error_passes_through_unrecorded() -> None:
    record = DialogueState(store=Store())
    with pytest.raises(ValueError), recording_cut(record, lambda: "trusted"):
        raise ValueError("a bug")
    assert record.cut is None and record.stop_reason is None


def test_only_a_delivered_reply_counts() -> None:
    record = DialogueState(store=Store())
    record.begin_round(1)
    record.deliver_attacker("Who?")
    record.deliver_reply("Anna.", "")
    record.begin_round(2)
    record.deliver_attacker("And?")  # its reply never came
    assert record.replies == 1 and record.turns_used == 2
    assert record.delivered_replies() == ["Anna."]


def test_rescoring_a_sample_without_a_delivered_record_is_refused() -> None:
    """An older log counted replies but recorded none as delivered: never scored as silence."""
    from inspect_ai.model import ModelName
    from inspect_ai.solver import TaskState

    from polar_inspect.scorers.dialogue_read import UndeliveredRecordError, delivered_dialogue

    state = TaskState(
        model=ModelName("mockllm/model"), sample_id="s1", epoch=1, input="", messages=[]
    )
    state.store_as(DialogueState).replies = 2
    with pytest.raises(UndeliveredRecordError, match="^sample s1: .*older polar_inspect"):
        delivered_dialogue(state)
