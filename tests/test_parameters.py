"""Task parameters are type-checked when the task is built; user errors print without traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from polar_inspect.domain_tasks import privacy_medical
from polar_inspect.params import ParameterError
from polar_inspect.prompts import PromptTemplateError
from polar_inspect.tasks import privacy, privacy_mini
from tests.conftest import make_record


@pytest.fixture
def data(write_records) -> str:
    return str(write_records([make_record(0), make_record(1, attack="S5")]))


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("max_turns", 2.5, r"max_turns=2\.5 \(float\): expected a whole number >= 1"),
        ("max_turns", "abc", r"max_turns='abc' \(str\): expected a whole number"),
        ("max_turns", True, r"max_turns=True \(bool\): expected a whole number"),
        ("max_turns", 0, r"max_turns=0 \(int\): expected a whole number >= 1"),
        ("weight", True, r"weight=True \(bool\): expected a number within \[0, 1\]"),
        ("weight", "abc", r"weight='abc' \(str\): expected a number within \[0, 1\]"),
        ("weight", float("nan"), r"weight=nan \(float\): expected a number within \[0, 1\]"),
        ("weight", 1.5, r"weight=1\.5 \(float\): expected a number within \[0, 1\]"),
        ("domain", ",", r"domain=',' \(str\): expected a name.*no empty item"),
        ("domain", [], r"domain=\[\] \(list\): expected a name"),
        ("policy", {"P1": 1}, r"policy=\{'P1': 1\} \(dict\): expected a name"),
        ("attack", ["S1", None], r"attack=\['S1', None\] \(list\): expected a name"),
        ("system_prompt", "", r"system_prompt='' \(str\): expected the path of a template"),
        ("system_prompt", ["a", "b"], r"a comma inside a -T value splits it into a list"),
        ("attacker_turn_prompt", 3, r"attacker_turn_prompt=3 \(int\): expected the path"),
        ("defense", ",", r"defense=',' \(str\): expected a name.*no empty item"),
        ("gc_tuning", 1, r"gc_tuning=1 \(int\): expected true or false"),
        ("judge", "yes", r"judge='yes' \(str\): expected true or false"),
        ("judge", 0, r"judge=0 \(int\): expected true or false"),
        ("gc_tuning", "yes", r"gc_tuning='yes' \(str\): expected true or false"),
        ("defense", {"guard": 1}, r"defense=\{'guard': 1\} \(dict\): expected a name"),
    ],
)
def test_wrong_parameter_types_are_refused_naming_parameter_and_value(
    data: str, name: str, value: object, expected: str
) -> None:
    with pytest.raises(ParameterError, match=expected):
        privacy(data=data, **{name: value})


@pytest.mark.parametrize("value", [None, "", 7, ["x.json", "y.json"]])
def test_data_must_be_one_text(value: object) -> None:
    with pytest.raises(ParameterError, match=r"Task parameter data=.*expected 'official'"):
        privacy(data=value)  # type: ignore[arg-type]


def test_every_task_checks_its_parameters(data: str) -> None:
    with pytest.raises(ParameterError, match="max_turns"):
        privacy_mini(data=data, max_turns=2.5)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="weight"):
        privacy_medical(data=data, weight=True)


def test_good_values_of_every_accepted_shape_build_the_task(data: str) -> None:
    task = privacy(data=data, policy=1, attack=["S1", "S5"], max_turns=3, weight=1)
    assert len(task.dataset) == 2
    assert task.metadata is not None
    assert task.metadata["weight"] == 1.0 and isinstance(task.metadata["weight"], float)
    assert task.metadata["policies"] == ["P1"]


@pytest.mark.parametrize(
    ("parameter", "text", "missing"),
    [
        ("system_prompt", "Only {policy} and {task}.", "{document}"),
        ("system_prompt", "{document} and {policy}.", "{task}"),
        ("system_prompt", "{document} and {task}.", "{policy}"),
        ("attacker_turn_prompt", "Round {round} of {total_rounds}.", "{planned_message}"),
    ],
)
def test_templates_without_a_required_placeholder_are_refused(
    data: str, tmp_path: Path, parameter: str, text: str, missing: str
) -> None:
    template = tmp_path / "mine.txt"
    template.write_text(text, encoding="utf-8")
    pattern = rf"mine\.txt \(.*\): the required placeholder\(s\) \{missing}"
    with pytest.raises(PromptTemplateError, match=pattern):
        privacy(data=data, **{parameter: str(template)})


@pytest.mark.parametrize(
    ("system", "turn", "missing"),
    [
        ("Get {allowed_values}.", "Say {planned_message}.", "{protected_values}"),
        ("Attack.", "Say {planned_message}, get {protected_values}.", "{allowed_values}"),
    ],
)
def test_attacker_templates_that_never_show_a_value_list_are_refused(
    data: str, tmp_path: Path, system: str, turn: str, missing: str
) -> None:
    (tmp_path / "system.txt").write_text(system, encoding="utf-8")
    (tmp_path / "turn.txt").write_text(turn, encoding="utf-8")
    with pytest.raises(PromptTemplateError, match=rf"neither uses \{missing}"):
        privacy(
            data=data,
            attacker_system_prompt=str(tmp_path / "system.txt"),
            attacker_turn_prompt=str(tmp_path / "turn.txt"),
        )


def test_one_attacker_template_showing_both_lists_is_enough(data: str, tmp_path: Path) -> None:
    (tmp_path / "system.txt").write_text("Get {allowed_values} and {protected_values}.")
    (tmp_path / "turn.txt").write_text("Say {planned_message}.", encoding="utf-8")
    task = privacy(
        data=data,
        attacker_system_prompt=str(tmp_path / "system.txt"),
        attacker_turn_prompt=str(tmp_path / "turn.txt"),
    )
    assert len(task.dataset) > 0


def _inspect_eval(*task_args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    inspect = Path(sys.executable).with_name("inspect")
    args = [str(inspect), "eval", "polar_inspect/privacy", "--model", "mockllm/model"]
    for arg in task_args:
        args += ["-T", arg]
    return subprocess.run(
        [*args, "--log-dir", str(cwd / "logs")],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_inspect_eval_prints_user_errors_alone(data: str, tmp_path: Path) -> None:
    """One message naming parameter and value, no traceback, exit status 1 (not 0)."""
    result = _inspect_eval(f"data={data}", "max_turns=2.5", cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1
    assert "Task parameter max_turns=2.5 (float): expected a whole number >= 1" in output
    assert "Traceback" not in output and len(output.strip().splitlines()) <= 3

    result = _inspect_eval(f"data={tmp_path / 'missing.json'}", cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1
    assert "is neither 'official', 'bundled' nor an existing file" in output
    assert "Traceback" not in output and len(output.strip().splitlines()) <= 3


def test_unreadable_templates_are_user_errors(data: str, tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("{document} {policy} {task} café".encode("latin-1"))
    with pytest.raises(PromptTemplateError, match=r"latin1\.txt is not UTF-8 text \(byte 30\)"):
        privacy(data=data, system_prompt=str(latin1))
    with pytest.raises(PromptTemplateError, match="is a folder; give a text file"):
        privacy(data=data, attacker_turn_prompt=str(tmp_path))
