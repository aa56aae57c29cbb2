"""polar-cost's precision lines: what a selection can tell apart before it runs."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log

from polar_inspect.cost.precision_note import precision_lines
from polar_inspect.errors import UserInputError
from polar_inspect.scorers.parity import SCORE_KEYS
from tests.conftest import make_record


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


@pytest.fixture(scope="module")
def pilot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pilot run of six samples with `polar/mixed` (leaks on some, not others)."""
    root = tmp_path_factory.mktemp("pilot")
    records = [make_record(i, attack=a, policy=p) for i, (a, p) in
               enumerate([("S1", "P1"), ("S2", "P5"), ("S3", "P2"), ("S4", "P5"),
                          ("S1", "P3"), ("S2", "P4")])]  # fmt: skip
    data = root / "records.json"
    data.write_text(json.dumps(records), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POLAR_CACHE_DIR", str(root / "cache"))
        [log] = inspect_eval("polar_inspect/privacy", model="polar/mixed",
                             model_args={"leak_policies": "P5"}, task_args={"data": str(data)},
                             log_dir=str(root / "logs"), display="none")  # fmt: skip
    assert log.status == "success" and log.location
    return Path(log.location)


@pytest.mark.slow
def test_a_pilot_gives_the_expected_half_width_from_its_own_scores(pilot_log: Path) -> None:
    log = read_eval_log(str(pilot_log))
    scores = [next(s.value for s in (sample.scores or {}).values() if isinstance(s.value, dict))
              for sample in log.samples or []]  # fmt: skip
    sd = {key: statistics.stdev(float(v[key]) for v in scores) for key in SCORE_KEYS}
    assert max(sd.values()) > 0  # the pilot's scores differ between samples
    lines = precision_lines(_grid(1), 2.0, pilot_log)
    expected = ", ".join(f"{k} +/-{100 * 1.959964 * s / math.sqrt(250):.1f}" for k, s in sd.items())
    assert f"(6 scored samples): {expected} points on 250 samples" in lines[2]
    needed = math.ceil((1.959964 * max(sd.values()) / 0.02) ** 2)
    assert f"+/-2 points needs {needed:,} samples at the pilot's largest" in lines[3]


def test_a_pilot_that_is_not_a_log_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.eval"
    bad.write_text("not a log", encoding="utf-8")
    with pytest.raises(UserInputError, match="--pilot .*notes.eval: not a readable Inspect log"):
        precision_lines(_grid(1), None, bad)
