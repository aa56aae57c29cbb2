"""Run-time process tuning: nothing at task build, tuned while a polar run goes, put back after,
and never over a program's own choices."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from polar_inspect.process_tuning import (
    PYTHON_DEFAULT_THRESHOLDS,
    TUNED_THRESHOLDS,
    enter_sample,
    leave_sample,
)
from polar_inspect.tasks import privacy
from tests.conftest import make_record
from tests.helpers import run


@pytest.fixture
def python_defaults() -> Iterator[None]:
    """Run a test from Python's own collector settings and put the caller's back afterwards."""
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(*PYTHON_DEFAULT_THRESHOLDS)
    yield
    gc.unfreeze()
    gc.set_threshold(*saved)


def _state(sample_id: str, epoch: int = 1) -> SimpleNamespace:
    return SimpleNamespace(sample_id=sample_id, epoch=epoch)


def _leave(sample_id: str) -> None:
    asyncio.run(leave_sample(_state(sample_id)))  # type: ignore[arg-type]


@pytest.mark.usefixtures("python_defaults")
def test_building_every_task_leaves_the_process_as_it_was(write_records) -> None:
    data = str(write_records([make_record(0), make_record(1, attack="S5")]))
    hook, handlers = sys.excepthook, gc.get_threshold()
    from polar_inspect.domain_tasks import DOMAIN_TASKS

    privacy(data=data)
    privacy(data=data, gc_tuning=False)
    for build in DOMAIN_TASKS.values():
        with contextlib.suppress(Exception):  # a domain without records is refused
            build(data=data)
    assert gc.get_threshold() == handlers == PYTHON_DEFAULT_THRESHOLDS
    assert gc.get_freeze_count() == 0
    assert sys.excepthook is hook


@pytest.mark.usefixtures("python_defaults")
def test_the_first_sample_tunes_and_the_last_one_out_puts_everything_back() -> None:
    enter_sample(_state("a"))  # type: ignore[arg-type]
    enter_sample(_state("b"))  # type: ignore[arg-type]
    assert gc.get_threshold() == TUNED_THRESHOLDS
    assert gc.get_freeze_count() > 0
    _leave("a")
    assert gc.get_threshold() == TUNED_THRESHOLDS  # "b" still runs
    _leave("unknown")  # a sample that never entered (it failed before) changes nothing
    _leave("b")
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("python_defaults")
def test_a_program_with_its_own_settings_keeps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    gc.set_threshold(2_000, 15, 15)
    enter_sample(_state("a"))  # type: ignore[arg-type]
    assert gc.get_threshold() == (2_000, 15, 15)
    _leave("a")
    assert gc.get_threshold() == (2_000, 15, 15)
    gc.set_threshold(*PYTHON_DEFAULT_THRESHOLDS)
    gc.freeze()  # the program froze objects of its own: they stay frozen after the run
    # (the count itself can drop while the test runs: a frozen object is still freed by
    # reference counting, e.g. by another test's thread; so the calls are watched instead)
    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    enter_sample(_state("a"))  # type: ignore[arg-type]
    assert gc.get_freeze_count() > 0
    _leave("a")
    assert gc.get_freeze_count() > 0 and calls == []


@pytest.mark.usefixtures("python_defaults")
def test_an_eval_tunes_while_it_runs_and_leaves_the_process_as_it_found_it(
    write_records, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, ...]] = []
    import polar_inspect.dialogue.steps as solver  # the setup step reads the sample

    original = solver.sample_info

    def spy(state):  # right after the tuning step: record the collector's settings then
        seen.append(gc.get_threshold())
        return original(state)

    monkeypatch.setattr(solver, "sample_info", spy)
    data = str(write_records([make_record(0), make_record(1, attack="S2")]))
    run("polar_inspect/privacy", "polar/oracle", tmp_path / "a", data=data)
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS and gc.get_freeze_count() == 0
    run("polar_inspect/privacy", "polar/oracle", tmp_path / "b", data=data, gc_tuning=False)
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS
    assert seen == [TUNED_THRESHOLDS] * 2 + [PYTHON_DEFAULT_THRESHOLDS] * 2


@pytest.mark.usefixtures("python_defaults")
def test_a_sample_that_starts_while_the_last_one_leaves_keeps_the_tuning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a fast model the running set is empty for an instant between samples: no put-back
    (a full collection and a new freeze) then, only once no sample has started for the grace."""
    import polar_inspect.process_tuning as tuning

    restores: list[int] = []
    original = tuning._TUNING.restore
    monkeypatch.setattr(tuning._TUNING, "restore", lambda: restores.append(1) or original())

    async def two_samples_back_to_back() -> None:
        enter_sample(_state("a"))  # type: ignore[arg-type]
        leaving = asyncio.create_task(leave_sample(_state("a")))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # "a" is out and waits; nothing runs
        enter_sample(_state("b"))  # type: ignore[arg-type]
        await leaving
        assert restores == [] and gc.get_threshold() == TUNED_THRESHOLDS
        await leave_sample(_state("b"))  # type: ignore[arg-type]

    asyncio.run(two_samples_back_to_back())
    assert restores == [1]
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS and gc.get_freeze_count() == 0
