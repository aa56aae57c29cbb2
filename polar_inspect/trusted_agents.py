"""Agents that can play the trusted party: a built-in name, or a team's own `module:function`.

`-T trusted_agent=<spec>` replaces the paper's single model call per trusted turn with an
Inspect `Agent` (docs/agents.md). The spec is one of:

- a built-in name (`TRUSTED_AGENTS`): `react` is Inspect's `react()` agent on the trusted
  model, with no prompt of its own (the dialogue's system message is its prompt) and no
  submit tool: it calls tools until it answers without calling one, and that answer is the
  reply the third party receives;
- `package.module:function`: an importable function that takes the keyword argument `tools`
  (a list of Inspect tools: the document tools of `-T document_access`, possibly empty) and
  returns an Inspect `Agent`. It is called once per sample.

`resolve_agent` checks a spec when the configuration is validated; `agent_factory` returns
the callable the solver calls.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.agent import Agent, react
from inspect_ai.tool import Tool

from polar_inspect.errors import UserInputError

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
    """The factory a (valid) spec names: `factory(tools=[...])` returns an Agent."""
    if spec in TRUSTED_AGENTS:
        return TRUSTED_AGENTS[spec]
    module_name, _, function_name = spec.partition(":")
    module = importlib.import_module(module_name)
    found: AgentFactory = getattr(module, function_name)
    return found


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
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise TrustedAgentError(
            f"cannot import module {module_name!r} ({err}); install the package that "
            "provides it, or fix the name"
        ) from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise TrustedAgentError(f"module {module_name!r} has no function {function_name!r}")
    if not _takes_tools(function):
        raise TrustedAgentError(
            f"{function_name}() must take the keyword "
            "argument `tools` (the document tools) and return an Inspect Agent (docs/agents.md)"
        )
    return spec


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


def agent_source_sha256(spec: str) -> str | None:
    """The sha256 of the module file a `module:function` spec names (None: a built-in, or a
    module without a file), so that a run's identity changes with the agent's code."""
    if spec in TRUSTED_AGENTS:
        return None
    path = getattr(importlib.import_module(spec.partition(":")[0]), "__file__", None)
    if path is None:
        return None
    with open(path, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()
