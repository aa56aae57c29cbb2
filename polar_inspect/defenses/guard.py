"""`guard`: one call per reply on the `guard` role checks the draft against the policy and rewrites
it if needed; it sees the policy, the third party's last message and the draft, nothing else."""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import builtin

GUARD_ROLE = "guard"
#: Sent when the guard returns nothing: a guard that fails must not pass the draft through.
WITHHELD_REPLY = "I'm sorry, I can't share that."


@builtin
class Guard(Defense):
    """Template `defense_guard.txt`: `{policy}`, `{request}`, `{draft}`."""

    name = "guard"
    kind = "output"
    roles = (GUARD_ROLE,)
    template_kind = "defense_guard"

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The guard's version of the draft (a fixed refusal if it answers nothing)."""
        prompt = self.text(policy=ctx.policy, request=ctx.last_attacker_message, draft=draft)
        checked = await ctx.generate_on_role(GUARD_ROLE, prompt)
        return _unwrap(checked) or WITHHELD_REPLY


def _unwrap(text: str) -> str:
    """Drop a `<draft>` wrapper the guard may have copied from its prompt."""
    stripped = text.strip()
    if stripped.startswith("<draft>") and stripped.endswith("</draft>"):
        stripped = stripped[len("<draft>") : -len("</draft>")].strip()
    return stripped
