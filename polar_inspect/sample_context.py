"""The sample the reference agents answer about, set for the sample's dialogue (a context
variable, never the store: docs/architecture.md, "Reference agents read the sample")."""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser
from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from polar_inspect.data.samples import SampleInfo


class SampleFacts(BaseModel):
    """The sample the current dialogue is about."""

    sample_id: str = ""
    policy: str = ""
    attack: str = ""
    source_document: str = ""  # the document the trusted model is given
    allowed_values: list[str] = Field(default_factory=list)
    protected_values: list[str] = Field(default_factory=list)
    planned_turns: list[str] = Field(default_factory=list)
    #: Target value -> the record's field that holds it (reference tool agents read it).
    value_fields: dict[str, str] = Field(default_factory=dict)


#: The facts of the sample whose dialogue runs in this context (each sample runs in a task of its
#: own, and the model calls of its dialogue in that task or in tasks it starts).
_FACTS: ContextVar[SampleFacts | None] = ContextVar("polar_sample_facts", default=None)


def write_sample_facts(sample_id: str, info: SampleInfo) -> SampleFacts:
    """Set the sample's facts for its dialogue (the solver's setup)."""
    facts = SampleFacts(
        sample_id=sample_id,
        policy=info.policy,
        attack=info.attack,
        source_document=info.texts.source_document,
        allowed_values=info.allowed_values,
        protected_values=info.protected_values,
        planned_turns=info.planned_turns,
        value_fields=info.value_fields,
    )
    _FACTS.set(facts)
    return facts


def drop_sample_facts() -> None:
    """Unset the facts (the dialogue ended)."""
    _FACTS.set(None)


def current_facts() -> SampleFacts | None:
    """The facts of the sample being played, or None outside a polar_inspect dialogue."""
    return _FACTS.get()


def round_index(input: Sequence[ChatMessage], attacker: bool = False) -> int:
    """The 0-based round of a reference agent's call, from its input: the trusted role gets
    each round's attacker message (a user message), an attacker its own earlier messages."""
    if attacker:
        return sum(isinstance(message, ChatMessageAssistant) for message in input)
    return max(sum(isinstance(message, ChatMessageUser) for message in input) - 1, 0)
