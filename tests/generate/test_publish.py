"""Publishing end to end: `polar-generate --format hf --push OWNER/NAME` writes the folder,
uploads it to a (local stand-in for the) Hub, prints the commit to run, and that commit runs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from polar_inspect.data import load_source, resolve_source
from polar_inspect.generate.cli import main
from tests.data.test_hf_folder import fill_hub_snapshot
from tests.generate.hub_stub import HubStub, start_hub_stub

SMALL = ["--domains", "legal", "--repetitions", "1", "--workers", "1", "--format", "hf"]
REPO = "team/polar-set"


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[HubStub]:
    """The stand-in, with huggingface_hub pointed at it, online, with a token."""
    from huggingface_hub import constants

    stub, server = start_hub_stub()
    monkeypatch.setenv("HF_ENDPOINT", stub.url)
    monkeypatch.setenv("HF_TOKEN", "hf_stub_token")
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    yield stub
    server.shutdown()


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_push_uploads_the_folder_and_prints_the_commit_that_runs_it(
    hub: HubStub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set"
    assert main([*SMALL, "--out", str(out), "--push", REPO]) == 0
    printed = capsys.readouterr().err
    (commit,) = re.findall(rf"run it with: -T data=hf:{REPO}@([0-9a-f]{{40}})", printed)
    assert hub.repos[REPO][-1]["sha"] == commit
    assert hub.files(REPO) == _files(out)  # every file, byte for byte, in one commit
    assert [m for m, p, _ in hub.requests if p.startswith("/api/repos/create")] == ["POST"]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert f"-T data=hf:{REPO}@<commit>" in card and f'load_dataset("{REPO}"' in card
    assert "OWNER" not in card and "REVISION" not in card
    # The printed revision runs: the Hub's files at that commit, from the local cache, offline.
    fill_hub_snapshot(tmp_path / "hf_home" / "hub", REPO, commit, out)
    source = resolve_source(f"hf:{REPO}@{commit}")
    assert (source.revision, source.sha256) == (commit, resolve_source(str(out)).sha256)
    assert len(load_source(source)) == len(load_source(resolve_source(str(out)))) > 0


def test_a_refused_upload_is_one_line_and_keeps_the_folder(
    hub: HubStub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hub.fail_commit = 403
    out = tmp_path / "set"
    assert main([*SMALL, "--out", str(out), "--push", REPO]) == 1
    (line,) = [
        ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("polar-generate:")
    ]
    assert f"--push {REPO}: the upload failed" in line and "403" in line
    assert f"the folder is written: {out}" in line and (out / "README.md").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "x.json", "--push", REPO], "--push uploads a dataset folder"),
        ([*SMALL[-2:], "--out", "f", "--push", "no-owner"], "give the dataset repository as"),
    ],
)
def test_push_arguments_are_checked_before_the_build(
    args: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["--domains", "legal", "--repetitions", "1", *args]) == 2
    assert message in capsys.readouterr().err


def test_without_push_the_card_says_how_to_fill_in_the_repository(tmp_path: Path) -> None:
    out = tmp_path / "set"
    assert main([*SMALL, "--out", str(out)]) == 0
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "-T data=hf:<owner>/<name>@<commit>" in card
    assert "--push OWNER/NAME` fills it in" in card and "REVISION" not in card


def test_offline_mode_refuses_the_upload_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The test environment is offline (HF_HUB_OFFLINE=1): the push says so."""
    assert main([*SMALL, "--out", str(tmp_path / "set"), "--push", REPO]) == 1
    assert "HF_HUB_OFFLINE is set" in capsys.readouterr().err
