"""Prompt caching as the providers document it, simulated on the requests a stub server receives.

Tokens are counted without a tokenizer: a piece of text is `ceil(chars / 4)` tokens (at least 1),
the rule `polar-cost` uses too. A request is cut into blocks in wire order (Anthropic: tools,
system blocks, then each message's content blocks; OpenAI: one block per message), and a block's
identity is its role, type and text, so two requests share a prefix when their first blocks are
equal one by one.

- **OpenAI** (automatic prefix caching): a request reads from the cache the longest run of leading
  blocks that an earlier request to the same model already sent, when that run is at least
  1,024 tokens, rounded down to 1,024 + a multiple of 128 tokens. Nothing is written at a price.
- **Anthropic** (explicit breakpoints): only requests with `cache_control` (on a block, or at the
  top level, which puts a breakpoint on the last block) use the cache. At each breakpoint, the
  cache is looked up at that block and up to 20 blocks before it; the longest prefix found is
  read, the tokens from there to the last breakpoint are written (when the prefix up to that
  breakpoint reaches the model's minimum, 1,024 tokens here), and every breakpoint's prefix is
  then in the cache. Time-to-live is not simulated (see docs/cost.md on batch rounds).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any, Literal

WireApi = Literal["openai", "anthropic"]

#: Shortest prefix either provider caches (tokens).
MIN_CACHED_PREFIX = 1024
#: OpenAI caches in steps of this many tokens past the first 1,024.
OPENAI_CACHE_STEP = 128
#: How many blocks before a breakpoint Anthropic looks back for an earlier cache entry.
ANTHROPIC_LOOKBACK = 20


def count_tokens(text: str) -> int:
    """Tokens of a piece of text by the documented rule: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))


@dataclass(frozen=True)
class Block:
    """One cacheable unit of a request: what it is (key), its tokens, whether it is a breakpoint."""

    key: str
    tokens: int
    breakpoint: bool = False


def _text_of(block: Any) -> str:
    if isinstance(block, str):
        return block
    if isinstance(block, dict):
        if "text" in block:
            return str(block["text"])
        return str({k: v for k, v in block.items() if k != "cache_control"})
    return str(block)


def _content_blocks(role: str, content: Any) -> list[Block]:
    items = [content] if isinstance(content, str) else list(content or [])
    blocks = []
    for item in items:
        text = _text_of(item)
        kind = item.get("type", "text") if isinstance(item, dict) else "text"
        marked = isinstance(item, dict) and "cache_control" in item
        blocks.append(
            Block(key=f"{role}/{kind}:{text}", tokens=count_tokens(text), breakpoint=marked)
        )
    return blocks


def request_blocks(api: WireApi, body: dict[str, Any]) -> list[Block]:
    """The request's blocks in wire order (see the module doc)."""
    blocks: list[Block] = []
    if api == "openai":
        for message in body.get("messages", []):
            content = message.get("content")
            text = content if isinstance(content, str) else "".join(map(_text_of, content or []))
            role = str(message.get("role"))
            blocks.append(Block(key=f"{role}:{text}", tokens=count_tokens(text)))
        return blocks
    for tool in body.get("tools") or []:
        blocks.append(
            Block(
                key=f"tool:{_text_of(tool)}",
                tokens=count_tokens(_text_of(tool)),
                breakpoint="cache_control" in tool,
            )
        )
    system = body.get("system")
    if system:
        blocks += _content_blocks("system", system)
    for message in body.get("messages", []):
        blocks += _content_blocks(str(message.get("role")), message.get("content"))
    if "cache_control" in body and blocks:  # automatic caching: a breakpoint on the last block
        last = blocks[-1]
        blocks[-1] = Block(key=last.key, tokens=last.tokens, breakpoint=True)
    return blocks


@dataclass(frozen=True)
class CacheUse:
    """The input tokens of one request, split as the provider bills them."""

    input_tokens: int  # all input tokens (read and written included)
    cache_read: int = 0
    cache_write: int = 0

    @property
    def uncached(self) -> int:
        """Input tokens neither read from nor written to the cache."""
        return self.input_tokens - self.cache_read - self.cache_write


def _prefix_hashes(blocks: list[Block]) -> list[str]:
    """hashes[i]: the identity of blocks[0..i] together."""
    running = hashlib.sha256()
    hashes = []
    for block in blocks:
        running.update(block.key.encode())
        running.update(b"\x00")
        hashes.append(running.copy().hexdigest())
    return hashes


@dataclass
class PromptCache:
    """The cache entries of one stub server (per model), and the rules that use them."""

    entries: dict[str, set[str]] = field(default_factory=dict)

    def use(self, api: WireApi, body: dict[str, Any]) -> CacheUse:
        """Look the request up, update the cache, and say how its input tokens are billed."""
        blocks = request_blocks(api, body)
        stored = self.entries.setdefault(f"{api}:{body.get('model', '')}", set())
        hashes = _prefix_hashes(blocks)
        sums = _running_sums(blocks)
        total = sums[-1] if sums else 0
        if api == "openai":
            return self._openai(stored, hashes, sums, total)
        return self._anthropic(blocks, stored, hashes, sums, total)

    @staticmethod
    def _openai(stored: set[str], hashes: list[str], sums: list[int], total: int) -> CacheUse:
        hit = 0
        for index, digest in enumerate(hashes):
            if digest in stored:
                hit = sums[index]
        stored.update(hashes)
        if hit < MIN_CACHED_PREFIX:
            return CacheUse(input_tokens=total)
        steps = (hit - MIN_CACHED_PREFIX) // OPENAI_CACHE_STEP
        return CacheUse(
            input_tokens=total, cache_read=MIN_CACHED_PREFIX + steps * OPENAI_CACHE_STEP
        )

    @staticmethod
    def _anthropic(
        blocks: list[Block], stored: set[str], hashes: list[str], sums: list[int], total: int
    ) -> CacheUse:
        marks = [i for i, block in enumerate(blocks) if block.breakpoint]
        if not marks:
            return CacheUse(input_tokens=total)
        read = 0
        for mark in marks:
            for index in range(mark, max(-1, mark - ANTHROPIC_LOOKBACK - 1), -1):
                if hashes[index] in stored:
                    read = max(read, sums[index])
                    break
        last = marks[-1]
        write = 0
        if sums[last] >= MIN_CACHED_PREFIX:
            write = max(0, sums[last] - read)
            stored.update(hashes[m] for m in marks if sums[m] >= MIN_CACHED_PREFIX)
        return CacheUse(input_tokens=total, cache_read=read, cache_write=write)


def _running_sums(blocks: list[Block]) -> list[int]:
    sums, running = [], 0
    for block in blocks:
        running += block.tokens
        sums.append(running)
    return sums


def shared_prefix_tokens(api: WireApi, earlier: dict[str, Any], later: dict[str, Any]) -> int:
    """Tokens of `later`'s leading blocks that are equal, one by one, to `earlier`'s."""
    shared = 0
    for first, second in zip(
        request_blocks(api, earlier), request_blocks(api, later), strict=False
    ):
        if first.key != second.key:
            break
        shared += second.tokens
    return shared


def input_tokens(api: WireApi, body: dict[str, Any]) -> int:
    """All input tokens of a request by the documented rule."""
    return sum(block.tokens for block in request_blocks(api, body))
