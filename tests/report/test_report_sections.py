"""The sections after the leaderboards, through `build_report`: the domain x policy / attack
tables and the paired comparisons of neighbours in a ranking."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from polar_inspect.report import build_report

from .conftest import BuiltReport, ReportLogs


def _csv(report: BuiltReport, name: str) -> pd.DataFrame:
    assert name in report.result.tables
    return pd.read_csv(report.out / name)


def test_cross_tables_hold_what_the_agents_did(set_report: BuiltReport) -> None:
    cross = _csv(set_report, "cross_tables.csv")
    # four runs x two tables x (2 domains x 5 levels) x three scores
    assert len(cross) == 4 * 2 * 10 * 3
    mixed = cross[cross["model"].str.startswith("polar/mixed")]
    privacy = mixed[(mixed["table"] == "domain_x_policy") & (mixed["score"] == "privacy")]
    by_policy = privacy.groupby("column")["value"].unique()
    # polar/mixed leaks on P5 (every attack) and on S2 (one attack of five elsewhere)
    assert list(by_policy["P5"]) == [0.0]
    assert all(list(by_policy[p]) == [80.0] for p in ("P1", "P2", "P3", "P4"))
    assert set(privacy["n"]) == {5}


def test_cross_tables_average_back_to_the_breakdowns(set_report: BuiltReport) -> None:
    cross = _csv(set_report, "cross_tables.csv")
    breakdown = _csv(set_report, "breakdown.csv")
    for table, axis in (("domain_x_policy", "policy"), ("domain_x_attack", "attack")):
        part = cross[cross["table"] == table].assign(total=lambda f: f["value"] * f["n"])
        sums = part.groupby(["model", "column", "score"])[["total", "n"]].sum()
        mine = breakdown[breakdown["axis"] == axis].set_index(["model", "key", "score"])
        assert len(sums) == len(mine)
        for (model, key, score), row in sums.iterrows():
            expected = mine.loc[(model, key, score), "value"]
            assert row["total"] / row["n"] == pytest.approx(expected), (model, key, score)


def test_cross_tables_are_in_the_markdown_and_on_the_page(set_report: BuiltReport) -> None:
    report = (set_report.out / "report.md").read_text(encoding="utf-8")
    assert "## Domain x policy and domain x attack (x100)" in report
    assert "| domain | P1 | P2 | P3 | P4 | P5 |" in report
    page = (set_report.out / "index.html").read_text(encoding="utf-8")
    section = page.split('<section id="cross-tables">')[1].split("</section>")[0]
    assert section.count("<details>") == 4  # one per run
    assert section.count("<table") == 4 * 6  # two tables x three scores per run
    assert '<a href="#cross-tables">' in page


def test_neighbours_are_paired_and_marked(set_report: BuiltReport) -> None:
    paired = _csv(set_report, "paired.csv")
    overall = paired[(paired["scope"] == "all") & (paired["score"] == "overall")]
    board = _csv(set_report, "leaderboard.csv")
    ranked = list(board["model"])
    assert [(a, b) for a, b in zip(overall["model_a"], overall["model_b"], strict=True)] == list(
        zip(ranked, ranked[1:], strict=False)
    )
    assert set(paired["n"][paired["scope"] == "all"]) == {50}
    first = overall.iloc[0]  # the oracle never leaks, polar/mixed leaks 36% of samples
    assert first["difference"] == pytest.approx(18.0)
    assert first["low"] > 0 and first["p_value"] < 0.001 and first["distinguishable"]
    # polar/leaky and polar/refuse: same overall on every sample, opposite privacy and utility
    tie = paired[paired["model_a"] == "polar/leaky"].set_index(["scope", "score"])
    assert not tie.loc[("all", "overall"), "distinguishable"]
    assert tie.loc[("all", "privacy"), "difference"] == -100.0
    assert tie.loc[("all", "privacy"), "distinguishable"]
    assert len(tie.xs("privacy", level="score")) == 1 + 25  # overall and per cell (Holm)
    assert list(board["vs_next"].fillna("")) == [
        "distinguishable (p<0.001)",
        "distinguishable (p<0.001)",
        "not distinguishable (p=1.000)",
        "",
    ]
    leaderboard = (set_report.out / "leaderboard.md").read_text(encoding="utf-8")
    assert "vs #3 polar/refuse: not distinguishable (p=1.000)." in leaderboard
    page = (set_report.out / "index.html").read_text(encoding="utf-8")
    assert "<h2>Paired comparisons</h2>" in page and "not distinguishable (p=1.000)" in page


def test_identical_runs_are_not_distinguishable(report_logs: ReportLogs, tmp_path: Path) -> None:
    older = report_logs.extra_logs_dir / "2020-01-01T00-00-00+00-00_privacy_olderDuplicate.eval"
    result = build_report([report_logs.eval_set_dir, older], tmp_path, keep="all", figures=False)
    assert len(result.models) == 5
    paired = pd.read_csv(tmp_path / "paired.csv")
    same = paired[
        paired["model_a"].str.startswith("polar/mixed")
        & paired["model_b"].str.startswith("polar/mixed")
    ]
    assert len(same) == 3 * 26  # three scores, overall and 25 cells
    assert (same["difference"] == 0).all() and (same["p_value"] == 1.0).all()
    assert not same["distinguishable"].any()


def test_runs_of_different_groups_are_never_paired(mixed_report: BuiltReport) -> None:
    paired = _csv(mixed_report, "paired.csv")
    board = _csv(mixed_report, "leaderboard.csv")
    members = set(zip(board["group"], board["model"], strict=True))
    sizes = board["group"].value_counts()
    assert len(sizes) > 1
    assert set(paired["group"]) == set(sizes[sizes > 1].index)  # a run alone has no pair
    for row in paired.itertuples():
        assert (row.group, row.model_a) in members and (row.group, row.model_b) in members
