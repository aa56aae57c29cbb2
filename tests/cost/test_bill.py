"""Estimated requests billed by a sheet's rules (`polar_inspect/cost/bill.py`)."""

from __future__ import annotations

import pytest

from polar_inspect.cost.bill import Billed, billed, dollars
from polar_inspect.cost.estimate import Request, RoleCalls, trusted_thread
from polar_inspect.cost.sheet import ModelPrice

ANTHROPIC = ModelPrice.model_validate(
    {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": {"5m": 3.75, "1h": 6},
     "cache": {"mode": "breakpoints", "min_tokens": 1024}, "batch": 0.5, "batch_cached": True}
)  # fmt: skip
OPENAI = ModelPrice.model_validate(
    {"input": 2, "output": 8, "cache_read": 0.5, "batch": 0.5, "batch_cached": False,
     "cache": {"mode": "prefix", "min_tokens": 1024, "step": 128}}
)  # fmt: skip


def _dialogue(*inputs: int, reply: int = 100) -> RoleCalls:
    rounds = len(inputs)
    thread = [
        Request(tokens, reply, tokens, read_mark=i > 0, write_mark=i < rounds - 1)
        for i, tokens in enumerate(inputs)
    ]
    return RoleCalls("trusted", threads=[thread])


def test_breakpoints_write_what_a_later_round_reads_and_the_last_round_only_reads() -> None:
    tokens = billed(_dialogue(1500, 1800, 2100), ANTHROPIC, "cached")
    assert isinstance(tokens, Billed)
    assert tokens.cache_read_tokens == 1500 + 1800
    assert tokens.cache_write_tokens == 1500 + 300  # the last request writes nothing
    assert tokens.input_tokens == 300  # the last round's new tokens, at the input rate


def test_a_request_below_the_minimum_writes_nothing() -> None:
    tokens = billed(_dialogue(900, 1200, 1500), ANTHROPIC, "cached")
    assert isinstance(tokens, Billed)
    assert (tokens.cache_write_tokens, tokens.cache_read_tokens) == (1200, 1200)


def test_prefix_caching_reads_in_steps_and_batches_of_pre_gpt5_models_read_nothing() -> None:
    calls = _dialogue(1500, 1800)
    cached = billed(calls, OPENAI, "cached")
    batch = billed(calls, OPENAI, "batch + cached")
    assert isinstance(cached, Billed) and isinstance(batch, Billed)
    assert cached.cache_read_tokens == 1024 + 3 * 128 and cached.cache_write_tokens == 0
    assert batch.cache_read_tokens == 0 and batch.input_tokens == 3300


def test_dollars_by_hand() -> None:
    calls = _dialogue(1500, 1800, 2100)
    # uncached 300 x 3 + read 3300 x 0.3 + written 1800 x 6 (1h) + output 300 x 15, x 0.5
    by_hand = (300 * 3 + 3300 * 0.3 + 1800 * 6 + 300 * 15) * 0.5 / 1e6
    assert dollars(calls, ANTHROPIC, "batch + cached", "1h")[0] == pytest.approx(by_hand)
    assert dollars(calls, ANTHROPIC, "plain", "1h")[0] == pytest.approx((5400 * 3 + 300 * 15) / 1e6)


def test_what_the_sheet_does_not_cover_is_unknown() -> None:
    calls = _dialogue(1500, 1800)
    assert dollars(calls, OPENAI, "flex", "5m") == (None, "n/a (no flex rate)")
    no_rules = ModelPrice(input=1, output=1, batch=0.5)
    assert dollars(calls, no_rules, "cached", "5m")[1].startswith("unknown (no caching rules")
    assert "batched requests are cached" in dollars(calls, no_rules, "batch + cached", "5m")[1]
    only_5m = ANTHROPIC.model_copy(update={"cache_write": {"5m": 3.75}})
    assert dollars(calls, only_5m, "cached", "1h") == (None, "unknown (no cache_write 1h rate)")


def test_the_trusted_thread_follows_the_breakpoint_policy() -> None:
    class Sample:
        system = "s" * 4000
        user_turns = ["u" * 400] * 3

    thread = trusted_thread(Sample(), lambda text: len(text) // 4, reply=50)  # type: ignore[arg-type]
    assert [(r.read_mark, r.write_mark) for r in thread] == [
        (False, True), (True, True), (True, False)
    ]  # fmt: skip
    assert [r.input_tokens for r in thread] == [1100, 1250, 1400]
