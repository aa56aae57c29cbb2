"""The attacker registry: built-ins by name, third-party attackers through an entry point, each
attacker's own options validated by its own model."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageUser

from polar_inspect.attackers import (
    ENTRY_POINT_GROUP,
    Attacker,
    AttackerNameError,
    available_attackers,
)
from polar_inspect.params import ParameterError
from polar_inspect.report.inventory import read_header
from polar_inspect.tasks import privacy
from tests.conftest import make_record
from tests.helpers import by_id, dialogue_of, run
from tests.plugin_site import install_plugin

ECHO = '''
    from pydantic import BaseModel, ConfigDict

    from polar_inspect.attackers import Attacker, AttackerTurn


    class EchoOptions(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)

        echo_greeting: str = "Hello"
        echo_api_key: str | None = None


    class Turns:
        turn_source = "planned"
        layout = None
        layout_note = None

        def __init__(self, greeting, rounds):
            self.greeting, self.rounds = greeting, rounds

        async def next_turn(self, index, attacker_turns, replies):
            return AttackerTurn(message=f"{self.greeting} #{index + 1}")

        def exhausted(self):
            return "turn_budget"

        def usage(self):
            return None

        def plans(self):
            return []


    class Echo(Attacker):
        """A third-party attacker: the same greeting every round, numbered."""

        name = "echo"
        summary = "greets every round"
        Options = EchoOptions

        def start(self, info, budget, model, seeds):
            return Turns(self.options.echo_greeting, min(2, budget))
    '''


def _install(site: Path, name: str = "echo") -> None:
    install_plugin(
        site, "polar_echo_attacker", ECHO, ENTRY_POINT_GROUP, {name: "polar_echo_attacker:Echo"}
    )


def test_the_builtins_are_registered_with_their_declarations() -> None:
    found = available_attackers()
    assert list(found) == ["adaptive", "paper", "scripted"]
    assert all(issubclass(cls, Attacker) for cls in found.values())
    assert found["adaptive"].requires_model and found["adaptive"].calls_model
    assert found["paper"].calls_model and not found["paper"].requires_model
    assert not found["scripted"].calls_model
    assert "attack_budget" in found["adaptive"].option_names()
    assert "attacker_messages" in found["paper"].option_names()
    assert found["scripted"].option_names() == []


def test_every_builtin_option_is_a_parameter_of_the_task() -> None:
    """`privacy`'s signature lists every built-in attacker's options (from the registry)."""
    import inspect

    parameters = set(inspect.signature(privacy).parameters)
    for cls in available_attackers().values():
        assert set(cls.option_names()) <= parameters, cls.name


def test_a_third_party_attacker_registers_and_takes_its_own_options(
    write_records: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    _install(site)
    monkeypatch.syspath_prepend(str(site))
    assert "echo" in available_attackers()
    data = write_records([make_record(0, turns=["Hello?"])])
    log = run(
        "polar_inspect/privacy",
        "polar/refuse",
        tmp_path / "logs",
        data=str(data),
        attacker="echo",
        echo_greeting="Hi there",  # an option only this plug-in declares
    )
    (sample,) = by_id(log).values()
    turns = [m.text for m in sample.messages if isinstance(m, ChatMessageUser)]
    assert turns == ["Hi there #1", "Hi there #2"]
    assert dialogue_of(sample)["attacker"] == "echo"
    assert log.eval.metadata["attacker"]["options"] == {
        "echo_greeting": "Hi there",
        "echo_api_key": None,
    }
    # a plug-in's secret option: in no part of the log polar_inspect writes, nor in the report
    keyed = run("polar_inspect/privacy", "polar/refuse", tmp_path / "keyed", data=str(data),
                attacker="echo", echo_api_key="sk-PLUGIN-SECRET")  # fmt: skip
    ours = [keyed.eval.metadata, keyed.plan.model_dump(), keyed.samples[0].store]
    assert "sk-PLUGIN-SECRET" not in json.dumps(ours, default=str)
    settings = keyed.eval.metadata["identity"]["settings"]["attacker_options"]
    assert settings["echo_api_key"].startswith("[redacted sha256:")  # two keys: two runs
    header = read_header(keyed.location)
    assert "sk-PLUGIN-SECRET" not in str(getattr(header, "task_args", None)) and header.task_args
    with pytest.raises(ParameterError, match="echo_greeting"):
        privacy(data=str(data), attacker="echo", echo_greeting=3)
    with pytest.raises(ParameterError, match="echo_greeting.* applies to -T attacker=echo"):
        privacy(data=str(data), echo_greeting="Hi")


def test_a_plugin_may_not_take_a_builtin_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    _install(site, name="paper")
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(AttackerNameError, match="'paper'.*taken by a built-in"):
        available_attackers()
