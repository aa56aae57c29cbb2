"""The built-in defenses (docs/defenses.md): prompt-only ones (a template added to the trusted
model's messages, no model call), `spotlight`, `minimize`, `guard` and `redact_oracle`."""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.redaction import redact_values
from polar_inspect.defenses.registry import builtin
from polar_inspect.prompts import LoadedTemplate, load_template

GUARD_ROLE = "guard"
#: Sent when the guard returns nothing: a guard that fails must not pass the draft through.
WITHHELD_REPLY = "I'm sorry, I can't share that."
MINIMIZER_ROLE = "minimizer"
MINIMIZER_MAX_TOKENS = 2000
EMPTY_COPY = "(The working copy of the document is empty.)"
OPEN_MARKER = "<<<UNTRUSTED THIRD-PARTY MESSAGE>>>"
CLOSE_MARKER = "<<<END OF UNTRUSTED THIRD-PARTY MESSAGE>>>"


@builtin
class PolicyReminder(Defense):
    """`policy_reminder`: the user's policy restated after each attacker message."""

    name = "policy_reminder"
    template_kind = "defense_policy_reminder"

    def turn_reminder(self, ctx: DefenseContext) -> str:
        """The reminder for this turn."""
        return self.text(policy=ctx.policy)


@builtin
class ContextualIntegrityReasoning(Defense):
    """`ci_reasoning`: private contextual-integrity reasoning in `<think>` tags before each reply
    (removed, as every reasoning block is, before the attacker and the scorer see it)."""

    name = "ci_reasoning"
    template_kind = "defense_ci_reasoning"

    def system_addendum(self, ctx: DefenseContext) -> str:
        """The reasoning instruction."""
        return self.text()


@builtin
class HardenedPrompt(Defense):
    """`hardened_prompt`: the system-message warnings the paper's trusted model is not given
    (docs/paper-setting.md#prompt-wording)."""

    name = "hardened_prompt"
    template_kind = "defense_hardened_prompt"

    def system_addendum(self, ctx: DefenseContext) -> str:
        """The warnings."""
        return self.text()


@builtin
class Spotlight(Defense):
    """`spotlight` (spotlighting by delimiting, Hines et al., 2024): a system note, replaceable
    with `spotlight@file`, and each attacker message between markers."""

    name = "spotlight"
    kind = "input"
    template_kind = "defense_spotlight_system"

    def __init__(self, prompt: str | None = None) -> None:
        super().__init__(prompt)
        self.message = load_template("defense_spotlight_message")

    def templates(self) -> list[LoadedTemplate]:
        """The system note (replaceable) and the message wrapper."""
        return [*super().templates(), self.message]

    def system_addendum(self, ctx: DefenseContext) -> str:
        """How to read the markers."""
        return self.text(open_marker=OPEN_MARKER, close_marker=CLOSE_MARKER)

    def wrap_message(self, ctx: DefenseContext, message: str) -> str:
        """The message between the markers, with any marker it contained removed."""
        clean = message.replace(OPEN_MARKER, "").replace(CLOSE_MARKER, "")
        return self.message.render(
            open_marker=OPEN_MARKER, message=clean, close_marker=CLOSE_MARKER
        ).strip()


@builtin
class Minimize(Defense):
    """`minimize` (AirGapAgent-style): one call on the `minimizer` role makes the working copy of
    the document the trusted model gets. Template `defense_minimize.txt`."""

    name = "minimize"
    kind = "document"
    roles = (MINIMIZER_ROLE,)
    template_kind = "defense_minimize"
    #: With `fields` the agent looks up typed fields, not a text this copy could replace.
    document_access = ("prompt", "tool")

    async def prepare_document(self, ctx: DefenseContext, document: str) -> str:
        """The minimiser's working copy (a fixed note when it returns nothing)."""
        prompt = self.text(document=document, policy=ctx.policy, task=ctx.task)
        copy = await ctx.generate_on_role(MINIMIZER_ROLE, prompt, max_tokens=MINIMIZER_MAX_TOKENS)
        return copy or EMPTY_COPY


@builtin
class Guard(Defense):
    """`guard`: one call per reply on the `guard` role checks the draft against the policy and
    rewrites it if needed. Template `defense_guard.txt`: `{policy}`, `{request}`, `{draft}`."""

    name = "guard"
    kind = "output"
    roles = (GUARD_ROLE,)
    template_kind = "defense_guard"

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The guard's version of the draft (a fixed refusal if it answers nothing)."""
        prompt = self.text(policy=ctx.policy, request=ctx.last_attacker_message, draft=draft)
        return _unwrap(await ctx.generate_on_role(GUARD_ROLE, prompt)) or WITHHELD_REPLY


def _unwrap(text: str) -> str:
    """Drop a `<draft>` wrapper the guard may have copied from its prompt."""
    stripped = text.strip()
    if stripped.startswith("<draft>") and stripped.endswith("</draft>"):
        stripped = stripped[len("<draft>") : -len("</draft>")].strip()
    return stripped


@builtin
class RedactOracle(Defense):
    """`redact_oracle`: the sample's own protected values removed from each reply (an ORACLE: it
    reads the scorer's targets, an upper bound for output filtering; `defenses.redaction`)."""

    name = "redact_oracle"
    kind = "output"
    oracle = True

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The draft without the protected values (given the replies already sent)."""
        return redact_values(draft, ctx.protected_values, ctx.sent_replies)
