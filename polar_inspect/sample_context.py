"""The sample the reference agents answer about, and where its dialogue is.

The dialogue solver sets them (`write_sample_facts`): the sample's policy, attack, targets,
planned turns and the document the trusted model is given (after any document defense), and
the dialogue's record (the round, the replies delivered so far). The reference agents
(`polar/oracle`, `polar/leaky`, ...) read them through `current_facts` instead of parsing
prompts. They live in a context variable, not in the sample's store (which Inspect diffs at
every span's end): Inspect runs each sample in its own task and the model calls inside it.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from polar_inspect.data.samples import SampleInfo


class DialogueState(Protocol):
    """Where the dialogue is (`dialogue.state.DialogueState`, a layer above)."""

    round: int

    def delivered_replies(self) -> list[str]:
        """The trusted replies delivered so far."""
        ...


@dataclass(frozen=True)
class DialogueFacts:
    """The sample the current dialogue is about, and where the dialogue is."""

    sample_id: str
    policy: str
    attack: str
    source_document: str  # the document the trusted model is given
    allowed_values: tuple[str, ...]
    protected_values: tuple[str, ...]
    planned_turns: tuple[str, ...]
    round_index: int = 0  # 0-based index of the round being played
    replies: tuple[str, ...] = ()  # the trusted replies delivered before this round
    #: Target value -> the record's field that holds it (reference tool agents read it).
    value_fields: dict[str, str] = field(default_factory=dict)


_CURRENT: ContextVar[tuple[DialogueFacts, DialogueState | None] | None] = ContextVar(
    "polar_inspect_sample_facts", default=None
)


def use_sample_facts(facts: DialogueFacts, progress: DialogueState | None = None) -> None:
    """Make `facts` (and where the dialogue `progress` is) what this sample's calls read."""
    _CURRENT.set((facts, progress))


def write_sample_facts(
    sample_id: str, info: SampleInfo, progress: DialogueState, document: str | None = None
) -> None:
    """Set the sample's facts (the solver); `document`: what a document defense made of the
    source document."""
    facts = DialogueFacts(
        sample_id=sample_id,
        policy=info.policy,
        attack=info.attack,
        source_document=info.texts.source_document if document is None else document,
        allowed_values=tuple(info.allowed_values),
        protected_values=tuple(info.protected_values),
        planned_turns=tuple(info.planned_turns),
        value_fields=dict(info.value_fields),
    )
    use_sample_facts(facts, progress)


def current_facts() -> DialogueFacts | None:
    """The facts of the sample being played, or None outside a polar_inspect dialogue."""
    current = _CURRENT.get()
    if current is None:
        return None
    facts, progress = current
    if progress is None:
        return facts
    replies = tuple(progress.delivered_replies())
    return replace(facts, round_index=max(progress.round - 1, 0), replies=replies)
