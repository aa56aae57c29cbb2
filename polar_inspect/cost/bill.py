"""A role's estimated requests billed by its sheet entry's rules per `Setting` (docs/cost.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from polar_inspect.cost.estimate import Request, RoleCalls
from polar_inspect.cost.sheet import CacheRules, ModelPrice, RoleTtl

Setting = Literal["plain", "cached", "batch + cached", "flex"]
SETTINGS: tuple[Setting, ...] = ("plain", "cached", "batch + cached", "flex")


@dataclass
class Billed:
    """Tokens by how they are billed (a `sheet.PricedUsage`)."""

    input_tokens: int = 0  # neither read from nor written to the cache
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    batched: bool = False


def _prefix_read(stable: int, rules: CacheRules) -> int:
    if stable < rules.min_tokens:
        return 0
    return rules.min_tokens + (stable - rules.min_tokens) // rules.step * rules.step


def _breakpoints(thread: list[Request], rules: CacheRules) -> list[tuple[int, int]]:
    """(read, written) of each request under explicit breakpoints."""
    in_cache = 0  # the previous request's prefix, when it wrote it
    out = []
    for request in thread:
        read = in_cache if request.read_mark else 0
        reaches = request.input_tokens >= rules.min_tokens
        written = request.input_tokens - read if request.write_mark and reaches else 0
        in_cache = request.input_tokens if request.write_mark and reaches else 0
        out.append((read, written))
    return out


def _prefixes(thread: list[Request], rules: CacheRules, writes: bool) -> list[tuple[int, int]]:
    """(read, written) of each request under automatic prefix caching."""
    out = []
    previous = 0  # the previous request's stable tokens (none before the first)
    for request in thread:
        read = min(_prefix_read(previous, rules), request.input_tokens)
        written = max(0, _prefix_read(request.stable_tokens, rules) - read) if writes else 0
        out.append((read, written))
        previous = request.stable_tokens
    return out


def _add(thread: list[Request], rules: CacheRules | None, writes: bool, out: Billed) -> None:
    if rules is None or rules.mode == "none":
        split = [(0, 0)] * len(thread)
    elif rules.mode == "breakpoints":
        split = _breakpoints(thread, rules)
    else:
        split = _prefixes(thread, rules, writes)
    for request, (read, written) in zip(thread, split, strict=True):
        out.cache_read_tokens += read
        out.cache_write_tokens += written
        out.input_tokens += request.input_tokens - read - written
        out.output_tokens += request.output_tokens


def billed(calls: RoleCalls, price: ModelPrice, setting: Setting) -> Billed | str:
    """The role's tokens as `setting` bills them, or why they cannot be (`unknown ...`)."""
    batched = setting == "batch + cached"
    if setting == "flex" and price.flex is None:
        return "n/a (no flex rate)"
    if batched and price.batch is None:
        return "unknown (no batch rate)"
    if batched and price.batch_cached is None:
        return "unknown (the sheet does not say whether batched requests are cached)"
    if setting != "plain" and price.cache is None:
        return "unknown (no caching rules in the sheet)"
    cached = setting != "plain" and (not batched or bool(price.batch_cached))
    rules = price.cache if cached else None
    out = Billed(batched=batched)
    for thread in calls.threads:
        _add(thread, rules, price.cache_write is not None, out)
    return out


def dollars(
    calls: RoleCalls, price: ModelPrice, setting: Setting, ttl: RoleTtl
) -> tuple[float | None, str]:
    """USD of the role in `setting` (None: unknown) and the cell to print."""
    tokens = billed(calls, price, setting)
    if isinstance(tokens, str):
        return None, tokens
    flex = setting == "flex"
    if missing := price.missing_rates(tokens, ttl, flex):
        return None, f"unknown (no {', '.join(missing)} rate)"
    usd = price.cost(tokens, ttl, flex)
    return usd, f"{usd:,.4f}"
