"""The task's garbage-collection tuning: on by default, recorded, and never over a user's choice."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from polar_inspect.gc_tuning import PYTHON_DEFAULT_THRESHOLDS, TUNED_THRESHOLDS
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
privacy(data=sys.argv[1], gc_tuning=sys.argv[2] == "true")
"""


@pytest.mark.parametrize("tuning", ["true", "false"])
def test_the_tuned_process_freezes_its_heap_before_shutting_down(data: str, tuning: str) -> None:
    """Python's shutdown collections then find nothing to walk (0.7 s after a 400-sample run)."""
    done = subprocess.run(
        [sys.executable, "-c", _AT_EXIT, data, tuning], capture_output=True, text=True, check=True
    )
    tracked = int(done.stdout.split("tracked at exit:")[1])
    if tuning == "true":
        assert tracked < 100
    else:
        assert tracked > 10_000
