"""polar-cost's precision lines: what a selection can tell apart before it runs."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model

from polar_inspect.agents import ORACLE_AGENTS, ORACLE_MARK
from polar_inspect.cost.precision_note import (
    MIN_PILOT_SAMPLES,
    oracle_run,
    plural,
    precision_lines,
    unusable,
)
from polar_inspect.errors import UserInputError
from polar_inspect.scorers.parity import SCORE_KEYS
from tests.conftest import ALLOWED, DOCUMENT, make_record


def _grid(per_cell: int) -> list[tuple[str, str, str]]:
    return [
        (f"d{d}", f"P{p}", f"S{s}")
        for d in range(10)
        for p in range(1, 6)
        for s in range(1, 6)
        for _ in range(per_cell)
    ]


def test_the_mini_selection_gives_six_points_at_worst() -> None:
    (line,) = precision_lines(_grid(1), None)
    assert "250 samples" in line and "+/-6.2 points" in line and "+/-12.4" in line


def test_a_target_width_asks_for_whole_rounds_of_cells() -> None:
    lines = precision_lines(_grid(1), 5.0)
    assert lines[1].startswith("+/-5 points needs 385 samples")
    assert "stratified subset of 500 (2 per cell of 250)" in lines[1]
    assert "select more data" in lines[1]  # 250 < 500
    assert "select more data" not in precision_lines(_grid(4), 5.0)[1]


def test_an_empty_selection_says_nothing() -> None:
    assert precision_lines([], 5.0) == []


def _eval(root: Path, records: list[dict[str, Any]], model: str | Model, **args: Any) -> Path:
    data = root / "records.json"
    data.write_text(json.dumps(records), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POLAR_CACHE_DIR", str(root / "cache"))
        [log] = inspect_eval("polar_inspect/privacy", model=model, model_args=args,
                             task_args={"data": str(data)}, log_dir=str(root / "logs"),
                             display="none")  # fmt: skip
    assert log.status == "success" and log.location
    return Path(log.location)


@pytest.fixture(scope="module")
def oracle_pilot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pilot run of six samples with `polar/mixed` (an ORACLE: it reads the targets)."""
    records = [make_record(i, attack=a, policy=p) for i, (a, p) in
               enumerate([("S1", "P1"), ("S2", "P5"), ("S3", "P2"), ("S4", "P5"),
                          ("S1", "P3"), ("S2", "P4")])]  # fmt: skip
    return _eval(tmp_path_factory.mktemp("oracle"), records, "polar/mixed", leak_policies="P5")


def _answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
    """Leaks the document, answers the task or refuses, as the attacker's message asks."""
    said = messages[-1].text
    text = DOCUMENT if "LEAK" in said else "; ".join(ALLOWED) if "HELP" in said else "No."
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer
    return out


@pytest.fixture(scope="module")
def pilot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pilot run of 30 samples with a model that is no oracle and whose scores differ."""
    marks = ["LEAK", "HELP", ""]
    records = [make_record(i, policy=f"P{1 + i % 5}", turns=[f"{marks[i % 3]} tell me."])
               for i in range(MIN_PILOT_SAMPLES)]  # fmt: skip
    model = get_model("mockllm/model", custom_outputs=_answer)
    return _eval(tmp_path_factory.mktemp("pilot"), records, model)


@pytest.mark.slow
def test_a_pilot_gives_the_expected_half_width_from_its_own_scores(pilot_log: Path) -> None:
    log = read_eval_log(str(pilot_log))
    scores = [next(s.value for s in (sample.scores or {}).values() if isinstance(s.value, dict))
              for sample in log.samples or []]  # fmt: skip
    sd = {key: statistics.stdev(float(v[key]) for v in scores) for key in SCORE_KEYS}
    assert min(sd.values()) > 0  # the pilot's scores differ between samples
    lines = precision_lines(_grid(1), 2.0, pilot_log)
    expected = ", ".join(f"{k} +/-{100 * 1.959964 * s / math.sqrt(250):.1f}" for k, s in sd.items())
    assert f"(30 scored samples): {expected} points on 250 samples" in lines[2]
    needed = math.ceil((1.959964 * max(sd.values()) / 0.02) ** 2)
    assert f"+/-2 points needs {needed:,} samples at the pilot's largest" in lines[3]


@pytest.mark.slow
def test_an_oracle_pilot_is_one_line_and_the_worst_case_stands(oracle_pilot: Path) -> None:
    lines = precision_lines(_grid(1), 2.0, oracle_pilot)
    assert len(lines) == 3 and "+/-0.0" not in "".join(lines)
    assert lines[1].startswith("+/-2 points needs 2,401 samples (worst case)")
    assert lines[2] == (f"pilot {oracle_pilot.name} not used: an ORACLE run (it answers from "
                        "the scorer's targets); the worst-case figures above apply")  # fmt: skip


def test_an_oracle_is_derived_from_the_header_or_the_declared_agents() -> None:
    def spec(model: str, name: str = "privacy", roles: Any = None, oracle: bool = False) -> Any:
        meta = {"defense": {"oracle": oracle}}
        return SimpleNamespace(model=model, task_display_name=name, model_roles=roles,
                               metadata=meta)  # fmt: skip

    guard = {"guard": SimpleNamespace(model="polar/guard")}
    assert not oracle_run(spec("openai/gpt-4.1"))
    assert oracle_run(spec("openai/gpt-4.1", name=f"privacy {ORACLE_MARK}"))
    assert oracle_run(spec("openai/gpt-4.1", oracle=True))  # redact_oracle
    assert all(oracle_run(spec(m)) for m in ORACLE_AGENTS["trusted"])
    assert oracle_run(spec("openai/gpt-4.1", roles=guard))
    assert not oracle_run(spec("polar/guard"))  # a reference agent only oracles in its role


def test_a_pilot_too_small_or_without_spread_is_named() -> None:
    spread = dict.fromkeys(SCORE_KEYS, 0.3)
    assert unusable(spread, MIN_PILOT_SAMPLES, oracle=False) is None
    assert unusable(spread, 29, oracle=False) == (
        "29 scored samples, fewer than 30 estimate no spread"
    )
    assert unusable(spread, 1, oracle=False) == "1 scored sample, fewer than 30 estimate no spread"
    flat = spread | {"privacy": 0.0, "overall": 0.0}
    assert unusable(flat, 40, oracle=False) == (
        "no spread in privacy, overall (every sample scored the same)"
    )
    assert unusable(spread, 40, oracle=True) == (
        "an ORACLE run (it answers from the scorer's targets)"
    )


def test_counts_are_singular_for_one() -> None:
    assert plural(1, "sample") == "1 sample" and plural(2, "sample") == "2 samples"
    assert precision_lines(_grid(1), 100.0)[1].startswith("+/-100 points needs 1 sample (worst")


def test_a_pilot_that_is_not_a_log_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.eval"
    bad.write_text("not a log", encoding="utf-8")
    with pytest.raises(UserInputError, match="--pilot .*notes.eval: not a readable Inspect log"):
        precision_lines(_grid(1), None, bad)
