"""The collector paused while a task is built (and on again after, whatever happens), and the
`inspect` command's exit freeze: registered once, only under that command."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

import polar_inspect.process_tuning as tuning
import polar_inspect.run.assemble as assemble
from polar_inspect.errors import UserInputError
from polar_inspect.tasks import privacy
from tests.conftest import make_record
from tests.helpers import run, task_ended, task_started


def _start_and_end(eval_id: str) -> None:
    """A polar task with gc_tuning starts and ends, as Inspect's hooks report it."""
    task_started(eval_id)
    task_ended(eval_id)


def _spy_on_the_load(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    seen: list[bool] = []
    original = assemble.load_source

    def spy(source):  # the records are parsed here: the collector's state then
        seen.append(gc.isenabled())
        return original(source)

    monkeypatch.setattr(assemble, "load_source", spy)
    return seen


def test_the_build_pauses_the_collector_and_turns_it_on_again(
    write_records, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _spy_on_the_load(monkeypatch)
    data = str(write_records([make_record(0), make_record(1, attack="S5")]))
    assert gc.isenabled()
    privacy(data=data)
    assert seen == [False] and gc.isenabled()
    privacy(data=data, gc_tuning=False)
    assert seen == [False, True] and gc.isenabled()
    with pytest.raises(UserInputError):  # a build that fails after the load
        privacy(data=data, domain="no_such_domain")
    assert seen[-1] is False and gc.isenabled()


def test_a_program_that_disabled_the_collector_keeps_it_off(write_records) -> None:
    data = str(write_records([make_record(0)]))
    gc.disable()
    try:
        privacy(data=data)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("program", "freezes"),
    [
        ("/venv/bin/inspect", True),
        ("/venv/lib/python3.11/site-packages/inspect_ai/__main__.py", True),
        ("/venv/bin/pytest", False),
        ("notebook.py", False),
    ],
)
def test_only_the_inspect_command_freezes_at_exit_once(
    program: str, freezes: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    registered: list[object] = []
    monkeypatch.setattr(sys, "argv", [program, "eval"])
    monkeypatch.setattr(tuning.atexit, "register", registered.append)
    monkeypatch.setattr(tuning, "_TUNING", tuning._Tuning())
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(*tuning.PYTHON_DEFAULT_THRESHOLDS)
    try:
        for eval_id in ("a", "b"):  # two runs one after the other: one handler
            _start_and_end(eval_id)
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)
    assert registered == ([gc.freeze] if freezes else [])


def test_an_eval_outside_the_command_registers_nothing_at_exit(
    write_records, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registered: list[object] = []
    monkeypatch.setattr(tuning.atexit, "register", registered.append)
    run(
        "polar_inspect/privacy", "polar/oracle", tmp_path, data=str(write_records([make_record(0)]))
    )
    assert gc.freeze not in registered


def test_under_the_command_a_build_changes_nothing_and_the_run_keeps_its_tuning(
    write_records, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = str(write_records([make_record(0)]))
    monkeypatch.setattr(sys, "argv", ["/venv/bin/inspect", "eval"])
    monkeypatch.setattr(tuning.atexit, "register", lambda handler: None)
    monkeypatch.setattr(tuning, "_TUNING", tuning._Tuning())
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(*tuning.PYTHON_DEFAULT_THRESHOLDS)
    try:
        with pytest.raises(UserInputError):  # a build that fails
            privacy(data=data, domain="no_such_domain")
        privacy(data=data)  # building a task leaves the process as it was, even here
        assert gc.get_threshold() == tuning.PYTHON_DEFAULT_THRESHOLDS
        assert gc.get_freeze_count() == 0
        _start_and_end("a")
        assert gc.get_threshold() == tuning.TUNED_THRESHOLDS and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


def test_an_eval_that_fails_puts_everything_back(
    write_records, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import polar_inspect.dialogue.steps as steps

    seen: list[tuple[int, ...]] = []

    def broken(state):
        seen.append(gc.get_threshold())
        raise RuntimeError("a sample that fails")

    monkeypatch.setattr(steps, "sample_info", broken)
    monkeypatch.setattr(tuning, "_TUNING", tuning._Tuning())
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(*tuning.PYTHON_DEFAULT_THRESHOLDS)
    try:
        data = str(write_records([make_record(0)]))
        logs = inspect_eval(
            "polar_inspect/privacy",
            model="polar/oracle",
            task_args={"data": data},
            log_dir=str(tmp_path),
            display="none",
            fail_on_error=True,
        )
        assert logs[0].status == "error" and seen == [tuning.TUNED_THRESHOLDS]
        assert gc.get_threshold() == tuning.PYTHON_DEFAULT_THRESHOLDS
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


_OTHER_TASK = """
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.solver import generate

@task
def other():
    return Task(dataset=[Sample(input="hi", target="hi")], solver=generate())
"""


def test_an_inspect_eval_of_another_task_lists_no_hook(tmp_path) -> None:
    """The hook is registered by a polar task's build, not by the package's import (Inspect
    prints every hook it has before each eval, polar_inspect's tasks or not)."""
    (tmp_path / "other.py").write_text(_OTHER_TASK)
    inspect = Path(sys.executable).with_name("inspect")
    done = subprocess.run(
        [str(inspect), "eval", "other.py", "--model", "mockllm/model", "--log-dir", "logs"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "hooks enabled" not in done.stdout + done.stderr
    assert "polar_inspect" not in done.stdout + done.stderr
