"""A sample's dialogue is freed by reference counting when its solver ends: nothing of it waits
for the cyclic collector (docs/large-runs.md, "Garbage-collector tuning")."""

from __future__ import annotations

import gc
from pathlib import Path

from inspect_ai import eval as inspect_eval

from polar_inspect.dialogue.steps import Dialogue


def test_no_dialogue_is_left_for_the_cyclic_collector(tmp_path: Path) -> None:
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()  # what only the collector would free stays in gc.get_objects()
    try:
        [log] = inspect_eval(
            "polar_inspect/privacy",
            model="polar/mixed",
            task_args={"data": "bundled", "gc_tuning": False},
            limit=3,
            display="none",
            log_dir=str(tmp_path),
        )
        left = sum(isinstance(obj, Dialogue) for obj in gc.get_objects())
    finally:
        if enabled:
            gc.enable()
    assert log.status == "success" and len(log.samples or []) == 3
    assert left == 0
