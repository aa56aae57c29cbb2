"""Every `polar-generate` input a user can get wrong ends in one line and exit status 2,
before anything is built or written (`generate.arguments`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from polar_inspect.generate.cli import main

pytestmark = pytest.mark.usefixtures("no_build")


MODEL = ["--renderer", "model", "--model", "mockllm/model"]
WRONG_INPUTS = [
    # checked by click (the option's type or choices)
    (["--seed", "abc"], "--seed: 'abc' is not a valid integer. (see --help)"),
    (["--seed", "1.5"], "--seed: '1.5' is not a valid integer"),
    (["--renderer", "gpt"], "--renderer: 'gpt' is not one of 'template', 'model'"),
    (["--workers", "0"], "--workers: 0 is not in the range x>=1"),
    (["--workers", "-2"], "--workers: -2 is not in the range x>=1"),
    (["--workers", "many"], "--workers: 'many' is not a valid integer"),
    (["--max-connections", "0"], "--max-connections: 0 is not in the range x>=1"),
    (["--repair-rounds", "-1"], "--repair-rounds: -1 is not in the range x>=0"),
    (["--no-such-option"], "No such option '--no-such-option'"),
    # checked by generate.arguments
    (["--out", ""], "--out is empty: give a path"),
    (["--out", "x.json", "--card", " "], "--card is empty"),
    (["--check-sha256", "xyz"], "--check-sha256 'xyz' is not a sha256: give 64 hex digits"),
    (["--check-sha256", "a" * 63], "is not a sha256"),
    (["--card", "README.md"], "--card describes the --out file: give --out too"),
    (["--model", "openai/gpt-4o-mini"], "--model is an option of --renderer model"),
    (["--work", "w.jsonl"], "--work is an option of --renderer model"),
    (["--repair-rounds", "2"], "--repair-rounds is an option of --renderer model"),
    (["--max-connections", "2"], "--max-connections is an option of --renderer model"),
    (["--prompts", "p"], "--prompts is an option of --renderer model"),
    (
        [*MODEL, "--workers", "2", "--out", "m.json"],
        "--workers is an option of --renderer template",
    ),
    (MODEL, "needs --out or --work"),
    (
        ["--renderer", "model", "--model", "nosuch/model", "--out", "m.json"],
        "--model nosuch/model: Model API nosuch",
    ),
    (["--domains", "astrology"], "Unknown domain 'astrology'"),
    (["--repetitions", "-3"], "--repetitions must be at least 1, got -3"),
    (["--out", "x.csv"], "unsupported file type"),
]


def _exit_status(args: list[str]) -> int:
    """`main`'s exit status, whether it returns it or exits."""
    try:
        return main(args)
    except SystemExit as exit_info:
        return int(exit_info.code or 0)


@pytest.mark.parametrize(("args", "message"), WRONG_INPUTS)
def test_a_wrong_input_is_one_line_and_exit_two(
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One line (no usage block, no traceback), status 2, nothing written."""
    monkeypatch.chdir(tmp_path)
    assert _exit_status(["--domains", "legal", "--repetitions", "1", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("polar-generate: ") and err.count("\n") == 1, err
    assert message in err
    assert list(tmp_path.iterdir()) == []


def _model_args(tmp_path: Path, prompts: Path) -> list[str]:
    return [
        "--domains",
        "legal",
        "--repetitions",
        "1",
        *MODEL,
        "--out",
        str(tmp_path / "m.jsonl"),
        "--prompts",
        str(prompts),
    ]


def test_a_prompts_folder_must_hold_only_known_templates(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    prompts = tmp_path / "prompts"
    assert main(_model_args(tmp_path, prompts)) == 2
    assert f"--prompts {prompts}: not a folder" in capsys.readouterr().err
    prompts.mkdir()
    assert main(_model_args(tmp_path, prompts)) == 2
    assert "holds none of document.txt" in capsys.readouterr().err
    (prompts / "polcy.txt").write_text("misspelt", encoding="utf-8")
    assert main(_model_args(tmp_path, prompts)) == 2
    assert "polcy.txt is no prompt template" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prompts"]


def test_the_installed_command_prints_one_line_for_two_outputs_on_one_path(
    tmp_path: Path,
) -> None:
    """Through the console script's module, as a user runs it."""
    same = tmp_path / "same.json"
    result = subprocess.run(
        [sys.executable, "-m", "polar_inspect.generate", "--out", str(same), "--card", str(same)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert "name the same file" in result.stderr and "Traceback" not in result.stderr
    assert not same.exists()


def _scripted_model_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outputs: object, *extra: str
) -> int:
    """`polar-generate --renderer model` with an offline scripted model in place of --model."""
    from inspect_ai.model import get_model

    import polar_inspect.generate.arguments as arguments

    monkeypatch.setattr(
        arguments, "_model_object", lambda name: get_model(name, custom_outputs=outputs)
    )
    return main(
        [
            "--domains",
            "legal",
            "--repetitions",
            "1",
            *MODEL,
            "--out",
            str(tmp_path / "m.json"),
            "--work",
            str(tmp_path / "w.jsonl"),
            *extra,
        ]
    )


def test_a_failing_model_is_one_line_that_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    def unreachable(*args: object) -> object:
        raise ConnectionError("provider unreachable")

    assert _scripted_model_run(tmp_path, monkeypatch, unreachable) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("polar-generate: the model renderer stopped (ConnectionError")
    assert f"finished cells are kept in {tmp_path / 'w.jsonl'}" in err
    assert not (tmp_path / "m.json").exists()


def test_a_work_file_of_another_seed_is_one_line_and_exit_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    run = {"seed": 1, "model": "mockllm/model", "prompts_sha256": "0" * 64}
    line = {"sample_id": "legal_000000", "kept": False, "run": run | {"generator_version": "x"}}
    (tmp_path / "w.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")

    def never(*args: object) -> object:
        raise AssertionError("no model call for a refused work file")

    assert _scripted_model_run(tmp_path, monkeypatch, never) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "w.jsonl, line 1: written by another build (seed 1 (now 260519127)" in err
    assert not (tmp_path / "m.json").exists()


def test_every_option_has_a_description_in_help() -> None:
    """`polar-generate --help` listed `--seed` with no description."""
    from polar_inspect.generate.cli import command

    bare = [p.name for p in command.params if isinstance(p, click.Option) and not p.help]
    assert bare == []
