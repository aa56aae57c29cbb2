"""`minimize`: data minimisation before the dialogue, in the spirit of AirGapAgent (Bagdasarian
et al., 2024): one call on the `minimizer` role; the trusted model gets its working copy."""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import builtin

MINIMIZER_ROLE = "minimizer"
MINIMIZER_MAX_TOKENS = 2000
EMPTY_COPY = "(The working copy of the document is empty.)"


@builtin
class Minimize(Defense):
    """Template `defense_minimize.txt`: `{document}`, `{policy}`, `{task}`."""

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
