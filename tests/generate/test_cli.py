"""The `polar-generate` command line: outputs, card, sha256 check, errors."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from polar_inspect.data import load_records
from polar_inspect.generate.cli import main
from polar_inspect.generate.io import sha256

SMALL = ["--domains", "legal", "--repetitions", "1", "--workers", "1"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "legal.json.gz"
    assert main([*SMALL, "--out", str(out), "--card", str(out.with_name("README.md"))]) == 0
    return out


def test_gz_output_is_deterministic_gzip_and_loads(built: Path) -> None:
    raw = built.read_bytes()
    assert raw[4:8] == b"\x00\x00\x00\x00"  # gzip mtime 0
    records = load_records(built)
    assert len(records) == 150
    assert {r.domain for r in records} == {"legal"}


def test_outputs_get_the_mode_a_plain_write_would(built: Path) -> None:
    mask = os.umask(0o022)
    os.umask(mask)
    expected = 0o666 & ~mask
    for written in (built, built.with_name("README.md")):
        assert written.stat().st_mode & 0o777 == expected, written  # not mkstemp's 0600


def test_card_states_the_digests_and_lengths(built: Path) -> None:
    card = built.with_name("README.md").read_text(encoding="utf-8")
    json_bytes = gzip.decompress(built.read_bytes())
    assert sha256(json_bytes) in card
    assert sha256(built.read_bytes()) in card
    assert "| document |" in card and "| 801 |" in card
    assert "| legal | 150 | 6 |" in card


def test_jsonl_and_json_outputs_hold_the_same_records(built: Path, tmp_path: Path) -> None:
    assert main([*SMALL, "--out", str(tmp_path / "legal.jsonl")]) == 0
    assert main([*SMALL, "--out", str(tmp_path / "legal.json")]) == 0
    as_json = (tmp_path / "legal.json").read_bytes()
    assert as_json == gzip.decompress(built.read_bytes())
    lines = (tmp_path / "legal.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 150
    assert [r.sample_id for r in load_records(tmp_path / "legal.jsonl")] == [
        r.sample_id for r in load_records(built)
    ]


def test_check_sha256_accepts_the_json_or_gz_digest(built: Path) -> None:
    json_digest = sha256(gzip.decompress(built.read_bytes()))
    assert main([*SMALL, "--check-sha256", json_digest]) == 0
    assert main([*SMALL, "--check-sha256", sha256(built.read_bytes()).upper()]) == 0


def test_check_sha256_mismatch_exits_one_with_a_message(capsys: pytest.CaptureFixture) -> None:
    assert main([*SMALL, "--check-sha256", "0" * 64]) == 1
    assert "sha256 mismatch" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domains", "astrology"], "Unknown domain"),
        (["--domains", "legal", "--out", "x.csv"], "unsupported file type"),
        (["--domains", "legal", "--repetitions", "0"], "at least 1"),
    ],
)
def test_bad_arguments_exit_two(
    args: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_model_renderer_needs_a_model(capsys: pytest.CaptureFixture) -> None:
    assert main(["--domains", "legal", "--renderer", "model", "--out", "x.jsonl"]) == 2
    assert "--renderer model needs --model" in capsys.readouterr().err


@pytest.mark.slow
def test_python_dash_m_runs_the_same_cli(built: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "polar_inspect.generate", *SMALL, "--check-sha256", "f" * 64],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert sha256(gzip.decompress(built.read_bytes())) in result.stderr


@pytest.mark.parametrize("domains", [",", " , ,", ""])
def test_domains_that_name_nothing_are_refused(
    domains: str, capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    assert main(["--domains", domains, "--out", str(tmp_path / "x.json")]) == 2
    assert "names no domain" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


@pytest.mark.usefixtures("no_build")
def test_unwritable_out_fails_before_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    folder = tmp_path / "folder.json"
    folder.mkdir()
    for out, reason in [
        (a_file / "out.json", "cannot write there"),  # its parent is a file
        (folder, "is a folder"),
    ]:
        assert main([*SMALL, "--out", str(out)]) == 2
        assert f"--out {out}: {reason}" in capsys.readouterr().err
    assert main([*SMALL, "--out", str(tmp_path / "ok.json"), "--card", str(a_file / "c.md")]) == 2
    assert "--card" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX, not root")
def test_read_only_folder_fails_before_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main([*SMALL, "--out", str(locked / "x.json")]) == 2
    finally:
        locked.chmod(0o700)
    assert "cannot write there (Permission denied)" in capsys.readouterr().err
    assert list(locked.iterdir()) == []


def test_out_is_written_through_a_temporary_file(built: Path) -> None:
    """No temporary or partial file is left next to the output."""
    assert sorted(p.name for p in built.parent.iterdir()) == ["README.md", "legal.json.gz"]
