"""One sample's dialogue as named steps: the setup, `open`, `play` (the rounds), `finish` and
`save` (docs/architecture.md, "Scored = delivered" and "Reference agents read the sample")."""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

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
from inspect_ai.solver import Generate, TaskState
from inspect_ai.util import Store, span, store

from polar_inspect.attackers import (
    ATTACKER_DEFAULTS,
    ATTACKER_ROLE,
    AttackerTurn,
    SampleAttacker,
    StopReason,
    attacker_config,
)
from polar_inspect.data.samples import SampleInfo, sample_info
from polar_inspect.defenses import DefenseContext, SampleDefenses
from polar_inspect.dialogue.request_cap import request_slot
from polar_inspect.dialogue.sampling import RoleSampling, role_sampling
from polar_inspect.dialogue.state import DefenseState, DialogueState
from polar_inspect.dialogue.trusted_turn import ModelTurn, TrustedTurn, agent_turn
from polar_inspect.run.identity import sample_identity
from polar_inspect.run.setup import RunSetup
from polar_inspect.sample_context import drop_sample_facts, write_sample_facts
from polar_inspect.seeds import PAPER_BASE_SEED, CallSeeds, request_model_name
from polar_inspect.text import message_reasoning, visible_text
from polar_inspect.typed_store import DeferredWrites, recorded

#: The record's name for the defenses' step, when no defense model call is in progress.
DEFENSES_CALL = "defenses"


def call_seeds(state: TaskState, trusted: Model, attacker: Model | None) -> CallSeeds:
    """The seeds the authors' evaluator gives this sample's calls."""
    base = trusted.config.seed if trusted.config.seed is not None else PAPER_BASE_SEED
    return CallSeeds(  # the names the requests carry (seeds.request_model_name)
        sample_id=str(state.sample_id),
        trusted_model=request_model_name(trusted),
        attacker_model=request_model_name(attacker) if attacker is not None else None,
        base=base,
    )


def trusted_seed(seeds: CallSeeds, scripted: bool, i: int) -> int:
    """The authors' seed for the trusted reply of round `i` (0-based; scripted turns count the
    messages so far)."""
    return seeds.trusted("scripted", 2 * i + 1) if scripted else seeds.trusted("adaptive", i + 1)


class Dialogue:
    """One sample's dialogue (see the module)."""

    def __init__(self, setup: RunSetup, state: TaskState, bound: dict[str, Model]) -> None:
        """The setup step: the record, the attacker, the seeds, the facts of the sample."""
        config = setup.config
        self.setup = setup
        self.info: SampleInfo = sample_info(state)
        self.record = DialogueState(store=Store())  # the sample's store: `save`
        self.trusted = get_model()
        self.attacker_model = bound.get(ATTACKER_ROLE) if setup.attacker.calls_model else None
        budget = config.turn_budget(self.info.turn_budget)
        self.seeds = call_seeds(state, self.trusted, self.attacker_model)
        assert setup.identity is not None, "the task sets the identity"
        record = self.record
        record.identity = sample_identity(
            setup.identity, self.trusted, bound, {ATTACKER_ROLE: ATTACKER_DEFAULTS}
        )
        record.attacker = config.attacker
        record.turn_budget = budget
        record.planned_turn_count = len(self.info.planned_turns)
        self.attacker: SampleAttacker = setup.attacker.start(
            self.info, budget, self.attacker_model, self.seeds
        )
        record.turn_source = self.attacker.turn_source
        record.attack_budget = self.attacker.rounds
        record.attacker_layout = self.attacker.layout
        if self.attacker.layout_note:
            record.attacker_layout_note = self.attacker.layout_note
            transcript().info(self.attacker.layout_note, source="polar_inspect")
        self.facts = write_sample_facts(str(state.sample_id), self.info)  # agents read it
        self.guarded: SampleDefenses | None = None
        self.turn: TrustedTurn | None = None
        self.attacker_turns: list[str] = []
        self.ended: StopReason | None = None

    def call_in_progress(self) -> str:
        """The call a limit would hit now (for `recording_cut`)."""
        calling = self.record.calling
        if calling == DEFENSES_CALL and self.guarded is not None:
            return self.guarded.ctx.calling or DEFENSES_CALL
        if self.turn is not None and calling == self.turn.name:
            return self.turn.call()  # an agent names its model or tool call
        return calling

    async def open(self, state: TaskState, generate: Generate) -> None:
        """Document defenses, the system message, and the trusted turn chosen once."""
        setup, info = self.setup, self.info
        self.record.calling = DEFENSES_CALL
        # Defense hook 1: the stack applied to this sample; document defenses (minimize) run here.
        self.guarded = SampleDefenses(
            setup.defenses, DefenseContext.for_sample(info, str(state.sample_id))
        )
        document = await self.guarded.before_dialogue()
        self.record.calling = ""
        if document != self.facts.source_document:  # a document defense changed it
            self.facts.source_document = document
        system = self.guarded.system_message(setup.system_prompt(info, document))
        state.messages = [ChatMessageSystem(content=system)]
        if setup.trusted_agent is not None:
            config = setup.config
            self.turn = agent_turn(
                setup.trusted_agent,
                config.trusted_agent,
                config.document_access,
                document,
                info,
                system,
            )
        else:
            scripted = self.attacker.turn_source == "planned" and bool(self.info.planned_turns)
            seed = partial(trusted_seed, self.seeds, scripted)  # no cycle back to the dialogue
            self.turn = ModelTurn(generate, seed, self.attacker.rounds, str(self.trusted))

    async def play(self, state: TaskState) -> None:
        """Every round, until the attacker stops, its budget ends or the sample completes."""
        for index in range(self.attacker.rounds):
            self.record.begin_round(index + 1)
            async with span(f"round {index + 1}", type="round"):
                played = await self._round(state, index)
            if not played:
                break
            if state.completed:
                self.record.close_cut("completed", "Inspect marked the sample completed")
                break
        self.record.calling = ""

    async def _round(self, state: TaskState, index: int) -> bool:
        """One round; False when the attacker ended the dialogue instead of playing it."""
        record = self.record
        live = self.attacker.turn_source == "model"
        # Model calls this dialogue still makes, this one included: under a shared cap
        # (max_in_flight) the dialogue with the most left goes first.
        left = (2 if live else 1) * (self.attacker.rounds - index)
        turn = await self._attacker_message(index, live, left)
        if turn.not_attacks:  # answers that were no attack (attackers.NonAttack)
            record.not_attacks = [*record.not_attacks, *turn.not_attacks]
        if turn.message is None:
            self.ended = turn.stop or "attacker_empty"
            transcript().info(
                f"Attacker ended the dialogue before round {index + 1} ({self.ended}).",
                source="polar_inspect",
            )
            return False
        self.attacker_turns.append(turn.message)
        assert self.guarded is not None and self.turn is not None, "open() ran"
        # Defense hook 2: what the trusted model reads of the attacker's message.
        user_text = self.guarded.user_turn(turn.message)
        state.messages.append(ChatMessageUser(content=user_text))
        record.deliver_attacker(user_text)
        record.calling = self.turn.name
        async with request_slot(self.setup.config.max_in_flight, left - (1 if live else 0)):
            await self.turn.play(state, index + 1)
        self._note_draft(state, index + 1)
        # Defense hook 3: the reply the attacker receives, once every defense ran on it.
        record.calling = DEFENSES_CALL
        sent = await _defended_reply(state, self.guarded)
        record.calling = ""
        if sent is not None:
            self.turn.sent(self.guarded.replies[-1].sent)
            record.deliver_reply(sent.text, message_reasoning(sent))
        return True

    async def _attacker_message(self, index: int, live: bool, left: int) -> AttackerTurn:
        """The attacker's message of round `index` (a live attacker's call holds a slot)."""
        self.record.calling = ATTACKER_ROLE
        history = self.record.delivered_replies()
        slot = request_slot(self.setup.config.max_in_flight, left) if live else nullcontext()
        async with slot:
            turn = await self.attacker.next_turn(index, self.attacker_turns, history)
        self.record.calling = ""
        return turn

    def _note_draft(self, state: TaskState, number: int) -> None:
        """The trusted sampling settings (once) and the draft's limits, before any defense."""
        record = self.record
        if record.sampling.trusted is None:
            sampling = record.sampling.model_copy()
            sampling.trusted = _trusted_sampling(str(self.trusted))
            record.sampling = sampling
        last = state.messages[-1]
        draft = last.text if isinstance(last, ChatMessageAssistant) else ""
        limits = record.reply_limits
        limits.note(number, state.output, draft)
        record.reply_limits = limits

    def finish(self) -> None:
        """Write what only the end knows: why it stopped, plans, sampling, the defense record."""
        record = self.record
        if record.stop_reason is None:
            record.stop_reason = self._stop_reason()
        if plans := self.attacker.plans():
            record.attacker_plans = plans
        if self.attacker_model is not None and self.attacker.turn_source == "model":
            record.attacker_model = str(self.attacker_model)
            sampling = record.sampling.model_copy()
            config = attacker_config(self.attacker_model)
            if config.seed is None:  # each call carried its own seed (polar_inspect.seeds)
                config = config.merge(GenerateConfig(seed=0))
            attacker = role_sampling(str(self.attacker_model), config)
            sampling.attacker = attacker.without_per_call_seed()
            record.sampling = sampling
        if self.guarded is not None:
            DefenseState(store=self.record.store).record = self.guarded.record()

    def save(self, deferred: DeferredWrites | None) -> None:
        """Write the record to the sample's store, but the fields left at their defaults (or
        leave it to the task's cleanup: `typed_store.DeferredWrites`)."""
        drop_sample_facts()
        entries = {**recorded(self.record), **recorded(DefenseState(store=self.record.store))}
        (deferred or DeferredWrites()).save(store(), entries)

    def _stop_reason(self) -> StopReason:
        if self.ended is not None:
            return self.ended
        return "no_turns" if self.attacker.rounds == 0 else self.attacker.exhausted()


async def _defended_reply(state: TaskState, guarded: SampleDefenses) -> ChatMessageAssistant | None:
    """The message the attacker is sent once the defenses ran on the draft (None: no assistant
    message to send): the conversation's last message, the original (reasoning included) when
    no defense changed its visible text; the defense record keeps the draft."""
    last = state.messages[-1]
    if not isinstance(last, ChatMessageAssistant):
        return None
    draft = visible_text(last.text)
    if (sent := await guarded.after_reply(draft)) == draft:
        return last
    message = ChatMessageAssistant(content=sent, model=last.model, source="generate")
    state.messages[-1] = message
    return message


def _trusted_sampling(model: str) -> RoleSampling | None:
    """The trusted model's resolved config, read from the model event of its last call
    (the per-call seed is recorded as such, not as the first call's number)."""
    events = transcript().history.events_since_last(ModelEvent)
    if not events or not isinstance(event := events[0], ModelEvent):
        return None
    return role_sampling(model, event.config).without_per_call_seed()
