"""`redact_oracle`: the sample's own protected values removed from each reply (an ORACLE).

It reads the scorer's targets, which no deployed system has: it bounds from above what output
filtering can achieve, and is labelled as an oracle wherever it is reported.
"""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.redaction import redact_values
from polar_inspect.defenses.registry import builtin


@builtin
class RedactOracle(Defense):
    """Deterministic: see `polar_inspect.defenses.redaction` for what is removed."""

    name = "redact_oracle"
    kind = "output"
    oracle = True

    async def review_reply(self, ctx: DefenseContext, draft: str) -> str:
        """The draft without the protected values (given the replies already sent)."""
        return redact_values(draft, ctx.protected_values, ctx.sent_replies)
