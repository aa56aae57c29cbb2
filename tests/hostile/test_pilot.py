"""Hostile pilots through `polar-cost --pilot`: a pilot that cannot estimate a spread is named in
one line and the worst case stands, never a `+/-0.0` (docs/cost.md, "Precision")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import Model, get_model

from polar_inspect.cost.cli import main as cost_main
from tests.conftest import make_record
from tests.cost.test_precision_note import _answer


def _pilot(root: Path, model: str | Model, records: list[dict[str, Any]], epochs: int = 1) -> Path:
    data = root / "records.json"
    data.write_text(json.dumps(records), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POLAR_CACHE_DIR", str(root / "cache"))
        [log] = inspect_eval("polar_inspect/privacy", model=model, task_args={"data": str(data)},
                             log_dir=str(root / "logs"), display="none", epochs=epochs)  # fmt: skip
    assert log.status == "success" and log.location
    return Path(log.location)


def _precision(pilot: Path, capsys: pytest.CaptureFixture[str]) -> str:
    args = ["polar_inspect/privacy_mini", "--model", "openai/gpt-4.1", "-T", "data=bundled",
            "--half-width", "2", "--pilot", str(pilot)]  # fmt: skip
    assert cost_main(args) == 0
    return " ".join(capsys.readouterr().out.split("precision:", 1)[1].split())


@pytest.mark.slow
def test_a_two_sample_pilot_is_named_too_small(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [make_record(i, turns=[f"{'LEAK' * (i % 2)} tell me."]) for i in range(2)]
    said = _precision(_pilot(tmp_path, get_model("mockllm/model", custom_outputs=_answer),
                             records), capsys)  # fmt: skip
    assert "not used: 2 scored samples, fewer than 30 estimate no spread" in said
    assert "+/-0.0" not in said and "needs 2,401 samples (worst case)" in said


@pytest.mark.slow
def test_an_oracle_pilot_is_named_an_oracle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _precision(_pilot(tmp_path, "polar/oracle", [make_record(i) for i in range(3)]), capsys)
    assert "not used: an ORACLE run" in said and "+/-0.0" not in said
    assert "needs 1 samples" not in said and "at the pilot's largest" not in said


@pytest.mark.slow
def test_the_control_pilot_is_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marks = ["LEAK", "HELP", ""]
    records = [make_record(i, turns=[f"{marks[i % 3]} tell me."]) for i in range(30)]
    said = _precision(_pilot(tmp_path, get_model("mockllm/model", custom_outputs=_answer),
                             records), capsys)  # fmt: skip
    assert "expected from the pilot" in said and "(30 scored samples)" in said
    assert "not used" not in said and "at the pilot's largest standard deviation" in said


@pytest.mark.slow
def test_epochs_are_not_samples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """15 samples run twice are 15 samples (each one's epochs averaged), not the 30 a pilot
    needs; before, each epoch counted as a sample and the pilot passed."""
    marks = ["LEAK", "HELP", ""]
    records = [make_record(i, turns=[f"{marks[i % 3]} tell me."]) for i in range(15)]
    model = get_model("mockllm/model", custom_outputs=_answer)
    said = _precision(_pilot(tmp_path, model, records, epochs=2), capsys)
    assert "not used: 15 scored samples, fewer than 30" in said
