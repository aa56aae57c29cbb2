"""Runs over different sample sets are never ranked together; `--out` is checked and reused
cleanly."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval

from polar_inspect.report import build_report
from polar_inspect.report.cli import main
from polar_inspect.report.outdir import MANIFEST
from tests.report.conftest import TASK, ReportLogs


def _limited_run(model: str, data: Path, log_dir: Path, **options: object) -> None:
    (log,) = inspect_eval(
        TASK,
        model=model,
        task_args={"data": str(data)},
        log_dir=str(log_dir),
        display="none",
        **options,
    )
    assert log.status == "success"


@pytest.fixture(scope="module")
def limited_logs(report_logs: ReportLogs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three runs over one data file: two on the first 5 samples, one on samples 11-15."""
    root = tmp_path_factory.mktemp("limited")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POLAR_CACHE_DIR", str(root / "cache"))
        _limited_run("polar/oracle", report_logs.grid_file, root, limit=5)
        _limited_run("polar/leaky", report_logs.grid_file, root, limit=5)
        _limited_run("polar/refuse", report_logs.grid_file, root, limit=(10, 15))
    return root


def test_runs_over_different_samples_are_ranked_apart(limited_logs: Path, tmp_path: Path) -> None:
    result = build_report([limited_logs], tmp_path, jobs=1, figures=False)
    board = pd.read_csv(tmp_path / "leaderboard.csv")
    group_of = dict(zip(board.model, board.group, strict=True))
    oracle = group_of["polar/oracle [ORACLE]"]
    assert oracle == group_of["polar/leaky"] != group_of["polar/refuse"]
    assert len(result.groups) == 2
    text = (tmp_path / "leaderboard.md").read_text(encoding="utf-8")
    assert "**Sample set**: 5 samples x 1 epoch" in text and "run with --limit 5" in text
    assert "run with --limit 10-15" in text


def test_epochs_make_a_different_sample_set(report_logs: ReportLogs, tmp_path: Path) -> None:
    """The same ids over two epochs are not ranked with one epoch over the same ids."""
    one = tmp_path / "one"
    (log,) = inspect_eval(
        TASK,
        model="polar/refuse",
        task_args={"data": str(report_logs.grid_file), "attack": "S1"},
        log_dir=str(one),
        display="none",
    )
    assert log.status == "success"
    result = build_report([report_logs.epochs_dir, one], tmp_path / "out", jobs=1, figures=False)
    assert len(result.groups) == 2
    described = [" ".join(g.description) for g in result.groups]
    assert any("x 2 epochs" in d for d in described) and any("x 1 epoch " in d for d in described)


def test_out_that_is_a_file_or_under_a_file_exits_two(
    report_logs: ReportLogs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "report.txt"
    a_file.write_text("mine", encoding="utf-8")
    for out, reason in [(a_file, "is a file, not a folder"), (a_file / "sub", "is a file")]:
        assert main([str(report_logs.epochs_dir), "--out", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert f"polar-report: --out {out}: " in err and reason in err
        assert "Traceback" not in err
    assert a_file.read_text(encoding="utf-8") == "mine"


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX, not root")
def test_unwritable_out_exits_two(
    report_logs: ReportLogs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main([str(report_logs.epochs_dir), "--out", str(locked), "--quiet"]) == 2
    finally:
        locked.chmod(0o700)
    assert "cannot write there (Permission denied)" in capsys.readouterr().err


@pytest.mark.slow
def test_a_reused_out_folder_keeps_no_stale_report_file(
    report_logs: ReportLogs, limited_logs: Path, tmp_path: Path
) -> None:
    """Two groups, then one group, into one folder: only the second report's files remain,
    and files the user put there stay."""
    (tmp_path / "notes.md").write_text("mine", encoding="utf-8")
    first = build_report([limited_logs], tmp_path, jobs=1)
    first_figures = {f.path for f in first.figures}
    assert any(p.endswith("_B.png") for p in first_figures)
    assert {str(p.relative_to(tmp_path)) for p in (tmp_path / "figures").iterdir()} == (
        first_figures
    )
    second = build_report([report_logs.epochs_dir], tmp_path, jobs=1, figures=False)
    assert second.figures == []
    assert not (tmp_path / "figures").exists()  # every earlier figure removed, then its folder
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "epochs.csv").exists() or "epochs.csv" in second.tables
    assert (tmp_path / MANIFEST).is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "0"], "--jobs: must be at least 1"),
        (["--jobs", "-3"], "--jobs: must be at least 1"),
        (["--weight", "abc"], "--weight: not a number: 'abc'"),
    ],
)
def test_bad_option_values_exit_two(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path), "--out", str(tmp_path / "out"), *args])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_report_inside_its_log_folder_does_not_read_its_own_files(
    limited_logs: Path, tmp_path: Path
) -> None:
    import shutil

    logs = tmp_path / "logs"
    shutil.copytree(limited_logs, logs, ignore=shutil.ignore_patterns("cache"))
    build_report([logs], logs, jobs=1, figures=False)
    again = build_report([logs], logs, jobs=1, figures=False)
    assert again.skipped == []
