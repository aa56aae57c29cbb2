"""Every user error ends `inspect eval` with one message, tried as a hostile user would: a
mistyped or misplaced `-T` parameter is an error (not a warning and an undefended run), a bad
value is refused by name, and the one error Inspect's own `-T` parsing raises before our code
runs is documented (see README.md in this folder)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.domain_tasks import privacy_medical
from polar_inspect.errors import UserInputError
from tests.hostile.conftest import build, command, evaluate, extract, write_json, write_text


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_json(tmp_path / "d.json", extract(strengths=(1, 5)))


BAD: dict[str, tuple[dict[str, Any], str]] = {
    "defence (misspelt)": ({"defence": "guard"}, "defence; did you mean defense?"),
    "Defense (case)": ({"Defense": "guard"}, "Defense"),
    "an unknown defense": ({"defense": "gaurd"}, "gaurd"),
    "an adaptive option on the paper attacker": ({"attack_budget": 2}, "attack_budget"),
    "a paper option on the adaptive attacker": (
        {"attacker": "adaptive", "attacker_messages": "merged"},
        "attacker_messages",
    ),
    "max_turns=0": ({"max_turns": 0}, "max_turns"),
    "max_turns=-3": ({"max_turns": -3}, "max_turns"),
    "max_turns=true": ({"max_turns": True}, "max_turns"),
    "max_turns=2.5": ({"max_turns": 2.5}, "max_turns"),
    "weight=1.5": ({"weight": 1.5}, "weight"),
    "weight=nan": ({"weight": float("nan")}, "weight"),
    "judge=yes": ({"judge": "yes"}, "judge"),
    "judge=1": ({"judge": 1}, "judge"),
    "policy=P9": ({"policy": "P9"}, "P9"),
    "attack=S0": ({"attack": "S0"}, "S0"),
    "an empty item in attack": ({"attack": "S1,,S2"}, "attack"),
    "an unknown attacker": ({"attacker": "adaptiv"}, "adaptiv"),
    "truncated=ignore": ({"truncated": "ignore"}, "truncated"),
    "attack_language=es": ({"attacker": "adaptive", "attack_language": "es"}, "attack_language"),
    "a defense listed twice": ({"defense": "guard,guard"}, "twice"),
    "system_prompt as a list": ({"system_prompt": ["a.txt", "b.txt"]}, "system_prompt"),
    "an unknown domain": ({"domain": "astrology"}, "astrology"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_parameter_is_refused_by_name_in_one_line(case: str, data: Path) -> None:
    args, named = BAD[case]
    with pytest.raises(UserInputError) as caught:
        build(data, **args)
    message = str(caught.value)
    assert named in message, message
    assert len(message.splitlines()) == 1, message


def test_the_control_a_well_formed_set_of_parameters_builds(data: Path, tmp_path: Path) -> None:
    guard = write_text(tmp_path / "g.txt", "Policy: {policy}\nDraft: {draft}")
    task = build(data, defense=f"spotlight,guard@{guard}", attack="S1,S5", max_turns=2,
                 weight=0.25, attacker="adaptive", attack_budget=2)  # fmt: skip
    assert task.metadata["defense"]["stack"] == ["spotlight", "guard"]


@pytest.mark.slow
def test_a_misspelt_parameter_ends_inspect_eval_with_status_1_and_one_line(
    data: Path, tmp_path: Path
) -> None:
    """`-T defence=guard` was a warning, and the run went on undefended."""
    done = command("inspect", "eval", "polar_inspect/privacy", "-T", f"data={data}",
                   "-T", "defence=guard", "--model", "polar/refuse",
                   "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert lines == ["Error: unknown task parameter defence; did you mean defense? (the parameters "
                     "are listed in the README's Options table)"]  # fmt: skip
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argument", "named"),
    [
        ("defense=guard@/proc/self/environ", "/proc/self/environ"),
        ("system_prompt={tmp}/missing.txt", "missing.txt"),
        ("data={tmp}/nowhere.json", "nowhere.json"),
        ("max_turns=0", "max_turns"),
    ],
)
def test_a_user_error_at_task_build_is_status_1_and_one_line(
    argument: str, named: str, data: Path, tmp_path: Path
) -> None:
    done = command("inspect", "eval", "polar_inspect/privacy", "-T", f"data={data}",
                   "-T", argument.format(tmp=tmp_path), "--model", "polar/refuse",
                   "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    output = (done.stdout + done.stderr).strip()
    assert "Traceback" not in output
    error_lines = [line for line in output.splitlines() if line.startswith("Error: ")]
    assert len(error_lines) == 1 and named in error_lines[0], output


@pytest.mark.slow
def test_an_at_file_defense_fails_and_its_quoted_form_is_one_line(
    data: Path, tmp_path: Path
) -> None:
    """KNOWN LIMITATION: `-T defense=@file.txt` is parsed as YAML by Inspect before our code runs
    (`@` cannot start a YAML token): a YAML traceback, but status 1 and nothing runs. Quoted,
    the value reaches the task, which names what is wrong in one line."""
    guard = write_text(tmp_path / "g.txt", "Check {draft}")
    base = ["eval", "polar_inspect/privacy", "-T", f"data={data}", "--model", "polar/refuse",
            "--log-dir", str(tmp_path / "logs")]  # fmt: skip
    raw = command("inspect", *base, "-T", f"defense=@{guard.name}", cwd=tmp_path)
    assert raw.returncode != 0
    quoted = command("inspect", *base, "-T", f'defense="@{guard.name}"', cwd=tmp_path)
    assert quoted.returncode == 1
    assert (quoted.stdout + quoted.stderr).strip().splitlines() == [
        f"Error: Task parameter defense='@{guard.name}' (str): defense: '@{guard.name}' names no "
        "defense before '@'; write 'guard@path/to/template.txt' (a defense name, then the file)"
    ]


@pytest.mark.slow
def test_a_missing_role_is_refused_when_the_task_is_built(data: Path, tmp_path: Path) -> None:
    """Roles are bound before `inspect eval` builds the task: a run needing an attacker and
    given none printed Inspect's 85-line panel and exited 0; now one line, status 1, no log."""
    with pytest.raises(UserInputError, match="needs a model on the 'attacker' role") as caught:
        evaluate(data, "polar/refuse", tmp_path / "logs", attacker="adaptive")
    assert "--model-role attacker=" in caught.value.message
    done = command("inspect", "eval", "polar_inspect/privacy", "-T", f"data={data}",
                   "-T", "attacker=adaptive", "--model", "polar/refuse",
                   "--log-dir", str(tmp_path / "cli"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: -T attacker=adaptive needs"), lines
    assert not (tmp_path / "cli").exists() or not any((tmp_path / "cli").iterdir())


@pytest.mark.slow
def test_the_control_a_bound_role_builds_and_runs(data: Path, tmp_path: Path) -> None:
    log = evaluate(data, "polar/refuse", tmp_path / "logs",
                   {"attacker": "polar/adaptive-attacker"}, attacker="adaptive")  # fmt: skip
    assert log.status == "success", log.error


FIXED: dict[str, tuple[str, dict[str, Any]]] = {
    "privacy_medical -T domain=finance": ("polar_inspect.domain_tasks:privacy_medical",
                                          {"domain": "finance"}),
    "privacy_mini -T domain=finance": ("polar_inspect.tasks:privacy_mini", {"domain": "finance"}),
    "privacy_mini -T attack=S1": ("polar_inspect.tasks:privacy_mini", {"attack": "S1"}),
    "privacy_mini -T policy=P5": ("polar_inspect.tasks:privacy_mini", {"policy": "P5"}),
    "privacy_defense_guard -T defense=spotlight": (
        "polar_inspect.defense_tasks:privacy_defense_guard", {"defense": "spotlight"}),
    "privacy_defense_none -T defense=guard": (
        "polar_inspect.defense_tasks:privacy_defense_none", {"defense": "guard"}),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(FIXED))
def test_a_parameter_a_variant_fixes_is_refused_not_overwritten(case: str, data: Path) -> None:
    """`privacy_medical -T domain=finance` ran medical, `privacy_mini -T domain=finance` ran
    every domain, and `privacy_defense_guard -T defense=spotlight` ended in a TypeError."""
    where, args = FIXED[case]
    module, name = where.split(":")
    variant = getattr(importlib.import_module(module), name)
    with pytest.raises(UserInputError) as caught:
        variant(data=str(data), **args)
    message = str(caught.value)
    (parameter,) = args
    assert message.startswith(f"Task parameter {parameter}: the task {name} fixes {parameter}")
    assert len(message.splitlines()) == 1


def test_the_control_a_variant_takes_the_parameters_it_does_not_fix(data: Path) -> None:
    task = privacy_medical(data=str(data), attack="S1", defense="guard")
    assert task.metadata["domains"] == ["medical"] and task.metadata["attacks"] == ["S1"]


@pytest.mark.slow
def test_a_fixed_parameter_ends_inspect_eval_with_status_1(data: Path, tmp_path: Path) -> None:
    done = command("inspect", "eval", "polar_inspect/privacy_mini", "-T", f"data={data}",
                   "-T", "domain=finance", "--model", "polar/refuse",
                   "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: Task parameter domain:"), lines
