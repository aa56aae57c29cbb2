"""The `privacy_mini` subset: one record per domain x policy x attack cell (250 in full).

The pick is deterministic and independent of the input order: in every cell the record with the
lowest `sample_id` is kept. Cells of the benchmark's grid that hold no record are reported with
a `MiniCoverageWarning` naming them, never skipped silently.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES
from polar_inspect.data.records import PolarRecord

Cell = tuple[str, str, str]


class MiniCoverageWarning(UserWarning):
    """Some domain x policy x attack cells have no record, so the subset is smaller."""


def expected_cells() -> list[Cell]:
    """Every (domain, policy, attack) cell of the benchmark, in grid order."""
    return [(d, p, s) for d in DOMAINS for p in POLICY_TYPES for s in ATTACK_TYPES]


def _order(cell: Cell) -> tuple[int, str, str, str]:
    domain, policy, attack = cell
    rank = DOMAINS.index(domain) if domain in DOMAINS else len(DOMAINS)
    return (rank, domain, policy, attack)


def missing_cells(records: Sequence[PolarRecord]) -> list[Cell]:
    """The benchmark's cells for which `records` hold no record."""
    present = {(r.domain, r.policy, r.attack) for r in records}
    return [cell for cell in expected_cells() if cell not in present]


def select_mini(records: Sequence[PolarRecord]) -> list[PolarRecord]:
    """One record per domain x policy x attack cell: the lowest `sample_id` of each cell.

    Returns the picks in grid order (domains as in `axes.DOMAINS`, then P1..P5, S1..S5;
    domains outside the benchmark's ten come last). Warns with `MiniCoverageWarning`, naming
    the empty cells, when some of the 250 cells have no record.
    """
    best: dict[Cell, PolarRecord] = {}
    for record in records:
        cell = (record.domain, record.policy, record.attack)
        kept = best.get(cell)
        if kept is None or record.sample_id < kept.sample_id:
            best[cell] = record
    missing = missing_cells(records)
    if missing:
        shown = ", ".join(f"{d}/{p}/{s}" for d, p, s in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        warnings.warn(
            f"privacy_mini: {len(missing)} of {len(expected_cells())} domain/policy/attack "
            f"cells have no record ({shown}{more}); the subset has {len(best)} samples.",
            MiniCoverageWarning,
            stacklevel=2,
        )
    return [best[cell] for cell in sorted(best, key=_order)]
