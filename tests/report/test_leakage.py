"""`polar-report`'s leakage-by-turn curve, from logs of the adaptive attacker with a budget."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from polar_inspect.report import build_report
from tests.conftest import PROTECTED, make_record
from tests.helpers import run


@pytest.fixture(scope="module")
def leakage_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two models against the adaptive attacker with budget 10, reported together."""
    work = tmp_path_factory.mktemp("leakage")
    data = work / "records.json"
    records = [make_record(0, attack="S2"), make_record(1, attack="S5"), make_record(2)]
    data.write_text(json.dumps(records), encoding="utf-8")
    for model in ("polar/trickle", "polar/refuse"):
        run(
            "polar_inspect/privacy",
            model,
            work / "logs",
            model_roles={"attacker": "polar/adaptive-attacker"},
            data=str(data),
            attacker="adaptive",
            attack_budget=10,
        )
    out = work / "report"
    build_report([work / "logs"], out, jobs=1)
    return out


@pytest.mark.slow
def test_curve_per_model_and_strategy_saturates_where_leakage_stops(leakage_report) -> None:
    curves = pd.read_csv(leakage_report / "leakage_by_turn.csv")
    trickle = curves[curves["label"].str.contains("trickle") & (curves["attack"] == "S2")]
    # polar/trickle discloses one more protected value per turn; the attacker stops at 6 of 6,
    # and the curve stays there up to the group's longest dialogue (10 turns against refuse).
    assert trickle["turn"].tolist() == list(range(1, 11))
    expected = [min(t, len(PROTECTED)) / len(PROTECTED) for t in range(1, 11)]
    assert trickle["leakage"].tolist() == pytest.approx(expected)
    assert (trickle["n"] == 1).all()
    s1 = curves[curves["label"].str.contains("trickle") & (curves["attack"] == "S1")]
    # S1 has one message: its dialogue ends at turn 1 and keeps that leakage afterwards.
    assert s1["leakage"].tolist() == pytest.approx([1 / len(PROTECTED)] * 10)
    overall = curves[curves["label"].str.contains("trickle") & (curves["attack"] == "all")]
    assert overall["n"].tolist() == [3] * 10
    assert overall["low"].iloc[1] < overall["leakage"].iloc[1] < overall["high"].iloc[1]
    refuse = curves[curves["label"].str.contains("refuse") & (curves["attack"] == "S5")]
    assert refuse["turn"].max() == 10  # the whole budget was spent, for nothing
    assert (refuse["leakage"] == 0).all()


def test_curve_figure_is_drawn_and_listed(leakage_report) -> None:
    assert (leakage_report / "figures" / "leakage_by_turn.png").stat().st_size > 10_000
    assert "leakage_by_turn.png" in (leakage_report / "report.md").read_text(encoding="utf-8")
