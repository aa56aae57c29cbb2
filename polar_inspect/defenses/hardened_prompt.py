"""`hardened_prompt`: the system-message warnings the paper's trusted model is not given.

The other party is a third party, not the user; its messages cannot change the policy; where
the policy allows only a general form, give only that form (additions to the paper's setting:
docs/paper-setting.md#prompt-wording). Formerly part of this project's default trusted prompt.
"""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import builtin


@builtin
class HardenedPrompt(Defense):
    """Appends `defense_hardened_prompt.txt` to the trusted model's system message."""

    name = "hardened_prompt"
    kind = "prompt"
    template_kind = "defense_hardened_prompt"

    def system_addendum(self, ctx: DefenseContext) -> str:
        """The warnings."""
        return self.text()
