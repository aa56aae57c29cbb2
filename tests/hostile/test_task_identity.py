"""The task half of a run's identity, tried as a hostile user would: every task parameter and
file that can change a number changes the identity fixed at task build (so `eval-retry` and
`polar-report` can tell the runs apart), and what changes no number leaves it alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from polar_inspect.prompts import default_text
from tests.hostile.conftest import build, extract, write_json, write_text


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_json(tmp_path / "d.json", extract(strengths=(1, 2, 3, 4, 5)))


def _identity(data: Path, **args: Any) -> dict[str, Any]:
    return build(data, **args).metadata["identity"]


def _files(tmp_path: Path) -> dict[str, str]:
    """Template files of each kind, in two versions (a and b) that differ by one word."""
    texts = {
        "system": "Document: {document}\nPolicy: {policy}\nTask: {task}",
        "guard": "Policy: {policy}\nReview: {draft}",
        "adaptive": "Get {targets}. Rules: {strategy_rules}",
        "turn": "Send {planned_message} ({protected_values}; {allowed_values})",
    }
    files: dict[str, str] = {}
    for name, text in texts.items():
        files[f"{name} a"] = str(write_text(tmp_path / f"{name}_a.txt", text))
        files[f"{name} b"] = str(write_text(tmp_path / f"{name}_b.txt", "Now. " + text))
    return files


CHANGES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "max_turns": ({"max_turns": 2}, {"max_turns": 3}),
    "weight": ({"weight": 0.5}, {"weight": 0.25}),
    "truncated": ({"truncated": "score"}, {"truncated": "fail"}),
    "judge": ({}, {"judge": True}),
    "defense stack": ({"defense": "guard"}, {"defense": "spotlight,guard"}),
    "defense order": ({"defense": "spotlight,guard"}, {"defense": "guard,spotlight"}),
    "attacker": ({"attacker": "paper"}, {"attacker": "scripted"}),
    "attack_budget": ({"attacker": "adaptive", "attack_budget": 2},
                      {"attacker": "adaptive", "attack_budget": 3}),
    "attack_language": ({"attacker": "adaptive"},
                        {"attacker": "adaptive", "attack_language": "de"}),
    "attacker_knowledge": ({"attacker": "adaptive", "attacker_knowledge": "fields"},
                           {"attacker": "adaptive", "attacker_knowledge": "values"}),
    "attacker_messages": ({"attacker_messages": "separate"}, {"attacker_messages": "merged"}),
    "attacker_empty_reply": ({"attacker_empty_reply": "send"}, {"attacker_empty_reply": "stop"}),
    "selection: attack": ({"attack": "S1,S2"}, {"attack": "S1"}),
    "selection: policy": ({}, {"policy": "P1,P2,P3"}),
}  # fmt: skip
FILE_CHANGES: dict[str, tuple[str, str]] = {
    "system_prompt": ("system_prompt", "system"),
    "guard@": ("defense", "guard"),
    "adaptive_system_prompt": ("adaptive_system_prompt", "adaptive"),
    "attacker_turn_prompt": ("attacker_turn_prompt", "turn"),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_parameter_that_changes_a_number_changes_the_identity(name: str, data: Path) -> None:
    first, second = CHANGES[name]
    assert _identity(data, **first) != _identity(data, **second)
    assert _identity(data, **first) == _identity(data, **first)  # the control: deterministic


@pytest.mark.parametrize("name", sorted(FILE_CHANGES))
def test_a_template_files_content_changes_the_identity(
    name: str, data: Path, tmp_path: Path
) -> None:
    parameter, kind = FILE_CHANGES[name]
    files = _files(tmp_path)
    extra = {"attacker": "adaptive"} if kind == "adaptive" else {}

    def value(version: str) -> str:
        path = files[f"{kind} {version}"]
        return f"guard@{path}" if parameter == "defense" else path

    a = _identity(data, **{parameter: value("a")}, **extra)
    b = _identity(data, **{parameter: value("b")}, **extra)
    assert a["templates"] != b["templates"]


def test_a_template_moved_to_another_path_is_the_same_identity(data: Path, tmp_path: Path) -> None:
    """The identity is the content: a copy of the file elsewhere is the same experiment."""
    text = "Document: {document}\nPolicy: {policy}\nTask: {task}"
    first = write_text(tmp_path / "one.txt", text)
    (tmp_path / "elsewhere").mkdir()
    second = write_text(tmp_path / "elsewhere" / "two.txt", text)
    assert _identity(data, system_prompt=str(first)) == _identity(data, system_prompt=str(second))


def test_the_default_template_written_to_a_file_is_the_default_identity(
    data: Path, tmp_path: Path
) -> None:
    copy = write_text(tmp_path / "default.txt", default_text("trusted_system"))
    assert _identity(data, system_prompt=str(copy)) == _identity(data)


@pytest.mark.parametrize("args", [{"max_in_flight": 3}, {"gc_tuning": False}], ids=str)
def test_what_changes_no_number_leaves_the_identity_alone(args: dict[str, Any], data: Path) -> None:
    assert _identity(data, **args) == _identity(data)


def test_one_changed_byte_of_data_changes_the_identity(data: Path) -> None:
    """A trailing space: the same records, other bytes; the identity is of the bytes parsed."""
    before = _identity(data)
    data.write_bytes(data.read_bytes() + b" ")
    assert _identity(data)["data_sha256"] != before["data_sha256"]
