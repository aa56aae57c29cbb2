"""The task's garbage-collection tuning: on by default, recorded, and never over a user's choice."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from polar_inspect.gc_tuning import (
    PYTHON_DEFAULT_THRESHOLDS,
    TUNED_THRESHOLDS,
    running_inspect_command,
)
from polar_inspect.tasks import privacy
from tests.conftest import make_record


@pytest.fixture
def python_defaults() -> Iterator[None]:
    """Run a test from Python's own collector settings and put the caller's back afterwards."""
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(*PYTHON_DEFAULT_THRESHOLDS)
    yield
    gc.unfreeze()
    gc.set_threshold(*saved)


@pytest.fixture
def data(write_records) -> str:
    return str(write_records([make_record(0), make_record(1, attack="S5")]))


@pytest.mark.usefixtures("python_defaults")
def test_building_the_task_raises_the_thresholds_and_freezes_what_is_alive(data: str) -> None:
    task = privacy(data=data)
    assert gc.get_threshold() == TUNED_THRESHOLDS
    assert gc.get_freeze_count() > 0
    assert task.metadata["gc"]["tuned"] is True
    assert tuple(task.metadata["gc"]["thresholds"]) == TUNED_THRESHOLDS


@pytest.mark.usefixtures("python_defaults")
def test_gc_tuning_false_keeps_pythons_defaults(data: str) -> None:
    task = privacy(data=data, gc_tuning=False)
    assert gc.get_threshold() == PYTHON_DEFAULT_THRESHOLDS
    assert gc.get_freeze_count() == 0
    assert task.metadata["gc"] == {
        "tuned": False,
        "thresholds": list(PYTHON_DEFAULT_THRESHOLDS),
        "note": "gc_tuning=false",
    }


@pytest.mark.usefixtures("python_defaults")
def test_a_process_with_its_own_thresholds_keeps_them(data: str) -> None:
    gc.set_threshold(2_000, 15, 15)
    task = privacy(data=data)
    assert gc.get_threshold() == (2_000, 15, 15)
    assert gc.get_freeze_count() == 0
    assert task.metadata["gc"]["tuned"] is False
    assert "its own thresholds" in task.metadata["gc"]["note"]


@pytest.mark.usefixtures("python_defaults")
def test_python_313s_young_threshold_counts_as_the_default(data: str) -> None:
    gc.set_threshold(2_000, 10, 0)  # what Python 3.14 reports
    assert privacy(data=data).metadata["gc"]["tuned"] is True
    assert gc.get_threshold() == TUNED_THRESHOLDS


@pytest.mark.usefixtures("python_defaults")
def test_gc_tuning_false_after_a_tuned_task_says_the_thresholds_stay_raised(data: str) -> None:
    privacy(data=data)
    settings = privacy(data=data, gc_tuning=False).metadata["gc"]
    assert settings["tuned"] is True
    assert "stay raised" in settings["note"]


@pytest.mark.usefixtures("python_defaults")
def test_a_second_task_in_the_same_process_reports_the_tuning_already_made(data: str) -> None:
    privacy(data=data)
    frozen = gc.get_freeze_count()
    again = privacy(data=data)
    assert gc.get_threshold() == TUNED_THRESHOLDS
    assert again.metadata["gc"]["tuned"] is True
    assert gc.get_freeze_count() == frozen  # not frozen a second time


_AT_EXIT = """
import atexit, gc, sys
atexit.register(lambda: print("tracked at exit:", len(gc.get_objects())))  # runs after ours
from polar_inspect.tasks import privacy
data, tuning, command, out = sys.argv[1:5]
privacy(data=data, gc_tuning=tuning == "true")
run_objects = [{} for _ in range(10_000)]  # what a run allocates after the task is built


class Report:  # a reference cycle that holds a file the program never closes
    def __init__(self, path):
        self.file = open(path, "w")
        self.me = self


report = Report(out)  # a module global, as a script would keep it
report.file.write("every line\\n")
if command == "inspect":
    sys.argv[0] = "/venv/bin/inspect"
"""


@pytest.mark.parametrize(
    ("tuning", "command", "frozen", "flushed"),
    [
        ("true", "inspect", True, False),  # the CLI: shutdown skips its full collections
        ("true", "python", False, True),  # the Python API: Python's shutdown, files flushed
        ("false", "inspect", False, True),  # gc_tuning=false: nothing changed
    ],
)
def test_at_exit_the_inspect_command_freezes_and_other_programs_unfreeze(
    data: str, tmp_path, tuning: str, command: str, frozen: bool, flushed: bool
) -> None:
    """Under `inspect` the shutdown walks nothing (0.7 s saved after 400 samples); a program
    that runs the eval through the Python API keeps Python's shutdown, open files flushed."""
    out = tmp_path / "report.txt"
    done = subprocess.run(
        [sys.executable, "-c", _AT_EXIT, data, tuning, command, str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    tracked = int(done.stdout.split("tracked at exit:")[1])
    assert (tracked < 100) is frozen, tracked
    assert tracked > 10_000 or frozen
    assert (out.read_text() == "every line\n") is flushed


@pytest.mark.parametrize(
    ("argv0", "expected"),
    [
        ("/venv/bin/inspect", True),
        ("/venv/lib/python3.11/site-packages/inspect_ai/__main__.py", True),
        ("/venv/bin/pytest", False),
        ("", False),
        ("/home/me/inspect_runs.py", False),
    ],
)
def test_which_programs_count_as_the_inspect_command(
    monkeypatch: pytest.MonkeyPatch, argv0: str, expected: bool
) -> None:
    monkeypatch.setattr(sys, "argv", [argv0])
    assert running_inspect_command() is expected
