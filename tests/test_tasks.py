"""The tasks end to end (`polar_inspect/tasks.py`): filters, metadata, explanations, the CLI."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests.helpers import by_id, dialogue_of, metric_values, run

TASK = "polar_inspect/privacy"


def test_leaks_and_shares_are_explained(grid_file: Path, tmp_path: Path) -> None:
    log = run(TASK, "polar/leaky", tmp_path / "logs", data=str(grid_file), attack="S2")
    sample = next(iter(by_id(log).values()))
    score = sample.scores["polar_scorer"]
    assert "Anna Keller" in score.metadata["leaked_values"]
    assert score.metadata["first_turn"]["Anna Keller"] == 1
    assert "leaked 6 of 6" in score.explanation


def test_task_metadata_identifies_the_run(grid_file: Path, tmp_path: Path) -> None:
    log = run(TASK, "polar/oracle", tmp_path / "logs", data=str(grid_file), policy="P2,P3")
    meta = log.eval.metadata
    assert meta["data_source"]["kind"] == "path"
    assert meta["data_source"]["sha256"] == hashlib.sha256(grid_file.read_bytes()).hexdigest()
    assert meta["polar_inspect_version"]
    assert meta["policies"] == ["P2", "P3"]
    assert meta["samples_selected"] == 20
    assert {s.metadata["policy"] for s in log.samples} == {"P2", "P3"}


def test_domain_task_filters_its_domain(grid_file: Path, tmp_path: Path) -> None:
    log = run(
        "polar_inspect/privacy_finance", "polar/oracle", tmp_path / "logs", data=str(grid_file)
    )
    assert {s.metadata["domain"] for s in log.samples} == {"finance"}
    assert len(log.samples) == 25


def test_unknown_selection_lists_valid_values(grid_file: Path, tmp_path: Path) -> None:
    from polar_inspect.tasks import privacy

    with pytest.raises(ValueError, match=r"unknown policy 'P9'.*P1 \(explicit_field_constraints\)"):
        privacy(data=str(grid_file), policy="P9")
    with pytest.raises(ValueError, match="Valid domains: customer_support"):
        privacy(data=str(grid_file), domain="astrology")


@pytest.mark.slow
def test_cli_runs_offline_and_writes_a_log(grid_file: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["HF_HUB_OFFLINE"] = "1"
    inspect = Path(sys.executable).with_name("inspect")
    result = subprocess.run(
        [
            str(inspect),
            "eval",
            TASK,
            "--model",
            "polar/oracle",
            "-T",
            f"data={grid_file}",
            "-T",
            "attack=S1,S5",
            "--model-role",
            "attacker=polar/replay-attacker",
            "--log-dir",
            str(tmp_path / "cli-logs"),
            "--display",
            "none",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    [log_file] = list((tmp_path / "cli-logs").glob("*.eval"))
    log = read_eval_log(str(log_file))
    assert log.status == "success"
    assert len(log.samples) == 20
    assert log.eval.model_roles["attacker"].model == "polar/replay-attacker"
    s5 = [s for s in log.samples if s.metadata["attack"] == "S5"]
    assert s5 and {dialogue_of(s)["turn_source"] for s in s5} == {"model"}
    assert metric_values(log, "privacy")["mean"] == 1.0


def test_the_signature_the_configuration_and_the_attackers_declare_the_same_parameters() -> None:
    import inspect as pyinspect

    from polar_inspect.attackers import available_attackers
    from polar_inspect.run.config import PolarConfig
    from polar_inspect.task_parameters import args_doc
    from polar_inspect.tasks import privacy

    signature = pyinspect.signature(privacy).parameters
    declared = {name for name, p in signature.items() if p.kind is not p.VAR_KEYWORD}
    options = {o for cls in available_attackers().values() for o in cls.option_names()}
    assert declared == set(PolarConfig.parameter_names()) | options
    documented = args_doc(privacy, declared)
    for name in declared:  # a default and a docstring line each
        assert signature[name].default is not pyinspect.Parameter.empty, name
        assert f"    {name}:" in documented, name
