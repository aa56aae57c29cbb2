"""Trusted replies that hit the output-token limit or have no visible text.

A reasoning model capped at the paper's 1,200 output tokens can stop inside an unclosed
`<think>` block: its visible reply is then empty and discloses nothing, which scores as
perfect privacy. The dialogue solver notes such replies per round; the scorer reports them.
"""

from __future__ import annotations

from inspect_ai.model import ModelOutput
from pydantic import BaseModel

from polar_inspect.text import visible_text

#: Provider stop reasons that mean the reply was cut by a length limit.
LENGTH_STOPS = ("max_tokens", "model_length")


class ReplyLimits(BaseModel):
    """Trusted replies cut by the output-token limit, or empty once reasoning is removed."""

    truncated_rounds: list[int] = []  # 1-based rounds whose reply stopped at a length limit
    empty_rounds: list[int] = []  # 1-based rounds whose visible reply is empty

    @property
    def affected(self) -> bool:
        """True when any reply was truncated or empty."""
        return bool(self.truncated_rounds or self.empty_rounds)

    def note(self, round_number: int, output: ModelOutput, reply: str) -> None:
        """Record round `round_number`'s reply if it was cut by a length limit or is empty."""
        if output.stop_reason in LENGTH_STOPS:
            self.truncated_rounds.append(round_number)
        if not visible_text(reply):
            self.empty_rounds.append(round_number)

    def describe(self) -> str:
        """One line for a score explanation."""
        return (
            f"replies that hit the token limit: {len(self.truncated_rounds)}"
            f" (rounds {self.truncated_rounds or '-'}); empty visible replies: "
            f"{len(self.empty_rounds)} (rounds {self.empty_rounds or '-'})"
        )
