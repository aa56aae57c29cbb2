"""What a selection can tell apart, at worst and from a pilot run (docs/cost.md, "Precision")."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polar_inspect.agents import ORACLE_MARK, oracle_agent_reasons
from polar_inspect.cost.estimate import TRUSTED_ROLE
from polar_inspect.errors import UserInputError
from polar_inspect.precision import (
    WORST_CASE_PAIRED_SD,
    WORST_CASE_SD,
    half_width,
    samples_for_half_width,
    standard_deviation,
    stratified_size,
)
from polar_inspect.scorers.parity import SCORE_KEYS

if TYPE_CHECKING:
    from inspect_ai.log import EvalSpec


#: Fewer scored samples than this estimate no spread: the pilot is not used (docs/cost.md).
MIN_PILOT_SAMPLES = 30


def plural(n: int, noun: str) -> str:
    """`n noun`, the noun in the plural unless `n` is 1."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _polar_scores(summary: Any) -> dict[str, Any] | None:
    """The sample's privacy / utility / overall, or None when it has no such score."""
    if summary.error:
        return None
    found = [s.value for s in (summary.scores or {}).values() if isinstance(s.value, dict)]
    return next((v for v in found if all(k in v for k in SCORE_KEYS)), None)


def oracle_run(spec: EvalSpec) -> bool:
    """Whether the run read the targets: its name's mark, its defense, `agents.ORACLE_AGENTS`."""
    bound = [(role, one.model) for role, config in (spec.model_roles or {}).items()
             for one in (config if isinstance(config, list) else [config])]  # fmt: skip
    defense = (spec.metadata or {}).get("defense")
    return (
        ORACLE_MARK in (spec.task_display_name or "")
        or (isinstance(defense, dict) and bool(defense.get("oracle")))
        or bool(oracle_agent_reasons([(TRUSTED_ROLE, spec.model), *bound]))
    )


def pilot_spread(log: Path) -> tuple[dict[str, float], int, int, bool]:
    """A pilot log's per-score standard deviations, samples scored / unscored, ORACLE or not."""
    from inspect_ai.log import read_eval_log, read_eval_log_sample_summaries

    try:
        spec = read_eval_log(str(log), header_only=True).eval
        summaries = read_eval_log_sample_summaries(str(log))
    except Exception as err:  # noqa: BLE001 - any unreadable file is the user's to fix
        raise UserInputError(f"--pilot {log}: not a readable Inspect log ({err})") from None
    epochs: dict[object, list[dict[str, Any]]] = {}  # a sample's scores, one per epoch
    for summary in summaries:
        if (found := _polar_scores(summary)) is not None:
            epochs.setdefault(summary.id, []).append(found)
    scored = [{k: sum(float(e[k]) for e in each) / len(each) for k in SCORE_KEYS}
              for each in epochs.values()]  # fmt: skip
    spread = {key: standard_deviation(v[key] for v in scored) for key in SCORE_KEYS}
    return spread, len(scored), len({s.id for s in summaries}) - len(scored), oracle_run(spec)


def unusable(spread: dict[str, float], scored: int, oracle: bool) -> str | None:
    """Why a pilot's spread tells nothing (None: it does)."""
    if oracle:
        return "an ORACLE run (it answers from the scorer's targets)"
    if scored < MIN_PILOT_SAMPLES:
        few = plural(scored, "scored sample")
        return f"{few}, fewer than {MIN_PILOT_SAMPLES} estimate no spread"
    flat = [key for key, sd in spread.items() if sd == 0]
    return f"no spread in {', '.join(flat)} (every sample scored the same)" if flat else None


def _pilot_lines(n: int, pilot: Path, target: float | None, strata: int) -> list[str]:
    spread, scored, unscored, oracle = pilot_spread(pilot)
    if (why := unusable(spread, scored, oracle)) is not None:
        return [f"pilot {pilot.name} not used: {why}; the worst-case figures above apply"]
    widths = ", ".join(f"{k} +/-{100 * half_width(n, sd):.1f}" for k, sd in spread.items())
    skipped = f", {unscored:,} without a score left out" if unscored else ""
    lines = [
        f"expected from the pilot {pilot.name} ({scored:,} scored samples{skipped}): "
        f"{widths} points on {n:,} samples"
    ]
    if target is not None:
        sd = max(spread.values())
        needed = samples_for_half_width(target / 100, sd)
        size = stratified_size(needed, strata)
        lines.append(
            f"+/-{target:g} points needs {plural(needed, 'sample')} at the pilot's largest "
            f"standard deviation ({sd:.3f}): a stratified subset of {size:,}"
        )
    return lines


def precision_lines(
    cells: Sequence[tuple[str, str, str]], target: float | None, pilot: Path | None = None
) -> list[str]:
    """95% half-widths of `cells` (domain, policy, attack): at worst, from `pilot`, for `target`."""
    n = len(cells)
    if n == 0:
        return []
    lines = [
        f"precision: {n:,} samples give a score's 95% interval of at most +/-"
        f"{100 * half_width(n, WORST_CASE_SD):.1f} points and a paired difference of two "
        f"models on them of at most +/-{100 * half_width(n, WORST_CASE_PAIRED_SD):.1f} "
        "(worst case)"
    ]
    strata = len(set(cells))
    if target is not None:
        needed = samples_for_half_width(target / 100)
        size = stratified_size(needed, strata)
        fits = "" if size <= n else f"; the selection holds only {n:,}: select more data"
        lines.append(
            f"+/-{target:g} points needs {plural(needed, 'sample')} (worst case): a stratified "
            f"subset of {size:,} ({size // strata} per cell of {strata:,}){fits}"
        )
    return lines if pilot is None else lines + _pilot_lines(n, pilot, target, strata)
