"""What a selection's sample count can tell apart, printed by `polar-cost` before a run.

Worst case (no pilot run): a score's per-sample values lie in [0, 1], so its standard deviation
is at most 0.5, and a paired difference of two models on the same samples at most 1
(`polar_inspect.precision`; docs/results.md#paired-comparisons).
"""

from __future__ import annotations

from collections.abc import Sequence

from polar_inspect.precision import (
    WORST_CASE_PAIRED_SD,
    half_width,
    samples_for_half_width,
    stratified_size,
)


def precision_lines(cells: Sequence[tuple[str, str, str]], target: float | None) -> list[str]:
    """Lines on the 95% interval half-widths of `cells` (one per sample: domain, policy,
    attack) and, for a `target` half-width in points, the stratified subset reaching it."""
    n = len(cells)
    if n == 0:
        return []
    lines = [
        f"precision: {n:,} samples give a score's 95% interval of at most +/-"
        f"{100 * half_width(n):.1f} points and a paired difference of two models on them of at "
        f"most +/-{100 * half_width(n, WORST_CASE_PAIRED_SD):.1f} (worst case)"
    ]
    if target is not None:
        strata = len(set(cells))
        needed = samples_for_half_width(target / 100)
        size = stratified_size(needed, strata)
        fits = "" if size <= n else f"; the selection holds only {n:,}: select more data"
        lines.append(
            f"+/-{target:g} points needs {needed:,} samples (worst case): a stratified subset "
            f"of {size:,} ({size // strata} per cell of {strata:,}){fits}"
        )
    return lines
