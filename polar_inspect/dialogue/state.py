"""What one sample's dialogue produced, as typed per-sample state (Inspect's `StoreModel`).

The solver writes these as the dialogue goes (a dialogue that an Inspect limit cuts short
keeps what it had), and the scorers and `polar-report` read them back through
`store_as(...)` (in a log: `sample.store`). Sample metadata holds the sample's inputs only.

- `DialogueState`: the attacker, the turn budget, the turns played, why the dialogue stopped,
  the trusted replies cut by the token limit or empty, each role's sampling settings, the
  adaptive attacker's private plans, and the run identity the sample was played under;
- `DefenseState`: what the defense stack did (the drafts it changed, a minimised document);
- `UsageState`: model calls and tokens per role (trusted, attacker, guard, minimiser), kept
  apart from Inspect's per-model usage, which merges roles bound to the same model;
- `TrustedAgentState`: with `-T trusted_agent`, what the agent did inside each trusted turn
  (its tool calls, tool results and reasoning, and the target values its tools returned),
  which the third party never sees (docs/agents.md).

Logs written by task version 1-A kept these under `sample.metadata` (`dialogue`, `defense`,
`usage_by_role`, `attacker_plans`); `read_dialogue` reads either.
"""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai.util import Store, StoreModel
from pydantic import BaseModel, Field

from polar_inspect.attackers import NonAttack, PlanEntry, StopReason, TurnSource
from polar_inspect.defenses.stack import DefenseRecord
from polar_inspect.dialogue.reply_limits import ReplyLimits
from polar_inspect.dialogue.sampling import RoleSampling
from polar_inspect.model_usage import UsageTotals

#: Stop reasons that mean the attacker produced nothing the trusted model could answer.
ATTACKER_FAILURES: tuple[StopReason, ...] = (
    "attacker_unparsable",
    "attacker_empty",
    "attacker_no_attack",
)


class DialogueSampling(BaseModel):
    """The generation settings each role's calls were made with in this sample."""

    trusted: RoleSampling | None = None
    attacker: RoleSampling | None = None


class DialogueState(StoreModel):
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
    turns_used: int = 0  # attacker messages sent to the trusted model
    replies: int = 0  # trusted replies received
    #: Why the dialogue ended; None while it runs (and for a sample cut before it started).
    stop_reason: StopReason | None = None
    reply_limits: ReplyLimits = Field(default_factory=ReplyLimits)
    sampling: DialogueSampling = Field(default_factory=DialogueSampling)
    attacker_plans: list[PlanEntry] = Field(default_factory=list)
    #: The attacker's answers that were no attack (`attackers.NonAttack`), refused or sent.
    not_attacks: list[NonAttack] = Field(default_factory=list)
    #: The run identity's components this sample was played under (`run.identity`).
    identity: dict[str, str] = Field(default_factory=dict)

    @property
    def cut_by_limit(self) -> bool:
        """An Inspect limit (messages, tokens, time) ended the dialogue early."""
        return self.stop_reason == "limit"

    @property
    def never_answered(self) -> bool:
        """The trusted model never answered an attacker turn: there is nothing to score."""
        return self.replies == 0


class DefenseState(StoreModel):
    """What the defense stack did in one sample (None: no stack ran)."""

    record: DefenseRecord | None = None


class UsageState(StoreModel):
    """Model calls and tokens per role in one sample."""

    by_role: dict[str, UsageTotals] = Field(default_factory=dict)

    def role(self, name: str) -> UsageTotals | None:
        """One role's calls and tokens (None: the role made no call)."""
        return self.by_role.get(name)


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


class TrustedAgentState(StoreModel):
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
    usage: UsageState
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
            usage=UsageState(store=shared),
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
    old = meta.get("dialogue") or {}
    if old:
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
    usage = UsageState(store=shared)
    usage.by_role = {
        role: UsageTotals.model_validate(totals)
        for role, totals in (meta.get("usage_by_role") or {}).items()
    }
    return SampleRecord(
        dialogue=dialogue, defense=defense, usage=usage, agent=TrustedAgentState(store=shared)
    )
