"""The `privacy_mini` subset: the lowest `sample_id` of each domain x policy x attack cell of the
data's own domains; empty cells named in one warning (docs/data.md)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES
from polar_inspect.data.records import PolarRecord

Cell = tuple[str, str, str]

logger = logging.getLogger(__name__)


def expected_cells(domains: Sequence[str] = DOMAINS) -> list[Cell]:
    """Every (domain, policy, attack) cell of `domains` (the benchmark's), in grid order."""
    return [(d, p, s) for d in domains for p in POLICY_TYPES for s in ATTACK_TYPES]


def select_mini(records: Sequence[PolarRecord]) -> list[PolarRecord]:
    """The lowest `sample_id` of each cell, in grid order (other domains last)."""
    best: dict[Cell, PolarRecord] = {}
    for record in sorted(records, key=lambda r: r.sample_id):  # stable: the first of equals
        best.setdefault((record.domain, record.policy, record.attack), record)
    rank = {domain: index for index, domain in enumerate(DOMAINS)}
    domains = sorted({r.domain for r in records}, key=lambda d: (rank.get(d, len(DOMAINS)), d))
    cells = expected_cells(domains)
    if missing := [cell for cell in cells if cell not in best]:
        _warn_empty(missing, len(cells), len(domains), len(best))
    return [best[cell] for cell in cells if cell in best]


def _warn_empty(missing: list[Cell], cells: int, domains: int, picked: int) -> None:
    shown = ", ".join(f"{d}/{p}/{s}" for d, p, s in missing[:10])
    more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
    logger.warning(
        "privacy_mini: %d of the %d policy/attack cells of the data's %d domain(s) have no "
        "record (%s%s; in %s); the subset has %d samples",
        len(missing),
        cells,
        domains,
        shown,
        more,
        ", ".join(dict.fromkeys(d for d, _, _ in missing)),
        picked,
    )
