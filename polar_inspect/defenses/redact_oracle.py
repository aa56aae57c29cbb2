"""`redact_oracle`: the sample's own protected values removed from each reply (an ORACLE: it
reads the scorer's targets, an upper bound for output filtering)."""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.redaction import redact_values
from polar_inspect.defenses.registry import builtin


@builtin
class RedactOracle(Defense):
    """Deterministic (`polar_inspect.defenses.redaction`)."""

    name = "redact_oracle"
    kind = "output"
    oracle = True

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The draft without the protected values (given the replies already sent)."""
        return redact_values(draft, ctx.protected_values, ctx.sent_replies)
