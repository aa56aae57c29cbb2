"""The sample's store is given the record's fields but those left at their defaults
(`typed_store.recorded`), the scorers read it without writing to it (`typed_store.read_only`),
and it reads the same as a store of every field, the shape logged before (docs/large-runs.md)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.event import SpanBeginEvent, StoreEvent
from inspect_ai.util import Store
from pydantic_core import to_jsonable_python

from polar_inspect.dialogue.state import (
    DefenseState,
    DialogueState,
    TrustedAgentState,
    read_sample_record,
)
from polar_inspect.typed_store import read_only, recorded


def _played() -> DialogueState:
    record = DialogueState(store=Store())
    record.attacker = "paper"
    record.turn_budget = 2
    record.identity = {"data": "abc"}
    record.begin_round(1)
    record.deliver_attacker("Who?")
    record.deliver_reply("Anna.", "")
    record.calling = ""  # written, but its default
    return record


def _every_field(store: dict[str, object]) -> dict[str, object]:
    """The store as logged before: every field of the three models, defaults included."""
    full = Store()
    for key, value in store.items():
        full.set(key, value)
    for model in (DialogueState, DefenseState, TrustedAgentState):
        model(store=full)  # binding writes the missing fields' defaults
    return dict(full.items())


def test_recorded_leaves_the_defaults_out() -> None:
    saved = recorded(_played())
    names = {key.removeprefix("DialogueState:") for key in saved}
    assert names == {"attacker", "turn_budget", "identity", "round", "delivered", "turns_used"} | {
        "replies"
    }


def test_a_store_without_defaults_reads_as_one_with_every_field() -> None:
    saved = recorded(_played())
    new, old = read_sample_record(saved), read_sample_record(_every_field(saved))
    assert len(_every_field(saved)) > len(saved)
    for part in ("dialogue", "defense", "agent"):
        assert getattr(new, part).model_dump(mode="json") == getattr(old, part).model_dump(
            mode="json"
        )
    assert new.dialogue.delivered_replies() == ["Anna."]


def test_read_only_writes_nothing_to_the_store_it_reads() -> None:
    sample = Store()
    for key, value in recorded(_played()).items():
        sample.set(key, value)
    before = dict(sample.items())
    agent = read_only(TrustedAgentState, sample)
    assert agent.turns == [] and agent.document_access == "prompt" and agent.agent is None
    assert read_only(DialogueState, sample).replies == 1
    assert dict(sample.items()) == before


def test_a_logged_store_holds_no_default_and_the_scorers_change_nothing(tmp_path: Path) -> None:
    [log] = inspect_eval(
        "polar_inspect/privacy",
        model="polar/mixed",
        task_args={"data": "bundled"},
        limit=2,
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success" and log.samples
    defaults = to_jsonable_python(_every_field({}))
    for sample in log.samples:
        assert sample.store and len(_every_field(sample.store)) > len(sample.store)
        kept = [key for key, value in sample.store.items() if defaults.get(key, ...) == value]
        assert kept == [], "a field at its default was written to the store"
        record = read_sample_record(sample.store, sample.metadata)
        assert record.dialogue.replies >= 1
        assert record.defense.record is None  # no defense ran: no record (its default)
        scoring = {
            event.id
            for event in sample.events
            if isinstance(event, SpanBeginEvent) and event.type in ("scorers", "scorer")
        }
        assert len(scoring) >= 3, "the scorers' spans are in the transcript"
        changes = [e for e in sample.events if isinstance(e, StoreEvent) and e.span_id in scoring]
        assert changes == [], "a scorer wrote to the sample's store"
