"""The sample the reference agents answer about, read from the sample's store.

The dialogue solver writes `SampleFacts` (a small `StoreModel`) once in its setup: the sample's
policy, attack, targets, planned turns and the document the trusted model is given (after any
document defense). The reference agents (`polar/oracle`, `polar/leaky`, ...) read it, and where
the dialogue is (the round, the replies delivered so far) from the sample's `DialogueState`
(`agents.current_facts`), instead of parsing prompts. Inspect gives every sample its own store
and model calls run inside the sample, so nothing is set or reset per round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspect_ai.util import store_as
from pydantic import Field

from polar_inspect.typed_store import FastStoreModel

if TYPE_CHECKING:
    from polar_inspect.data.samples import SampleInfo


class SampleFacts(FastStoreModel):
    """What the reference agents read of the sample (written once by the dialogue solver)."""

    sample_id: str = ""
    policy: str = ""
    attack: str = ""
    document: str = ""  # the document the trusted model is given
    allowed_values: list[str] = Field(default_factory=list)
    protected_values: list[str] = Field(default_factory=list)
    planned_turns: list[str] = Field(default_factory=list)
    #: Target value -> the record's field that holds it (reference tool agents read it).
    value_fields: dict[str, str] = Field(default_factory=dict)


@dataclass(frozen=True)
class DialogueFacts:
    """The sample the current dialogue is about, and where the dialogue is."""

    sample_id: str
    policy: str
    attack: str
    source_document: str
    allowed_values: tuple[str, ...]
    protected_values: tuple[str, ...]
    planned_turns: tuple[str, ...]
    round_index: int = 0  # 0-based index of the round being played
    replies: tuple[str, ...] = ()  # the trusted replies delivered before this round
    #: Target value -> the record's field that holds it (reference tool agents read it).
    value_fields: dict[str, str] = field(default_factory=dict)


def write_sample_facts(sample_id: str, info: SampleInfo) -> SampleFacts:
    """Write the sample's facts to its store (the solver, once per sample); the document is
    the source document until a document defense replaces it (`SampleFacts.document`)."""
    facts = store_as(SampleFacts)
    facts.sample_id = sample_id
    facts.policy = info.policy
    facts.attack = info.attack
    facts.document = info.texts.source_document
    facts.allowed_values = list(info.allowed_values)
    facts.protected_values = list(info.protected_values)
    facts.planned_turns = list(info.planned_turns)
    facts.value_fields = dict(info.value_fields)
    return facts
