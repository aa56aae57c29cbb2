"""What a defense is: a small object with hooks around the trusted model's turn, each with a
do-nothing default, called in stack order (docs/defenses.md#your-own-defense)."""

from __future__ import annotations

from typing import ClassVar, Literal

from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, get_model
from pydantic import BaseModel, Field

from polar_inspect.batch_guard import answered
from polar_inspect.data.samples import SampleInfo
from polar_inspect.errors import UserInputError
from polar_inspect.prompts import LoadedTemplate, load_template
from polar_inspect.text import visible_text

DefenseKind = Literal["prompt", "input", "document", "output"]


class DefenseSpecError(UserInputError):
    """`-T defense=...` names an unknown defense, is malformed, or gives a prompt file to a
    defense that takes none."""


class DefenseContext(BaseModel):
    """What a defense may read about the sample and the dialogue so far (`protected_values` and
    `allowed_values` are the scorer's targets: for oracle defenses only)."""

    sample_id: str
    domain: str
    policy: str
    task: str
    document: str
    protected_values: list[str]
    allowed_values: list[str]
    attacker_messages: list[str] = Field(default_factory=list)
    sent_replies: list[str] = Field(default_factory=list)
    #: The model role whose call is in progress ('' between calls): where a limit hit.
    calling: str = ""

    @classmethod
    def for_sample(cls, info: SampleInfo, sample_id: str) -> DefenseContext:
        """The context a defense starts from for one sample, before its dialogue."""
        return cls(
            sample_id=sample_id,
            domain=info.domain,
            policy=info.texts.privacy_policy,
            task=info.texts.task_instruction,
            document=info.texts.source_document,
            protected_values=list(info.protected_values),
            allowed_values=list(info.allowed_values),
        )

    @property
    def last_attacker_message(self) -> str:
        """The message the trusted model is answering ('' before the dialogue)."""
        return self.attacker_messages[-1] if self.attacker_messages else ""

    async def generate_on_role(
        self, role: str, prompt: str | list[ChatMessage], max_tokens: int = 1200
    ) -> str:
        """One call on model `role` (unbound: the trusted model, counted under the role's name),
        at temperature 0 unless the role's config says otherwise; its visible text, stripped."""
        model = get_model(role=role, default=get_model())
        messages: list[ChatMessage] = (
            [ChatMessageUser(content=prompt)] if isinstance(prompt, str) else prompt
        )
        # no prompt-cache breakpoints: a one-message prompt nothing reads back (docs/cost.md)
        base = GenerateConfig(temperature=0.0, max_tokens=max_tokens, cache_prompt=False)
        config = base.merge(model.config)
        self.calling = role
        output = await answered(model.generate(messages, config=config))
        self.calling = ""
        return visible_text(output.completion).strip()


class Defense:
    """Base class of every defense (built once per task): override the hooks you need."""

    name: ClassVar[str] = ""
    kind: ClassVar[DefenseKind] = "prompt"  # where it acts
    #: It reads the scorer's targets: an upper bound, not a deployable defense.
    oracle: ClassVar[bool] = False
    roles: ClassVar[tuple[str, ...]] = ()  # the model roles it calls
    #: The template kind `name@file` replaces; None: the defense has no prompt to replace.
    template_kind: ClassVar[str | None] = None
    #: The `-T document_access` modes it applies to (docs/agents.md).
    document_access: ClassVar[tuple[str, ...]] = ("prompt", "tool", "fields")

    def __init__(self, prompt: str | None = None) -> None:
        if prompt is not None and self.template_kind is None:
            raise DefenseSpecError(
                f"defense: {self.name!r} has no prompt template to replace, so "
                f"'{self.name}@{prompt}' cannot be used; write '{self.name}' alone"
            )
        self.prompt = prompt
        self.template: LoadedTemplate | None = (
            load_template(self.template_kind, prompt) if self.template_kind else None
        )

    def templates(self) -> list[LoadedTemplate]:
        """Every template this defense sends (part of the run's identity)."""
        return [self.template] if self.template is not None else []

    def text(self, **values: object) -> str:
        """Its template filled in with `values` (for defenses with a template)."""
        assert self.template is not None, f"defense {self.name} has no template"
        return self.template.render(**values).strip()

    async def prepare_document(self, ctx: DefenseContext, document: str) -> str:
        """The document the trusted model will see (default: unchanged)."""
        return document

    def system_addendum(self, ctx: DefenseContext) -> str:
        """Text appended to the trusted model's system message (default: none)."""
        return ""

    def wrap_message(self, ctx: DefenseContext, message: str) -> str:
        """The attacker message as the trusted model will see it (default: unchanged)."""
        return message

    def turn_reminder(self, ctx: DefenseContext) -> str:
        """Text added after each attacker message (default: none)."""
        return ""

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The reply the attacker will see, given the visible draft (default: unchanged)."""
        return draft
