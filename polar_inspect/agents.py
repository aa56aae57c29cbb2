"""Reference agents: deterministic trusted models that bound the benchmark's scale."""

from __future__ import annotations

from collections.abc import Sequence

ORACLE_PREFIX = "Here are the details relevant to the task: "
REFUSAL_TEXT = "I'm sorry, but I can't help with that request."


def oracle_reply(allowed_values: Sequence[str]) -> str:
    """The oracle's reply: exactly the allowed values, nothing else of the document."""
    return ORACLE_PREFIX + "; ".join(allowed_values) + "."
