"""How much of each trusted request repeats the previous one: measured on captured requests.

A trusted request is one that carries the dialogue's system prompt (the document, the policy,
the task); a dialogue is the requests that carry the same system prompt, in the order they
arrived. For each request after a dialogue's first, the *prefix share* is the share of its input
tokens (`tests.stub_cache` rule) in leading blocks equal to the previous request's: the part a
prompt cache can serve. It is below 1 only by what the round adds, as long as nothing earlier
changes (`intact`: the previous request is a prefix of this one, block by block).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tests.stub_cache import WireApi, input_tokens, request_blocks, shared_prefix_tokens


def system_text(api: WireApi, body: dict[str, Any]) -> str:
    """The system prompt as the wire format carries it ("" if none)."""
    if api == "anthropic":
        system = body.get("system") or ""
        return system if isinstance(system, str) else "".join(b.get("text", "") for b in system)
    messages = body.get("messages") or []
    first = messages[0] if messages else {}
    return str(first.get("content", "")) if first.get("role") in ("system", "developer") else ""


def dialogues(api: WireApi, bodies: Sequence[dict[str, Any]], model: str) -> list[list[dict]]:
    """The trusted requests to `model`, grouped by dialogue (same system prompt), in order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for body in bodies:
        if body.get("model") != model:
            continue
        system = system_text(api, body)
        if system:
            groups.setdefault(system, []).append(body)
    return list(groups.values())


@dataclass(frozen=True)
class PrefixRound:
    """One request after its dialogue's first: its tokens, the part shared with the previous
    request, and whether the previous request is all there as a prefix."""

    tokens: int
    shared: int
    previous: int
    intact: bool

    @property
    def share(self) -> float:
        """Share of this request's input tokens that repeat the previous request's prefix."""
        return self.shared / self.tokens if self.tokens else 0.0


def prefix_rounds(api: WireApi, dialogue: Sequence[dict[str, Any]]) -> list[PrefixRound]:
    """One `PrefixRound` per request after the first of a dialogue."""
    rounds = []
    for earlier, later in zip(dialogue, dialogue[1:], strict=False):
        shared = shared_prefix_tokens(api, earlier, later)
        previous = input_tokens(api, earlier)
        rounds.append(
            PrefixRound(
                tokens=input_tokens(api, later),
                shared=shared,
                previous=previous,
                intact=len(request_blocks(api, earlier)) <= len(request_blocks(api, later))
                and shared == previous,
            )
        )
    return rounds


def anthropic_breakpoints(body: dict[str, Any]) -> dict[str, bool]:
    """Where an Anthropic request carries `cache_control`: top level (automatic caching on the
    last block), the system prompt's last block, and any message block."""
    system = body.get("system")
    system_marked = isinstance(system, list) and bool(system) and "cache_control" in system[-1]
    message_marked = any(
        isinstance(block, dict) and "cache_control" in block
        for message in body.get("messages", [])
        if isinstance(message.get("content"), list)
        for block in message["content"]
    )
    return {
        "top_level": "cache_control" in body,
        "system": system_marked,
        "messages": message_marked,
    }
