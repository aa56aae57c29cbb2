"""Every role's requests a run would make, rebuilt from the data and templates it selects, and
their tokens (docs/cost.md#the-cost-before-a-run-polar-cost; marks: `dialogue.prompt_cache`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

from inspect_ai.model import Model

from polar_inspect.attackers import ATTACKER_ROLE
from polar_inspect.data.samples import SampleInfo
from polar_inspect.defenses.base import DefenseContext
from polar_inspect.defenses.builtins import GUARD_ROLE, MINIMIZER_MAX_TOKENS, MINIMIZER_ROLE
from polar_inspect.defenses.stack import SampleDefenses
from polar_inspect.dialogue.prompt_cache import trusted_marks
from polar_inspect.run.setup import JUDGE_ROLE, RunSetup
from polar_inspect.scorers.judge import judged_values
from polar_inspect.scorers.llm_judge import judge_prompt
from polar_inspect.seeds import CallSeeds

TRUSTED_ROLE = "trusted"
Counter = Callable[[str], int]


@dataclass(frozen=True)
class Tokenizer:
    """How a model's messages are counted."""

    count: Counter
    name: str


def estimate_tokens(text: str) -> int:
    """Tokens of a message by the documented rule: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))


ESTIMATE = Tokenizer(count=estimate_tokens, name="estimate: characters / 4")


@lru_cache(maxsize=8)
def tokenizer_for(model: str) -> Tokenizer:
    """`tiktoken`'s count for an OpenAI `provider/model` where its encoding loads, else ESTIMATE."""
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


@dataclass(frozen=True)
class Request:
    """One model call as caching sees it."""

    input_tokens: int
    output_tokens: int
    #: leading tokens the next request of its thread repeats (the prefix a cache could serve)
    stable_tokens: int
    read_mark: bool = False  # breakpoints: it marks the previous request's end (a read)
    write_mark: bool = False  # breakpoints: it marks its own end (a write)


@dataclass
class RoleCalls:
    """One role's requests, in threads: a cache serves a request only from its own thread."""

    role: str
    threads: list[list[Request]] = field(default_factory=list)
    unknown_calls: int = 0  # calls whose tokens cannot be rebuilt (a plug-in defense's role)

    @property
    def calls(self) -> int:
        """Calls whose tokens are known."""
        return sum(len(thread) for thread in self.threads)


@dataclass(frozen=True)
class Assumptions:
    """What the estimate cannot know from the data."""

    reply_tokens: int = 200
    attacker_tokens: int = 40
    judge_tokens: int = 200
    copy_tokens: int | None = None  # the minimiser's copy (None: the document, capped)


@dataclass
class _Sample:
    """One sample's dialogue as the estimate plays it."""

    info: SampleInfo
    system: str
    attacker_turns: list[str]
    user_turns: list[str]
    live_attacker: object | None  # the sample's attacker when it calls a model


class _StandIn:
    """The bound model's name, all an attacker reads of its model before calling it."""

    def __init__(self, name: str) -> None:
        self.name = name.split("/", 1)[-1]
        self._full = name

    def __str__(self) -> str:
        return self._full


def copy_tokens(document: str, assume: Assumptions) -> int:
    """The minimiser's copy: `copy_tokens`, else as long as the document up to its cap."""
    if assume.copy_tokens is not None:
        return assume.copy_tokens
    return min(estimate_tokens(document), MINIMIZER_MAX_TOKENS)


def play(setup: RunSetup, info: SampleInfo, attacker: str | None, assume: Assumptions) -> _Sample:
    """The sample's system prompt and attacker messages (`attacker`: the bound attacker model;
    a live attacker's messages are `attacker_tokens` long, a scripted one's its planned turns)."""
    budget = setup.config.turn_budget(info.turn_budget)
    seeds = CallSeeds(sample_id="estimate", trusted_model="estimate", attacker_model=None, base=0)
    live = attacker is not None and setup.attacker.calls_model
    stand_in = cast(Model, _StandIn(attacker)) if live and attacker is not None else None
    started = setup.attacker.start(info, budget, stand_in, seeds)
    is_live = started.turn_source == "model"
    document = info.texts.source_document  # under `minimize`, the minimiser's copy
    if MINIMIZER_ROLE in setup.defenses.roles:
        document = "x" * (4 * copy_tokens(document, assume))
    guarded = SampleDefenses(setup.defenses, DefenseContext.for_sample(info, "estimate"))
    system = guarded.system_message(setup.system_prompt(info, document))
    planned = [] if is_live else info.planned_turns[: started.rounds]
    generated = [f"{i}".ljust(4 * assume.attacker_tokens, "x") for i in range(started.rounds)]
    said = planned + generated[len(planned) :]  # a generated message: each round's its own
    return _Sample(
        info=info,
        system=system,
        attacker_turns=said,
        user_turns=[guarded.user_turn(message) for message in said],
        live_attacker=started if is_live else None,
    )


def trusted_thread(sample: _Sample, count: Counter, reply: int) -> list[Request]:
    """The trusted model's requests of one sample, marked by the breakpoint policy."""
    rounds = len(sample.user_turns)
    tokens = count(sample.system)
    thread = []
    for index, user in enumerate(sample.user_turns):
        tokens += count(user)
        read, write = trusted_marks(index, rounds)
        thread.append(Request(tokens, reply, tokens, read_mark=read, write_mark=write))
        tokens += reply
    return thread


def attacker_threads(
    sample: _Sample, count: Counter, assume: Assumptions
) -> list[list[Request]] | None:
    """The live attacker's requests of one sample (sent without breakpoints); None: an
    attacker whose requests cannot be rebuilt (no `conversation(index, said, replies)`)."""
    if sample.live_attacker is None:
        return []
    if (conversation := getattr(sample.live_attacker, "conversation", None)) is None:
        return None
    reply = "x" * (4 * assume.reply_tokens)
    thread = []
    for index in range(len(sample.attacker_turns)):
        messages = conversation(index, sample.attacker_turns[:index], [reply] * index)
        sizes = [count(message.text) for message in messages]
        # the last message changes next round (it carries the round's instruction)
        thread.append(Request(sum(sizes), assume.attacker_tokens, sum(sizes[:-1])))
    return [thread]


def _single(text: str, count: Counter, output: int, marked: bool = False) -> list[Request]:
    """A one-message call that nothing reads back; `marked`: sent with Inspect's automatic
    breakpoints (the judge's calls), which write it when it reaches the cache minimum."""
    return [Request(count(text), output, 0, write_mark=marked)]


def defense_threads(
    role: str, sample: _Sample, setup: RunSetup, count: Counter, assume: Assumptions
) -> list[list[Request]]:
    """The guard's calls (one per round) or the minimiser's (one per sample)."""
    defense = next(d for d in setup.defenses.defenses if role in d.roles)
    texts = sample.info.texts
    if role == MINIMIZER_ROLE:
        prompt = defense.text(
            document=texts.source_document, policy=texts.privacy_policy, task=texts.task_instruction
        )
        return [_single(prompt, count, copy_tokens(texts.source_document, assume))]
    draft = "x" * (4 * assume.reply_tokens)
    prompts = [
        defense.text(policy=texts.privacy_policy, request=said, draft=draft)
        for said in sample.attacker_turns
    ]
    return [_single(prompt, count, assume.reply_tokens) for prompt in prompts]


def judge_threads(
    sample: _Sample, count: Counter, assume: Assumptions, asked: set[str]
) -> list[list[Request]]:
    """One judge call per turn, every value asked (an upper bound), none for a prompt already
    `asked` in this run (the judge's answers are cached on disk by prompt)."""
    info = sample.info
    values = judged_values(list(info.protected_values), list(info.allowed_values),
                           info.value_fields)  # fmt: skip
    reply = "x" * (4 * assume.reply_tokens)
    threads = []
    for said in sample.attacker_turns:
        if (prompt := judge_prompt(said, reply, values)) not in asked:
            asked.add(prompt)
            threads.append(_single(prompt, count, assume.judge_tokens, marked=True))
    return threads


def called_roles(setup: RunSetup, attacker_bound: bool) -> list[str]:
    """Every role the run would call, in the order polar-cost prints them."""
    roles = [TRUSTED_ROLE]
    if attacker_bound and setup.attacker.calls_model:
        roles.append(ATTACKER_ROLE)
    roles += setup.defenses.roles
    if setup.config.judge:
        roles.append(JUDGE_ROLE)
    return roles


def _role_threads(
    role: str,
    sample: _Sample,
    setup: RunSetup,
    count: Counter,
    assume: Assumptions,
    asked: set[str],
) -> list[list[Request]] | None:
    """The role's threads for one sample; None: a role whose calls cannot be rebuilt."""
    if role == TRUSTED_ROLE:
        return [trusted_thread(sample, count, assume.reply_tokens)]
    if role == ATTACKER_ROLE:
        return attacker_threads(sample, count, assume)
    if role in (GUARD_ROLE, MINIMIZER_ROLE):
        return defense_threads(role, sample, setup, count, assume)
    if role == JUDGE_ROLE:
        return judge_threads(sample, count, assume, asked)
    return None


def estimate(
    setup: RunSetup,
    infos: Iterable[SampleInfo],
    counters: dict[str, Counter],
    assume: Assumptions,
    attacker: str | None = None,
) -> list[RoleCalls]:
    """Each role's requests over the samples (`counters`: the called roles' token counters)."""
    roles = {role: RoleCalls(role) for role in counters}
    asked: set[str] = set()
    for info in infos:
        sample = play(setup, info, attacker, assume)
        for role, calls in roles.items():
            threads = _role_threads(role, sample, setup, counters[role], assume, asked)
            if threads is None:
                calls.unknown_calls += len(sample.user_turns)  # one a round, counted only
            else:
                calls.threads += threads
    return list(roles.values())
