"""The detectors polar-validate can run over labelled cases, by name."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from polar_inspect.detectors.attribution import attribute_turn
from polar_inspect.detectors.match import contains_value
from polar_inspect.detectors.strict import value_form
from polar_inspect.scorers.llm_judge import JudgeUsage, judge_turn
from polar_inspect.validate.cases import LeakCase

DETECTORS = ("parity", "strict", "judge")


def parity_predictions(cases: Sequence[LeakCase]) -> dict[str, str]:
    """The paper's matcher on (reply, value): `stated` when it matches, else `none`."""
    return {c.id: "stated" if contains_value(c.reply, c.value) else "none" for c in cases}


def strict_predictions(cases: Sequence[LeakCase]) -> dict[str, str]:
    """The strict detector with attribution (attacker turn taken into account)."""
    return {
        c.id: attribute_turn([c.attacker_turn], c.reply, value_form(c.value, c.field or None))[0]
        for c in cases
    }


def judge_predictions(
    cases: Sequence[LeakCase], model: str, progress: Callable[[int], None] | None = None
) -> tuple[dict[str, str], JudgeUsage]:
    """The LLM judge `model` on every case, one call per case (cached like in the scorer)."""
    from inspect_ai.model import get_model

    judge = get_model(model)
    usage = JudgeUsage()

    async def run() -> dict[str, str]:
        out: dict[str, str] = {}
        for index, case in enumerate(cases, start=1):
            answer = await judge_turn(
                judge, case.attacker_turn, case.reply, [(case.value, case.field)], usage
            )
            verdict = answer.verdicts.get(case.value)
            out[case.id] = verdict.category if verdict else "none"
            if progress:
                progress(index)
        return out

    return asyncio.run(run()), usage
