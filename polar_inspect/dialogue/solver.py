"""The dialogue solver: the trusted model against the attacker, round by round.

How each attacker message is produced is the attacker's business (`polar_inspect.attackers`),
what the defenses do theirs (`defense_hooks.py`); this loop checks that the roles the run needs
are bound before any model call, asks the attacker for the next message, sends it, records the
reply (its sampling, token-limit and empty-reply flags) in the sample's `DialogueState`, and
says why it stopped. Every call carries the seed the authors' evaluator would give it
(`polar_inspect.seeds`).
"""

from __future__ import annotations

from dataclasses import replace

from inspect_ai.event import ModelEvent
from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import LimitExceededError, span, store_as

from polar_inspect.attackers import (
    ATTACKER_DEFAULTS,
    ATTACKER_ROLE,
    SampleAttacker,
    attacker_config,
)
from polar_inspect.data.samples import SampleInfo, sample_info
from polar_inspect.defenses import SampleDefenses
from polar_inspect.dialogue.agent_turn import TrustedAgentRunner, start_trusted_agent
from polar_inspect.dialogue.defense_hooks import defended_reply, start_defenses
from polar_inspect.dialogue.prompt_cache import breakpoint_messages
from polar_inspect.dialogue.request_cap import request_slot
from polar_inspect.dialogue.roles import check_roles
from polar_inspect.dialogue.sampling import RoleSampling, role_sampling
from polar_inspect.dialogue.state import (
    DefenseState,
    DialogueState,
    TrustedAgentState,
    UsageState,
)
from polar_inspect.process_tuning import enter_sample
from polar_inspect.run.identity import sample_identity
from polar_inspect.run.setup import RunSetup
from polar_inspect.sample_context import current_dialogue, sample_facts
from polar_inspect.seeds import PAPER_BASE_SEED, CallSeeds, request_model_name

__all__ = ["TruncatedReplyError", "polar_dialogue"]


class TruncatedReplyError(RuntimeError):
    """With `truncated=fail`: a trusted reply hit the token limit or came back empty."""


def _call_seeds(state: TaskState, trusted: Model, attacker: Model | None) -> CallSeeds:
    base = trusted.config.seed if trusted.config.seed is not None else PAPER_BASE_SEED
    return CallSeeds(  # the names the requests carry (seeds.request_model_name)
        sample_id=str(state.sample_id),
        trusted_model=request_model_name(trusted),
        attacker_model=request_model_name(attacker) if attacker is not None else None,
        base=base,
    )


def _trusted_seed(seeds: CallSeeds, attacker: SampleAttacker, info: SampleInfo, index: int) -> int:
    """The authors' seed for the trusted reply of round `index` (0-based)."""
    if attacker.turn_source == "planned" and info.planned_turns:
        return seeds.trusted("scripted", 2 * index + 1)  # messages in the dialogue so far
    return seeds.trusted("adaptive", index + 1)


@solver
def polar_dialogue(setup: RunSetup) -> Solver:
    """Play one POLAR-Bench dialogue: attacker turns as user messages, trusted replies via
    generate, defenses around each trusted turn (see the module).

    Args:
        setup: The run's setup (configuration, templates, defenses, attacker), built once by
            the task.
    """
    config = setup.config
    attacker_spec = setup.attacker

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        bound = check_roles(setup)  # before any model call: nothing is paid for in vain
        if config.gc_tuning:
            enter_sample(state)
        info = sample_info(state)
        record = store_as(DialogueState)
        usage = store_as(UsageState)
        defense_state = store_as(DefenseState)
        trusted = get_model()
        attacker_model = bound.get(ATTACKER_ROLE) if attacker_spec.calls_model else None
        budget = config.max_turns if config.max_turns is not None else info.turn_budget
        seeds = _call_seeds(state, trusted, attacker_model)
        assert setup.identity is not None, "the task sets the identity"
        record.identity = sample_identity(
            setup.identity, trusted, bound, {ATTACKER_ROLE: ATTACKER_DEFAULTS}
        )
        record.attacker = config.attacker
        record.turn_budget = budget
        record.planned_turn_count = len(info.planned_turns)

        sample_attacker = attacker_spec.start(info, budget, attacker_model, seeds)
        record.turn_source = sample_attacker.turn_source
        record.attack_budget = sample_attacker.rounds
        record.attacker_layout = sample_attacker.layout
        if sample_attacker.layout_note:
            record.attacker_layout_note = sample_attacker.layout_note
            transcript().info(sample_attacker.layout_note, source="polar_inspect")
        # Defense hook 1: document defenses run once; prompt defenses extend the system message.
        guarded, document = await start_defenses(setup.defenses, state, info)
        note = setup.document_note  # with document tools: what stands for the document
        system = guarded.system_message(
            setup.trusted_template.render(
                document=document if note is None else note.render().strip(),
                policy=info.texts.privacy_policy,
                task=info.texts.task_instruction,
                domain=info.domain,
            )
        )
        state.messages = [ChatMessageSystem(content=system)]
        runner: TrustedAgentRunner | None = None
        agent_record = store_as(TrustedAgentState)
        if setup.trusted_agent is not None:
            agent_record.agent = config.trusted_agent
            agent_record.document_access = config.document_access
            runner = start_trusted_agent(
                setup.trusted_agent,
                config.document_access,
                document,
                info,
                system,
                guarded.count_trusted,
            )
        attacker_turns: list[str] = []
        replies: list[str] = []
        limits = record.reply_limits
        ended = None
        facts = sample_facts(str(state.sample_id), info, document)
        live = sample_attacker.turn_source == "model"
        try:
            for index in range(sample_attacker.rounds):
                round_facts = replace(facts, round_index=index, replies=tuple(replies))
                token = current_dialogue.set(round_facts)
                try:
                    async with span(f"round {index + 1}", type="round"):
                        # Model calls this dialogue still makes, this one included: under a
                        # shared cap (max_in_flight) the dialogue with the most left goes first.
                        left = (2 if live else 1) * (sample_attacker.rounds - index)
                        if live:
                            async with request_slot(config.max_in_flight, left):
                                turn = await sample_attacker.next_turn(
                                    index, attacker_turns, replies
                                )
                            left -= 1
                        else:
                            turn = await sample_attacker.next_turn(index, attacker_turns, replies)
                        if turn.not_attacks:  # answers that were no attack (attackers.NonAttack)
                            record.not_attacks = [*record.not_attacks, *turn.not_attacks]
                        if turn.message is None:
                            ended = turn.stop or "attacker_empty"
                            transcript().info(
                                f"Attacker ended the dialogue before round {index + 1} ({ended}).",
                                source="polar_inspect",
                            )
                            break
                        attacker_turns.append(turn.message)
                        record.turns_used = len(attacker_turns)
                        # Defense hook 2: what the trusted model reads of the attacker's message.
                        user_text = guarded.user_turn(turn.message)
                        state.messages.append(ChatMessageUser(content=user_text))
                        if runner is None:
                            seed = _trusted_seed(seeds, sample_attacker, info, index)
                            state.messages, cache = breakpoint_messages(
                                state.messages, index, sample_attacker.rounds, str(trusted)
                            )
                            async with request_slot(config.max_in_flight, left):
                                state = await generate(state, seed=seed, cache_prompt=cache)
                        else:  # the agent's steps go to its own record, not the dialogue
                            async with request_slot(config.max_in_flight, left):
                                played = await runner.play(index + 1, user_text)
                            state.messages.append(played.reply)
                            state.output = played.output
                            agent_record.turns = [*agent_record.turns, played.record]
                        if record.sampling.trusted is None:
                            sampling = record.sampling.model_copy()
                            sampling.trusted = _trusted_sampling(str(trusted))
                            record.sampling = sampling
                        last = state.messages[-1]
                        draft = last.text if isinstance(last, ChatMessageAssistant) else ""
                        # Limits are the draft's (what the model generated), before any defense.
                        limits.note(index + 1, state.output, draft)
                        record.reply_limits = limits
                        # Defense hook 3: the reply the attacker and the scorer see.
                        replies.append(await defended_reply(state, guarded, runner is None))
                        if runner is not None:
                            runner.sent(guarded.replies[-1].sent)
                        record.replies = len(replies)
                        usage.by_role = dict(guarded.ctx.usage)
                finally:
                    current_dialogue.reset(token)
                if state.completed:
                    ended = "limit"
                    break
        except LimitExceededError:
            record.stop_reason = "limit"
            _finish(record, usage, defense_state, guarded, sample_attacker, attacker_model)
            raise

        if ended is not None:
            record.stop_reason = ended
        elif sample_attacker.rounds == 0:
            record.stop_reason = "no_turns"
        else:
            record.stop_reason = sample_attacker.exhausted()
        _finish(record, usage, defense_state, guarded, sample_attacker, attacker_model)
        if config.truncated == "fail" and limits.affected:
            raise TruncatedReplyError(
                f"sample {state.sample_id}: trusted replies hit the token limit in rounds "
                f"{limits.truncated_rounds or 'none'} and were empty in rounds "
                f"{limits.empty_rounds or 'none'} (truncated=fail). Raise --max-tokens, or "
                "pass -T truncated=score to score such replies as they are."
            )
        return state

    return solve


def _finish(
    record: DialogueState,
    usage: UsageState,
    defense_state: DefenseState,
    guarded: SampleDefenses,
    sample_attacker: SampleAttacker,
    attacker_model: Model | None,
) -> None:
    """Write what only the end of the dialogue knows: usage, plans, the defense record."""
    by_role = dict(guarded.ctx.usage)
    attacker_usage = sample_attacker.usage()
    if attacker_usage is not None:
        by_role[ATTACKER_ROLE] = attacker_usage
    usage.by_role = by_role
    plans = sample_attacker.plans()
    if plans:
        record.attacker_plans = plans
    if attacker_model is not None and attacker_usage is not None:
        record.attacker_model = str(attacker_model)
        sampling = record.sampling.model_copy()
        config = attacker_config(attacker_model)
        if config.seed is None:  # each call carried its own seed (polar_inspect.seeds)
            config = config.merge(GenerateConfig(seed=0))
        sampling.attacker = role_sampling(str(attacker_model), config).without_per_call_seed()
        record.sampling = sampling
    defense_state.record = guarded.record()


def _trusted_sampling(model: str) -> RoleSampling | None:
    """The trusted model's resolved config, read from the model event of its last call
    (the per-call seed is recorded as such, not as the first call's number)."""
    events = transcript().history.events_since_last(ModelEvent)
    event = events[0] if events else None
    if not isinstance(event, ModelEvent):
        return None
    sampling = role_sampling(model, event.config)
    return sampling.without_per_call_seed()
