"""One rank numbering everywhere: standard competition ranking (1, 1, 3, 4) in the tables, the
ranking bars, the Pareto legend and labels, and the page's per-model sections."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

from polar_inspect.report.plots import pareto_figure, ranking_figure
from tests.report.conftest import BuiltReport

#: Two runs tied at the top, then two more: competition ranks 1, 1, 3, 4.
TIED = [("tied-a", 1.0, 1.0, 1), ("tied-b", 1.0, 1.0, 1), ("third", 0.6, 0.9, 3)]
TIED.append(("fourth", 0.0, 1.0, 4))


def tied_table() -> pd.DataFrame:
    """A summary-like table (scores 0-1) with a tie for first place."""
    return pd.DataFrame(
        {
            "label": label,
            "rank": rank,
            "privacy": privacy,
            "privacy_low": privacy,
            "privacy_high": privacy,
            "utility": utility,
            "utility_low": utility,
            "utility_high": utility,
            "overall": (privacy + utility) / 2,
            "overall_low": (privacy + utility) / 2,
            "overall_high": (privacy + utility) / 2,
        }
        for label, privacy, utility, rank in TIED
    )


def test_pareto_legend_and_labels_use_the_tables_ranks(tmp_path: Path, drawn: list[Figure]) -> None:
    pareto_figure(tied_table(), tmp_path, "p.png", (0.5,), "T")
    [figure] = drawn
    ax = figure.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [text.split(" ")[0] for text in legend[:4]] == ["#1", "#1", "#3", "#4"]
    labels = {t.get_text() for t in ax.texts if t.get_text().startswith("#")}
    assert labels == {"#1 ×2", "#3", "#4"}  # the tied pair shares one spot and one label


def test_ranking_bars_use_the_tables_ranks(tmp_path: Path, drawn: list[Figure]) -> None:
    ranking_figure(tied_table(), tmp_path, "r.png", 0.5, "T")
    [figure] = drawn
    ticks = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert [tick.split(" ")[0] for tick in ticks] == ["#1", "#1", "#3", "#4"]


@pytest.mark.slow
def test_the_page_numbers_runs_as_the_leaderboard_does(set_report: BuiltReport) -> None:
    board = pd.read_csv(set_report.out / "leaderboard.csv")
    assert sorted(board["rank"]) == [1, 2, 3, 3]  # leaky and refuse tie at 50
    page = (set_report.out / "index.html").read_text(encoding="utf-8")
    sections = re.findall(r"<summary>#(\d+) ", page)
    assert sections == [str(r) for r in board.sort_values(["rank", "model"])["rank"]]
    leaderboard = page.split("<h3>Leaderboard</h3>")[1].split("</table>")[0]
    cells = re.findall(r'<tr><td class="num" data-sort="(\d+)">', leaderboard)
    assert cells == ["1", "2", "3", "3"]
    markdown = (set_report.out / "leaderboard.md").read_text(encoding="utf-8")
    assert re.findall(r"^\| (\d+) \|", markdown, flags=re.M) == ["1", "2", "3", "3"]
    pareto = next(f for f in set_report.result.figures if f.path.endswith("/pareto.png"))
    assert "numbered by rank (ties share a number)" in pareto.caption


def test_long_labels_that_differ_in_the_middle_are_drawn_whole(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    """Two runs' labels that differ only in their middle stay whole (wrapped, never cut)."""
    table = tied_table().iloc[:2].copy()
    table["label"] = [
        f"polar/mixed (leak_attacks={attacks}, leak_policies=P1,P2,P3) [ORACLE]"
        for attacks in ("S1,S3,S5", "S4,S5,S1")
    ]
    ranking_figure(table, tmp_path, "r.png", 0.5, "T")
    pareto_figure(table, tmp_path, "p.png", (0.5,), "T")
    ranking, pareto = drawn
    ticks = [t.get_text() for t in ranking.axes[0].get_yticklabels()]
    legend = [t.get_text() for t in pareto.axes[0].get_legend().get_texts()][:2]
    for shown in (ticks, legend):
        assert [" ".join(text.split()) for text in shown] == [
            f"#1 {label}" + ("" if shown is ticks else " (P 100.0, U 100.0)")
            for label in table["label"]
        ]
        assert all("\n" in text for text in shown)  # over the width: on two lines


def test_a_sample_with_one_scored_epoch_is_in_n_and_not_among_the_errors() -> None:
    from polar_inspect.report.inventory import RunHeader
    from polar_inspect.report.stats import Group, run_summary

    metrics = {key: {"mean": 0.5} for key in ("privacy", "utility", "overall")}
    run = RunHeader.model_construct(label="m", metrics=metrics, weight=0.5, epochs=2)
    nan = float("nan")
    samples = pd.DataFrame(  # a errored in epoch 1 and scored in 2; b errored in both
        {"run": 0, "id": ["a", "a", "b", "b"], "epoch": [1, 2, 1, 2],
         "error": ["boom", "", "boom", "boom"], "privacy": [nan, 0.5, nan, nan],
         "utility": [nan, 0.5, nan, nan], "overall": [nan, 0.5, nan, nan],
         **{axis: "x" for axis in ("domain", "policy", "attack", "cell")}}
    )  # fmt: skip
    row = run_summary([run], samples, [Group(name="g", runs=[0], description=[])], 0.5).iloc[0]
    assert (row["n"], row["errors"], row["errored_epochs"]) == (1, 1, 1)
