"""`eval_retry` never yields a successful log that mixes samples of two run identities: changed
data, an edited template or defense template, another package version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval_retry
from inspect_ai.log import EvalError, EvalLog, write_eval_log

from tests.conftest import make_record
from tests.helpers import by_id, run

TASK = "polar_inspect/privacy"


def _interrupted_run(data: Path, log_dir: Path) -> EvalLog:
    """A finished run rewritten (through the log API) as if it had died after two samples."""
    log = run(TASK, "polar/refuse", log_dir, data=str(data))
    _interrupt(log)
    return log


def test_each_sample_records_the_data_file_it_came_from(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([make_record(0)]), encoding="utf-8")
    log = run(TASK, "polar/refuse", tmp_path / "logs", data=str(data))
    meta = by_id(log)["medical_000000"].metadata
    assert meta["data_path"] == str(data.resolve())
    assert meta["data_sha256"] == log.eval.metadata["data_source"]["sha256"]


def test_retry_over_unchanged_data_reuses_samples_and_succeeds(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([make_record(i) for i in range(4)]), encoding="utf-8")
    log = _interrupted_run(data, tmp_path / "logs")
    (retried,) = eval_retry(log.location, log_dir=str(tmp_path / "logs"), display="none")
    assert retried.status == "success"
    assert retried.results is not None
    overall = next(s for s in retried.results.scores if s.name == "overall")
    assert set(overall.metrics) == {"mean", "stderr"}  # the data check passed: no extra row
    assert len({s.metadata["data_sha256"] for s in retried.samples or []}) == 1


def _retry_fails_naming(log: EvalLog, log_dir: Path, *parts: str) -> str:
    (retried,) = eval_retry(log.location, log_dir=str(log_dir), display="none")
    assert retried.status == "error" and retried.error is not None
    message = retried.error.message
    assert "different run identities" in message and "from the start" in message
    for part in parts:
        assert part in message, (part, message)
    return message


def test_retry_over_changed_data_fails_instead_of_mixing(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([make_record(i) for i in range(4)]), encoding="utf-8")
    log = _interrupted_run(data, tmp_path / "logs")
    changed = [make_record(i, protected=["Anna Keller"]) for i in range(4)]
    data.write_text(json.dumps(changed), encoding="utf-8")
    _retry_fails_naming(log, tmp_path / "logs", "2 sample(s)", "data: ")


def test_retry_after_a_template_edit_fails_naming_the_template(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([make_record(i) for i in range(4)]), encoding="utf-8")
    template = tmp_path / "sp.txt"
    template.write_text("{document}\n{policy}\n{task}", encoding="utf-8")
    log = run(TASK, "polar/refuse", tmp_path / "logs", data=str(data), system_prompt=str(template))
    _interrupt(log)
    template.write_text("Be careful.\n{document}\n{policy}\n{task}", encoding="utf-8")
    _retry_fails_naming(log, tmp_path / "logs", "template system_prompt")


def test_retry_after_a_defense_template_edit_fails_naming_it(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([make_record(i) for i in range(4)]), encoding="utf-8")
    guard = tmp_path / "g.txt"
    guard.write_text("Policy: {policy}\nCheck: {draft}", encoding="utf-8")
    log = run(TASK, "polar/refuse", tmp_path / "logs", data=str(data), defense=f"guard@{guard}")
    _interrupt(log)
    guard.write_text("Policy: {policy}\nRewrite this: {draft}", encoding="utf-8")
    _retry_fails_naming(log, tmp_path / "logs", "template defense guard defense_guard")


def test_retry_under_another_package_version_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([make_record(i) for i in range(4)]), encoding="utf-8")
    log = _interrupted_run(data, tmp_path / "logs")
    monkeypatch.setattr("polar_inspect.tasks.__version__", "9.9.9")
    _retry_fails_naming(log, tmp_path / "logs", "versions: ")


def _interrupt(log: EvalLog) -> None:
    """Rewrite a finished log as if the run had died after two samples."""
    assert log.samples is not None and log.location is not None
    lost = EvalError(message="RuntimeError: connection lost", traceback="", traceback_ansi="")
    for sample in log.samples[2:]:
        sample.error, sample.scores = lost, None
    log.status, log.error = "error", lost
    write_eval_log(log, log.location)
