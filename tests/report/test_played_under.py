"""Two servers are two runs: a base URL given by an environment variable is in no log header,
so the report reads what each sample was played under (its parity score's `identity`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from polar_inspect.report.build import build_report
from tests.stub_servers import StubServer

pytestmark = pytest.mark.slow
INSPECT = Path(sys.executable).parent / "inspect"


def test_runs_against_two_servers_named_by_environment_are_both_ranked(
    grid_file: Path, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    with StubServer() as first, StubServer() as second:
        for server in (first, second):  # one command, each in its own process, as a user runs it
            env = {**os.environ, "LOCAL_BASE_URL": server.openai_base_url, "LOCAL_API_KEY": "none"}
            done = subprocess.run(
                [str(INSPECT), "eval", "polar_inspect/privacy", "--model",
                 "openai-api/local/one-model", "-T", f"data={grid_file}", "-T", "attack=S1",
                 "-T", "domain=medical", "--log-dir", str(logs), "--display", "none"],
                env=env, capture_output=True, text=True, timeout=600, check=False,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr[-2000:]
            assert server.ok_requests()
    result = build_report([logs], tmp_path / "report")
    assert len(result.models) == 2 and not result.skipped, (result.models, result.skipped)
