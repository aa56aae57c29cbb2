"""What a selection's sample count can tell apart, printed by `polar-cost` before a run.

Worst case (no pilot run): a score's per-sample values lie in [0, 1], so its standard deviation
is at most 0.5, and a paired difference of two models on the same samples at most 1
(`polar_inspect.precision`; docs/results.md#paired-comparisons). With `--pilot LOG`, the
expected half-width from the standard deviation of the pilot's per-sample scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


def _polar_scores(summary: Any) -> dict[str, Any] | None:
    """The sample's privacy / utility / overall, or None when it has no such score."""
    if summary.error:
        return None
    found = [s.value for s in (summary.scores or {}).values() if isinstance(s.value, dict)]
    return next((v for v in found if all(k in v for k in SCORE_KEYS)), None)


def pilot_spread(log: Path) -> tuple[dict[str, float], int, int]:
    """Each score's per-sample standard deviation in a pilot log, the samples scored and the
    samples without a score (errors, limits), from Inspect's sample summaries."""
    from inspect_ai.log import read_eval_log_sample_summaries

    try:
        summaries = read_eval_log_sample_summaries(str(log))
    except Exception as err:  # noqa: BLE001 - any unreadable file is the user's to fix
        raise UserInputError(f"--pilot {log}: not a readable Inspect log ({err})") from None
    scored = [v for v in map(_polar_scores, summaries) if v is not None]
    if len(scored) < 2:
        raise UserInputError(
            f"--pilot {log}: {len(scored)} scored polar_inspect samples; "
            "a pilot needs at least 2 (run privacy or privacy_mini with --limit)"
        )
    spread = {key: standard_deviation(float(v[key]) for v in scored) for key in SCORE_KEYS}
    return spread, len(scored), len(summaries) - len(scored)


def _pilot_lines(n: int, pilot: Path, target: float | None, strata: int) -> list[str]:
    spread, scored, unscored = pilot_spread(pilot)
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
            f"+/-{target:g} points needs {needed:,} samples at the pilot's largest standard "
            f"deviation ({sd:.3f}): a stratified subset of {size:,}"
        )
    return lines


def precision_lines(
    cells: Sequence[tuple[str, str, str]], target: float | None, pilot: Path | None = None
) -> list[str]:
    """Lines on the 95% interval half-widths of `cells` (one per sample: domain, policy,
    attack), worst case and from a `pilot` log, and for a `target` half-width in points the
    stratified subset reaching it."""
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
            f"+/-{target:g} points needs {needed:,} samples (worst case): a stratified subset "
            f"of {size:,} ({size // strata} per cell of {strata:,}){fits}"
        )
    return lines if pilot is None else lines + _pilot_lines(n, pilot, target, strata)
