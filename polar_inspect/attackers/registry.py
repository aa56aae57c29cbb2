"""Attackers by name: the built-ins, plus any package's entry points in `polar_inspect.attackers`
(docs/attackers.md#your-own-attacker); what a plug-in returns is checked (`checked_attacker`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from polar_inspect.attackers.base import Attacker, AttackerTurn, SampleAttacker
from polar_inspect.plugins import PluginError, PluginRegistry, short_repr

ENTRY_POINT_GROUP = "polar_inspect.attackers"
DEFAULT_ATTACKER = "paper"


class AttackerNameError(PluginError):
    """`-T attacker=` names no registered attacker, or an installed one cannot be used."""


ATTACKERS: PluginRegistry[Attacker] = PluginRegistry(
    kind="attacker",
    base=Attacker,
    group=ENTRY_POINT_GROUP,
    builtins_module="polar_inspect.attackers.builtins",
    error=AttackerNameError,
)
#: Class decorator registering a built-in attacker under its `name`.
builtin = ATTACKERS.builtin


def available_attackers() -> dict[str, type[Attacker]]:
    """Every registered attacker by name: built-ins first, then entry points (sorted)."""
    return ATTACKERS.available()


class AttackerContractError(PluginError):
    """An attacker plug-in gave back something its contract does not allow."""


class _CheckedSample:
    """A plug-in's sample attacker whose turns are checked (everything else passes through)."""

    def __init__(self, sample: SampleAttacker, who: str) -> None:
        self._sample = sample
        self._who = who

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sample, name)

    async def next_turn(
        self, index: int, attacker_turns: Sequence[str], replies: Sequence[str]
    ) -> AttackerTurn:
        turn = await self._sample.next_turn(index, attacker_turns, replies)
        if not isinstance(turn, AttackerTurn):
            raise AttackerContractError(
                f"{self._who}: next_turn() returned {short_repr(turn)}, not an AttackerTurn "
                "(polar_inspect.attackers.AttackerTurn(message=...) or AttackerTurn(stop=...))"
            )
        return turn


_SAMPLE_MEMBERS = ("turn_source", "rounds", "layout", "layout_note", "next_turn", "exhausted",
                   "plans")  # fmt: skip


def checked_attacker(attacker: Attacker) -> Attacker:
    """`attacker`, whose `start` (when it is a plug-in's) must return a sample attacker and
    each turn an `AttackerTurn`; a violation is one line naming the plug-in and the call."""
    cls = type(attacker)
    if cls.__module__.startswith("polar_inspect."):
        return attacker
    origin = ATTACKERS.origins.get(cls.name)
    who = f"attacker plug-in {cls.name!r}" + (f" ({origin[0]})" if origin else "")
    original = attacker.start

    def start(info: Any, budget: int, model: Any, seeds: Any) -> SampleAttacker:
        sample = original(info, budget, model, seeds)
        if missing := [name for name in _SAMPLE_MEMBERS if not hasattr(sample, name)]:
            raise AttackerContractError(
                f"{who}: start() returned {short_repr(sample)}, which lacks {', '.join(missing)} "
                "(a sample attacker: see polar_inspect.attackers.SampleAttacker)"
            )
        rounds = sample.rounds
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 0 <= rounds <= budget:
            raise AttackerContractError(
                f"{who}: start() planned rounds={short_repr(rounds)} with a turn budget of "
                f"{budget} (-T max_turns, else the sample's); `rounds` is a whole number from 0 "
                "to `budget`, so the dialogue plays at most the budget it is logged with"
            )
        return cast(SampleAttacker, _CheckedSample(sample, who))

    attacker.start = start  # type: ignore[method-assign]
    return attacker
