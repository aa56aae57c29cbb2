"""Per-sample facts the reference agents read while a dialogue runs.

The conversation solver sets these for the duration of each sample; the reference agents
(`polar/oracle`, `polar/leaky`, ...) read them instead of parsing prompts. A ContextVar
propagates to the model call because Inspect awaits generate inside the sample's task.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from polar_inspect.data.samples import SampleInfo


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
    replies: tuple[str, ...] = ()  # the trusted model's replies before this round
    #: Target value -> the record's field that holds it (reference tool agents read it).
    value_fields: dict[str, str] = field(default_factory=dict)


def sample_facts(sample_id: str, info: SampleInfo, document: str | None = None) -> DialogueFacts:
    """The facts of one sample; `document` replaces the source document (a defended copy)."""
    return DialogueFacts(
        sample_id=sample_id,
        policy=info.policy,
        attack=info.attack,
        source_document=info.texts.source_document if document is None else document,
        allowed_values=tuple(info.allowed_values),
        protected_values=tuple(info.protected_values),
        planned_turns=tuple(info.planned_turns),
        value_fields=dict(info.value_fields),
    )


current_dialogue: ContextVar[DialogueFacts | None] = ContextVar("polar_dialogue", default=None)
