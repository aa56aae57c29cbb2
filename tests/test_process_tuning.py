"""Run-time process tuning: nothing at task build, tuned while a polar run goes, put back after,
and never over a program's own choices."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import sys
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

import polar_inspect.process_tuning as tuning
from polar_inspect.errors import UserInputError
from polar_inspect.process_tuning import (
    PYTHON_DEFAULT_THRESHOLDS,
    TUNED_THRESHOLDS,
    CollectorTuning,
    asks_for_tuning,
)
from polar_inspect.tasks import privacy
from tests.conftest import make_record
from tests.helpers import ASKS_FOR_TUNING, run, task_ended, task_started


@pytest.fixture
def python_defaults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run a test from Python's own collector settings, with nothing tuned yet, and put the
    caller's back afterwards."""
    monkeypatch.setattr(tuning, "_TUNING", tuning._Tuning())
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(*PYTHON_DEFAULT_THRESHOLDS)
    yield
    gc.unfreeze()
    gc.set_threshold(*saved)


@pytest.mark.usefixtures("python_defaults")
def test_building_every_task_leaves_the_process_as_it_was(write_records) -> None:
    data = str(write_records([make_record(0), make_record(1, attack="S5")]))
    hook, exit_handlers = sys.excepthook, atexit._ncallbacks()
    from polar_inspect.domain_tasks import DOMAIN_TASKS

    privacy(data=data)
    privacy(data=data, gc_tuning=False)
    built = 0
    for build in DOMAIN_TASKS.values():
        with contextlib.suppress(UserInputError):  # a domain without records is refused
            build(data=data)
            built += 1
    assert built >= 1  # the records' domain
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS
    assert gc.get_freeze_count() == 0
    assert sys.excepthook is hook
    assert atexit._ncallbacks() == exit_handlers


@pytest.mark.usefixtures("python_defaults")
def test_the_first_task_that_asks_tunes_and_the_last_one_to_end_puts_everything_back() -> None:
    task_started("a")
    task_started("b")
    assert gc.get_threshold() == TUNED_THRESHOLDS
    assert gc.get_freeze_count() > 0
    task_ended("a")
    assert gc.get_threshold() == TUNED_THRESHOLDS  # "b" still runs
    task_ended("unknown")  # a task that did not ask (another package's) changes nothing
    task_ended("b")
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("python_defaults")
def test_the_eval_s_end_puts_back_what_a_task_that_failed_left() -> None:
    task_started("a")
    asyncio.run(CollectorTuning().on_run_end(SimpleNamespace()))  # type: ignore[arg-type]
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS and gc.get_freeze_count() == 0
    asyncio.run(CollectorTuning().on_run_end(SimpleNamespace()))  # type: ignore[arg-type]
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS


@pytest.mark.usefixtures("python_defaults")
@pytest.mark.parametrize(
    ("program", "built", "runs", "tunes"),
    [
        ("/venv/bin/inspect", [True], ["polar_inspect/privacy", "other/task"], True),
        ("/venv/bin/inspect", [True], ["other/task"], False),  # eval-set: privacy is done
        ("/venv/bin/inspect", [True, False], ["polar_inspect/privacy"], False),
        ("run.py", [True], ["polar_inspect/privacy"], False),  # a program: at the task's start
    ],
)
def test_the_inspect_command_tunes_as_a_run_of_a_task_that_asks_starts(
    program: str,
    built: list[bool],
    runs: list[str],
    tunes: bool,
    write_records,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under the command the tuning comes before the run's set-up, for a run of a task built
    with gc_tuning (and no task of the same name built without); a program's run waits for a
    task that asks to start."""
    tuning.BUILT_TASKS.clear()  # the tasks earlier tests built
    data = str(write_records([make_record(0)]))
    tasks = [privacy(data=data, gc_tuning=asks) for asks in built]  # kept: the set is weak
    monkeypatch.setattr(sys, "argv", [program, "eval"])
    monkeypatch.setattr(tuning.atexit, "register", lambda _: None)
    start = SimpleNamespace(task_names=runs)
    asyncio.run(CollectorTuning().on_run_start(start))  # type: ignore[arg-type]
    assert (gc.get_threshold() == TUNED_THRESHOLDS) is tunes and len(tasks) == len(built)
    assert (gc.get_freeze_count() > 0) is tunes


@pytest.mark.usefixtures("python_defaults")
def test_under_the_command_inspect_s_run_start_names_the_task_the_build_made(
    write_records, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inspect's own `RunStart` carries the name the built task has: under the command the
    collector is tuned before the task starts."""
    monkeypatch.setattr(sys, "argv", ["/venv/bin/inspect", "eval"])
    monkeypatch.setattr(tuning.atexit, "register", lambda _: None)
    at_task_start: list[tuple[int, ...]] = []
    original = CollectorTuning.on_task_start

    async def spy(self, data):  # the collector's settings as the task starts
        at_task_start.append(gc.get_threshold())
        await original(self, data)

    monkeypatch.setattr(CollectorTuning, "on_task_start", spy)
    run(
        "polar_inspect/privacy", "polar/oracle", tmp_path, data=str(write_records([make_record(0)]))
    )
    assert at_task_start == [TUNED_THRESHOLDS]


@pytest.mark.parametrize(
    ("metadata", "asks"),
    [
        (ASKS_FOR_TUNING, True),
        ({"polar_inspect_version": "x", "config": {"gc_tuning": False}}, False),
        ({"config": {"gc_tuning": True}}, False),  # another package's task
        ({"polar_inspect_version": "x", "config": "gc_tuning"}, False),
        ({}, False),
        (None, False),
    ],
)
def test_only_a_polar_task_with_gc_tuning_asks(metadata: dict | None, asks: bool) -> None:
    assert asks_for_tuning(metadata) is asks


@pytest.mark.usefixtures("python_defaults")
def test_a_task_that_does_not_ask_changes_nothing() -> None:
    task_started("a", {"polar_inspect_version": "x", "config": {"gc_tuning": False}})
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS and gc.get_freeze_count() == 0
    task_ended("a")


@pytest.mark.usefixtures("python_defaults")
def test_a_program_with_its_own_settings_keeps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    gc.set_threshold(2_000, 15, 15)
    task_started("a")
    assert gc.get_threshold() == (2_000, 15, 15)
    task_ended("a")
    assert gc.get_threshold() == (2_000, 15, 15)
    gc.set_threshold(*PYTHON_DEFAULT_THRESHOLDS)
    gc.freeze()  # the program froze objects of its own: they stay frozen after the run
    # (the count itself can drop while the test runs: a frozen object is still freed by
    # reference counting, e.g. by another test's thread; so the calls are watched instead)
    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    task_started("a")
    assert gc.get_freeze_count() > 0
    task_ended("a")
    assert gc.get_freeze_count() > 0 and calls == []


@pytest.mark.usefixtures("python_defaults")
def test_an_eval_tunes_while_it_runs_and_leaves_the_process_as_it_found_it(
    write_records, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, ...]] = []
    import polar_inspect.dialogue.steps as solver  # the setup step reads the sample

    original = solver.sample_info

    def spy(state):  # as the dialogue starts: record the collector's settings then
        seen.append(gc.get_threshold())
        return original(state)

    monkeypatch.setattr(solver, "sample_info", spy)
    data = str(write_records([make_record(0), make_record(1, attack="S2")]))
    run("polar_inspect/privacy", "polar/oracle", tmp_path / "a", data=data)
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS and gc.get_freeze_count() == 0
    run("polar_inspect/privacy", "polar/oracle", tmp_path / "b", data=data, gc_tuning=False)
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS
    assert seen == [TUNED_THRESHOLDS] * 2 + [PYTHON_DEFAULT_THRESHOLDS] * 2
