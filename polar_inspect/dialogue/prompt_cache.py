"""The prompt-cache breakpoint policy of the trusted model's calls (docs/cost.md)."""

from __future__ import annotations

from inspect_ai.model import GenerateConfigArgs


def prompt_cache_options(rounds: int) -> GenerateConfigArgs:
    """`cache_prompt=False` for a dialogue of one round, else nothing (the run's setting).

    No later request of a one-round dialogue can read a prompt cache, and a provider that
    caches at explicit breakpoints (Anthropic) bills writing one at 1.25x (5-minute cache) to
    2x (1-hour) the input rate: such a dialogue is sent without breakpoints (docs/cost.md).
    What the model generates does not change.
    """
    return GenerateConfigArgs(cache_prompt=False) if rounds == 1 else GenerateConfigArgs()
