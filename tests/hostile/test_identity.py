"""One identity per run, tried as a hostile user would: whatever changes between a killed run
and its `inspect eval-retry` (the data, any template file by any route, the package version),
the retry fails naming the part that changed instead of a success log mixing two experiments.
(How `polar-report` uses the identity is tried in test_report.py.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval_retry
from inspect_ai.log import EvalError, EvalLog, write_eval_log

from polar_inspect.errors import UserInputError
from tests.hostile.conftest import evaluate, extract, write_json, write_text

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Route:
    """A template route: its task parameters, roles, the text before and after the edit, and
    the identity part the retry must name."""

    options: Callable[[Path], dict[str, Any]]
    before: str
    after: str
    part: str
    roles: dict[str, str] | None = None
    strengths: tuple[int, ...] = (1, 2, 3, 4)


ROUTES: dict[str, Route] = {
    "system_prompt": Route(
        lambda p: {"system_prompt": str(p)},
        "{document}\n{policy}\n{task}",
        "Be careful.\n{document}\n{policy}\n{task}",
        "template system_prompt",
    ),
    "guard@": Route(
        lambda p: {"defense": f"guard@{p}"},
        "Policy: {policy}\nCheck: <draft>\n{draft}\n</draft>",
        "Policy: {policy}\nRewrite: <draft>\n{draft}\n</draft>",
        "template defense guard",
        roles={"guard": "polar/guard"},
    ),
    "minimize@": Route(
        lambda p: {"defense": f"minimize@{p}"},
        "Keep: {document}",
        "Keep only what the task needs: {document}",
        "template defense minimize",
        roles={"minimizer": "polar/minimizer"},
    ),
    "spotlight,policy_reminder@": Route(
        lambda p: {"defense": f"spotlight,policy_reminder@{p}"},
        "Remember: {policy}",
        "Remember this: {policy}",
        "template defense policy_reminder",
    ),
    "adaptive_system_prompt": Route(
        lambda p: {"attacker": "adaptive", "adaptive_system_prompt": str(p), "attack_budget": 2},
        "Get {targets}. {strategy_rules}",
        "Get all of {targets}. {strategy_rules}",
        "template attacker adaptive_system",
        roles={"attacker": "polar/adaptive-attacker"},
    ),
    "attacker_turn_prompt (live S5)": Route(
        lambda p: {"attacker_turn_prompt": str(p)},
        "Send {planned_message} ({protected_values} / {allowed_values})",
        "Now send {planned_message} ({protected_values} / {allowed_values})",
        "template attacker attacker_turn",
        roles={"attacker": "polar/replay-attacker"},
        strengths=(5,),
    ),
}


def _interrupt(log: EvalLog) -> None:
    """Rewrite a finished log (through the log API) as if the run had died after two samples."""
    assert log.samples is not None and log.location is not None and len(log.samples) >= 3
    lost = EvalError(message="RuntimeError: connection lost", traceback="", traceback_ansi="")
    for sample in log.samples[2:]:
        sample.error, sample.scores = lost, None
    log.status, log.error = "error", lost
    write_eval_log(log, log.location)


def _retry(log: EvalLog, log_dir: Path) -> EvalLog:
    assert log.location is not None
    (retried,) = eval_retry(log.location, log_dir=str(log_dir), display="none")
    return retried


def _refused_naming(retried: EvalLog, part: str) -> None:
    assert retried.status == "error" and retried.error is not None, retried.status
    message = retried.error.message
    assert "different run identities" in message, message
    assert part in message, (part, message)


def _records(route: Route) -> list[dict[str, Any]]:
    return extract(strengths=route.strengths, per_cell=4 // len(route.strengths))


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_a_template_edited_between_kill_and_retry_fails_the_retry_naming_it(
    name: str, tmp_path: Path
) -> None:
    """`-T system_prompt=sp.txt` edited between kill and retry gave a success log with samples
    under each prompt, recording only the new hash; so did `guard@g.txt`."""
    route = ROUTES[name]
    data = write_json(tmp_path / "d.json", _records(route))
    template = write_text(tmp_path / "t.txt", route.before)
    logs = tmp_path / "logs"
    log = evaluate(data, "polar/leaky", logs, route.roles, **route.options(template))
    assert log.status == "success", log.error
    _interrupt(log)
    write_text(template, route.after)
    _refused_naming(_retry(log, logs), route.part)


@pytest.mark.parametrize("name", ["system_prompt", "guard@"])
def test_the_control_an_untouched_template_retries_to_success(name: str, tmp_path: Path) -> None:
    route = ROUTES[name]
    data = write_json(tmp_path / "d.json", _records(route))
    template = write_text(tmp_path / "t.txt", route.before)
    logs = tmp_path / "logs"
    log = evaluate(data, "polar/leaky", logs, route.roles, **route.options(template))
    _interrupt(log)
    retried = _retry(log, logs)
    assert retried.status == "success"
    assert len(retried.samples or []) == 4


def test_a_template_edited_and_put_back_retries_to_success(tmp_path: Path) -> None:
    """The identity is the content, not the file's date: an edit undone is no change."""
    route = ROUTES["system_prompt"]
    data = write_json(tmp_path / "d.json", _records(route))
    template = write_text(tmp_path / "t.txt", route.before)
    log = evaluate(data, "polar/leaky", tmp_path / "logs", **route.options(template))
    _interrupt(log)
    write_text(template, route.after)
    write_text(template, route.before)
    assert _retry(log, tmp_path / "logs").status == "success"


def test_a_template_deleted_before_retry_is_refused_naming_the_file(tmp_path: Path) -> None:
    route = ROUTES["guard@"]
    data = write_json(tmp_path / "d.json", _records(route))
    template = write_text(tmp_path / "t.txt", route.before)
    log = evaluate(data, "polar/leaky", tmp_path / "logs", route.roles, **route.options(template))
    _interrupt(log)
    template.unlink()
    with pytest.raises(UserInputError, match="t.txt"):
        _retry(log, tmp_path / "logs")


def test_data_edited_between_kill_and_retry_fails_the_retry(tmp_path: Path) -> None:
    records = extract(strengths=(1, 2, 3, 4))
    data = write_json(tmp_path / "d.json", records)
    log = evaluate(data, "polar/leaky", tmp_path / "logs")
    _interrupt(log)
    records[3]["scoring_targets"]["do_not_disclose_values"] = records[3]["scoring_targets"][
        "do_not_disclose_values"
    ][:1]
    write_json(data, records)
    _refused_naming(_retry(log, tmp_path / "logs"), "data: ")


def test_another_package_version_fails_the_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2-A log held 27 samples scored under 1-A."""
    data = write_json(tmp_path / "d.json", extract(strengths=(1, 2, 3, 4)))
    log = evaluate(data, "polar/leaky", tmp_path / "logs")
    _interrupt(log)
    monkeypatch.setattr("polar_inspect.tasks.__version__", "99.0.0")
    _refused_naming(_retry(log, tmp_path / "logs"), "versions: ")
