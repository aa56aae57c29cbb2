"""Hostile: a misspelt `-M` option of a reference agent, a misspelt `--model-role` name.

Both used to pass unnoticed or crash: `-M leak_polices=P5` ended `inspect eval` in a 229-line
traceback; `--model-role atacker=...` ran (and `polar-cost` priced) as if no attacker were bound.
Each is now one line naming the option or role and the closest known one, non-zero status.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polar_inspect.cost.cli import main as cost_main
from polar_inspect.defenses.registry import DEFENSES
from polar_inspect.errors import UserInputError
from polar_inspect.run.setup import known_roles
from tests.hostile.conftest import command, evaluate, extract, write_json


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_json(tmp_path / "d.json", extract(strengths=(1, 5)))


def test_a_misspelt_agent_option_is_refused_naming_the_closest(data: Path, tmp_path: Path) -> None:
    with pytest.raises(UserInputError) as caught:
        evaluate(data, "polar/leaky", tmp_path / "logs", model_args={"leak_polices": "P5"})
    message = caught.value.message
    assert "\n" not in message
    assert "unknown -M option 'leak_polices' (did you mean 'leak_policies'?)" in message


def test_an_unknown_reference_agent_is_refused_naming_the_closest(
    data: Path, tmp_path: Path
) -> None:
    with pytest.raises(UserInputError, match="'polar/leakky' .did you mean 'leaky'"):
        evaluate(data, "polar/leakky", tmp_path / "logs")


def test_a_misspelt_role_is_refused_when_the_task_is_built(data: Path, tmp_path: Path) -> None:
    with pytest.raises(UserInputError) as caught:
        evaluate(data, "polar/refuse", tmp_path / "logs", {"atacker": "polar/replay-attacker"})
    assert caught.value.message.startswith(
        "--model-role atacker: no such role (did you mean 'attacker'?); the roles are "
    )
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


def test_the_known_roles_are_every_defense_role_plus_attacker_and_judge() -> None:
    declared = {role for cls in DEFENSES.available().values() for role in cls.roles}
    assert declared  # guard, minimizer: a registry with no role would make this vacuous
    assert set(known_roles()) == declared | {"attacker", "judge"}


def test_polar_cost_refuses_a_misspelt_role(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["polar_inspect/privacy_mini", "--model", "openai/gpt-4.1", "-T", f"data={data}"]
    assert cost_main([*args, "--model-role", "atacker=openai/gpt-4.1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "atacker: no such role (did you mean 'attacker'?)" in err[0], err
    assert cost_main([*args, "--model-role", "attacker=openai/gpt-4.1"]) == 0  # the control


@pytest.mark.slow
def test_inspect_eval_prints_one_line_for_a_bad_option_and_a_bad_role(
    data: Path, tmp_path: Path
) -> None:
    base = ["eval", "polar_inspect/privacy", "-T", f"data={data}", "--model", "polar/leaky",
            "--log-dir", str(tmp_path / "logs"), "--limit", "1"]  # fmt: skip
    for extra, said in [
        (["-M", "leak_polices=P5"], "Error: polar/leaky: unknown -M option 'leak_polices' (did"),
        (["--model-role", "atacker=polar/replay-attacker"], "Error: --model-role atacker: no"),
    ]:
        done = command("inspect", *base, *extra, cwd=tmp_path)
        lines = (done.stdout + done.stderr).strip().splitlines()
        assert done.returncode == 1 and len(lines) == 1 and lines[0].startswith(said), lines


def test_the_per_sample_check_reads_no_registry_for_the_runs_own_roles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The solver checks the bound names on every sample: the run's own roles (attacker,
    judge, its defenses') are accepted without scanning the plug-in registry."""
    from polar_inspect.run.config import PolarConfig
    from polar_inspect.run.setup import RunSetup, check_role_names

    setup = RunSetup.prepare(PolarConfig.from_task_args({"defense": "guard"}))

    def scanned() -> None:
        raise AssertionError("registry scanned")

    monkeypatch.setattr(DEFENSES, "available", scanned)
    check_role_names(["attacker", "judge", "guard"], setup)
    with pytest.raises(AssertionError, match="registry scanned"):
        check_role_names(["minimizer"], setup)
