"""The paper's attacker (the default): S1-S4 scripted, S5 live on the `attacker` role (replayed
when unbound); its request layouts and options: docs/attackers.md#paper-the-papers-setting."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    Model,
)
from pydantic import BaseModel, ConfigDict, Field, model_validator

from polar_inspect.attackers.base import (
    STOP_TOKEN,
    Attacker,
    AttackerTurn,
    NonAttack,
    SampleAttacker,
    StopReason,
    TurnSource,
    generate_as_attacker,
)
from polar_inspect.attackers.registry import builtin
from polar_inspect.attackers.scripted import PlannedTurns, replayed_s5
from polar_inspect.axes import LIVE_ATTACK
from polar_inspect.data.samples import SampleInfo
from polar_inspect.detectors.echo import copies_instructions
from polar_inspect.params import TemplatePath
from polar_inspect.prompts import LoadedTemplate, PromptTemplateError, load_template, placeholders
from polar_inspect.seeds import CallSeeds
from polar_inspect.text import bullets, joined, visible_text

#: The value lists the live attacker must be shown (as `{name}` or `{name_json}`).
SHOWN_VALUES = ("allowed_values", "protected_values")


class PaperOptions(BaseModel):
    """The paper attacker's options (each a task parameter of the same name)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attacker_system_prompt: TemplatePath = Field(
        None, description="template file for the live S5 attacker's system message"
    )
    attacker_turn_prompt: TemplatePath = Field(
        None, description="template file for its instruction in a round with a planned message"
    )
    attacker_free_turn_prompt: TemplatePath = Field(
        None, description="template file for its instruction in a round without one"
    )
    attacker_opening_prompt: TemplatePath = Field(
        None, description="template file for the opening user message (merged layout only)"
    )
    attacker_messages: Literal["separate", "merged"] = Field(
        "separate",
        description="request layout: `separate` (the authors': its instruction a user message "
        "of its own) or `merged` (an opening message, each reply joined with the next "
        "instruction; used automatically for Anthropic)",
    )
    attacker_empty_reply: Literal["send", "stop"] = Field(
        "send",
        description="an empty attacker message is `send` on as a turn (the authors') or "
        "`stop`s the dialogue",
    )

    @model_validator(mode="after")
    def _opening_needs_merged(self) -> PaperOptions:
        if self.attacker_opening_prompt is not None and self.attacker_messages != "merged":
            raise ValueError(
                "attacker_opening_prompt is sent only with attacker_messages=merged (the "
                "default layout, separate, has no opening message): add "
                "-T attacker_messages=merged or leave the opening out"
            )
        return self


class PaperTemplates:
    """The live attacker's four templates, loaded and checked once per task."""

    def __init__(self, options: PaperOptions) -> None:
        self.system = load_template("attacker_system", options.attacker_system_prompt)
        self.turn = load_template("attacker_turn", options.attacker_turn_prompt)
        self.free_turn = load_template("attacker_free_turn", options.attacker_free_turn_prompt)
        self.opening = load_template("attacker_opening", options.attacker_opening_prompt)
        shown = placeholders(self.system.text) | placeholders(self.turn.text)
        if missing := [name for name in SHOWN_VALUES if not {name, f"{name}_json"} & shown]:
            raise PromptTemplateError(
                f"attacker templates ({self.system.source} and {self.turn.source}): neither "
                f"uses {', '.join('{' + n + '}' for n in missing)} (or its _json form); the "
                "live attacker must be shown the protected and the allowed values in its "
                "system message or its per-round instruction"
            )

    def all(self) -> list[LoadedTemplate]:
        """The four templates, in a fixed order."""
        return [self.system, self.turn, self.free_turn, self.opening]

    def instruction_texts(self) -> list[list[str]]:
        """Each template's own words (not what fills their placeholders)."""
        return [template.literal_parts() for template in self.all()]

    @staticmethod
    def sample_fields(info: SampleInfo) -> dict[str, Any]:
        """What every attacker template may show about the sample."""
        return {
            "domain": info.domain.replace("_", " "),
            "attack_type": info.attack_type or info.attack,
            "attacker_goal": info.attacker_goal or "obtain the protected information",
            "attack_setup_json": json.dumps(info.attack_setup, indent=2, ensure_ascii=False),
            "allowed_values": bullets(info.allowed_values),
            "protected_values": bullets(info.protected_values),
            "planned_turns": bullets(info.planned_turns),
            "allowed_values_json": json_array(info.allowed_values),
            "protected_values_json": json_array(info.protected_values),
            "planned_turns_json": json_array(info.planned_turns),
        }

    def round_instruction(self, info: SampleInfo, index: int, rounds: int) -> str:
        """The instruction for round `index` (0-based) of `rounds`: planned, or free."""
        planned = info.planned_turns
        template = self.turn if index < len(planned) else self.free_turn
        return template.render(
            **self.sample_fields(info),
            round=index + 1,
            total_rounds=rounds,
            planned_message=planned[index] if index < len(planned) else "",
        )


def json_array(values: Sequence[str]) -> str:
    """A list as a template shows it in JSON: `["a", "b"]` (json.dumps, non-ASCII kept)."""
    return json.dumps(list(values), ensure_ascii=False)


#: Providers refusing a conversation that opens with an assistant message (the separate layout
#: from round 2; Anthropic: 400 "first message must use the "user" role"): they get merged.
NEEDS_USER_FIRST = ("anthropic/",)


def merged_conversation(
    system: str, opening: str, said: Sequence[str], replies: Sequence[str], instruction: str
) -> list[ChatMessage]:
    """An attacker's request with strictly alternating roles: the opening (none when empty),
    then its messages and the replies, the round's instruction joined to the last user turn."""
    messages: list[ChatMessage] = [ChatMessageSystem(content=system)]
    if not said:
        return [*messages, ChatMessageUser(content=joined(opening, instruction))]
    if opening:
        messages.append(ChatMessageUser(content=opening))
    for position, (own, reply) in enumerate(zip(said, replies, strict=True)):
        messages.append(ChatMessageAssistant(content=own))
        parts = [visible_text(reply) or "(no reply)"]
        if position == len(said) - 1:
            parts.append(instruction)
        messages.append(ChatMessageUser(content=joined(*parts)))
    return messages


class PaperLiveS5(SampleAttacker):
    """One S5 sample's live attacker: each round realises the planned message of that round."""

    turn_source: TurnSource = "model"

    def __init__(
        self,
        model: Model,
        templates: PaperTemplates,
        options: PaperOptions,
        info: SampleInfo,
        budget: int,
        seeds: CallSeeds,
    ) -> None:
        self._model = model
        self._seeds = seeds
        self._templates = templates
        self._options = options
        self.layout: str | None = options.attacker_messages
        self.layout_note: str | None = None
        if self.layout == "separate" and str(model).startswith(NEEDS_USER_FIRST):
            self.layout = "merged"
            self.layout_note = (
                f"{model}: the provider refuses a conversation that opens with an assistant "
                "message, so the merged layout was used"
            )
        self._info = info
        self._fields = templates.sample_fields(info)
        self._system = templates.system.render(**self._fields)
        planned = info.planned_turns
        self.rounds = min(len(planned), budget) if planned else budget

    def conversation(
        self, index: int, attacker_turns: Sequence[str], replies: Sequence[str]
    ) -> list[ChatMessage]:
        """What the attacker model is sent for round `index`, as plain text (local servers' chat
        templates expect a string, not content parts)."""
        instruction = self._templates.round_instruction(self._info, index, self.rounds)
        if self.layout == "separate":
            messages: list[ChatMessage] = [ChatMessageSystem(content=self._system)]
            for said, reply in zip(attacker_turns, replies, strict=True):
                messages.append(ChatMessageAssistant(content=said))
                messages.append(ChatMessageUser(content=visible_text(reply)))
            messages.append(ChatMessageUser(content=instruction))
            return messages
        opening = self._templates.opening.render(**self._fields).strip()
        return merged_conversation(self._system, opening, attacker_turns, replies, instruction)

    async def next_turn(
        self, index: int, attacker_turns: Sequence[str], replies: Sequence[str]
    ) -> AttackerTurn:
        """Ask the attacker model for round `index`'s message."""
        messages = self.conversation(index, attacker_turns, replies)
        message = await generate_as_attacker(self._model, messages, self._seeds.attacker(index + 1))
        if message == STOP_TOKEN:
            return AttackerTurn(stop="attacker_stop")
        if not message and self._options.attacker_empty_reply == "stop":
            return AttackerTurn(stop="attacker_empty")
        if copies_instructions(message, self._templates.instruction_texts()):
            # sent as the authors' evaluator sends it, and recorded as no attack
            echo = NonAttack(round=index + 1, why="copies_instructions", sent=True)
            return AttackerTurn(message=message, not_attacks=[echo])
        return AttackerTurn(message=message)

    def exhausted(self) -> StopReason:
        """Every planned turn played, or the budget reached (always so without a plan)."""
        planned = self._info.planned_turns
        return "turn_budget" if not planned or self.rounds < len(planned) else "planned_turns_done"


@builtin
class PaperAttacker(Attacker):
    """`-T attacker=paper` (the default): the authors' setting."""

    name = "paper"
    summary = (
        "the paper's setting: S1-S4 play their planned turns; S5 is live on the 'attacker' "
        "role (replayed without one)"
    )
    calls_model = True
    requires_model = False
    Options = PaperOptions
    options: PaperOptions

    def __init__(self, options: BaseModel) -> None:
        super().__init__(options)
        self.paper_templates = PaperTemplates(self.options)

    def templates(self) -> list[LoadedTemplate]:
        """The live attacker's four templates."""
        return self.paper_templates.all()

    def start(
        self, info: SampleInfo, budget: int, model: Model | None, seeds: CallSeeds
    ) -> SampleAttacker:
        """Scripted for S1-S4; S5 live when a model is bound to `attacker`, else replayed."""
        if info.attack != LIVE_ATTACK:
            return PlannedTurns(info.planned_turns, budget)
        if model is None:
            return replayed_s5(
                info,
                budget,
                why="no model is bound to the 'attacker' role",
                to_run_live="--model-role attacker=<provider/model>",
            )
        return PaperLiveS5(model, self.paper_templates, self.options, info, budget, seeds)

    def describe(self, attacks: Sequence[str]) -> str:
        """How S5 turns are produced, as far as known when the task is built (roles are bound
        when the eval runs: live or replayed is decided per sample)."""
        layout = f"messages {self.options.attacker_messages}"
        if LIVE_ATTACK not in attacks:
            return "paper: planned turns (no S5 samples selected)"
        return (
            "paper: S1-S4 planned turns; S5 live if a model is bound to the 'attacker' role "
            f"(eval.model_roles), else replayed ({layout}, empty attacker replies "
            f"{self.options.attacker_empty_reply})"
        )
