"""`ci_reasoning`: reason about contextual integrity privately before each reply (prompt only).

The instruction asks the model to reason inside `<think>` tags: like any reasoning block, that
part is removed before the reply reaches the attacker and the scorer.
"""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import builtin


@builtin
class ContextualIntegrityReasoning(Defense):
    """Appends the reasoning instruction to the system message (`defense_ci_reasoning.txt`)."""

    name = "ci_reasoning"
    kind = "prompt"
    template_kind = "defense_ci_reasoning"

    def system_addendum(self, ctx: DefenseContext) -> str:
        """The reasoning instruction."""
        return self.text()
