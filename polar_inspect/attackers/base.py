"""What every attacker shares: the base class, the per-sample protocol, the turn it returns
(docs/attackers.md#your-own-attacker)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

from inspect_ai.model import ChatMessage, GenerateConfig, Model
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from polar_inspect.batch_guard import answered
from polar_inspect.data.samples import SampleInfo
from polar_inspect.params import ParameterError
from polar_inspect.prompts import LoadedTemplate
from polar_inspect.seeds import CallSeeds
from polar_inspect.text import visible_text

ATTACKER_ROLE = "attacker"
#: What a live attacker answers to end the dialogue early (the replay attacker agent too).
STOP_TOKEN = "<STOP>"
#: The paper's attacker settings plus bounded retries, under the role's own config
#: (docs/attackers.md#live-attackers-sampling-retries-seeds).
ATTACKER_DEFAULTS = GenerateConfig(
    temperature=0.0, top_p=1.0, max_tokens=500, max_retries=6, timeout=600
)

StopReason = Literal[
    "planned_turns_done",  # every planned turn was played
    "turn_budget",  # the turn budget (or the adaptive attacker's budget) cut the dialogue
    "attacker_stop",  # the live attacker answered <STOP>
    "attacker_done",  # the adaptive attacker said it has everything it is after
    "attacker_empty",  # the live attacker produced no message
    "attacker_unparsable",  # the adaptive attacker's reply could not be read at all
    "attacker_no_attack",  # the adaptive attacker's answers copied its instructions or format
    "no_turns",  # no planned turns and no live attacker: nothing to play
    "limit",  # an Inspect limit (messages, tokens, time) cut the dialogue short
]
#: Where one sample's attacker turns came from: the sample's planned turns (S1-S4 in the
#: paper's setting, S5 replayed without an attacker model) or a model on the attacker role.
TurnSource = Literal["planned", "model"]


class AttackerOptionsError(ParameterError):
    """An attacker was given an option it does not take, or a bad value for one."""


class NoOptions(BaseModel):
    """The options of an attacker that takes none."""

    model_config = ConfigDict(extra="forbid", frozen=True)


#: Why an attacker answer is not an attack (`polar_inspect.detectors.echo`): it copies the
#: instructions the attacker was sent, fills its answer format with the format's own
#: placeholders, or talks about the format instead of writing a message.
NonAttackKind = Literal["copies_instructions", "format_placeholders", "format_talk"]


class NonAttack(BaseModel):
    """One attacker answer that was not an attack, in round `round` (1-based)."""

    round: int
    why: NonAttackKind
    #: True: it was sent to the trusted model anyway (the paper's live attacker sends what its
    #: model wrote); False: it was refused (the adaptive attacker asks again or stops).
    sent: bool


class AttackerTurn(BaseModel):
    """The attacker's move in one round: a message for the trusted model, or a stop."""

    message: str | None = None
    stop: StopReason | None = None
    #: The attacker's answers in this round that were not attacks (refused or sent anyway).
    not_attacks: list[NonAttack] = Field(default_factory=list)


class PlanEntry(BaseModel):
    """The adaptive attacker's private plan after one of its calls (logged, never sent)."""

    round: int
    plan: str
    done: bool
    #: How its answer was read: `json` (its structured format) or `text` (plain text taken as
    #: the message, for a model that cannot write the format).
    read_as: Literal["json", "text"] = "json"


class SampleAttacker(Protocol):
    """One sample's attacker, asked for a message each round by the dialogue loop."""

    #: Where this sample's turns come from.
    turn_source: TurnSource
    #: The most rounds this attacker may play (0: nothing to play).
    rounds: int
    #: How a live attacker's requests are laid out (None: no model is called), and why it
    #: differs from what the options asked for (None: as asked).
    layout: str | None = None
    layout_note: str | None = None

    async def next_turn(
        self, index: int, attacker_turns: Sequence[str], replies: Sequence[str]
    ) -> AttackerTurn:
        """The message for round `index` (0-based), given the dialogue so far, or a stop."""
        ...

    def exhausted(self) -> StopReason:
        """Why the dialogue ended when every one of `rounds` was played."""
        ...

    def plans(self) -> list[PlanEntry]:
        """The private plans the attacker kept, one per call (by default none)."""
        return []


class Attacker:
    """Base class of every attacker: declare `name`, `Options`, `calls_model`, `requires_model`
    and implement `start` (and `describe`)."""

    #: The registry name: the value of `-T attacker=`.
    name: ClassVar[str] = ""
    #: One line for listings: the threat model this attacker stands for.
    summary: ClassVar[str] = ""
    #: It may call the model bound to the `attacker` role.
    calls_model: ClassVar[bool] = False
    #: Without a model on the `attacker` role it cannot attack (samples fail before any call).
    requires_model: ClassVar[bool] = False
    #: Its options (task parameters of the same names), validated by this model alone.
    Options: ClassVar[type[BaseModel]] = NoOptions

    def __init__(self, options: BaseModel) -> None:
        self.options = options

    @classmethod
    def option_names(cls) -> list[str]:
        """The task parameters this attacker reads."""
        return list(cls.Options.model_fields)

    @classmethod
    def from_options(cls, given: Mapping[str, Any]) -> Attacker:
        """Build the attacker from the options given (others default); AttackerOptionsError
        for an option it does not take or a bad value."""
        try:
            options = cls.Options.model_validate(dict(given))
        except ValidationError as err:
            raise AttackerOptionsError.from_validation(err, f"-T attacker={cls.name}") from None
        return cls(options)

    def templates(self) -> list[LoadedTemplate]:
        """The prompt templates this attacker sends (part of the run's identity)."""
        return []

    def start(
        self, info: SampleInfo, budget: int, model: Model | None, seeds: CallSeeds
    ) -> SampleAttacker:
        """The attacker of one sample with turn budget `budget` (`model`: the bound `attacker`
        role when `calls_model`, else None; `seeds.attacker(round)`: each call's seed)."""
        raise NotImplementedError

    def describe(self, attacks: Sequence[str]) -> str:
        """A one-line note for the run's metadata: how the selected strategies are attacked."""
        return self.summary or self.name


def attacker_config(attacker: Model) -> GenerateConfig:
    """The config the live attacker's calls pass: the paper's defaults under the role's own."""
    return ATTACKER_DEFAULTS.merge(attacker.config)


async def generate_as_attacker(
    attacker: Model, messages: list[ChatMessage], seed: int | None = None
) -> str:
    """One attacker call with the paper's defaults under the model's own config; `seed` is sent
    unless the role's config sets its own. Its visible text, stripped."""
    # into the model's config, not this call's (which would override --max-retries / --timeout)
    attacker.config = attacker_config(attacker)
    # no prompt-cache breakpoints: the last message changes every round (docs/cost.md)
    own_seed = seed is None or attacker.config.seed is not None
    config = GenerateConfig(cache_prompt=False, seed=None if own_seed else seed)
    output = await answered(attacker.generate(messages, config=config))
    return visible_text(output.completion).strip()
