"""The built-in defenses (docs/defenses.md): the prompt-only ones (a template added to the
trusted model's messages, no model call) and `redact_oracle`; imports register the rest."""

from __future__ import annotations

from polar_inspect.defenses import guard, minimize, spotlight  # noqa: F401
from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.redaction import redact_values
from polar_inspect.defenses.registry import builtin


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
class RedactOracle(Defense):
    """`redact_oracle`: the sample's own protected values removed from each reply (an ORACLE: it
    reads the scorer's targets, an upper bound for output filtering; `defenses.redaction`)."""

    name = "redact_oracle"
    kind = "output"
    oracle = True

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The draft without the protected values (given the replies already sent)."""
        return redact_values(draft, ctx.protected_values, ctx.sent_replies)
