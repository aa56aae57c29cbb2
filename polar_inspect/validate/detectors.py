"""The detectors polar-validate can run over labelled cases, by name."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from inspect_ai.model import Model

from polar_inspect.detectors.attribution import attribute_turn
from polar_inspect.detectors.match import TextIndex
from polar_inspect.detectors.strict import detect, value_form
from polar_inspect.scorers.llm_judge import JudgeUsage, judge_turn
from polar_inspect.validate.cases import LeakCase
from polar_inspect.validate.measure import Verdict

DETECTORS = ("parity", "strict", "judge")


def _locate(case: LeakCase) -> tuple[int, int] | None:
    """The value's span in the reply for an excerpt: the strict detector's, else a plain find."""
    found = detect(case.reply, value_form(case.value, case.field or None))
    if found is not None and found.span is not None:
        return found.span
    at = case.reply.casefold().find(case.value.casefold())
    return (at, at + len(case.value)) if at >= 0 else None


def parity_verdicts(cases: Sequence[LeakCase]) -> dict[str, Verdict]:
    """The paper's matcher on (reply, value): `stated` when a check matches, else `none`."""
    verdicts = {}
    for case in cases:
        check = TextIndex(case.reply).matching_check(case.value)
        verdicts[case.id] = (
            Verdict(category="stated", how=check, span=_locate(case))
            if check is not None
            else Verdict(category="none")
        )
    return verdicts


def strict_verdicts(cases: Sequence[LeakCase]) -> dict[str, Verdict]:
    """The strict detector with attribution (the attacker's turn taken into account)."""
    verdicts = {}
    for case in cases:
        form = value_form(case.value, case.field or None)
        category, found, how = attribute_turn([case.attacker_turn], case.reply, form)
        span = found.span if found is not None else None
        verdicts[case.id] = Verdict(category=category, how=how, span=span)
    return verdicts


def judge_verdicts(
    cases: Sequence[LeakCase], judge: Model, progress: Callable[[int], None]
) -> tuple[dict[str, Verdict], JudgeUsage]:
    """The LLM judge on every case, one cached call each, `progress(done)` after each one;
    JudgeFailedError when the judge keeps failing."""
    usage = JudgeUsage()

    async def run() -> dict[str, Verdict]:
        out: dict[str, Verdict] = {}
        for index, case in enumerate(cases, start=1):
            answer = await judge_turn(
                judge, case.attacker_turn, case.reply, [(case.value, case.field)], usage
            )
            verdict = answer.verdicts.get(case.value)
            category = verdict.category if verdict else "none"
            how = verdict.reason if verdict else ""
            span = _locate(case) if category != "none" else None
            out[case.id] = Verdict(category=category, how=how, span=span)
            progress(index)
        return out

    return asyncio.run(run()), usage
