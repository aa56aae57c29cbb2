"""What a run will cost, before it starts: the trusted model's requests rebuilt from the data.

For each selected sample, the dialogue's trusted requests are rebuilt from the templates the
run selects (the trusted system prompt with every defense's addendum, each attacker message as
the defenses wrap it): round k sends the system prompt, k attacker messages and k - 1 replies.
Attacker messages are the sample's planned turns (a live attacker's are assumed as long as the
planned ones, or `attacker_tokens` when there are none); replies are `reply_tokens` long.

Tokens are counted without a tokenizer: ceil(characters / 4) per message (the rule the tests'
stub servers use; English prose with ids and numbers runs 3.5-4.5 characters per token).
Caching follows the providers' documented rules:

- `anthropic`: each round reads the previous request from the cache (0.1x) and writes what it
  adds (the first round: everything) at the sheet's `cache_write` rate, when the request reaches
  1,024 tokens; a one-round dialogue is sent without breakpoints (nothing read, nothing written);
- `openai`: each round reads the previous request, rounded down to 1,024 + a multiple of 128
  tokens, when it reaches 1,024 tokens; nothing is billed for writing;
- any other provider: nothing is cached (say so; its cost is the plain one).

Only the trusted model is estimated: the attacker's and defense roles' calls are counted, their
tokens are not, and every total says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from polar_inspect.data.samples import SampleInfo
from polar_inspect.defenses.base import DefenseContext
from polar_inspect.run.setup import RunSetup
from polar_inspect.seeds import CallSeeds

CacheRules = Literal["anthropic", "openai", "none"]
MIN_CACHED_PREFIX = 1024
OPENAI_CACHE_STEP = 128


def count_tokens(text: str) -> int:
    """Tokens of a message by the documented rule: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))


def cache_rules_for(model: str) -> CacheRules:
    """The caching rules of a model's provider (`anthropic/...`, `openai/...`), else none."""
    provider = model.split("/", 1)[0]
    return provider if provider in ("anthropic", "openai") else "none"  # type: ignore[return-value]


@dataclass
class TokenCount:
    """Calls and tokens of the trusted model, as billed with and without the cache."""

    samples: int = 0
    calls: int = 0
    input_tokens: int = 0  # every input token
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    other_role_calls: int = 0  # attacker and defense-role calls: counted, tokens not estimated


@dataclass(frozen=True)
class Assumptions:
    """What the estimate cannot know from the data."""

    reply_tokens: int = 200
    attacker_tokens: int = 40


def dialogue_requests(
    setup: RunSetup, info: SampleInfo, assume: Assumptions
) -> tuple[list[int], int]:
    """The input tokens of each trusted request of one sample, and its other roles' calls."""
    budget = setup.config.max_turns if setup.config.max_turns is not None else info.turn_budget
    seeds = CallSeeds(sample_id="estimate", trusted_model="estimate", attacker_model=None, base=0)
    rounds = _rounds(setup, info, budget, seeds)
    guarded = setup.defenses.start(DefenseContext.for_sample(info, "estimate"))
    system = guarded.system_message(
        setup.trusted_template.render(
            document=info.texts.source_document,
            policy=info.texts.privacy_policy,
            task=info.texts.task_instruction,
            domain=info.domain,
        )
    )
    tokens = count_tokens(system)
    requests = []
    for index in range(rounds):
        planned = info.planned_turns[index] if index < len(info.planned_turns) else None
        message = planned if planned is not None else "x" * (4 * assume.attacker_tokens)
        tokens += count_tokens(guarded.user_turn(message))
        requests.append(tokens)
        tokens += assume.reply_tokens
    defense_calls = rounds * sum(len(d.roles) for d in setup.defenses.defenses)
    # the paper's attacker is live on S5 only; any other attacker that calls a model, always
    live = setup.attacker.calls_model and (setup.config.attacker != "paper" or info.attack == "S5")
    return requests, defense_calls + (rounds if live else 0)


def _rounds(setup: RunSetup, info: SampleInfo, budget: int, seeds: CallSeeds) -> int:
    rounds_for = getattr(setup.attacker, "rounds_for", None)
    if rounds_for is not None:
        return int(rounds_for(info, budget))
    return int(setup.attacker.start(info, budget, None, seeds).rounds)


def add_dialogue(
    count: TokenCount, requests: list[int], other_calls: int, rules: CacheRules, reply: int
) -> None:
    """Add one dialogue's trusted requests, billed by `rules`."""
    count.samples += 1
    count.other_role_calls += other_calls
    previous = 0
    for tokens in requests:
        count.calls += 1
        count.input_tokens += tokens
        count.output_tokens += reply
        if rules == "openai" and previous >= MIN_CACHED_PREFIX:
            steps = (previous - MIN_CACHED_PREFIX) // OPENAI_CACHE_STEP
            count.cache_read_tokens += MIN_CACHED_PREFIX + steps * OPENAI_CACHE_STEP
        elif rules == "anthropic" and len(requests) > 1 and tokens >= MIN_CACHED_PREFIX:
            read = previous if previous >= MIN_CACHED_PREFIX else 0
            count.cache_read_tokens += read
            count.cache_write_tokens += tokens - read
        previous = tokens


def estimate(
    setup: RunSetup, infos: Iterable[SampleInfo], rules: CacheRules, assume: Assumptions
) -> TokenCount:
    """The trusted model's calls and tokens over the selected samples."""
    count = TokenCount()
    for info in infos:
        requests, others = dialogue_requests(setup, info, assume)
        add_dialogue(count, requests, others, rules, assume.reply_tokens)
    return count
