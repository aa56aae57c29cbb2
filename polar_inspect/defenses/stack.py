"""The defenses of one sample, applied in order around the trusted model's turn, each step a
transcript span; drafts and what was sent are kept in `DefenseRecord` (docs/defenses.md)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from inspect_ai.util import span
from pydantic import BaseModel

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import NO_DEFENSE, DefenseSpec, available_defenses
from polar_inspect.plugins import PluginError, short_repr


class ReplyRecord(BaseModel):
    """One turn's reply: the draft (only when a defense changed it) and what was sent."""

    sent: str
    draft: str | None = None
    changed_by: list[str] = []


class DefenseRecord(BaseModel):
    """Per-sample defense log: the stack, document minimisation, replies and role usage."""

    stack: list[str]
    label: str
    oracle: bool
    document_minimized: bool
    minimized_document: str | None = None
    replies: list[ReplyRecord]
    replies_changed: int


class DefenseContractError(PluginError):
    """A defense's hook gave back something other than the text its contract asks for."""


def _text(name: str, hook: str, value: object) -> str:
    """`value`, the text a defense's hook returned, else one line naming the defense and hook."""
    if not isinstance(value, str):
        raise DefenseContractError(
            f"defense {name!r}: {hook}() returned {short_repr(value)}, not a text (str); "
            "see polar_inspect.defenses.Defense"
        )
    return value


async def _awaited(name: str, hook: str, value: object) -> str:
    """The text an async hook's call gives (a plain `def` hook's return is taken as it is)."""
    return _text(name, hook, await value if inspect.isawaitable(value) else value)


class DefenseStack:
    """The defenses of a task, built once; `SampleDefenses(stack, ctx)` applies it to a sample."""

    def __init__(self, specs: Sequence[DefenseSpec]) -> None:
        self.specs = list(specs)
        known = available_defenses()  # each defense's template is read and checked here
        self.defenses: list[Defense] = [known[s.name](prompt=s.prompt) for s in self.specs]
        self.label = ",".join(spec.label() for spec in self.specs) or NO_DEFENSE
        self.oracle = any(d.oracle for d in self.defenses)
        #: The model roles the defenses call, each once, in the stack's order.
        self.roles = list(dict.fromkeys(role for d in self.defenses for role in d.roles))


class SampleDefenses:
    """The hooks the dialogue solver calls for one sample, and what they did."""

    def __init__(self, stack: DefenseStack, ctx: DefenseContext) -> None:
        self.stack = stack
        self.ctx = ctx
        self.names = [spec.name for spec in stack.specs]
        #: Each defense with its name, in the stack's order (the name for its spans and errors).
        self.named = list(zip(self.names, stack.defenses, strict=True))
        self.replies: list[ReplyRecord] = []
        self.minimized: str | None = None

    async def before_dialogue(self) -> str:
        """The document the trusted model is given (minimised by document defenses)."""
        document = self.ctx.document
        for name, defense in self.named:
            if type(defense).prepare_document is Defense.prepare_document:
                continue
            async with span(f"defense {name}: prepare document", type="defense"):
                document = await _awaited(
                    name, "prepare_document", defense.prepare_document(self.ctx, document)
                )
        if document != self.ctx.document:
            self.minimized = document
        return document

    def system_message(self, base: str) -> str:
        """The trusted model's system message with every defense's addendum appended."""
        addenda = [_text(n, "system_addendum", d.system_addendum(self.ctx)) for n, d in self.named]
        return "\n\n".join([base.rstrip(), *filter(None, addenda)]) if any(addenda) else base

    def user_turn(self, attacker_message: str) -> str:
        """The attacker message as the trusted model sees it (wrapped, then reminders)."""
        self.ctx.attacker_messages.append(attacker_message)
        text = attacker_message
        for name, defense in self.named:
            text = _text(name, "wrap_message", defense.wrap_message(self.ctx, text))
        reminders = [_text(n, "turn_reminder", d.turn_reminder(self.ctx)) for n, d in self.named]
        return "\n\n".join([text, *(r for r in reminders if r)])

    async def after_reply(self, draft: str) -> str:
        """What the attacker is sent for the visible `draft`, each reviewing defense in order."""
        sent, changed_by = draft, []
        for name, defense in self.named:
            if type(defense).review_reply is Defense.review_reply:
                continue
            async with span(f"defense {name}: review reply", type="defense"):
                reviewed = await _awaited(
                    name, "review_reply", defense.review_reply(self.ctx, sent)
                )
            if reviewed != sent:
                changed_by.append(name)
                sent = reviewed
        self.ctx.sent_replies.append(sent)
        self.replies.append(
            ReplyRecord(sent=sent, draft=draft if changed_by else None, changed_by=changed_by)
        )
        return sent

    def record(self) -> DefenseRecord | None:
        """The per-sample defense log; None when the stack is empty (no defense ran)."""
        if not self.names:
            return None
        return DefenseRecord(
            stack=self.names,
            label=self.stack.label,
            oracle=self.stack.oracle,
            document_minimized=self.minimized is not None,
            minimized_document=self.minimized,
            replies=self.replies,
            replies_changed=sum(1 for r in self.replies if r.changed_by),
        )
