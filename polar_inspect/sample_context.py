"""The sample the reference agents answer about, in the sample's store while its dialogue runs
(docs/architecture.md, "Reference agents read the sample from its store")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser
from inspect_ai.util import store, store_as
from pydantic import Field

from polar_inspect.typed_store import FastStoreModel, store_key

if TYPE_CHECKING:
    from polar_inspect.data.samples import SampleInfo


class SampleFacts(FastStoreModel):
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


def write_sample_facts(sample_id: str, info: SampleInfo) -> SampleFacts:
    """Write the sample's facts to its store (the solver's setup)."""
    return SampleFacts(
        sample_id=sample_id,
        policy=info.policy,
        attack=info.attack,
        source_document=info.texts.source_document,
        allowed_values=info.allowed_values,
        protected_values=info.protected_values,
        planned_turns=info.planned_turns,
        value_fields=info.value_fields,
    )


def drop_sample_facts() -> None:
    """Remove the facts from the sample's store (the dialogue ended)."""
    sample = store()
    prefix = store_key(SampleFacts, "")  # where every field's key starts
    for key in [key for key, _ in sample.items() if key.startswith(prefix)]:
        sample.delete(key)


def current_facts() -> SampleFacts | None:
    """The facts of the sample being played, or None outside a polar_inspect dialogue."""
    if store_key(SampleFacts, "sample_id") not in store():
        return None
    return store_as(SampleFacts)


def round_index(input: Sequence[ChatMessage], attacker: bool = False) -> int:
    """The 0-based round of a reference agent's call, from its input: the trusted role gets
    each round's attacker message (a user message), an attacker its own earlier messages."""
    if attacker:
        return sum(isinstance(message, ChatMessageAssistant) for message in input)
    return max(sum(isinstance(message, ChatMessageUser) for message in input) - 1, 0)
