"""Plug-ins by contract: what an installed attacker, a team's agent factory and its agent give
back is checked where it meets the package; a violation is one line naming the plug-in, the
call and what came back. Names and options are checked when a plug-in is loaded."""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.agent import AgentState
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser

from polar_inspect.attackers import ENTRY_POINT_GROUP, AttackerNameError, available_attackers
from polar_inspect.attackers.registry import AttackerContractError, checked_attacker
from polar_inspect.params import ParameterError
from polar_inspect.plugins import PluginError
from polar_inspect.run.code import code_identity, source_sha256
from polar_inspect.run.config import PolarConfig
from polar_inspect.trusted_agents import TrustedAgentError, agent_factory
from tests.attackers.test_registry import ECHO
from tests.plugin_site import install_plugin


def _site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    monkeypatch.syspath_prepend(str(site))
    return site


def _module(site: Path, name: str, source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (site / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    monkeypatch.delitem(sys.modules, name, raising=False)


def test_a_name_two_distributions_register_is_refused_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _site(tmp_path, monkeypatch)
    install_plugin(site, "first_echo", ECHO, ENTRY_POINT_GROUP, {"echo": "first_echo:Echo"})
    install_plugin(site, "second_echo", ECHO, ENTRY_POINT_GROUP, {"echo": "second_echo:Echo"})
    with pytest.raises(AttackerNameError, match="'echo' is registered by 2") as caught:
        available_attackers()
    assert "first-echo 0.1" in caught.value.message and "second-echo 0.1" in caught.value.message


@pytest.mark.parametrize("option", ["weight", "max_turns"])
def test_an_option_named_like_a_core_parameter_is_refused_when_loaded(
    option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _site(tmp_path, monkeypatch)
    source = ECHO.replace('echo_greeting: str = "Hello"', f"{option}: str = 'x'")
    source = source.replace("self.options.echo_greeting", "'Hi'")
    monkeypatch.delitem(sys.modules, "clash_echo", raising=False)
    install_plugin(site, "clash_echo", source, ENTRY_POINT_GROUP, {"echo": "clash_echo:Echo"})
    with pytest.raises(PluginError, match=f"'echo' of clash-echo 0.1 declares .*{option}"):
        PolarConfig.from_task_args({})


def test_the_control_a_plugin_with_its_own_options_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _site(tmp_path, monkeypatch)
    install_plugin(site, "ok_echo", ECHO, ENTRY_POINT_GROUP, {"echo": "ok_echo:Echo"})
    assert PolarConfig.from_task_args({"attacker": "echo"}).attacker == "echo"


BAD_TURN = ECHO.replace(
    'return AttackerTurn(message=f"{self.greeting} #{index + 1}")', "return self.greeting"
)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (BAD_TURN, "next_turn() returned str 'Hello'"),
        (ECHO.replace("return Turns(self.options.echo_greeting, min(2, budget))",
                      "return {'message': 'hi'}"), "start() returned dict"),
        (ECHO.replace("min(2, budget)", "3 * budget"),
         "start() planned rounds=int 6 with a turn budget of 2"),
        (ECHO.replace("min(2, budget)", "'2'"), "start() planned rounds=str '2'"),
    ],
)  # fmt: skip
def test_an_attacker_plugins_wrong_return_is_one_line(
    source: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _site(tmp_path, monkeypatch)
    monkeypatch.delitem(sys.modules, "bad_echo", raising=False)
    install_plugin(site, "bad_echo", source, ENTRY_POINT_GROUP, {"echo": "bad_echo:Echo"})
    attacker = checked_attacker(available_attackers()["echo"].from_options({}))

    async def play() -> Any:
        sample = attacker.start(None, 2, None, None)  # type: ignore[arg-type]
        return await sample.next_turn(0, [], [])

    with pytest.raises(AttackerContractError, match="attacker plug-in 'echo'") as caught:
        asyncio.run(play())
    assert said in caught.value.message and "\n" not in caught.value.message


AGENTS = """
    from inspect_ai.agent import AgentState

    def returns_none(tools):
        return None

    def returns_text(tools):
        return "an agent"

    def returns_sync(tools):
        def agent(state):
            return state
        return agent

    def adds_nothing(tools):
        async def agent(state):
            return state
        return agent

    def returns_text_from_agent(tools):
        async def agent(state):
            return "hello"
        return agent

    def rebuilds_without_reply(tools):
        async def agent(state):  # fresh ids, as a bridge converting messages gives them
            return AgentState(messages=[type(m)(content=m.text) for m in state.messages])
        return agent
"""


@pytest.mark.parametrize(
    ("function", "said"),
    [
        ("returns_none", "returned NoneType None, not an Inspect Agent"),
        ("returns_text", "returned str 'an agent', not an Inspect Agent"),
        ("returns_sync", "not an Inspect Agent"),
    ],
)
def test_a_factory_that_returns_no_agent_is_one_line(
    function: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(_site(tmp_path, monkeypatch), "contract_agents", AGENTS, monkeypatch)
    factory = agent_factory(f"contract_agents:{function}")
    with pytest.raises(TrustedAgentError, match="-T trusted_agent=contract_agents") as caught:
        factory(tools=[])
    assert said in caught.value.message


@pytest.mark.parametrize(
    ("function", "said"),
    [
        ("adds_nothing", "added no message"),
        ("returns_text_from_agent", "returned str 'hello'"),
        ("rebuilds_without_reply", "added no message"),  # its old reply is not a new one
    ],
)
def test_an_agent_that_breaks_its_contract_is_one_line(
    function: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(_site(tmp_path, monkeypatch), "contract_agents", AGENTS, monkeypatch)
    agent = agent_factory(f"contract_agents:{function}")(tools=[])
    earlier = [ChatMessageUser(content="hi"), ChatMessageAssistant(content="an earlier reply")]
    state = AgentState(messages=[*earlier, ChatMessageUser(content="and now?")])
    with pytest.raises(TrustedAgentError, match=said):
        asyncio.run(agent(state))


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("raise RuntimeError('no GPU here')\n", "RuntimeError: no GPU here"),
        ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
    ],
)
def test_a_module_that_fails_on_import_is_one_line_naming_the_parameter(
    source: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(_site(tmp_path, monkeypatch), "failing_agent", source, monkeypatch)
    with pytest.raises(ParameterError, match="trusted_agent") as caught:
        PolarConfig.from_task_args({"trusted_agent": "failing_agent:f"})
    assert said in caught.value.message and "\n" not in caught.value.message


def test_a_relative_module_name_is_one_line() -> None:
    with pytest.raises(ParameterError, match="trusted_agent.*relative module name"):
        PolarConfig.from_task_args({"trusted_agent": ".mod:f"})


def test_an_agent_in_a_zip_loads_and_its_source_is_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = (
        b"def zipped(tools):\n    async def agent(state):\n        return state\n    return agent\n"
    )
    archive = tmp_path / "agents.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_agent.py", source)
    monkeypatch.syspath_prepend(str(archive))
    monkeypatch.delitem(sys.modules, "zipped_agent", raising=False)
    config = PolarConfig.from_task_args({"trusted_agent": "zipped_agent:zipped"})
    assert config.trusted_agent == "zipped_agent:zipped"
    factory = agent_factory("zipped_agent:zipped")
    code = code_identity(factory)
    assert code is not None and code.module == "zipped_agent"
    assert code.source_sha256 == hashlib.sha256(source).hexdigest()
    assert source_sha256("zipped_agent") == code.source_sha256


def test_a_helper_module_of_the_plugins_package_is_in_its_code_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing a module the plug-in imports (not the one defining it) changes the identity, so
    `inspect eval-retry` fails instead of mixing two programs in one log."""
    site = _site(tmp_path, monkeypatch)
    package = site / "helped_plugin"
    package.mkdir()
    (package / "__init__.py").write_text("from helped_plugin.attack import Attack\n")
    (package / "attack.py").write_text(
        "from helped_plugin.helper import REDACT\nclass Attack: ...\n"
    )
    (package / "helper.py").write_text("REDACT = False\n")
    for name in ("helped_plugin", "helped_plugin.attack", "helped_plugin.helper"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    attack = importlib.import_module("helped_plugin").Attack
    before = code_identity(attack)
    (package / "helper.py").write_text("REDACT = True\n")
    after = code_identity(attack)
    assert before is not None and after is not None and before.module == "helped_plugin.attack"
    assert before.source_sha256 != after.source_sha256
