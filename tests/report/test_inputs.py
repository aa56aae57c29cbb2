"""Which logs a report uses: eval-set folders, skipped logs, duplicates, setups, the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from polar_inspect.report import build_report
from polar_inspect.report.cli import main
from tests.report.conftest import MIXED, SET_AGENTS, BuiltReport, ReportLogs


def _board(report: BuiltReport) -> pd.DataFrame:
    return pd.read_csv(report.out / "leaderboard.csv")


def test_an_eval_set_folder_is_read_as_logs_only(set_report: BuiltReport) -> None:
    assert (set_report.out / "logs.csv").exists()
    assert set_report.result.files_seen == len(SET_AGENTS)  # not logs.json / eval-set.json
    shown = {m.removesuffix(" [ORACLE]") for m in set_report.result.models}
    assert shown == {*SET_AGENTS[:3], MIXED.removesuffix(" [ORACLE]")}  # mixed: its options
    assert set_report.result.skipped == []
    assert len(set_report.result.groups) == 1


def test_skipped_logs_are_listed_with_their_reason(
    mixed_report: BuiltReport, report_logs: ReportLogs
) -> None:
    logs = pd.read_csv(mixed_report.out / "logs.csv", keep_default_na=False)
    skipped = logs[logs.decision == "skipped"].set_index("reason")
    assert sorted(skipped.index) == [
        "duplicate",
        "not a polar_inspect log",
        "status error",
        "unreadable",
    ]
    assert skipped.loc["duplicate", "log"].endswith("olderDuplicate.eval")
    assert "the same run identity as the newer" in skipped.loc["duplicate", "detail"]
    assert skipped.loc["status error", "model"] == "polar/errored"
    assert "connection lost" in skipped.loc["status error", "detail"]
    assert skipped.loc["not a polar_inspect log", "task"] == "hello"
    assert skipped.loc["unreadable", "log"] == str(report_logs.extra_logs_dir / "notes.json")
    assert len(logs[logs.decision == "used"]) == len(_board(mixed_report)) == 7
    text = (mixed_report.out / "report.md").read_text(encoding="utf-8")
    assert "- duplicate: 1" in text and "- unreadable: 1" in text


def test_the_newest_duplicate_wins(mixed_report: BuiltReport, set_report: BuiltReport) -> None:
    board = _board(mixed_report)
    mixed = board[(board.model == MIXED) & (board.s5_attacker == "replayed")]
    assert mixed.log.tolist() == _board(set_report).set_index("model").loc[[MIXED]].log.tolist()


def test_different_setups_are_ranked_separately(mixed_report: BuiltReport) -> None:
    board = _board(mixed_report)
    groups = {name: part for name, part in board.groupby("group")}
    assert len(groups) == 4 == len(mixed_report.result.groups)
    for part in groups.values():
        assert part["rank"].min() == 1
    live = board[board.s5_attacker.str.startswith("live")]
    assert live.s5_attacker.tolist() == ["live: polar/replay-attacker"]
    assert live.task_args.item() == "attack=S5"
    assert '"attack": "S5"' in live.task_args_json.item() and '"data"' in live.task_args_json.item()
    other = board[board.data_source.str.contains("other.json")]
    assert other.model.tolist() == ["polar/refuse"]
    assert other.group.nunique() == 1 and other.group.item() not in set(live.group)
    text = (mixed_report.out / "leaderboard.md").read_text(encoding="utf-8")
    assert "Not one ranking" in text
    assert text.count("### Group ") == 4
    names = {Path(f.path).name for f in mixed_report.result.figures}
    assert {f"ranking_{g}.png" for g in groups} <= names
    assert "ranking.png" not in names


def test_errored_samples_are_counted_and_excluded(mixed_report: BuiltReport) -> None:
    row = _board(mixed_report).set_index("model").loc["mockllm/model (custom_outputs=…)"]
    header = read_eval_log(row.log, header_only=True)
    metrics = {s.name: s.metrics["mean"].value for s in header.results.scores}
    assert (row.n, row.errors) == (4, 6)
    text = (mixed_report.out / "leaderboard.md").read_text(encoding="utf-8")
    assert "errored in every epoch are left out of the scores" in text
    assert "(custom_outputs=…) (6)" in text
    page = (mixed_report.out / "index.html").read_text(encoding="utf-8")
    assert "errored in every epoch are left out of the scores" in page
    assert row.privacy == pytest.approx(100 * metrics["privacy"])
    assert row.utility == pytest.approx(100 * metrics["utility"])
    assert row.s5_attacker == "not used"


def test_keep_all_reports_every_duplicate(report_logs: ReportLogs, tmp_path: Path) -> None:
    mixed = next(
        p
        for p in report_logs.eval_set_dir.glob("*.eval")
        if read_eval_log(str(p), header_only=True).eval.model == "polar/mixed"
    )
    older = report_logs.extra_logs_dir / "2020-01-01T00-00-00+00-00_privacy_olderDuplicate.eval"
    result = build_report([mixed, older], tmp_path, keep="all", jobs=1, figures=False)
    assert result.skipped == []
    created = read_eval_log(str(mixed), header_only=True).eval.created[:19].replace("T", " ")
    assert sorted(result.models) == [
        "polar/mixed (leak_attacks=S2, leak_policies=P5) @ 2020-01-01 00:00:00 [ORACLE]",
        f"polar/mixed (leak_attacks=S2, leak_policies=P5) @ {created} [ORACLE]",
    ]


def test_cli_exit_codes_and_progress(
    report_logs: ReportLogs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing"), "--out", str(tmp_path / "a")]) == 2
    assert "missing: no such file or directory" in capsys.readouterr().err
    hello = next(
        p
        for p in report_logs.extra_logs_dir.glob("*.eval")
        if read_eval_log(str(p), header_only=True).eval.task == "hello"
    )
    assert main([str(hello), "--out", str(tmp_path / "b"), "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "no usable polar_inspect log: 1 file, none usable: 1 not a polar_inspect log" in err
    assert "reading log headers" in err  # the progress bar
    assert not (tmp_path / "b").exists()  # nothing written
    with pytest.raises(SystemExit):
        main([str(hello), "--out", str(tmp_path / "c"), "--weight", "1.5"])


@pytest.mark.slow
def test_python_dash_m_writes_a_report(report_logs: ReportLogs, tmp_path: Path) -> None:
    out = tmp_path / "report"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "polar_inspect.report",
            str(report_logs.epochs_dir),
            "--out",
            str(out),
            "--quiet",
            "--tables-only",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 run used, 0 skipped" in done.stdout
    assert (out / "index.html").exists() and (out / "epochs.csv").exists()
    assert not (out / "figures").exists()


def test_json_logs_are_read_like_eval_logs(report_logs: ReportLogs, tmp_path: Path) -> None:
    (source,) = report_logs.epochs_dir.glob("*.eval")
    copy = tmp_path / "logs" / "oracle-two-epochs.json"
    copy.parent.mkdir()
    write_eval_log(read_eval_log(str(source)), str(copy))
    result = build_report([copy.parent], tmp_path / "out", jobs=1, figures=False)
    assert result.models == ["polar/oracle [ORACLE]"] and result.skipped == []
    board = pd.read_csv(tmp_path / "out" / "leaderboard.csv")
    assert (board.n.item(), board.epochs.item(), board.privacy.item()) == (10, 2, 100.0)
