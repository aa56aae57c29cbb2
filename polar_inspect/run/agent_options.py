"""The `-M` options the reference agents (`polar/...`) read, declared once: an option another
agent reads is no part of an agent's identity or label (`options_read`); one none reads is
refused (`check_agent_options`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from polar_inspect.axes import attack_code, policy_code
from polar_inspect.errors import UserInputError, did_you_mean

PROVIDER = "polar/"


class AgentOption(NamedTuple):
    """An option, the agent that reads it, what it does, and its value when not given."""

    agent: str
    what: str
    default: str | None = None


#: The reference agents' declarations (`reference_agents.json`), read once for the package.
REFERENCE_AGENTS: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "reference_agents.json").read_text(encoding="utf-8")
)
#: Option name -> its declaration (`reference_agents.json`, "options").
AGENT_OPTIONS: dict[str, AgentOption] = {
    name: AgentOption(**declared) for name, declared in REFERENCE_AGENTS["options"].items()
}


def option(args: dict[str, Any], name: str) -> Any:
    """The value of option `name` an agent runs with: the one given, else its default (a list,
    as Inspect's CLI parses `-M leak_policies=P4,P5`, as the comma-separated text it was)."""
    value = args.get(name, AGENT_OPTIONS[name].default)
    return ",".join(map(str, value)) if isinstance(value, list | tuple) else value


#: The leak options of `polar/mixed` and how each entry reads as a code.
LEAK_CODES = {"leak_policies": policy_code, "leak_attacks": attack_code}


def leak_entries(value: object) -> list[str]:
    """The entries of a leak option's comma-separated text; `none` (no level) is none."""
    return [v for v in map(str.strip, str(value).split(",")) if v and v.lower() != "none"]


def options_read(model: str, args: dict[str, Any]) -> dict[str, Any]:
    """The model arguments `model` runs with: for a reference agent, the options declared for
    it, defaults filled in (plus any undeclared one, which it refuses); others: all `args`."""
    if not model.startswith(PROVIDER):
        return dict(args)
    name = model.removeprefix(PROVIDER)
    read = {k: v for k, v in args.items() if k not in AGENT_OPTIONS}
    for key, declared in AGENT_OPTIONS.items():
        if declared.agent == name and option(args, key) is not None:
            read[key] = option(args, key)
    return dict(sorted(read.items()))


def check_agent_options(model_name: str, options: dict[str, Any]) -> None:
    """Refuse a `-M` option no reference agent reads, or a leak cell that names no level."""
    for key, value in options.items():
        if key not in AGENT_OPTIONS:
            raise UserInputError(
                f"polar/{model_name}: unknown -M option {key!r}{did_you_mean(key, AGENT_OPTIONS)}; "
                "the reference agents read: "
                + "; ".join(f"{n} (polar/{o.agent}: {o.what})" for n, o in AGENT_OPTIONS.items())
            )
        if key in LEAK_CODES:
            value = option(options, key)
            if bad := [v for v in leak_entries(value) if LEAK_CODES[key](v) is None]:
                raise UserInputError(
                    f"polar/{model_name}: -M {key}={value} names no "
                    f"{'policy level (P1..P5)' if key == 'leak_policies' else 'attack (S1..S5)'}"
                    f": {', '.join(bad)}"
                )
