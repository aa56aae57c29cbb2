"""Hostile: polar-report given something that holds no polar_inspect log.

Each used to print a blank line, a misleading "no such file or directory" for an `s3://` URL, or
a 13-line Markdown table ("among 0 files", "1 files") with exit status 1 and a `logs.csv` in
`--out`. Each is now one line saying what is wrong and what to do, status 2, `--out` untouched.
(The control, a folder of good logs, is `test_report.py`.)
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from polar_inspect.extras import report_main
from tests.hostile.conftest import BIN, write_text


def _refusal(capsys: pytest.CaptureFixture[str], given: str, out: Path) -> str:
    assert report_main([given, "--out", str(out), "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if not line.startswith("reading ")]
    assert captured.out == "" and len(lines) == 1, captured.err  # no blank line, no table
    assert not out.exists(), sorted(out.iterdir())  # nothing written into --out
    assert lines[0].startswith("polar-report: "), lines
    return lines[0]


def test_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _refusal(capsys, str(tmp_path / "nope"), tmp_path / "out")
    assert line == (
        f"polar-report: {tmp_path / 'nope'}: no such file or directory; give log files "
        "(.eval, .json) or the folder Inspect wrote them to (--log-dir)"
    )


@pytest.mark.parametrize("content", [[], ["notes.txt"]], ids=["empty", "no .eval/.json"])
def test_a_folder_without_log_files(
    content: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in content:
        write_text(folder / name, "hello")
    line = _refusal(capsys, str(folder), tmp_path / "out")
    assert line.startswith(f"polar-report: {folder}: no .eval or .json file there; give the")


def test_a_folder_of_files_that_are_no_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    write_text(folder / "a.json", "{}")
    write_text(folder / "b.json", "[1, 2]")
    write_text(folder / "c.eval", "not a zip")
    line = _refusal(capsys, str(folder), tmp_path / "out")
    assert line.startswith("polar-report: no usable polar_inspect log: 3 files, none usable: "
                           "3 unreadable (first: c.eval: "), line  # fmt: skip
    assert str(folder) not in line  # names the file, not its whole path


def test_one_file_that_is_no_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    given = write_text(tmp_path / "a.txt", "hello")
    line = _refusal(capsys, str(given), tmp_path / "out")
    assert line.startswith(
        "polar-report: no usable polar_inspect log: 1 file, none usable: "
        "1 not a log file (first: a.txt: not .eval/.json); give the"
    ), line


def test_an_existing_out_folder_is_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    write_text(out / "mine.txt", "keep")
    given = write_text(tmp_path / "a.txt", "hello")
    assert report_main([str(given), "--out", str(out), "--quiet"]) == 2
    assert "1 not a log file" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


def _report_command(uri: str, tmp_path: Path, env: dict[str, str]) -> list[str]:
    argv = [str(BIN / "polar-report"), uri, "--out", str(tmp_path / "out")]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2 and not (tmp_path / "out").exists(), done.stderr
    return done.stderr.strip().splitlines()


@pytest.mark.slow
def test_an_s3_url_without_credentials_names_what_to_check(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "PYTEST"))}
    none = str(tmp_path / "none")
    env |= {"AWS_SHARED_CREDENTIALS_FILE": none, "AWS_CONFIG_FILE": none,
            "AWS_EC2_METADATA_DISABLED": "true"}  # fmt: skip
    lines = _report_command("s3://nonexistent-bucket/x", tmp_path, env)
    assert len(lines) == 1 and lines[0].startswith("polar-report: s3://nonexistent-bucket/x: "
                                                   "cannot be listed ("), lines  # fmt: skip
    assert "AWS_ENDPOINT_URL and the credentials" in lines[0]


@pytest.mark.slow
def test_an_s3_bucket_that_does_not_exist_is_not_called_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.s3_server import local_s3

    with local_s3(monkeypatch, "team-logs"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        lines = _report_command("s3://nonexistent-bucket/x", tmp_path, env)
    assert lines == [
        "polar-report: s3://nonexistent-bucket/x: no such bucket or prefix, or not reachable; "
        "check the URI, AWS_ENDPOINT_URL and the credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID)"
    ]
