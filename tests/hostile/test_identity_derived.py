"""The run identity is derived, not listed: a generation setting no list named
(`--max-tool-output`), a plug-in's code edited between an interruption and `eval-retry`, and
a secret that differs between two runs all make different identities; the secret never
reaches a report file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from polar_inspect.attackers import ENTRY_POINT_GROUP
from polar_inspect.extras import report_main
from tests.attackers.test_registry import ECHO
from tests.hostile.conftest import extract, write_json
from tests.hostile.test_identity import _interrupt, _refused_naming, _retry
from tests.plugin_site import install_plugin

pytestmark = pytest.mark.slow


def _eval(data: Path, logs: Path, **options: Any) -> EvalLog:
    task_args = {"data": str(data), **options.pop("task_args", {})}
    (log,) = inspect_eval("polar_inspect/privacy", model="polar/leaky", task_args=task_args,
                          log_dir=str(logs), display="none", **options)  # fmt: skip
    assert log.status == "success", log.error
    return log


def _report(logs: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    status = report_main([str(logs), "--out", str(out), "--tables-only", "--quiet",
                          "--jobs", "1"])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def test_a_generation_setting_on_no_list_keeps_its_run_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--max-tool-output 200` had the same identity as the run without it: polar-report
    dropped one as a duplicate. Only the true duplicate is dropped now."""
    data = write_json(tmp_path / "d.json", extract(strengths=(1, 2)))
    logs = tmp_path / "logs"
    _eval(data, logs)
    _eval(data, logs)  # the true duplicate
    cut = _eval(data, logs, max_tool_output=200)
    summary = _report(logs, tmp_path / "out", capsys)
    assert len([line for line in summary.splitlines() if ": duplicate:" in line]) == 1, summary
    board = (tmp_path / "out" / "leaderboard.csv").read_text("utf-8")
    assert str(cut.location) in board and "max_tool_output" in board


def test_two_runs_differing_only_in_a_secret_are_kept_and_the_secret_is_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A password in a base URL appeared in leaderboard.md/csv and index.html."""
    data = write_json(tmp_path / "d.json", extract(strengths=(1, 2)))
    logs = tmp_path / "logs"
    for password in ("PW-first-secret", "PW-second-secret"):
        _eval(data, logs, model_base_url=f"http://user:{password}@127.0.0.1:9/v1")
    summary = _report(logs, tmp_path / "out", capsys)
    assert ": duplicate:" not in summary, summary
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert written
    for path in written:
        text = path.read_bytes().decode("utf-8", "replace")
        assert "PW-first" not in text and "PW-second" not in text, path
    assert "PW-" not in summary


def _echo_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    install_plugin(site, "polar_echo_attacker", ECHO, ENTRY_POINT_GROUP,
                   {"echo": "polar_echo_attacker:Echo"})  # fmt: skip
    monkeypatch.syspath_prepend(str(site))
    # this test's copy, not one an earlier test in the same process imported from its own site
    for name in [m for m in sys.modules if m.partition(".")[0] == "polar_echo_attacker"]:
        monkeypatch.delitem(sys.modules, name)
    return site / "polar_echo_attacker" / "__init__.py"


def test_an_attacker_plugin_edited_between_kill_and_retry_fails_the_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A success log held samples of the old plug-in code and of the new one."""
    source = _echo_site(tmp_path, monkeypatch)
    data = write_json(tmp_path / "d.json", extract(strengths=(1, 2, 3, 4)))
    log = _eval(data, tmp_path / "logs", task_args={"attacker": "echo"})
    _interrupt(log)
    source.write_text(source.read_text("utf-8").replace("#{index + 1}", "no. {index + 1}"))
    _refused_naming(_retry(log, tmp_path / "logs"), "code attacker echo")


def test_the_control_an_untouched_plugin_retries_to_success(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _echo_site(tmp_path, monkeypatch)
    data = write_json(tmp_path / "d.json", extract(strengths=(1, 2, 3, 4)))
    log = _eval(data, tmp_path / "logs", task_args={"attacker": "echo"})
    code = log.eval.metadata["identity"]["code"]["attacker echo"]  # type: ignore[index]
    assert code["distribution"] == "polar-echo-attacker" and code["version"] == "0.1"
    _interrupt(log)
    assert _retry(log, tmp_path / "logs").status == "success"
