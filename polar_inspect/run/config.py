"""The run configuration: every `-T` parameter validated once (docs/hostile-checks.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from polar_inspect.attackers import ATTACKERS, DEFAULT_ATTACKER, Attacker
from polar_inspect.axes import ATTACK_TYPES, POLICY_TYPES, attack_code, policy_code
from polar_inspect.defenses.registry import DEFENSES, DefenseSpec, parse_defense
from polar_inspect.errors import closest_name
from polar_inspect.params import (
    Flag,
    Fraction,
    Names,
    ParameterError,
    PositiveWhole,
    TemplatePath,
    shown,
    split_names,
)
from polar_inspect.plugins import PluginError
from polar_inspect.trusted_agents import resolve_agent


def _codes(kind: str, names: Mapping[str, str], to_code: Any) -> Any:
    def check(value: object) -> tuple[str, ...]:
        parsed = split_names(value)  # the same splitting as every selection
        if parsed is None:
            return tuple(names)
        codes = [(item, to_code(item)) for item in parsed]
        if unknown := [item for item, code in codes if code is None]:
            valid = ", ".join(f"{code} ({name})" for code, name in names.items())
            raise ValueError(f"unknown {kind} {', '.join(map(repr, unknown))}; valid: {valid}")
        return tuple(dict.fromkeys(code for _, code in codes))

    return check


def _defense(value: object) -> tuple[DefenseSpec, ...]:
    if value is None:
        raise ValueError("expected 'none' or defense names, e.g. guard,spotlight")
    names = split_names(value)  # the same checks as every list of names
    return tuple(parse_defense(list(names or ())))


def _data(value: object) -> object:
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise ValueError("expected 'official', 'bundled', a .json/.jsonl file or a dataset folder")


class PolarConfig(BaseModel):
    """One run's task parameters, validated (field names are the `-T` names)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    data: Annotated[str, BeforeValidator(_data)] = "official"
    domain: Names = None
    #: Policy levels `P1`..`P5` (codes, numbers or privacy_type names); None: all five.
    policy: Annotated[
        tuple[str, ...], BeforeValidator(_codes("policy", POLICY_TYPES, policy_code))
    ] = tuple(POLICY_TYPES)
    #: Attack strategies `S1`..`S5` (codes, numbers or attack_type names); None: all five.
    attack: Annotated[
        tuple[str, ...], BeforeValidator(_codes("attack", ATTACK_TYPES, attack_code))
    ] = tuple(ATTACK_TYPES)
    max_turns: PositiveWhole = None
    weight: Fraction = 0.5
    system_prompt: TemplatePath = None
    truncated: Literal["score", "fail"] = "score"
    defense: Annotated[tuple[DefenseSpec, ...], BeforeValidator(_defense)] = ()
    attacker: str = DEFAULT_ATTACKER
    #: The attacker's own options, as its `Options` model validated them (JSON values).
    attacker_options: dict[str, Any] = Field(default_factory=dict)
    max_in_flight: PositiveWhole = None
    judge: Flag = False
    gc_tuning: Flag = True
    #: A trusted agent's spec (`trusted_agents.resolve_agent`); None: the paper's model call.
    trusted_agent: Annotated[str | None, BeforeValidator(resolve_agent)] = None
    #: Where the trusted party finds the source document (docs/agents.md).
    document_access: Literal["prompt", "tool", "fields"] = "prompt"

    @model_validator(mode="after")
    def _access_has_an_agent(self) -> PolarConfig:
        """Tools need an agent to call them; each defense must apply to the access mode."""
        if self.document_access != "prompt" and self.trusted_agent is None:
            raise ValueError(
                f"document_access={self.document_access} gives the document through tools, "
                "which a single model call cannot use: add -T trusted_agent=react (Inspect's "
                "react agent on the trusted model) or your own agent"
            )
        for spec in self.defense:
            if self.document_access not in (modes := DEFENSES.get(spec.name).document_access):
                raise ValueError(
                    f"defense {spec.name} does not apply to document_access="
                    f"{self.document_access} (it applies to {', '.join(modes)}): drop it "
                    "or choose another access mode"
                )
        return self

    def turn_budget(self, planned: int) -> int:
        """A sample's turn budget: `max_turns` when set, else the record's own (`planned`)."""
        return self.max_turns if self.max_turns is not None else planned

    @classmethod
    def parameter_names(cls) -> list[str]:
        """The task parameters every task takes (attackers add their own options)."""
        return [name for name in cls.model_fields if name != "attacker_options"]

    @classmethod
    def from_task_args(cls, args: Mapping[str, Any]) -> PolarConfig:
        """The task's parameters validated; a ParameterError names every bad or unknown one."""
        core = set(cls.parameter_names())
        owners = _option_owners(core)
        attacker_cls = _attacker_class(args.get("attacker", DEFAULT_ATTACKER))
        options = _attacker_options(args, core, attacker_cls, owners)
        values = {name: args[name] for name in core if name in args}
        try:  # the attacker's options first, then the core parameters
            validated = attacker_cls.Options.model_validate(options)
            values["attacker_options"] = validated.model_dump(mode="json")
            return cls.model_validate(values)
        except ValidationError as err:
            raise ParameterError.from_validation(err) from None

    def attacker_class(self) -> type[Attacker]:
        """The registered attacker class this config names."""
        return ATTACKERS.get(self.attacker)


def _attacker_class(name: object) -> type[Attacker]:
    if not isinstance(name, str) or not name.strip():
        raise ParameterError(
            f"Task parameter attacker={shown(name)}: expected one of {', '.join(ATTACKERS.names())}"
        )
    try:
        return ATTACKERS.get(name.strip())
    except PluginError as err:
        raise ParameterError(f"Task parameter attacker={shown(name)}: {err.message}") from None


def _attacker_options(
    args: Mapping[str, Any],
    core: set[str],
    attacker_cls: type[Attacker],
    owners: dict[str, list[str]],
) -> dict[str, Any]:
    """The chosen attacker's options among `args`; ParameterError naming every parameter that
    is another attacker's option or nobody's."""
    own = set(attacker_cls.option_names())
    others = {
        option: rest
        for option, names in owners.items()
        if (rest := [name for name in names if name != attacker_cls.name])
    }
    options: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in args.items():
        if name in core or value is None and (name in own or name in others):
            continue
        if name in own:
            options[name] = value
        elif name in others:
            problems.append(
                f"Task parameter {name}={shown(value)} applies to -T attacker="
                f"{' or '.join(others[name])}, not to -T attacker={attacker_cls.name}"
            )
        else:
            problems.append(_unknown(name, [*core, *own, *others]))
    if problems:
        raise ParameterError("; ".join(problems))
    return options


def _option_owners(core: set[str]) -> dict[str, list[str]]:
    """Option name -> the registered attackers that take it; an option named like a core task
    parameter would never receive the user's value (the core parameter takes it): refused."""
    owners: dict[str, list[str]] = {}
    for name, attacker in ATTACKERS.available().items():
        if clash := sorted(set(attacker.option_names()) & core):
            origin = ATTACKERS.origins.get(name)
            where = f" of {origin[0]} {origin[1] or ''}".rstrip() if origin else ""
            raise PluginError(
                f"attacker {name!r}{where} declares the option(s) {', '.join(clash)}, named like "
                "core task parameters (they would never receive the user's value): rename them "
                "in its Options model"
            )
        for option in attacker.option_names():
            owners.setdefault(option, []).append(name)
    return owners


def _unknown(name: str, known: Sequence[str]) -> str:
    close = closest_name(name, known)
    hint = f"; did you mean {close}?" if close else ""
    return (
        f"unknown task parameter {name}{hint} (the parameters are listed in the README's "
        "Options table)"
    )
