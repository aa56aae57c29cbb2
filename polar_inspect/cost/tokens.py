"""Counting tokens: `tiktoken` for OpenAI models where its encoding loads, else
ceil(characters / 4) per message (at least 1), as the tests' stubs count."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Tokenizer:
    """How a model's messages are counted."""

    count: Callable[[str], int]
    name: str


def estimate_tokens(text: str) -> int:
    """Tokens of a message by the documented rule: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))


ESTIMATE = Tokenizer(count=estimate_tokens, name="estimate: characters / 4")


@lru_cache(maxsize=8)
def tokenizer_for(model: str) -> Tokenizer:
    """The tokenizer for `provider/model`."""
    provider, _, name = model.partition("/")
    if provider != "openai":
        return ESTIMATE
    try:
        import tiktoken

        try:
            encoding = tiktoken.encoding_for_model(name)
        except KeyError:
            encoding = tiktoken.get_encoding("o200k_base")
    except Exception:  # noqa: BLE001 (not installed, or its encoding files cannot be loaded)
        return ESTIMATE

    def count(text: str) -> int:
        return max(1, len(encoding.encode(text, disallowed_special=())))

    return Tokenizer(count=count, name=f"tiktoken {encoding.name}")
