"""The documented model commands (README.md, docs/local-model.md), run as written against a local
stub server.

Only the data (`-T data=<small file>`) and the log directory are added; every provider's base URL
(and the documented local servers' addresses) point at `tests.stub_servers.StubServer`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.conftest import make_record
from tests.helpers import dialogue_of
from tests.readme_commands import DOCS, ShellCommand, readme_commands
from tests.stub_servers import StubServer

BIN = Path(sys.executable).parent
DOCUMENTED_PORTS = ("127.0.0.1:8000", "127.0.0.1:8001")


def _run_all(
    commands: list[ShellCommand], env: dict[str, str], args: Callable[[int], list[str]]
) -> None:
    """Start every command at once (each one's cost is mostly Inspect's start-up); wait for all."""
    running = [
        subprocess.Popen(
            [str(BIN / c.argv[0]), *c.argv[1:], *args(n)],
            env={**env, **c.env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, c in enumerate(commands)
    ]
    for command, process in zip(commands, running, strict=True):
        _, stderr = process.communicate(timeout=600)
        assert process.returncode == 0, f"{command.line}\n{stderr[-2000:]}"


def _local(command: ShellCommand, here: str) -> ShellCommand:
    """The command with the documented servers' addresses replaced by the stub's."""
    argv, env = list(command.argv), dict(command.env)
    for port in DOCUMENTED_PORTS:
        argv = [word.replace(port, here) for word in argv]
        env = {name: value.replace(port, here) for name, value in env.items()}
    return ShellCommand(command.line, argv, env, command.background)


@pytest.mark.slow
def test_documented_openai_compatible_commands_run_as_written(
    write_records: Callable[..., Path], tmp_path: Path
) -> None:
    data = write_records([make_record(0, attack="S1"), make_record(1, attack="S5")])
    commands = readme_commands("test:openai-compatible", DOCS / "local-model.md")
    assert [c.argv[:2] for c in commands] == [["inspect", "eval"]] * 2
    with StubServer() as server:
        here = f"127.0.0.1:{server.port}"
        _run_all(
            [_local(c, here) for c in commands],
            dict(os.environ),
            lambda n: (
                ["-T", f"data={data}", "--log-dir", str(tmp_path / f"logs{n}")]
                + ["--display", "none"]
            ),
        )
        served = {r.model for r in server.ok_requests()}
    assert served == {"my-model", "my-attacker"}
    for number, command in enumerate(commands):
        [info] = list_eval_logs(str(tmp_path / f"logs{number}"))
        log = read_eval_log(info)
        assert log.status == "success" and log.samples is not None, command.line
        modes = {dialogue_of(s)["turn_source"] for s in log.samples}
        assert modes == {"planned", "model"}, command.line
        roles = {e.role for s in log.samples for e in s.events if isinstance(e, ModelEvent)}
        assert roles == {None, "attacker"}, command.line  # both roles reached the stub


@pytest.mark.slow
def test_readme_provider_commands_run_as_written(
    write_records: Callable[..., Path], tmp_path: Path
) -> None:
    """OpenAI, Anthropic and Together commands, each provider's base URL pointing at the stub."""
    data = write_records(
        [
            make_record(0, policy="P3", attack="S2"),
            make_record(1, attack="S5"),
            make_record(2, domain="finance", policy="P4", attack="S1"),
        ]
    )
    commands = readme_commands("test:providers")
    assert len(commands) == 6 and all(c.argv[:2] == ["inspect", "eval"] for c in commands)
    with StubServer() as server:
        env = {**os.environ}
        for service in ("OPENAI", "TOGETHER"):
            env[f"{service}_API_KEY"] = "local"
            env[f"{service}_BASE_URL"] = server.openai_base_url
        env.update(ANTHROPIC_API_KEY="local", ANTHROPIC_BASE_URL=server.anthropic_base_url)
        env.pop("ANTHROPIC_AUTH_TOKEN", None)
        _run_all(
            commands,
            env,
            lambda n: (
                ["-T", f"data={data}", "--log-dir", str(tmp_path / f"logs{n}")]
                + ["--display", "none"]
            ),
        )
        served = {r.model for r in server.requests if r.status == 200}
    assert served == {"gpt-4o-mini", "claude-sonnet-4-5", "meta-llama/Llama-3.3-70B-Instruct-Turbo"}
    for number in range(len(commands)):
        [info] = list_eval_logs(str(tmp_path / f"logs{number}"))
        log = read_eval_log(info, header_only=True)
        assert log.status == "success" and log.results is not None
        assert log.results.completed_samples == log.results.total_samples > 0


@pytest.mark.slow
def test_readme_newcomer_path_runs_as_written(
    write_records: Callable[..., Path], tmp_path: Path
) -> None:
    """README 'Evaluate your model': every command as written, one after the other, in a fresh
    folder, with each provider's base URL pointing at the stub; only the data is a small file."""
    data = write_records([make_record(0, attack="S1"), make_record(1, attack="S5")])
    commands = readme_commands("test:newcomer")
    assert [c.argv[:2] for c in commands] == [
        ["inspect", "eval"],
        ["inspect", "eval-set"],
        ["polar-report", "logs/polar"],
    ]
    with StubServer() as server:
        env = {**os.environ}
        for service in ("OPENAI", "TOGETHER"):
            env[f"{service}_BASE_URL"] = server.openai_base_url
        for command in commands:
            extra = ["-T", f"data={data}", "--display", "none"]
            done = subprocess.run(
                [str(BIN / command.argv[0]), *command.argv[1:]]
                + (extra if command.argv[0] == "inspect" else []),
                env={**env, **command.env},
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, f"{command.line}\n{done.stderr[-2000:]}"
        served = {r.model for r in server.ok_requests()}
    assert served == {"gpt-4o-mini", "meta-llama/Llama-3.3-70B-Instruct-Turbo"}
    for folder in ("logs", "logs/polar"):
        [info] = list_eval_logs(str(tmp_path / folder), recursive=False)
        log = read_eval_log(info)
        assert log.status == "success" and log.samples is not None, folder
        assert {dialogue_of(s)["turn_source"] for s in log.samples} == {"planned", "model"}
    assert (tmp_path / "reports" / "polar" / "index.html").is_file()
