"""Templates by declaration, tried as a hostile user would: every template file, by every route
it enters (`-T system_prompt=`, `-T defense=NAME@file`, the attackers' prompt parameters), is
checked when the task is built, by the same declared rules: a regular UTF-8 text file of bounded
size, plain-name placeholders only, the required ones present, nothing outside the allowed set.
A refusal is one line naming the file."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.prompts import MAX_TEMPLATE_BYTES
from tests.hostile.conftest import build, extract, one_line, refusal, write_json, write_text

#: Each route a template file enters by: a name, and how the file becomes task parameters.
ROUTES: dict[str, Callable[[str], dict[str, Any]]] = {
    "system_prompt": lambda path: {"system_prompt": path},
    "guard@": lambda path: {"defense": f"guard@{path}"},
    "minimize@": lambda path: {"defense": f"minimize@{path}"},
    "policy_reminder@": lambda path: {"defense": f"policy_reminder@{path}"},
    "spotlight,guard@": lambda path: {"defense": f"spotlight,guard@{path}"},
    "attacker_turn_prompt": lambda path: {"attacker_turn_prompt": path},
    "attacker_system_prompt": lambda path: {"attacker_system_prompt": path},
    "adaptive_system_prompt": lambda path: {"attacker": "adaptive", "adaptive_system_prompt": path},
    "adaptive_turn_prompt": lambda path: {"attacker": "adaptive", "adaptive_turn_prompt": path},
}
#: A text each route accepts (its required placeholders), to which the hostile changes apply.
GOOD = {
    "system_prompt": "Document: {document}\nPolicy: {policy}\nTask: {task}",
    "guard@": "Policy: {policy}\nReview: {draft}",
    "minimize@": "Keep what the task needs: {document}",
    "policy_reminder@": "Remember: {policy}",
    "spotlight,guard@": "Policy: {policy}\nReview: {draft}",
    "attacker_turn_prompt": "Send {planned_message} ({protected_values}; {allowed_values})",
    "attacker_system_prompt": "Probe {domain} for {protected_values}, not {allowed_values}",
    "adaptive_system_prompt": "Get {targets}. Rules: {strategy_rules}",
    "adaptive_turn_prompt": "Round {round} of {total_rounds}.",
}
#: The placeholder each route's hostile spec is tried on.
FIELD = {
    "system_prompt": "document",
    "guard@": "draft",
    "minimize@": "document",
    "policy_reminder@": "policy",
    "spotlight,guard@": "draft",
    "attacker_turn_prompt": "planned_message",
    "attacker_system_prompt": "domain",
    "adaptive_system_prompt": "targets",
    "adaptive_turn_prompt": "round",
}
#: Routes whose kind requires placeholders (dropping them must be refused).
REQUIRED = {
    "system_prompt": "{document}",
    "guard@": "{draft}",
    "minimize@": "{document}",
    "spotlight,guard@": "{draft}",
    "attacker_turn_prompt": "{planned_message}",
    "adaptive_system_prompt": "{strategy_rules}",
}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_json(tmp_path / "d.json", extract(strengths=(1, 5)))


def _refused(data: Path, route: str, path: str, *parts: str) -> str:
    message = refusal(data, *parts, **ROUTES[route](path))
    return one_line(message)


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_the_good_template_of_each_route_is_accepted_and_enters_the_identity(
    route: str, data: Path, tmp_path: Path
) -> None:
    """The control: without it, every refusal below could be a route that refuses everything."""
    path = write_text(tmp_path / "ok.txt", GOOD[route])
    task = build(data, **ROUTES[route](str(path)))
    identity = task.metadata["identity"]["templates"]
    assert hashlib.sha256(GOOD[route].encode()).hexdigest() in identity.values()


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("spec", [":.10", ":>300000000", "!r", "!s:.3", ":{policy}"], ids=str)
def test_a_format_spec_or_conversion_is_refused_by_every_route(
    route: str, spec: str, data: Path, tmp_path: Path
) -> None:
    field = FIELD[route]
    text = GOOD[route].replace("{" + field + "}", "{" + field + spec + "}")
    if field not in GOOD[route]:
        text = GOOD[route] + " {" + field + spec + "}"
    path = write_text(tmp_path / "spec.txt", text)
    _refused(data, route, str(path), str(path), "format spec")


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("field", ["{document.__class__}", "{document[0]}", "{}", "{0}"], ids=str)
def test_attribute_index_and_positional_fields_are_refused(
    route: str, field: str, data: Path, tmp_path: Path
) -> None:
    path = write_text(tmp_path / "attr.txt", GOOD[route] + " " + field)
    _refused(data, route, str(path), str(path), "not a plain name")


@pytest.mark.parametrize("route", sorted(REQUIRED))
def test_a_template_without_its_required_placeholder_is_refused(
    route: str, data: Path, tmp_path: Path
) -> None:
    """`{draft}` missing from a guard template: the guard would never see the reply; a
    minimiser without `{document}` would shorten nothing."""
    required = REQUIRED[route]
    path = write_text(tmp_path / "missing.txt", GOOD[route].replace(required, "(gone)"))
    _refused(data, route, str(path), str(path), "required placeholder", required)


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_an_unknown_placeholder_is_refused(route: str, data: Path, tmp_path: Path) -> None:
    path = write_text(tmp_path / "unknown.txt", GOOD[route] + " {api_key}")
    _refused(data, route, str(path), str(path), "{api_key}")


def _symlink_to_environ(tmp_path: Path) -> str:
    link = tmp_path / "innocent.txt"
    link.symlink_to("/proc/self/environ")
    return str(link)


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    return str(path)


def _oversized(tmp_path: Path) -> str:
    path = tmp_path / "big.txt"
    path.write_text("{document}{policy}{task}{draft}" + " " * MAX_TEMPLATE_BYTES, encoding="utf-8")
    return str(path)


def _latin1(tmp_path: Path) -> str:
    path = tmp_path / "latin1.txt"
    path.write_bytes("caf\u00e9 {document} {policy} {task} {draft}".encode("latin-1"))
    return str(path)


def _nul(tmp_path: Path) -> str:
    return str(write_text(tmp_path / "nul.txt", "{document}{policy}{task}{draft}\x00"))


def _empty(tmp_path: Path) -> str:
    return str(write_text(tmp_path / "empty.txt", "  \n"))


FILES: dict[str, tuple[Callable[[Path], str], str]] = {
    "/proc/self/environ": (lambda _: "/proc/self/environ", "not an ordinary text file"),
    "symlink to /proc/self/environ": (_symlink_to_environ, "not an ordinary text file"),
    "/dev/zero": (lambda _: "/dev/zero", "not an ordinary file"),
    "/dev/null": (lambda _: "/dev/null", "not an ordinary file"),
    "a folder": (lambda tmp: str(tmp), "is a folder"),
    "a fifo": (_fifo, "not an ordinary file"),
    "a missing file": (lambda tmp: str(tmp / "nowhere.txt"), "not found"),
    "over the size bound": (_oversized, "at most"),
    "Latin-1": (_latin1, "not UTF-8"),
    "a NUL byte": (_nul, "control character"),
    "blank": (_empty, "empty"),
}


@pytest.mark.parametrize("route", ["system_prompt", "guard@", "minimize@", "adaptive_turn_prompt"])
@pytest.mark.parametrize("kind", sorted(FILES))
def test_a_file_that_is_not_a_small_utf8_text_file_is_refused(
    route: str, kind: str, data: Path, tmp_path: Path
) -> None:
    """`guard@/proc/self/environ` would send the process environment, secrets included, to
    the guard model and store it in the log."""
    make, expected = FILES[kind]
    path = make(tmp_path)
    message = _refused(data, route, path, expected)
    assert "SECRET" not in message


def test_the_environment_never_reaches_the_task_by_a_template(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the message says, the environment's text is in no part of the refusal."""
    monkeypatch.setenv("POLAR_HOSTILE_SECRET", "hunter2-do-not-send")
    for route in ("system_prompt", "guard@", "minimize@", "policy_reminder@"):
        message = refusal(data, **ROUTES[route]("/proc/self/environ"))
        assert "hunter2" not in message


def test_an_at_sign_without_a_defense_or_a_file_is_refused_by_name(data: Path) -> None:
    one_line(refusal(data, "defense", "names no defense before '@'", defense="@g.txt"))
    one_line(refusal(data, "defense", "names no prompt file", defense="guard@"))


def test_a_prompt_for_a_defense_without_a_template_is_refused(data: Path, tmp_path: Path) -> None:
    path = write_text(tmp_path / "r.txt", "anything")
    one_line(refusal(data, "redact_oracle", "no prompt template", defense=f"redact_oracle@{path}"))
