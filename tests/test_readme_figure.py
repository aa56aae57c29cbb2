"""The README's evaluation report agrees with itself and with polar-report: its ranking figure
is what polar-report's ranking figure draws from the example's leaderboard (the committed
fixture, written by `python tools/readme_figure.py REPORT`), its table says what that
leaderboard says, and polar-report names the README example's agents as the table does."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

from polar_inspect.report.tables import ci_text

REPO = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| (\d+) \| `([^`]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|", re.MULTILINE)


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_figure", REPO / "tools/readme_figure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_figure"] = module
    spec.loader.exec_module(module)
    return module


def _readme_rows() -> list[tuple[str, ...]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Evaluation report", 1)[1].split("\n## ", 1)[0]
    return [tuple(cell.strip() for cell in row) for row in ROW.findall(section)]


def test_the_committed_figure_is_what_polar_report_draws_from_the_fixture(tmp_path: Path) -> None:
    tool = _tool()
    drawn = imread(tool.draw(tool.FIXTURE, tmp_path / "ranking.png"))
    committed = imread(tool.FIGURE)
    assert drawn.shape == committed.shape, "run python tools/readme_figure.py"
    assert np.array_equal(drawn, committed), "run python tools/readme_figure.py"


def test_the_readme_table_says_what_the_fixture_says() -> None:
    board = pd.read_csv(_tool().FIXTURE)

    def shown(row: pd.Series, key: str) -> str:
        low, high = row[f"{key}_ci_low"], row[f"{key}_ci_high"]
        return f"{row[key]:.1f}" if low == high else ci_text(row[key], low, high)

    expected = [
        (str(r["rank"]), r["model"], *(shown(r, k) for k in ("privacy", "utility", "overall")))
        for _, r in board.iterrows()
    ]
    assert _readme_rows() == expected


@pytest.mark.slow
def test_polar_report_names_the_readme_agents_as_the_fixture_does(tmp_path: Path) -> None:
    from inspect_ai import eval_set
    from inspect_ai.model import get_model

    from polar_inspect.report import build_report

    options = {"leak_policies": "P5", "leak_attacks": "S2"}  # the README's -M list, every agent
    agents = ["polar/oracle", "polar/leaky", "polar/refuse", "polar/mixed"]
    ok, _ = eval_set(
        "polar_inspect/privacy_mini",
        model=[get_model(name, **options) for name in agents],
        log_dir=str(tmp_path / "logs"),
        limit=3,
        display="none",
    )
    assert ok
    build_report([tmp_path / "logs"], tmp_path / "report")
    names = pd.read_csv(tmp_path / "report" / "leaderboard.csv")["model"]
    assert sorted(names) == sorted(pd.read_csv(_tool().FIXTURE)["model"])
