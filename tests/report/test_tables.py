"""The report's tables say exactly what the logs' metrics say."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log

from polar_inspect.report import build_report
from polar_inspect.scorers.parity import SCORE_KEYS
from tests.report.conftest import MIXED, BuiltReport, ReportLogs


def _metrics(log_path: str) -> dict[str, dict[str, float]]:
    header = read_eval_log(log_path, header_only=True)
    assert header.results is not None
    return {s.name: {k: m.value for k, m in s.metrics.items()} for s in header.results.scores}


def test_leaderboard_csv_equals_the_logged_means(set_report: BuiltReport) -> None:
    board = pd.read_csv(set_report.out / "leaderboard.csv")
    assert len(board) == 4
    for row in board.itertuples():
        metrics = _metrics(row.log)
        for key in SCORE_KEYS:
            assert getattr(row, key) == pytest.approx(100 * metrics[key]["mean"], abs=1e-6)
        header = read_eval_log(row.log, header_only=True)
        assert row.n == header.results.scores[0].scored_samples == 50
        assert row.errors == 0
        assert row.s5_attacker == "replayed"
        assert row.data_kind == "path"


def test_known_scores_and_ranking(set_report: BuiltReport) -> None:
    board = pd.read_csv(set_report.out / "leaderboard.csv").set_index("model")
    # polar/mixed leaks on 9 of the 25 cells (row P5 and column S2): privacy 16/25.
    expected = {
        "polar/oracle [ORACLE]": (100.0, 100.0, 100.0, 1),
        MIXED: (64.0, 100.0, 82.0, 2),
        "polar/leaky": (0.0, 100.0, 50.0, 3),
        "polar/refuse": (100.0, 0.0, 50.0, 3),
    }
    for model, (privacy, utility, overall, rank) in expected.items():
        row = board.loc[model]
        assert (row.privacy, row.utility, row.overall) == pytest.approx((privacy, utility, overall))
        assert row["rank"] == rank


def test_markdown_leaderboard_rounds_the_logged_means(set_report: BuiltReport) -> None:
    board = pd.read_csv(set_report.out / "leaderboard.csv").set_index("model")
    text = (set_report.out / "leaderboard.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "polar/" in line]
    assert len(rows) == 4
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 5  # rank, model, three scores: the rest is the same in every row
        model = cells[1]
        metrics = _metrics(board.loc[model, "log"])
        for cell, key in zip(cells[2:5], SCORE_KEYS, strict=True):
            assert cell.split(" ")[0] == f"{100 * metrics[key]['mean']:.1f}", (model, key)
    for shared in (
        "- **Samples scored (n)**: 50",
        "- **Errored samples**: 0",
        "- **S5 attacker**: replayed",
        "- **Data**: path (",
        "- **Task arguments**: defaults",
    ):
        assert shared in text


@functools.cache
def _samples(log_path: str) -> list[tuple[dict, dict]]:
    """Each sample's metadata and polar score value (a log is read once)."""
    log = read_eval_log(log_path)
    assert log.samples is not None
    return [(s.metadata, s.scores["polar_scorer"].value) for s in log.samples if s.scores]


def _sample_means(log_path: str, axis: str, key: str, score: str) -> float:
    """The mean of one score over the log's samples whose metadata `axis` equals `key`."""
    values = [float(v[score]) for meta, v in _samples(log_path) if str(meta[axis]) == key]
    assert values, (log_path, axis, key)
    return sum(values) / len(values)


def test_breakdowns_equal_the_means_of_the_logged_samples(set_report: BuiltReport) -> None:
    board = pd.read_csv(set_report.out / "leaderboard.csv").set_index("model")
    rows = pd.read_csv(set_report.out / "breakdown.csv", keep_default_na=False)
    assert set(rows["axis"]) == {"domain", "policy", "attack", "cell"}
    # 4 models x (2 domains + 5 policies + 5 attacks + 25 cells) x 3 scores
    assert len(rows) == 4 * 37 * 3
    checked = rows[rows["axis"].isin(["domain", "cell"]) & (rows["model"] == MIXED)]
    for row in checked.itertuples():
        expected = _sample_means(board.loc[row.model, "log"], row.axis, row.key, row.score)
        assert row.value == pytest.approx(100 * expected, abs=1e-6), row
    mixed = rows[(rows["model"] == MIXED) & (rows["score"] == "privacy")]
    assert set(mixed[mixed["axis"] == "policy"]["value"].round(6)) == {80.0, 0.0}
    sizes = rows.groupby("axis")["n"].unique()
    assert list(sizes["domain"]) == [25]
    assert list(sizes["cell"]) == [2]
    assert list(sizes["attack"]) == [10]


def test_confidence_intervals_agree_with_the_logged_stderr(set_report: BuiltReport) -> None:
    board = pd.read_csv(set_report.out / "leaderboard.csv").set_index("model")
    row = board.loc[MIXED]
    stderr = _metrics(row.log)["privacy"]["stderr"]
    assert (row.privacy_ci_high - row.privacy_ci_low) / 2 == pytest.approx(
        1.959963984540054 * 100 * stderr, rel=1e-6
    )
    assert row.privacy_ci_low < row.privacy < row.privacy_ci_high
    oracle = board.loc["polar/oracle [ORACLE]"]
    assert oracle.privacy_ci_low == oracle.privacy_ci_high == 100.0


def test_another_lambda_recomputes_overall_and_says_so(
    report_logs: ReportLogs, tmp_path: Path
) -> None:
    result = build_report([report_logs.eval_set_dir], tmp_path, weight=0.3, figures=False)
    assert result.figures == [] and not (tmp_path / "figures").exists()
    board = pd.read_csv(tmp_path / "leaderboard.csv").set_index("model")
    mixed = board.loc[MIXED]
    assert mixed.overall == pytest.approx(0.3 * 64.0 + 0.7 * 100.0)
    assert mixed.weight == 0.3 and mixed.log_weight == 0.5
    assert list(board.sort_values("rank").index[:2]) == [
        "polar/oracle [ORACLE]",
        MIXED,
    ]
    text = (tmp_path / "leaderboard.md").read_text(encoding="utf-8")
    assert "Overall (λ=0.3)" in text
    assert "recomputed at λ = 0.3" in text
    rows = pd.read_csv(tmp_path / "breakdown.csv", keep_default_na=False)
    cell = rows[(rows.model == "polar/refuse") & (rows.key == "P1xS1") & (rows.score == "overall")]
    assert cell.value.item() == pytest.approx(30.0)


@pytest.mark.slow
def test_epoch_spread_is_tabulated(report_logs: ReportLogs, tmp_path: Path) -> None:
    result = build_report([report_logs.epochs_dir], tmp_path, jobs=1)
    board = pd.read_csv(tmp_path / "leaderboard.csv")
    assert board.epochs.tolist() == [2]
    assert board.n.tolist() == [10]
    epochs = pd.read_csv(tmp_path / "epochs.csv")
    assert epochs.epoch.tolist() == [1, 2]
    assert epochs.n.tolist() == [10, 10]
    assert epochs.privacy.tolist() == [100.0, 100.0]
    assert "Spread across epochs" in (tmp_path / "report.md").read_text(encoding="utf-8")
    assert any(Path(f.path).name == "epochs.png" for f in result.figures)
    assert not any("surface_mean" in f.path for f in result.figures)  # one model: no mean


def test_markdown_report_lists_every_figure(set_report: BuiltReport) -> None:
    text = (set_report.out / "report.md").read_text(encoding="utf-8")
    links = set(re.findall(r"\]\((figures/[^)]+\.png)\)", text))
    assert links == {f.path for f in set_report.result.figures}
    assert "#### Privacy by attack (x100)" in text
    surfaces = (set_report.out / "surfaces.md").read_text(encoding="utf-8")
    assert f"#### {MIXED}: privacy (x100, n samples)" in surfaces
    assert "| P5 Conflicting | 0.0 (2) |" in surfaces
