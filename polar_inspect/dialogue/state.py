"""What one sample's dialogue produced, as typed per-sample state (Inspect's `StoreModel`): the
solver saves it (`steps.Dialogue.save`; the task's cleanup writes it to the store), the scorers
and `polar-report` read it back (`read_sample_record` reads 1-A logs' metadata too);
docs/architecture.md."""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai.model import ModelOutput
from inspect_ai.util import Store
from pydantic import BaseModel, Field

from polar_inspect.attackers import NonAttack, PlanEntry, StopReason, TurnSource
from polar_inspect.defenses.stack import DefenseRecord
from polar_inspect.dialogue.sampling import RoleSampling
from polar_inspect.text import visible_text
from polar_inspect.typed_store import FastStoreModel


class DialogueSampling(BaseModel):
    """The generation settings each role's calls were made with in this sample."""

    trusted: RoleSampling | None = None
    attacker: RoleSampling | None = None


class DeliveredTurn(BaseModel):
    """One round as the other party received it (what every scorer reads)."""

    round: int  # 1-based
    #: The attacker's message as the trusted model was given it (after the input defenses).
    attacker: str
    #: The trusted reply as the attacker received it, after every defense ran on it (the
    #: message text, reasoning markup included); None: no reply of this round was delivered.
    reply: str | None = None
    #: The reasoning the delivered reply carried (its blocks and markup; never shown).
    reasoning: str = ""


#: Provider stop reasons that mean the reply was cut by a length limit.
LENGTH_STOPS = ("max_tokens", "model_length")


class ReplyLimits(BaseModel):
    """Trusted replies cut by the output-token limit, or empty once reasoning is removed: a
    reasoning model capped at the paper's 1,200 output tokens can stop inside an unclosed
    `<think>` block, and its empty visible reply, which discloses nothing, scores as perfect
    privacy. The dialogue solver notes such replies per round; the scorer reports them."""

    truncated_rounds: list[int] = []  # 1-based rounds whose reply stopped at a length limit
    empty_rounds: list[int] = []  # 1-based rounds whose visible reply is empty

    @property
    def affected(self) -> bool:
        """True when any reply was truncated or empty."""
        return bool(self.truncated_rounds or self.empty_rounds)

    def note(self, round_number: int, output: ModelOutput, reply: str) -> None:
        """Record round `round_number`'s reply if it was cut by a length limit or is empty."""
        if output.stop_reason in LENGTH_STOPS:
            self.truncated_rounds.append(round_number)
        if not visible_text(reply):
            self.empty_rounds.append(round_number)

    def describe(self) -> str:
        """One line for a score explanation."""
        return (
            f"replies that hit the token limit: {len(self.truncated_rounds)}"
            f" (rounds {self.truncated_rounds or '-'}); empty visible replies: "
            f"{len(self.empty_rounds)} (rounds {self.empty_rounds or '-'})"
        )


class DialogueCut(BaseModel):
    """Where an Inspect limit or a cancellation closed the dialogue."""

    round: int  # the 1-based round it hit (0: before the first round)
    #: The call it hit: `attacker`, `trusted`, `trusted agent` (`trusted agent: tool <name>`),
    #: a defense role (`guard`, `minimizer`, ...), or `dialogue` between calls.
    call: str
    #: Inspect's limit type (`message`, `token`, `time`, `working`, `cost`...) or `cancelled`.
    limit: str
    message: str = ""


class DialogueState(FastStoreModel):
    """One sample's dialogue, as the solver recorded it."""

    attacker: str = ""  # the `-T attacker=` name
    turn_source: TurnSource | None = None  # planned turns, or a model on the attacker role
    attacker_model: str | None = None  # the model that wrote the turns (None: planned)
    #: How the live attacker's requests were laid out, and why if not as asked.
    attacker_layout: str | None = None
    attacker_layout_note: str | None = None
    turn_budget: int = 0
    attack_budget: int = 0  # the most rounds the attacker could play
    planned_turn_count: int = 0
    turns_used: int = 0  # attacker messages delivered to the trusted model
    replies: int = 0  # trusted replies delivered to the attacker
    #: Why the dialogue ended; None while it runs (and for a sample cut before it started).
    stop_reason: StopReason | None = None
    reply_limits: ReplyLimits = Field(default_factory=ReplyLimits)
    sampling: DialogueSampling = Field(default_factory=DialogueSampling)
    attacker_plans: list[PlanEntry] = Field(default_factory=list)
    #: The attacker's answers that were no attack (`attackers.NonAttack`), refused or sent.
    not_attacks: list[NonAttack] = Field(default_factory=list)
    #: The run identity's components this sample was played under (`run.identity`).
    identity: dict[str, str] = Field(default_factory=dict)
    #: The round being played (1-based; 0 before the first) and the call in progress.
    round: int = 0
    calling: str = ""
    #: Each round as delivered: the only part of the dialogue the scorers read.
    delivered: list[DeliveredTurn] = Field(default_factory=list)
    #: Set when an Inspect limit or a cancellation closed the dialogue (`stop_reason` "limit").
    cut: DialogueCut | None = None

    @property
    def cut_by_limit(self) -> bool:
        """An Inspect limit (messages, tokens, time, working time) ended the dialogue early."""
        return self.stop_reason == "limit"

    @property
    def never_answered(self) -> bool:
        """No trusted reply was ever delivered: there is nothing to score."""
        return self.replies == 0

    def begin_round(self, number: int) -> None:
        """Round `number` (1-based) starts."""
        self.round = number
        self.calling = ""

    def deliver_attacker(self, text: str) -> None:
        """The trusted model is given `text` (the attacker's message after the input defenses)."""
        self.delivered = [*self.delivered, DeliveredTurn(round=self.round, attacker=text)]
        self.turns_used = len(self.delivered)

    def deliver_reply(self, text: str, reasoning: str) -> None:
        """The attacker receives `text`, the reply of this round after every defense ran."""
        last = self.delivered[-1].model_copy(update={"reply": text, "reasoning": reasoning})
        self.delivered = [*self.delivered[:-1], last]
        self.replies = sum(1 for turn in self.delivered if turn.reply is not None)

    def delivered_replies(self) -> list[str]:
        """The delivered trusted replies, in order (full text, as sent)."""
        return [turn.reply for turn in self.delivered if turn.reply is not None]

    def close_cut(self, limit: str, message: str, call: str | None = None) -> None:
        """An Inspect limit or a cancellation closed the dialogue in the call in progress."""
        self.stop_reason = "limit"
        self.cut = DialogueCut(
            round=self.round, call=call or self.calling or "dialogue", limit=limit, message=message
        )


class DefenseState(FastStoreModel):
    """What the defense stack did in one sample (None: no stack ran)."""

    record: DefenseRecord | None = None


class AgentStep(BaseModel):
    """One thing a trusted agent did inside a turn, before its final reply."""

    kind: Literal["text", "reasoning", "tool_call", "tool_result"]
    tool: str = ""  # the tool called, or whose result this is
    text: str  # the text, the reasoning, the call's arguments (JSON) or the tool's result


class AgentTurnRecord(BaseModel):
    """What the trusted agent did in one round (1-based), before its final reply."""

    round: int
    steps: list[AgentStep] = Field(default_factory=list)
    tool_calls: list[str] = Field(default_factory=list)  # tool names, in call order
    #: The sample's target values (protected and allowed) found in what its tools returned.
    fetched_values: list[str] = Field(default_factory=list)
    model_calls: int = 0


class TrustedAgentState(FastStoreModel):
    """With `-T trusted_agent`: the agent's turns (empty for the paper's model call)."""

    agent: str | None = None
    document_access: str = "prompt"
    turns: list[AgentTurnRecord] = Field(default_factory=list)

    def first_fetched(self) -> dict[str, int]:
        """Each fetched value -> the first round whose tools returned it."""
        first: dict[str, int] = {}
        for turn in self.turns:
            for value in turn.fetched_values:
                first.setdefault(value, turn.round)
        return first


class SampleRecord(BaseModel):
    """All of one sample's state, read from a log (any task version)."""

    dialogue: DialogueState
    defense: DefenseState
    agent: TrustedAgentState


def read_sample_record(
    store: dict[str, Any], metadata: dict[str, Any] | None = None
) -> SampleRecord:
    """A logged sample's state: its store (1-B and later), else its 1-A metadata keys."""
    if any(key.startswith("DialogueState:") for key in store):
        shared = Store(dict(store))
        return SampleRecord(
            dialogue=DialogueState(store=shared),
            defense=DefenseState(store=shared),
            agent=TrustedAgentState(store=shared),
        )
    return _from_1a_metadata(metadata or {})


#: 1-A's per-sample attacker modes -> where the turns came from.
_1A_TURN_SOURCE: dict[str, TurnSource] = {
    "scripted": "planned",
    "replayed": "planned",
    "live": "model",
    "adaptive": "model",
}


def _from_1a_metadata(meta: dict[str, Any]) -> SampleRecord:
    shared = Store()
    dialogue = DialogueState(store=shared)
    if old := meta.get("dialogue") or {}:
        dialogue.attacker = str(old.get("attacker") or "paper")
        dialogue.turn_source = _1A_TURN_SOURCE.get(str(old.get("attacker_mode")))
        dialogue.attacker_model = old.get("attacker_model")
        dialogue.turn_budget = int(old.get("turn_budget") or 0)
        dialogue.attack_budget = int(old.get("attack_budget") or 0)
        dialogue.planned_turn_count = int(old.get("planned_turn_count") or 0)
        dialogue.turns_used = int(old.get("turns_used") or 0)
        dialogue.replies = int(old.get("turns_used") or 0)
        dialogue.stop_reason = old.get("stop_reason")
        dialogue.reply_limits = ReplyLimits.model_validate(old.get("reply_limits") or {})
        dialogue.sampling = DialogueSampling.model_validate(old.get("sampling") or {})
    dialogue.attacker_plans = [
        PlanEntry.model_validate(plan) for plan in meta.get("attacker_plans") or []
    ]
    defense = DefenseState(store=shared)
    if meta.get("defense"):
        defense.record = DefenseRecord.model_validate(meta["defense"])
    return SampleRecord(dialogue=dialogue, defense=defense, agent=TrustedAgentState(store=shared))
