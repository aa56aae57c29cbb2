"""How precise a run's mean score is, before and after it runs (docs/cost.md, "Precision"); pure
arithmetic, no numpy, so `polar-cost` can use it from the eval's own install.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: The largest standard deviation of values in [0, 1] (half of them 0, half 1).
WORST_CASE_SD = 0.5
#: The largest standard deviation of paired differences, values in [-1, 1].
WORST_CASE_PAIRED_SD = 1.0


def half_width(n: int, sd: float = WORST_CASE_SD) -> float:
    """The 95% normal-approximation interval's half-width of a mean of `n` samples."""
    if n < 1:
        raise ValueError(f"a mean needs at least one sample, not {n}")
    if sd < 0 or not math.isfinite(sd):
        raise ValueError(f"a standard deviation is finite and >= 0, not {sd}")
    return Z95 * sd / math.sqrt(n)


def samples_for_half_width(target: float, sd: float = WORST_CASE_SD) -> int:
    """The fewest samples whose mean's 95% half-width is at most `target` (0-1 scale)."""
    if not 0 < target <= 1:
        raise ValueError(f"a half-width is in (0, 1] on the 0-1 scale, not {target}")
    return max(math.ceil((Z95 * sd / target) ** 2 - 1e-9), 1)


def stratified_size(samples: int, cells: int, available: int | None = None) -> int:
    """The smallest stratified subset with at least `samples` samples: whole rounds of one
    sample per cell, capped at what the selection holds (`available`)."""
    if cells < 1:
        raise ValueError(f"a selection has at least one cell, not {cells}")
    size = max(1, math.ceil(samples / cells)) * cells
    return size if available is None else min(size, available)


def standard_deviation(values: Iterable[float]) -> float:
    """The sample standard deviation (n - 1) of the finite values; 0 for fewer than two."""
    finite = [v for v in values if math.isfinite(v)]
    return statistics.stdev(finite) if len(finite) >= 2 else 0.0
