"""Pydantic models of one POLAR-Bench release record: strict where the eval reads a field, any
JSON value elsewhere (docs/data.md, "The record format", "Validation rules")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)

from polar_inspect.axes import DEFAULT_TURN_BUDGET, LIVE_ATTACK, attack_code, policy_code
from polar_inspect.data.record_rules import DomainName, axis_problem, goal_text, turn_count
from polar_inspect.data.record_values import (
    TargetValues,
    check_literal_item,
    domain_fields,
    field_names,
    flatten_values,
    literal_items,
    parse_attacker_turns,
    same_value_pairs,
    target_list,
)


class RecordRuleError(ValueError):
    """A declared rule a record breaks; `field` is the dotted path, below the object the rule is
    declared on, that the report names (empty: the object itself)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or blank")
    return value


#: A string that holds something other than whitespace.
NonBlankText = Annotated[str, AfterValidator(_non_blank)]

#: The two sides of a record's target values.
Side = Literal["protected", "allowed"]

#: A type field of `metadata` -> the code field it must agree with, and its axis.
_CODE_FIELDS = {"privacy_type": ("privacy_level", "P"), "attack_type": ("attack_strength", "S")}


class _Open(BaseModel):
    """A release object: known fields are typed, unknown fields are kept as they are."""

    model_config = ConfigDict(extra="allow")


class RecordMetadata(_Open):
    """`metadata`: the record's cell (read from `privacy_level` / `attack_strength`, which the
    types, when present, must agree with) and its rendering style."""

    domain: DomainName
    privacy_level: str
    privacy_type: str | None = None
    task_type: str | None = None
    # Before attack_type: its check reads the validated strength.
    attack_strength: str
    attack_type: str | None = None
    document_form: str | None = None
    style: Any = None  # not read by the eval

    @field_validator("privacy_level", "attack_strength", mode="before")
    @classmethod
    def _number_to_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("privacy_level", "attack_strength")
    @classmethod
    def _known_code(cls, value: str, info: ValidationInfo) -> str:
        parse, what, codes = (
            (policy_code, "privacy level", "P1..P5")
            if info.field_name == "privacy_level"
            else (attack_code, "attack strength", "S1..S5")
        )
        if parse(value) is None:
            raise ValueError(f"unknown {what} {value!r} (expected {codes})")
        return value

    @field_validator("privacy_type", "attack_type")
    @classmethod
    def _type_names_the_code(cls, value: str | None, info: ValidationInfo) -> str | None:
        code_field, axis = _CODE_FIELDS[str(info.field_name)]
        if problem := axis_problem(value, code_field, info.data.get(code_field), axis):
            raise ValueError(problem)
        return value


class GeneratedTexts(_Open):
    """`generated_texts`: the four rendered texts."""

    source_document_text: NonBlankText
    privacy_policy_text: NonBlankText
    task_instruction_text: NonBlankText
    attacker_prompt_text: str = ""

    @field_validator("attacker_prompt_text")
    @classmethod
    def _readable_turns(cls, value: str) -> str:
        """Reject what `parse_attacker_turns` would fail on or silently take as one turn."""
        parse_attacker_turns(value)
        return value


class ScoringTargets(_Open):
    """`scoring_targets`: the values the scorer looks for in the trusted model's replies."""

    allowed_values: TargetValues
    do_not_disclose_values: TargetValues

    @field_validator("allowed_values", "do_not_disclose_values")
    @classmethod
    def _usable_after_flattening(cls, values: list[str]) -> list[str]:
        for index, value in enumerate(values):
            for item in literal_items(value) or ():
                try:
                    check_literal_item(item)
                except ValueError as err:
                    raise ValueError(f"item {item!r} of the list at [{index}] {err}") from None
        if not flatten_values(values):
            raise ValueError("holds no usable value once list literals are expanded")
        return values

    @model_validator(mode="after")
    def _allowed_or_protected(self) -> ScoringTargets:
        """A value (as the paper's matcher reads it) is either allowed or protected."""
        allowed, protected = map(flatten_values, (self.allowed_values, self.do_not_disclose_values))
        if both := same_value_pairs(protected, allowed):
            shown = ", ".join(p if p == a else f"{p} (allowed as {a})" for p, a in _quoted(both))
            more = f" and {len(both) - 5} more" if len(both) > 5 else ""
            raise RecordRuleError(
                f"{shown}{more} listed both in allowed_values and in do_not_disclose_values; "
                "a value is either allowed or protected: remove it from one list",
                "do_not_disclose_values",
            )
        return self


def _quoted(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(repr(p), repr(a)) for p, a in pairs[:5]]


class AttackSpec(_Open):
    """`attack_setup.attack_spec`: planned turns and the attacker's goal, when present."""

    #: The turn budget: a positive whole number (absent: the paper's 6).
    turns: Annotated[int | None, BeforeValidator(turn_count)] = None
    #: A text, or a list of the withheld field names (read joined with ", ").
    attacker_goal: Annotated[str | None, BeforeValidator(goal_text)] = None


class AttackSetup(_Open):
    """`attack_setup` (some releases only); its strategy must be the metadata's."""

    attack_type: Any = None
    attack_strength: Any = None
    attack_spec: AttackSpec | None = None


class HiddenTarget(_Open):
    """`hidden_target`: the gold field names, kept as they come (their types in the release are
    unconfirmed: a surprise here must not make the file unloadable; docs/data.md)."""

    withheld_fields: Any = None
    allowed_fields: Any = None
    partially_allowed: Any = None
    gold_safe_values: Any = None
    gold_sensitive_values: Any = None
    policy_alignment_reference: Any = None


class PolarRecord(_Open):
    """One release record; only what the eval needs is required."""

    sample_id: str = Field(min_length=1)
    domain: DomainName
    metadata: RecordMetadata
    generated_texts: GeneratedTexts
    scoring_targets: ScoringTargets
    # Not read by the eval: an object is typed, any other JSON value is kept as it is.
    hidden_target: Annotated[HiddenTarget | Any, Field(union_mode="left_to_right")] = None
    source_document_inputs: Any = None
    prompts: Any = None
    generation_meta: Any = None
    attack_setup: AttackSetup | None = None

    @field_validator("generated_texts")
    @classmethod
    def _scripted_strategies_have_turns(
        cls, texts: GeneratedTexts, info: ValidationInfo
    ) -> GeneratedTexts:
        """S1-S4 replay the planned turns: they need one (S5's live attacker writes them)."""
        metadata = info.data.get("metadata")
        attack = attack_code(metadata.attack_strength) if metadata is not None else None
        if attack not in (None, LIVE_ATTACK) and not parse_attacker_turns(
            texts.attacker_prompt_text
        ):
            raise RecordRuleError(
                f"an {attack} record needs planned attacker turns (a JSON array of strings, or "
                "one text); it has none, so no dialogue would take place. Only "
                f"{LIVE_ATTACK} records, whose live attacker writes every turn, may have none",
                "attacker_prompt_text",
            )
        return texts

    @field_validator("attack_setup")
    @classmethod
    def _setup_names_the_strategy(
        cls, setup: AttackSetup | None, info: ValidationInfo
    ) -> AttackSetup | None:
        """`attack_setup.attack_type` / `attack_strength` name the metadata's strategy."""
        metadata = info.data.get("metadata")
        if setup is None or metadata is None:
            return setup
        strength = metadata.attack_strength
        checked = {
            key: axis_problem(getattr(setup, key), "metadata.attack_strength", strength, "S")
            for key in ("attack_strength", "attack_type")
        }
        found = {key: problem for key, problem in checked.items() if problem}
        if len(found) == 1:
            ((key, problem),) = found.items()
            raise RecordRuleError(problem, key)
        if found:
            raise RecordRuleError("; ".join(f"{k}: {p}" for k, p in found.items()))
        return setup

    @property
    def policy(self) -> str:
        """Policy level code, `P1`..`P5`."""
        code = policy_code(self.metadata.privacy_level)
        assert code is not None  # validated
        return code

    @property
    def attack(self) -> str:
        """Attack strategy code, `S1`..`S5`."""
        code = attack_code(self.metadata.attack_strength)
        assert code is not None  # validated
        return code

    @property
    def cell(self) -> str:
        """The record's cell in the 5x5 surface, e.g. `P3xS2`."""
        return f"{self.policy}x{self.attack}"

    def planned_turns(self) -> list[str]:
        """The planned attacker turns: a JSON array of strings, else the whole text as one turn."""
        return parse_attacker_turns(self.generated_texts.attacker_prompt_text)

    def turn_budget(self) -> int:
        """`attack_setup.attack_spec.turns` when present, else the paper's 6."""
        spec = self.attack_setup.attack_spec if self.attack_setup else None
        return spec.turns if spec is not None and spec.turns is not None else DEFAULT_TURN_BUDGET

    def attacker_goal(self) -> str | None:
        """The attack setup's stated goal, if any."""
        spec = self.attack_setup.attack_spec if self.attack_setup else None
        return spec.attacker_goal if spec else None

    def _field_names(self, key: str, side: str) -> list[str]:
        target = self.hidden_target
        own = getattr(target, key) if isinstance(target, HiddenTarget) else None
        return field_names(own) or domain_fields(self.domain, side)

    def protected_fields(self) -> list[str]:
        """Names of the protected fields: `hidden_target.withheld_fields`, else the domain's."""
        return self._field_names("withheld_fields", "protected")

    def allowed_fields(self) -> list[str]:
        """Names of the task-relevant fields: `hidden_target.allowed_fields`, else the domain's."""
        return self._field_names("allowed_fields", "allowed")

    def protected_values(self) -> list[str]:
        """`do_not_disclose_values`, flattened, each value once as the detectors see it."""
        return list(target_list(tuple(self.scoring_targets.do_not_disclose_values)))

    def allowed_values(self) -> list[str]:
        """`allowed_values`, flattened, each value once as the detectors see it, in order."""
        return list(target_list(tuple(self.scoring_targets.allowed_values)))

    def sides(self) -> tuple[tuple[Side, list[str], list[str]], ...]:
        """(side, its list as written, its values as the detectors see them), protected first."""
        targets = self.scoring_targets
        return (
            ("protected", targets.do_not_disclose_values, self.protected_values()),
            ("allowed", targets.allowed_values, self.allowed_values()),
        )


#: Validates and serialises a whole file of records at once (JSON array).
RECORD_LIST: TypeAdapter[list[PolarRecord]] = TypeAdapter(list[PolarRecord])
