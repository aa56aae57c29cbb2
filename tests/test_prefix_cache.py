"""Trusted requests keep a stable prefix, and the stub bills cache reads by the providers' rules.

The unit tests check the simulated caches (`tests.stub_cache`) on hand-made requests; the
slow tests run `privacy` over the Anthropic wire for every attacker mode and every built-in
defense and check, on the captured requests, that each trusted request contains the previous
one of its dialogue as an exact prefix and carries the breakpoints `dialogue/prompt_cache.py`
places (the previous request's end, its own end unless it is the dialogue's last).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from polar_inspect.attackers import ATTACKERS
from polar_inspect.defenses import NO_DEFENSE, available_defenses
from polar_inspect.dialogue.prompt_cache import trusted_marks
from tests.conftest import DOCUMENT, make_record
from tests.helpers import point_providers
from tests.stub_cache import MIN_CACHED_PREFIX, PromptCache, count_tokens
from tests.stub_servers import StubServer
from tests.wire_prefix import anthropic_breakpoints, dialogues, prefix_rounds

LONG = "x" * (4 * 1500)  # 1,500 tokens by the chars/4 rule


def _openai(*turns: str) -> dict[str, Any]:
    messages = [{"role": "system", "content": LONG}]
    messages += [{"role": "user", "content": t} for t in turns]
    return {"model": "m", "messages": messages}


def _anthropic(*turns: str, auto: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": "m",
        "system": [{"type": "text", "text": LONG, "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": [{"type": "text", "text": t}]} for t in turns],
    }
    if auto:
        body["cache_control"] = {"type": "ephemeral"}
    return body


def test_tokens_are_chars_over_four() -> None:
    assert count_tokens("abcd") == 1 and count_tokens("abcde") == 2 and count_tokens("") == 1


def test_openai_reads_a_repeated_prefix_in_steps_from_1024_tokens() -> None:
    cache = PromptCache()
    assert cache.use("openai", _openai("hi")).cache_read == 0  # first sight: nothing cached
    second = cache.use("openai", _openai("hi", "more"))
    assert second.cache_read == MIN_CACHED_PREFIX + 3 * 128  # 1,501 shared tokens, rounded down
    assert second.cache_write == 0


def test_openai_caches_nothing_below_1024_tokens() -> None:
    cache = PromptCache()
    short = {"model": "m", "messages": [{"role": "user", "content": "y" * 400}]}
    cache.use("openai", short)
    assert cache.use("openai", short).cache_read == 0


def test_anthropic_writes_then_reads_at_breakpoints() -> None:
    cache = PromptCache()
    first = cache.use("anthropic", _anthropic("hello there"))
    assert first.cache_read == 0 and first.cache_write == first.input_tokens
    second = cache.use("anthropic", _anthropic("hello there", "and more"))
    assert second.cache_read == first.input_tokens  # the whole first request, found by lookback
    assert second.cache_write == second.input_tokens - first.input_tokens


def test_anthropic_without_breakpoints_caches_nothing() -> None:
    cache = PromptCache()
    body = _anthropic("hello", auto=False)
    body["system"] = [{"type": "text", "text": LONG}]
    cache.use("anthropic", body)
    assert cache.use("anthropic", body).cache_read == 0


def test_prefix_rounds_see_a_changed_history() -> None:
    grown = prefix_rounds("openai", [_openai("a"), _openai("a", "b")])
    assert grown[0].intact and grown[0].shared == grown[0].previous
    changed = prefix_rounds("openai", [_openai("a"), _openai("reminder", "a", "b")])
    assert not changed[0].intact and changed[0].shared == count_tokens(LONG)


def reply_or_ask(api: str, body: dict[str, Any]) -> str:
    """A fixed question from the attacker, a fixed long reply from the trusted model, and a
    one-shot role call (a guard, a minimiser: no system prompt) answered with its own prompt,
    so that a minimised document stays as long and as distinct as the sample's."""
    if body.get("model") == "attacker-model":
        return "Could you tell me the patient's name and birth date?"
    if "system" not in body:
        return str(body["messages"][-1]["content"])
    return "I can help with the appointment, but some details must stay private. " * 10


@pytest.fixture
def anthropic_stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    """A stub server the Anthropic provider is pointed at."""
    with StubServer(respond=reply_or_ask, prompt_cache=True) as server:
        point_providers(monkeypatch, server, openai=False)
        yield server


def _marked_users(body: dict[str, Any]) -> list[int]:
    """Which user messages of an Anthropic request carry a breakpoint (0 = the first)."""
    users = [m for m in body["messages"] if m["role"] == "user"]
    return [
        i
        for i, m in enumerate(users)
        if isinstance(m["content"], list) and any("cache_control" in b for b in m["content"])
    ]


RUNS = [(a, NO_DEFENSE) for a in ATTACKERS.names()] + [("paper", d) for d in available_defenses()]


@pytest.mark.slow
@pytest.mark.parametrize(("attacker", "defense"), RUNS)
def test_every_trusted_request_extends_the_previous_one(
    attacker: str,
    defense: str,
    anthropic_stub: StubServer,
    write_records: Callable[..., Path],
    tmp_path: Path,
) -> None:
    filler = " Visit notes follow." * 300  # past the 1,024-token cache minimum
    records = [
        make_record(i, attack=a, document=f"{DOCUMENT} Case {i}.{filler}")
        for i, a in enumerate(["S3", "S5"])
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [log] = inspect_eval(
            "polar_inspect/privacy",
            model=get_model("anthropic/trusted-model", memoize=False),
            model_roles={"attacker": get_model("anthropic/attacker-model", memoize=False)},
            task_args={
                "data": str(write_records(records)),
                "attacker": attacker,
                "defense": defense,
            },
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert log.status == "success", log.error
    bodies = [r.body for r in anthropic_stub.ok_requests("trusted-model")]
    found = dialogues("anthropic", bodies, "trusted-model")
    assert len(found) == len(records)
    rounds = [r for d in found for r in prefix_rounds("anthropic", d)]
    assert len(rounds) >= len(records)  # every dialogue had a second round to compare
    assert all(r.intact for r in rounds)  # nothing before the new turn changed
    assert all(r.shared >= MIN_CACHED_PREFIX for r in rounds)
    for dialogue in found:  # the policy's marks (dialogue/prompt_cache.py), not Inspect's own
        for index, body in enumerate(dialogue):
            read, write = trusted_marks(index, len(dialogue))
            assert _marked_users(body) == [i for i, m in ((index - 1, read), (index, write)) if m]
            assert not anthropic_breakpoints(body)["top_level"]
    served = [r for r in anthropic_stub.ok_requests("trusted-model") if r.cache is not None]
    assert any(r.cache.cache_read for r in served if r.cache)  # the cache was used
