"""The dialogue solver: the trusted model against the attacker, round by round (paper protocol).

How each attacker message is produced is the attacker mode's business (`polar_inspect.attackers`);
this loop only asks for the next message, sends it, records the reply (its sampling, token-limit
and empty-reply flags) and says why it stopped.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from inspect_ai.event import ModelEvent
from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span
from pydantic import BaseModel

from polar_inspect._context import current_dialogue, sample_facts
from polar_inspect.attackers import (
    ATTACKER_DEFAULTS,
    ATTACKER_ROLE,
    DEFAULT_ATTACKER,
    STOP_TOKEN,
    AttackerMode,
    AttackerModeFactory,
    AttackerOptions,
    StopReason,
    UsageTotals,
    attacker_config,
    bound_attacker,
    make_attacker_mode,
)
from polar_inspect.data.samples import sample_info
from polar_inspect.defenses import DefenseStack, parse_defense
from polar_inspect.defenses.hooks import defended_reply, start_defenses
from polar_inspect.limits import request_slot
from polar_inspect.params import check_choice, check_whole
from polar_inspect.prompt_set import DialoguePrompts, PromptPaths
from polar_inspect.sampling import RoleSampling, role_sampling
from polar_inspect.scoring.judge_scorer import usable_judge
from polar_inspect.scoring.limits import ReplyLimits

__all__ = [
    "ATTACKER_DEFAULTS",
    "ATTACKER_ROLE",
    "STOP_TOKEN",
    "TRUNCATED_POLICIES",
    "AttackerMode",
    "DialogueRecord",
    "DialogueSampling",
    "StopReason",
    "TruncatedReplyError",
    "attacker_config",
    "bound_attacker",
    "polar_dialogue",
]

#: What to do with a sample in which a trusted reply hit the token limit or came back empty.
TruncatedPolicy = Literal["score", "fail"]
TRUNCATED_POLICIES: tuple[str, ...] = ("score", "fail")
#: Sample metadata key of the adaptive attacker's private plans (kept out of `dialogue`, which
#: stays small enough for Inspect's sample summaries).
PLANS_KEY = "attacker_plans"
#: Attacker modes whose turns come from a model call (held under the shared request cap).
LIVE_MODES = ("live", "adaptive")


class DialogueSampling(BaseModel):
    """The generation settings each role's calls were made with in this sample."""

    trusted: RoleSampling | None = None
    attacker: RoleSampling | None = None


class TruncatedReplyError(RuntimeError):
    """With `truncated=fail`: a trusted reply hit the token limit or came back empty."""


class DialogueRecord(BaseModel):
    """What the solver writes to `state.metadata["dialogue"]` for the log and the scorer."""

    attacker: str = DEFAULT_ATTACKER  # the `-T attacker=` mode
    attacker_mode: AttackerMode  # how this sample's turns were produced
    attacker_model: str | None
    turn_budget: int
    attack_budget: int  # the most rounds the attacker could play
    planned_turn_count: int
    turns_used: int
    stop_reason: StopReason
    reply_limits: ReplyLimits = ReplyLimits()
    sampling: DialogueSampling = DialogueSampling()
    attacker_usage: UsageTotals | None = None  # None: no attacker model was called
    # the trusted model's calls and tokens: the defense stack's count, `usage_by_role.trusted`
    trusted_usage: UsageTotals


@solver
def polar_dialogue(
    max_turns: int | None = None,
    system_prompt: str | None = None,
    attacker_system_prompt: str | None = None,
    attacker_turn_prompt: str | None = None,
    attacker_free_turn_prompt: str | None = None,
    attacker_opening_prompt: str | None = None,
    truncated: TruncatedPolicy = "score",
    defense: str | list[str] | None = None,
    attacker: str = DEFAULT_ATTACKER,
    attacker_options: AttackerOptions | None = None,
    max_in_flight: int | None = None,
    judge: bool = False,
) -> Solver:
    """Play one POLAR-Bench dialogue: attacker turns as user messages, trusted replies via generate.

    Args:
        max_turns: Overrides every sample's turn budget (default: the sample's own budget,
            `attack_setup.attack_spec.turns`, else 6). Scripted rounds stay bounded by the
            number of planned turns.
        system_prompt: Template file for the trusted model's system message, with placeholders
            `{document}`, `{policy}`, `{task}` (and optionally `{domain}`).
        attacker_system_prompt: Template file for the live S5 attacker's system message.
        attacker_turn_prompt: Template file for the per-round instruction to the live attacker.
        attacker_free_turn_prompt: Template file for a round with no planned message.
        attacker_opening_prompt: Template file for the first user message the attacker sees.
        truncated: `score` scores a sample whose trusted replies hit the token limit or came
            back empty as it is (counted and flagged); `fail` makes it an error.
        defense: Defenses around the trusted model's turn, `none` or a comma-separated stack
            of registered names (see `polar_inspect.defenses`).
        attacker: The attacker mode: `paper` (default), `scripted` or `adaptive`.
        attacker_options: The adaptive mode's settings (knowledge, budget, language, prompts).
        max_in_flight: At most this many model requests in flight across the trusted model and
            the attacker together (default: none beyond Inspect's per-model connections).
        judge: The task scores with the LLM judge: check that a usable judge model is bound
            before the dialogue makes its first model call.
    """
    max_turns = check_whole("max_turns", max_turns, minimum=1, optional=True)
    max_in_flight = check_whole("max_in_flight", max_in_flight, minimum=1, optional=True)
    truncated = check_choice("truncated", truncated, TRUNCATED_POLICIES)  # type: ignore[assignment]
    prompts = DialoguePrompts(
        PromptPaths(
            system_prompt=system_prompt,
            attacker_system_prompt=attacker_system_prompt,
            attacker_turn_prompt=attacker_turn_prompt,
            attacker_free_turn_prompt=attacker_free_turn_prompt,
            attacker_opening_prompt=attacker_opening_prompt,
        )
    )
    defenses = DefenseStack(parse_defense(defense))
    mode: AttackerModeFactory = make_attacker_mode(attacker, attacker_options, prompts)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if judge:
            usable_judge()  # fail before the trusted model is paid for, not at scoring
        info = sample_info(state)
        budget = max_turns if max_turns is not None else info.turn_budget
        resolved: list[Model | None] = []

        def resolve() -> Model | None:
            if not resolved:
                resolved.append(bound_attacker())
            return resolved[0]

        sample_attacker = mode.start(info, budget, resolve)
        # Defense hook 1: document defenses run once; prompt defenses extend the system message.
        guarded, document = await start_defenses(defenses, state, info)
        system = guarded.system_message(prompts.trusted_system(info, document))
        state.messages = [ChatMessageSystem(content=system)]
        attacker_turns: list[str] = []
        replies: list[str] = []
        limits = ReplyLimits()
        sampling = DialogueSampling()
        ended: StopReason | None = None
        # the trusted model (or agent) sees the defended copy of the document
        facts = sample_facts(str(state.sample_id), info, document)
        for index in range(sample_attacker.rounds):
            round_facts = replace(facts, round_index=index, replies=tuple(replies))
            token = current_dialogue.set(round_facts)
            try:
                async with span(f"round {index + 1}", type="round"):
                    # Model calls this dialogue still makes, this one included: under a shared
                    # cap (max_in_flight) the dialogue with the most left is served first.
                    live = sample_attacker.mode in LIVE_MODES
                    left = (2 if live else 1) * (sample_attacker.rounds - index)
                    if live:
                        async with request_slot(max_in_flight, left):
                            turn = await sample_attacker.next_turn(index, attacker_turns, replies)
                        left -= 1
                    else:
                        turn = await sample_attacker.next_turn(index, attacker_turns, replies)
                    if turn.message is None:
                        ended = turn.stop or "attacker_empty"
                        transcript().info(
                            f"Attacker ended the dialogue before round {index + 1} ({ended}).",
                            source="polar_inspect",
                        )
                        break
                    attacker_turns.append(turn.message)
                    # Defense hook 2: what the trusted model reads of the attacker's message.
                    state.messages.append(ChatMessageUser(content=guarded.user_turn(turn.message)))
                    async with request_slot(max_in_flight, left):
                        state = await generate(state)
                    if sampling.trusted is None:
                        sampling.trusted = _trusted_sampling(str(state.model))
                    last = state.messages[-1]
                    draft = last.text if isinstance(last, ChatMessageAssistant) else ""
                    # Limits are the draft's (what the model generated), before any defense.
                    limits.note(index + 1, state.output, draft)
                    # Defense hook 3: the reply the attacker and the scorer see.
                    replies.append(await defended_reply(state, guarded))
            finally:
                current_dialogue.reset(token)
            if state.completed:
                ended = "limit"
                break

        if ended is not None:
            stop = ended
        elif sample_attacker.rounds == 0:
            stop = "no_turns"
        else:
            stop = sample_attacker.exhausted()
        model = resolved[0] if resolved else None
        attacker_usage = sample_attacker.usage()
        called = model if model is not None and attacker_usage is not None else None
        if called is not None:
            sampling.attacker = role_sampling(str(called), attacker_config(called))
        record = DialogueRecord(
            attacker=attacker,
            attacker_mode=sample_attacker.mode,
            attacker_model=str(called) if called is not None else None,
            turn_budget=budget,
            attack_budget=sample_attacker.rounds,
            planned_turn_count=len(info.planned_turns),
            turns_used=len(attacker_turns),
            stop_reason=stop,
            reply_limits=limits,
            sampling=sampling,
            attacker_usage=attacker_usage,
            trusted_usage=guarded.trusted_usage(),
        )
        state.metadata["dialogue"] = record.model_dump()
        state.metadata["defense"] = guarded.record().model_dump()
        state.metadata["usage_by_role"] = guarded.usage_by_role()
        plans = sample_attacker.plans()
        if plans:
            state.metadata[PLANS_KEY] = [plan.model_dump() for plan in plans]
        if truncated == "fail" and limits.affected:
            raise TruncatedReplyError(
                f"sample {state.sample_id}: trusted replies hit the token limit in rounds "
                f"{limits.truncated_rounds or 'none'} and were empty in rounds "
                f"{limits.empty_rounds or 'none'} (truncated=fail). Raise --max-tokens, or "
                "pass -T truncated=score to score such replies as they are."
            )
        return state

    return solve


def _trusted_sampling(model: str) -> RoleSampling | None:
    """The trusted model's resolved config, read from the model event of its last call."""
    events = transcript().history.events_since_last(ModelEvent)
    event = events[0] if events else None
    if not isinstance(event, ModelEvent):
        return None
    return role_sampling(model, event.config)
