"""The scripted attacker: the sample's planned turns, verbatim, one per round (S1-S4 of the
paper's setting, S5 replayed, every strategy with `-T attacker=scripted`)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import transcript
from inspect_ai.model import Model

from polar_inspect.attackers.base import (
    Attacker,
    AttackerTurn,
    SampleAttacker,
    StopReason,
    TurnSource,
)
from polar_inspect.attackers.registry import builtin
from polar_inspect.axes import LIVE_ATTACK
from polar_inspect.data.samples import SampleInfo
from polar_inspect.seeds import CallSeeds


class PlannedTurns(SampleAttacker):
    """Plays `planned` verbatim, cut at the turn budget; never calls a model."""

    turn_source: TurnSource = "planned"

    def __init__(self, planned: list[str], budget: int) -> None:
        self._planned = planned
        self.rounds = min(len(planned), budget)

    async def next_turn(
        self, index: int, attacker_turns: Sequence[str], replies: Sequence[str]
    ) -> AttackerTurn:
        """The planned turn of round `index`."""
        return AttackerTurn(message=self._planned[index])

    def exhausted(self) -> StopReason:
        """`turn_budget` when the budget cut the plan, else `planned_turns_done`."""
        return "turn_budget" if self.rounds < len(self._planned) else "planned_turns_done"


def replayed_s5(info: SampleInfo, budget: int, why: str, to_run_live: str) -> PlannedTurns:
    """S5's planned turns sent verbatim, announced in the transcript so nobody mistakes it."""
    transcript().info(
        {
            "s5_attacker": "REPLAYED: planned turns sent verbatim, not a live attacker",
            "why": why,
            "to_run_live": to_run_live,
        },
        source="polar_inspect",
    )
    return PlannedTurns(info.planned_turns, budget)


@builtin
class ScriptedAttacker(Attacker):
    """`-T attacker=scripted`: every strategy plays its planned turns; no model is called."""

    name = "scripted"
    summary = "every strategy plays its planned turns verbatim (S5 replayed); no model is called"

    def start(
        self, info: SampleInfo, budget: int, model: Model | None, seeds: CallSeeds
    ) -> SampleAttacker:
        """Planned turns for every sample (S5's are replayed)."""
        if info.attack == LIVE_ATTACK:
            return replayed_s5(
                info,
                budget,
                why="the task was run with -T attacker=scripted",
                to_run_live="-T attacker=paper --model-role attacker=<provider/model>",
            )
        return PlannedTurns(info.planned_turns, budget)

    def describe(self, attacks: Sequence[str]) -> str:
        """The run-metadata note."""
        if LIVE_ATTACK not in attacks:
            return "scripted: planned turns verbatim"
        return "scripted: planned turns verbatim, S5 replayed (-T attacker=scripted)"
