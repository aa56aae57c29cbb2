"""Plug-ins by contract, through the public commands: a trusted agent's module that fails on
import or is named relatively ends `inspect eval` with status 1 and one line naming the
parameter; an attacker plug-in that returns a `str` for a turn fails its samples with one line
naming the plug-in, the call and what came back (never a raw TypeError/AttributeError)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from polar_inspect.attackers import ENTRY_POINT_GROUP
from tests.attackers.test_registry import ECHO
from tests.hostile.conftest import command, extract, write_json, write_text
from tests.plugin_site import install_plugin

pytestmark = pytest.mark.slow


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_json(tmp_path / "d.json", extract(strengths=(1,)))


def _eval_cli(tmp_path: Path, data: Path, *arguments: str) -> list[str]:
    done = command("inspect", "eval", "polar_inspect/privacy", "-T", f"data={data}", *arguments,
                   "--model", "polar/refuse", "--log-dir", str(tmp_path / "logs"),
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    output = (done.stdout + done.stderr).strip()
    assert "Traceback" not in output, output
    return output.splitlines()


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("raise RuntimeError('no GPU here')\n", "RuntimeError: no GPU here"),
        ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
    ],
)
def test_an_agent_module_failing_on_import_is_one_line(
    source: str, said: str, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_text(site / "failing_agent.py", source)
    monkeypatch.setenv("PYTHONPATH", str(site))
    lines = _eval_cli(tmp_path, data, "-T", "trusted_agent=failing_agent:f")
    assert len(lines) == 1 and "trusted_agent" in lines[0] and said in lines[0], lines


def test_a_relative_agent_name_is_one_line(data: Path, tmp_path: Path) -> None:
    lines = _eval_cli(tmp_path, data, "-T", "trusted_agent=.mod:f")
    assert len(lines) == 1 and "relative module name" in lines[0], lines


def test_an_attacker_plugin_returning_a_str_fails_its_samples_in_one_line(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = ECHO.replace(
        'return AttackerTurn(message=f"{self.greeting} #{index + 1}")', "return self.greeting"
    )
    site = tmp_path / "site"
    install_plugin(site, "str_echo", source, ENTRY_POINT_GROUP, {"echo": "str_echo:Echo"})
    monkeypatch.syspath_prepend(str(site))
    (log,) = inspect_eval("polar_inspect/privacy", model="polar/refuse", display="none",
                          task_args={"data": str(data), "attacker": "echo"},
                          log_dir=str(tmp_path / "logs"))  # fmt: skip
    assert log.status == "error" and log.error is not None
    first = log.error.message.splitlines()[0]
    assert "attacker plug-in 'echo'" in first and "next_turn() returned str 'Hello'" in first
    assert "TypeError" not in first and "AttributeError" not in first
