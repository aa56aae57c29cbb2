"""A run that reads the scorer's targets is marked ORACLE where Inspect shows it first: its
task's display name (`eval.task_display_name` in the log header) and its dataset's name (the
`dataset:` line of `inspect eval`'s summary), derived from the same declarations as the
report's marks (`agents.ORACLE_AGENTS`, a defense's `oracle` flag)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from polar_inspect.run.config import PolarConfig
from polar_inspect.run.setup import RunSetup
from polar_inspect.tasks import PolarTask, oracle_reasons, privacy

MINI = "polar_inspect/privacy_mini"


def _marked(log: EvalLog) -> bool:
    shown = log.eval.task_display_name or ""
    in_dataset = (log.eval.dataset.name or "").endswith("(ORACLE)")
    assert shown.endswith("[ORACLE]") == in_dataset  # both or neither
    return in_dataset


def test_an_oracle_defense_is_a_reason_wherever_the_task_is_built() -> None:
    setup = RunSetup.prepare(PolarConfig.from_task_args({"defense": "redact_oracle"}))
    assert oracle_reasons(setup) == ["defense redact_oracle reads the scorer's targets"]
    plain = RunSetup.prepare(PolarConfig.from_task_args({"defense": "spotlight"}))
    assert oracle_reasons(plain) == []  # outside an eval no model is known: none counted


def test_the_display_name_carries_the_mark_only_for_an_oracle(grid_file: Path) -> None:
    task = privacy(data=str(grid_file))
    assert isinstance(task, PolarTask) and task.display_name == "privacy"
    task.oracle = True
    assert task.display_name == "privacy [ORACLE]"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "roles", "args", "marked"),
    [
        ("polar/oracle", None, {}, True),
        ("polar/mixed", None, {}, True),
        ("polar/leaky", None, {"defense": "redact_oracle"}, True),
        ("polar/leaky", {"guard": "polar/guard"}, {"defense": "guard"}, True),
        ("polar/leaky", None, {}, False),
        ("polar/refuse", {"guard": "polar/guard"}, {}, False),  # bound, never called
    ],
)
def test_inspect_eval_logs_the_mark(
    model: str, roles: dict[str, str] | None, args: dict[str, str], marked: bool, tmp_path: Path
) -> None:
    [log] = inspect_eval(
        MINI, model=model, model_roles=roles, task_args=args, limit=1, display="none",
        log_dir=str(tmp_path),
    )  # fmt: skip
    assert log.status == "success"
    assert _marked(log) == marked
    assert log.eval.task_display_name == "privacy_mini" + (" [ORACLE]" if marked else "")
