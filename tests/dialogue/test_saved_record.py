"""The sample's store is given the record's fields but those left at their defaults
(`typed_store.recorded`), the scorers read it without writing to it (`typed_store.read_only`),
and it reads the same as a store of every field, the shape logged before (docs/large-runs.md).
The package's tasks write it at their cleanup, after the scorers (`typed_store.DeferredWrites`),
once the cleanup has run for a sample; a task without that cleanup gets it when the dialogue
ends."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import anyio
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.event import SpanBeginEvent, StoreEvent
from inspect_ai.log import EvalLog
from inspect_ai.solver import TaskState
from inspect_ai.util import Store
from pydantic_core import to_jsonable_python

from polar_inspect.dialogue.state import (
    DefenseState,
    DialogueState,
    TrustedAgentState,
    read_sample_record,
)
from polar_inspect.tasks import privacy
from polar_inspect.typed_store import DeferredWrites, read_only, recorded


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


def _state(store: Store) -> TaskState:
    return SimpleNamespace(store=store)  # type: ignore[return-value]  # all the cleanup reads


def test_deferred_writes_are_held_only_once_the_cleanup_has_run_in_that_loop() -> None:
    deferred, first, second, third = DeferredWrites(), Store(), Store(), Store()

    async def one_eval() -> None:
        deferred.save(first, {"DialogueState:replies": 1})
        assert first.get("DialogueState:replies") == 1, "no cleanup seen yet: written at once"
        await deferred.cleanup(
            _state(first)
        )  # the task's cleanup ran for that sample: nothing held, nothing lost
        assert dict(first.items()) == {"DialogueState:replies": 1}
        deferred.save(second, {"DialogueState:replies": 2})
        assert "DialogueState:replies" not in second
        assert read_only(DialogueState, second).replies == 2, "the scorers read what is held"
        assert read_only(DialogueState, Store()).replies == 0, "held for that store alone"
        await deferred.cleanup(_state(second))
        assert dict(second.items()) == {"DialogueState:replies": 2}
        await deferred.cleanup(
            _state(second)
        )  # a second cleanup of the same sample writes nothing again
        assert read_only(DialogueState, second).replies == 2

    async def another_eval() -> None:  # the same solver in a task without the cleanup
        deferred.save(third, {"DialogueState:replies": 3})
        assert third.get("DialogueState:replies") == 3, "a new event loop: written at once"

    anyio.run(one_eval)
    anyio.run(another_eval)


def test_a_model_bound_to_the_store_writes_what_is_held_first() -> None:
    deferred, first, sample = DeferredWrites(), Store(), Store()

    async def run() -> None:
        await deferred.cleanup(_state(first))
        deferred.save(sample, {"DialogueState:replies": 2})
        assert DialogueState(store=sample).replies == 2  # e.g. a scorer's store_as(...)
        assert sample.get("DialogueState:replies") == 2
        await deferred.cleanup(_state(sample))  # the cleanup then writes nothing more
        assert sample.get("DialogueState:replies") == 2

    anyio.run(run)


def _records_and_store_events(log: EvalLog) -> list[tuple[int, int]]:
    """Per sample: its record's replies as logged, and the StoreEvents that carry the record."""
    found = []
    for sample in log.samples or []:
        events = [e for e in sample.events if isinstance(e, StoreEvent)]
        carrying = [e for e in events if any("DialogueState:" in c.path for c in e.changes)]
        found.append((read_sample_record(sample.store).dialogue.replies, len(carrying)))
    return found


def test_the_record_is_written_after_the_scorers_and_a_task_without_the_cleanup_gets_it(
    tmp_path: Path,
) -> None:
    # no collector tuning: the task without the cleanup would leave it on for later tests
    package = privacy(data="bundled", gc_tuning=False)
    # a task of one's own without the cleanup, reusing the package task's solver after its run
    own = Task(
        dataset=package.dataset, solver=package.solver, scorer=package.scorer, config=package.config
    )
    run = {"model": "polar/mixed", "limit": 4, "max_samples": 1, "display": "none"}
    [deferred] = inspect_eval(package, log_dir=str(tmp_path / "package"), **run)
    [at_once] = inspect_eval(own, log_dir=str(tmp_path / "own"), **run)
    assert deferred.status == at_once.status == "success"
    written, held = _records_and_store_events(at_once), _records_and_store_events(deferred)
    assert all(replies >= 1 and events == 2 for replies, events in written)  # solver + solvers
    assert held[0][1] == 2, "the first sample ends before any cleanup has run"
    assert [events for _, events in held[1:]] == [0, 0, 0], "written after the scorers"
    assert [replies for replies, _ in held] == [replies for replies, _ in written]
    for mine, theirs in zip(deferred.samples or [], at_once.samples or [], strict=True):
        assert mine.store == theirs.store
        assert {k: s.value for k, s in (mine.scores or {}).items()} == {
            k: s.value for k, s in (theirs.scores or {}).items()
        }
