"""Every output path is checked before anything is built or written (`generate.outputs`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from polar_inspect.generate.cli import main
from polar_inspect.generate.outputs import (
    BUNDLED_CARD,
    BUNDLED_DATASET,
    Output,
    OutputPathError,
    check_outputs,
    same_file,
)

SMALL = ["--domains", "legal", "--repetitions", "1", "--workers", "1"]


def _refused(args: list[str], capsys: pytest.CaptureFixture, *expected: str) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err  # one line
    for part in expected:
        assert part in err, err
    return err


@pytest.mark.usefixtures("no_build")
def test_out_and_card_on_one_path_are_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "real.json").write_text("keep me")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    os.link(tmp_path / "real.json", tmp_path / "hard.json")
    for out, card in [
        ("same.json", "same.json"),
        ("same.json", "./sub/../same.json"),
        (str(tmp_path / "same.json"), "same.json"),
        ("link.json", "real.json"),
        ("hard.json", "real.json"),
    ]:
        err = _refused(
            [*SMALL, "--out", out, "--card", card, "--overwrite"],
            capsys,
            f"--out {out} and --card {card} name the same file",
        )
        assert "give each output its own path" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "hard.json",
        "link.json",
        "real.json",
        "sub",
    ]
    assert (tmp_path / "real.json").read_text() == "keep me"


def test_the_work_file_is_an_output_too(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "m.jsonl"
    args = ["--domains", "legal", "--renderer", "model", "--model", "mockllm/model"]
    _refused([*args, "--out", str(out), "--work", str(out)], capsys, "--work", "same file")
    _refused(
        [*args, "--out", str(out), "--card", str(out) + ".work.jsonl"],
        capsys,
        "--card",
        "--work",
        "same file",
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("no_build")
def test_an_existing_output_is_refused_without_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out, card = tmp_path / "x.json", tmp_path / "README.md"
    out.write_text("old data")
    _refused([*SMALL, "--out", str(out)], capsys, f"--out {out}: the file exists", "--overwrite")
    card.write_text("old card")
    _refused(
        [*SMALL, "--out", str(tmp_path / "new.json"), "--card", str(card)],
        capsys,
        f"--card {card}: the file exists",
    )
    assert out.read_text() == "old data" and card.read_text() == "old card"


def test_overwrite_replaces_an_existing_output(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    out.write_text("old data")
    assert main([*SMALL, "--out", str(out), "--overwrite"]) == 0
    assert out.read_text(encoding="utf-8").startswith("[\n{")


@pytest.mark.usefixtures("no_build")
def test_the_bundled_files_are_written_only_by_the_bundled_build(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    before = (BUNDLED_DATASET.stat().st_mtime_ns, BUNDLED_CARD.stat().st_mtime_ns)
    _refused(
        [*SMALL, "--out", str(BUNDLED_DATASET), "--overwrite"],
        capsys,
        "is the bundled dataset that -T data=bundled reads",
    )
    _refused(
        ["--seed", "7", "--out", str(BUNDLED_DATASET), "--overwrite"],
        capsys,
        "only the bundled build writes it",
    )
    _refused(
        [*SMALL, "--out", str(tmp_path / "x.json"), "--card", str(BUNDLED_CARD), "--overwrite"],
        capsys,
        "is the bundled dataset's card",
    )
    # the bundled settings written elsewhere must not take over the bundled card either
    _refused(
        ["--out", str(tmp_path / "x.json.gz"), "--card", str(BUNDLED_CARD), "--overwrite"],
        capsys,
        "is the bundled dataset's card",
    )
    assert (BUNDLED_DATASET.stat().st_mtime_ns, BUNDLED_CARD.stat().st_mtime_ns) == before


def test_checking_creates_no_folder(tmp_path: Path) -> None:
    deep = Output("--out", str(tmp_path / "a" / "b" / "x.json"))
    check_outputs([deep], overwrite=False, rebuilds_bundled=False)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OutputPathError, match="is a folder"):
        check_outputs([Output("--out", str(tmp_path))], overwrite=True, rebuilds_bundled=False)


def test_same_file_resolves_relative_parts_links_and_home(tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    target.write_text("x")
    (tmp_path / "l.json").symlink_to(target)
    assert same_file(tmp_path / "l.json", target)
    assert same_file(tmp_path / "d" / ".." / "t.json", target)
    assert not same_file(tmp_path / "t.jsonl", target)
    assert same_file("~/x.json", Path.home() / "x.json")
