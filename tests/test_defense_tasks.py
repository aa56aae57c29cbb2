"""The one-command comparison of every built-in defense with `eval-set` (docs/defenses.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval_set

from polar_inspect.defenses import available_defenses
from tests.conftest import make_record

REPO = Path(__file__).resolve().parents[1]


def test_the_sweep_file_runs_every_defense_once_in_one_eval_set(
    write_records: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = write_records([make_record(0, turns=["Everything?"])])
    monkeypatch.chdir(REPO)  # Inspect resolves task files relative to the working directory
    done, logs = eval_set(
        tasks=["polar_inspect/defense_tasks.py"],
        model="polar/leaky",
        model_roles={"guard": "polar/guard", "minimizer": "polar/minimizer"},
        task_args={"data": str(data), "max_turns": 1},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert done
    stacks = sorted(log.eval.metadata["defense"]["label"] for log in logs)
    assert stacks == sorted(["none", *available_defenses()])
    assert all(log.eval.metadata["max_turns"] == 1 for log in logs)  # -T passes through
