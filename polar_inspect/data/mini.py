"""The `privacy_mini` subset: one record per domain x policy x attack cell (250 in full).

The pick is deterministic and independent of the input order: in every cell the record with the
lowest `sample_id` is kept. The grid is that of the domains the data holds (a set of two domains
of one's own gives 50 cells, not the benchmark's 250): cells of those domains with no record are
named in one warning line, never skipped silently.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES
from polar_inspect.data.records import PolarRecord

Cell = tuple[str, str, str]

logger = logging.getLogger(__name__)


def expected_cells() -> list[Cell]:
    """Every (domain, policy, attack) cell of the benchmark, in grid order."""
    return [(d, p, s) for d in DOMAINS for p in POLICY_TYPES for s in ATTACK_TYPES]


def _order(cell: Cell) -> tuple[int, str, str, str]:
    domain, policy, attack = cell
    rank = DOMAINS.index(domain) if domain in DOMAINS else len(DOMAINS)
    return (rank, domain, policy, attack)


def data_cells(records: Sequence[PolarRecord]) -> list[Cell]:
    """Every (domain, policy, attack) cell of the domains `records` hold, in grid order."""
    domains = sorted({r.domain for r in records}, key=lambda d: _order((d, "", "")))
    return [(d, p, s) for d in domains for p in POLICY_TYPES for s in ATTACK_TYPES]


def missing_cells(records: Sequence[PolarRecord]) -> list[Cell]:
    """The cells of the data's own domains for which `records` hold no record."""
    present = {(r.domain, r.policy, r.attack) for r in records}
    return [cell for cell in data_cells(records) if cell not in present]


def select_mini(records: Sequence[PolarRecord]) -> list[PolarRecord]:
    """One record per domain x policy x attack cell: the lowest `sample_id` of each cell.

    Returns the picks in grid order (domains as in `axes.DOMAINS`, then P1..P5, S1..S5;
    domains outside the benchmark's ten come last). Logs one warning line naming the empty
    cells when some cell of the data's domains has no record.
    """
    best: dict[Cell, PolarRecord] = {}
    for record in records:
        cell = (record.domain, record.policy, record.attack)
        kept = best.get(cell)
        if kept is None or record.sample_id < kept.sample_id:
            best[cell] = record
    missing = missing_cells(records)
    if missing:
        domains = sorted({d for d, _, _ in missing}, key=lambda d: _order((d, "", "")))
        shown = ", ".join(f"{d}/{p}/{s}" for d, p, s in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        logger.warning(
            "privacy_mini: %d of the %d policy/attack cells of the data's %d domain(s) have no "
            "record (%s%s; in %s); the subset has %d samples",
            len(missing),
            len(data_cells(records)),
            len({r.domain for r in records}),
            shown,
            more,
            ", ".join(domains),
            len(best),
        )
    return [best[cell] for cell in sorted(best, key=_order)]
