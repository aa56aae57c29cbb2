"""The adaptive attacker: every strategy S1-S5 played live, with a private plan and a budget;
how its answers are read and refused: docs/attackers.md#adaptive."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser, Model
from pydantic import BaseModel, ConfigDict, Field

from polar_inspect.attackers.adaptive_prompts import (
    AdaptiveReply,
    AdaptiveTemplates,
    Knowledge,
    LanguageCode,
    parse_reply,
    plain_text_reply,
    strategy_rules,
)
from polar_inspect.attackers.base import (
    STOP_TOKEN,
    Attacker,
    AttackerTurn,
    NonAttack,
    PlanEntry,
    SampleAttacker,
    StopReason,
    TurnSource,
    generate_as_attacker,
)
from polar_inspect.attackers.paper import merged_conversation
from polar_inspect.attackers.registry import builtin
from polar_inspect.data.samples import SampleInfo
from polar_inspect.params import PositiveWhole, TemplatePath
from polar_inspect.prompts import LoadedTemplate
from polar_inspect.seeds import CallSeeds

#: Extra calls allowed per round when the attacker's reply is not the structured format.
FORMAT_RETRIES = 1


class AdaptiveOptions(BaseModel):
    """The adaptive attacker's options (each a task parameter of the same name)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attacker_knowledge: Knowledge = Field(
        "fields",
        description="what it knows of its targets: `fields` (their names) or `values` (their "
        "values too, as the paper's attacker is shown)",
    )
    attack_budget: PositiveWhole = Field(
        None,
        description="turns it may spend (default: the sample's turn budget; S1 always gets one)",
    )
    attack_language: LanguageCode | None = Field(
        None, description="the language it writes in (default: English)"
    )
    adaptive_system_prompt: TemplatePath = Field(
        None, description="template file for its system message"
    )
    adaptive_turn_prompt: TemplatePath = Field(
        None, description="template file for its per-round instruction"
    )


class AdaptiveSampleAttacker(SampleAttacker):
    """One sample's adaptive attacker."""

    turn_source: TurnSource = "model"
    #: Its own layout: an opening user message, then strictly alternating roles.
    layout: str | None = "alternating"

    def __init__(
        self,
        model: Model,
        templates: AdaptiveTemplates,
        info: SampleInfo,
        rounds: int,
        options: AdaptiveOptions,
        seeds: CallSeeds,
    ) -> None:
        self._model = model
        self._seeds = seeds
        self._templates = templates
        self.rounds = rounds
        knowledge, language = options.attacker_knowledge, options.attack_language
        self._system = templates.system_message(info, knowledge, language, rounds)
        self._said: list[str] = []  # its own structured replies, as it gave them
        self._plans: list[PlanEntry] = []

    def conversation(
        self, index: int, answers: Sequence[str], replies: Sequence[str]
    ) -> list[ChatMessage]:
        """What the attacker model is sent for round `index`, after its earlier `answers` and
        the trusted `replies` (polar-cost rebuilds its requests with this)."""
        instruction = self._templates.turn_instruction(index, self.rounds)
        opening = self._templates.opening.text.strip()
        return merged_conversation(self._system, opening, answers, replies, instruction)

    def _read(
        self, text: str, index: int, last: bool
    ) -> tuple[AdaptiveReply | None, NonAttack | None]:
        """Its answer as a reply, or None with why it is no attack (None: nothing readable); the
        round's last answer without a JSON object is taken as plain text."""
        reply = parse_reply(text, self._templates.placeholders())
        if reply is None and parse_reply(text) is not None:
            return None, NonAttack(round=index + 1, why="format_placeholders", sent=False)
        if reply is None and last:
            reply = plain_text_reply(text)
        if reply is None or reply.done:
            return reply, None
        if (why := self._templates.not_attack(reply.message, reply.read_as)) is None:
            return reply, None
        return None, NonAttack(round=index + 1, why=why, sent=False)

    async def _answer(
        self, messages: list[ChatMessage], index: int
    ) -> tuple[str, AdaptiveReply | None, list[NonAttack]]:
        """Its answer for the round: asked again once with a reminder of the format when the
        first holds no usable reply; the answers that were no attack, refused on the way."""
        refused: list[NonAttack] = []
        seed = self._seeds.attacker(index + 1)
        text = await generate_as_attacker(self._model, messages, seed)
        for attempt in range(FORMAT_RETRIES + 1):
            if text == STOP_TOKEN:
                return text, None, refused
            reply, not_attack = self._read(text, index, last=attempt == FORMAT_RETRIES)
            if not_attack is not None:
                refused.append(not_attack)
            if reply is not None or attempt == FORMAT_RETRIES:
                return text, reply, refused
            retry = [
                *messages,
                ChatMessageAssistant(content=text or "(empty)"),
                ChatMessageUser(content=self._templates.retry.text.strip()),
            ]
            text = await generate_as_attacker(self._model, retry, seed)
        raise AssertionError("unreachable: the last attempt returns")

    async def next_turn(
        self, index: int, attacker_turns: Sequence[str], replies: Sequence[str]
    ) -> AttackerTurn:
        """Ask the attacker for its updated plan and next message; log the plan."""
        messages = self.conversation(index, self._said, replies)
        text, reply, refused = await self._answer(messages, index)
        if reply is None:
            stop: StopReason = "attacker_unparsable"
            if text == STOP_TOKEN:
                stop = "attacker_stop"
            elif refused:
                stop = "attacker_no_attack"
            return AttackerTurn(stop=stop, not_attacks=refused)
        entry = PlanEntry(
            round=index + 1, plan=reply.plan.strip(), done=reply.done, read_as=reply.read_as
        )
        self._plans.append(entry)
        transcript().info(
            {"attacker_plan": entry.plan, **entry.model_dump(exclude={"plan"})},
            source="polar_inspect attacker (private, not sent)",
        )
        message = reply.message.strip()
        if reply.done:
            return AttackerTurn(stop="attacker_done", not_attacks=refused)
        if message in ("", STOP_TOKEN):
            stop = "attacker_stop" if message else "attacker_empty"
            return AttackerTurn(stop=stop, not_attacks=refused)
        self._said.append(reply.model_dump_json(exclude={"read_as"}))
        return AttackerTurn(message=message, not_attacks=refused)

    def exhausted(self) -> StopReason:
        """The attacker's budget was spent."""
        return "turn_budget"

    def plans(self) -> list[PlanEntry]:
        """The plan after each of the attacker's answers."""
        return list(self._plans)


@builtin
class AdaptiveAttacker(Attacker):
    """`-T attacker=adaptive`: every strategy live on the `attacker` role."""

    name = "adaptive"
    summary = (
        "every strategy live on the 'attacker' role, with a private plan, a budget and its "
        "strategy's rules"
    )
    calls_model = True
    requires_model = True
    Options = AdaptiveOptions
    options: AdaptiveOptions

    def __init__(self, options: BaseModel) -> None:
        super().__init__(options)
        self.adaptive_templates = AdaptiveTemplates(
            self.options.adaptive_system_prompt, self.options.adaptive_turn_prompt
        )

    def templates(self) -> list[LoadedTemplate]:
        """Every template the adaptive attacker sends."""
        return self.adaptive_templates.all()

    def start(
        self, info: SampleInfo, budget: int, model: Model | None, seeds: CallSeeds
    ) -> SampleAttacker:
        """The adaptive attacker for one sample, its budget within its strategy's cap (S1: one
        message); the dialogue checked that a model is bound."""
        assert model is not None, "requires_model: the dialogue checks the role first"
        own = self.options.attack_budget
        rounds = own if own is not None else budget
        cap = strategy_rules()[info.attack].max_turns
        rounds = min(rounds, cap) if cap is not None else rounds
        return AdaptiveSampleAttacker(
            model, self.adaptive_templates, info, rounds, self.options, seeds
        )

    def describe(self, attacks: Sequence[str]) -> str:
        """The run-metadata note, as known when the task is built (model: eval.model_roles)."""
        options = self.options
        budget = options.attack_budget if options.attack_budget is not None else "turn budget"
        return (
            "adaptive: every strategy live on the 'attacker' role (eval.model_roles) "
            f"(knowledge: {options.attacker_knowledge}, budget: {budget}, language: "
            f"{options.attack_language or 'en'})"
        )
