"""polar-report on `s3://` log folders (a local S3 server) gives the files it gives on a local
copy of the same logs, keeps its caches on this machine and writes nothing into the bucket."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from polar_inspect.report import build_report, samples
from polar_inspect.report.inventory import ReportInputError, expand_inputs
from tests.report.conftest import ReportLogs
from tests.s3_server import local_s3

BUCKET = "team-logs"


def _s3():  # noqa: ANN202
    s3fs = pytest.importorskip("s3fs")
    return s3fs.S3FileSystem(skip_instance_cache=True)


def _bucket_files(fs) -> dict[str, int]:  # noqa: ANN001
    return {path: fs.info(path)["size"] for path in fs.find(BUCKET)}


def _tables(out: Path, prefix: str) -> dict[str, str]:
    """The report's csv files, with the logs' location prefix taken out of them."""
    return {
        p.name: p.read_text(encoding="utf-8").replace(prefix, "LOGS/")
        for p in sorted(out.glob("*.csv"))
    }


def _same_report(uri: str, local: Path, out: Path, **options: object) -> dict[str, str]:
    """Report over `uri` and over its local copy `local`; assert equal csv files; return them."""
    build_report([uri], out / "s3", figures=False, **options)
    build_report([local], out / "local", figures=False, **options)
    remote = _tables(out / "s3", uri.rstrip("/") + "/")
    here = _tables(out / "local", f"{local.resolve()}/")
    assert remote.keys() == here.keys()
    for name, text in remote.items():
        assert text.splitlines() == here[name].splitlines(), name
    assert "leaderboard.csv" in remote and "LOGS/" in remote["logs.csv"]
    return remote


def test_a_report_over_s3_equals_one_over_a_local_copy(
    report_logs: ReportLogs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = tmp_path / "logs"
    shutil.copytree(report_logs.eval_set_dir, local / "set")
    shutil.copytree(report_logs.extra_logs_dir, local / "extras")
    monkeypatch.setenv("POLAR_CACHE_DIR", str(tmp_path / "cache"))
    with local_s3(monkeypatch, BUCKET):
        fs = _s3()
        fs.put(str(local), f"{BUCKET}/logs", recursive=True)
        uri = f"s3://{BUCKET}/logs"
        listed = expand_inputs([uri])
        assert len(listed) == len(expand_inputs([local])) > 8
        assert all(name.startswith(f"{uri}/") for name in listed)
        assert f"{uri}/extras/notes.json" in listed  # a .json Inspect does not list
        before = _bucket_files(fs)
        tables = _same_report(uri, local, tmp_path / "out", jobs=1)  # the pool: the slow test's CLI
        assert "status error" in tables["logs.csv"] and "duplicate" in tables["logs.csv"]
        assert _bucket_files(fs) == before  # no cache, staging or report file in the bucket
        assert list((tmp_path / "cache" / "report").glob("*.pkl"))  # the caches are local

        def refuse(path: str) -> object:
            raise AssertionError(f"read again: {path}")

        monkeypatch.setattr(samples, "ROW_READER", refuse)
        monkeypatch.setattr(samples, "read_header", refuse)
        build_report([uri], tmp_path / "again", figures=False, jobs=1)
        assert _tables(tmp_path / "again", f"{uri}/") == tables
        with pytest.raises(ReportInputError, match="nothing-here: no such bucket or prefix"):
            expand_inputs([f"s3://{BUCKET}/nothing-here"])


@pytest.mark.slow
def test_an_eval_set_written_to_s3_by_two_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POLAR_CACHE_DIR", str(tmp_path / "cache"))
    with local_s3(monkeypatch, BUCKET):
        uri = f"s3://{BUCKET}/team/set"
        for model in ("polar/refuse", "polar/mixed"):  # two people, two eval sets, one folder
            command = [sys.executable, "-m", "inspect_ai", "eval-set", "polar_inspect/privacy",
                       "--model", model, "-T", "data=bundled", "--log-dir", uri, "--limit", "6",
                       "--log-dir-allow-dirty", "--display", "none"]  # fmt: skip
            done = subprocess.run(command, env=os.environ, capture_output=True, text=True)
            assert done.returncode == 0, done.stderr[-2000:]
        fs = _s3()
        local = tmp_path / "copy"
        fs.get(f"{BUCKET}/team/set", str(local), recursive=True)
        # in-process with jobs=1: a worker pool started by an earlier test in this process
        # would fork from a server holding that test's environment; the CLI below uses the pool
        tables = _same_report(uri, local, tmp_path / "out", jobs=1)
        board = tables["leaderboard.csv"]
        assert "polar/refuse" in board and "polar/mixed" in board
        report = subprocess.run([sys.executable, "-m", "polar_inspect.report", uri, "--out",
                                 str(tmp_path / "cli"), "--tables-only", "--quiet"],
                                env=os.environ, capture_output=True, text=True)  # fmt: skip
        assert report.returncode == 0, report.stderr[-2000:]
        assert _tables(tmp_path / "cli", f"{uri}/") == tables
