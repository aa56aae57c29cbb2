"""`policy_reminder`: the user's policy restated after each attacker message (prompt only)."""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import builtin


@builtin
class PolicyReminder(Defense):
    """Adds the policy, with a short instruction to follow it, to every user turn.

    Template `defense_policy_reminder.txt`, placeholder `{policy}`.
    """

    name = "policy_reminder"
    kind = "prompt"
    template_kind = "defense_policy_reminder"

    def turn_reminder(self, ctx: DefenseContext) -> str:
        """The reminder for this turn."""
        return self.text(policy=ctx.policy)
