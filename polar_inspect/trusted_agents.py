"""Agents that can play the trusted party (`-T trusted_agent=`): a built-in name, or a team's
own `module:function` taking `tools` and returning an Inspect `Agent` (docs/agents.md)."""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.agent import Agent, AgentState, react
from inspect_ai.model import ChatMessage, ChatMessageAssistant
from inspect_ai.tool import Tool

from polar_inspect.errors import UserInputError
from polar_inspect.plugins import one_line
from polar_inspect.plugins import short_repr as _shown

#: The spelling that means "no agent": the paper's single model call.
NO_AGENT = "none"

AgentFactory = Callable[..., Agent]


class TrustedAgentError(UserInputError):
    """`-T trusted_agent=...` names no built-in agent and no importable function."""


def react_agent(tools: Sequence[Tool]) -> Agent:
    """Inspect's `react()` on the trusted model: no prompt of its own, no submit tool."""
    return react(prompt=None, tools=list(tools), submit=False)


#: Built-in trusted agents by name.
TRUSTED_AGENTS: dict[str, AgentFactory] = {"react": react_agent}


def agent_factory(spec: str) -> AgentFactory:
    """The factory a (valid) spec names: `factory(tools=[...])` returns an Agent. A team's own
    factory is checked (`checked_factory`)."""
    if spec in TRUSTED_AGENTS:
        return TRUSTED_AGENTS[spec]
    module_name, _, function_name = spec.partition(":")
    found: AgentFactory = getattr(importlib.import_module(module_name), function_name)
    return checked_factory(found, spec)


def checked_factory(factory: AgentFactory, spec: str) -> AgentFactory:
    """`factory`, checked where it meets the dialogue: it must return an Inspect Agent (an
    async function of an AgentState), and the agent must return an AgentState with a reply.
    A violation is one line naming the parameter, the call and what came back."""
    who = f"-T trusted_agent={spec}"

    def build(**kwargs: Any) -> Agent:
        agent = factory(**kwargs)
        call = getattr(agent, "__call__", None)  # noqa: B004 - an async callable object counts
        if not (inspect.iscoroutinefunction(agent) or inspect.iscoroutinefunction(call)):
            raise TrustedAgentError(
                f"{who}: {spec.partition(':')[2]}(tools=...) returned {_shown(agent)}, not an "
                "Inspect Agent (an async function taking and returning an AgentState)"
            )
        return _checked_agent(agent, who)

    return functools.wraps(factory)(build)  # its module and name: the code identity's


def added_messages(
    given: Sequence[ChatMessage], returned: Sequence[ChatMessage]
) -> list[ChatMessage]:
    """What an agent added: the messages after the last one it was given (found by id, else by
    role and text, as an agent that rebuilds its messages gives them new ids)."""
    last = given[-1]
    for index in range(len(returned) - 1, -1, -1):
        found = returned[index]
        if found.id == last.id or (found.role == last.role and found.text == last.text):
            return list(returned[index + 1 :])
    return list(returned)  # it dropped what it was given: all it returned is its own


def _checked_agent(agent: Agent, who: str) -> Agent:
    async def checked(state: AgentState, *args: Any, **kwargs: Any) -> AgentState:
        given = list(state.messages)
        result = await agent(state, *args, **kwargs)
        if not isinstance(result, AgentState):
            raise TrustedAgentError(
                f"{who}: the agent returned {_shown(result)}, not an AgentState"
            )
        added = added_messages(given, result.messages)
        replied = any(isinstance(m, ChatMessageAssistant) for m in added)
        earlier = {m.id for m in result.messages[: len(result.messages) - len(added)]}
        output = result.output  # Inspect makes one of the last assistant message if none is set
        if not replied and (not output.choices or output.message.id in earlier):
            raise TrustedAgentError(
                f"{who}: the agent added no message and set no output: it must append its "
                "reply (a ChatMessageAssistant) to state.messages"
            )
        return result

    return checked


def resolve_agent(value: object) -> str | None:
    """A checked trusted-agent spec (None: no agent). Raises TrustedAgentError (a ValueError:
    the configuration reports it under the parameter's name)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise TrustedAgentError(_expected())
    spec = value.strip()
    if spec.lower() == NO_AGENT:
        return None
    if spec in TRUSTED_AGENTS:
        return spec
    module_name, colon, function_name = spec.partition(":")
    if not colon or not module_name or not function_name.isidentifier():
        raise TrustedAgentError(_expected())
    if module_name.startswith("."):
        raise TrustedAgentError(
            f"{module_name!r} is a relative module name: write the full name "
            "(package.module:function), importable from where inspect runs"
        )
    function = getattr(_import(module_name), function_name, None)
    if not callable(function):
        raise TrustedAgentError(f"module {module_name!r} has no function {function_name!r}")
    if not _takes_tools(function):
        raise TrustedAgentError(
            f"{function_name}() must take the keyword "
            "argument `tools` (the document tools) and return an Inspect Agent (docs/agents.md)"
        )
    return spec


def _import(module_name: str) -> Any:
    """Import the agent's module; any failure on import is one line (never a traceback)."""
    try:
        return importlib.import_module(module_name)
    except ImportError as err:
        raise TrustedAgentError(
            f"cannot import module {module_name!r} ({err}); install the package that "
            "provides it, or fix the name"
        ) from None
    except BaseException as err:  # noqa: BLE001 - RuntimeError, sys.exit... on import
        if isinstance(err, KeyboardInterrupt):
            raise
        raise TrustedAgentError(
            f"importing module {module_name!r} failed: {one_line(err)}; fix the module"
        ) from None


def _takes_tools(function: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return True  # no signature to read: the first sample will tell
    return "tools" in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
    )


def _expected() -> str:
    names = ", ".join([NO_AGENT, *TRUSTED_AGENTS])
    return (
        f"expected one of {names}, or "
        "package.module:function (a function that takes `tools` and returns an Inspect Agent)"
    )
