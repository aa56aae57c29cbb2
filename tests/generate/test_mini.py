"""`select_mini`: one record per domain x policy x attack cell, lowest sample_id, gaps reported."""

from __future__ import annotations

import random

import pytest

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES
from polar_inspect.data import PolarRecord
from polar_inspect.data.mini import expected_cells, select_mini
from tests.conftest import make_record


def _record(domain: str, index: int, policy: str, attack: str) -> PolarRecord:
    return PolarRecord.model_validate(
        make_record(index, domain=domain, policy=policy, attack=attack)
    )


def _grid(repetitions: int) -> list[PolarRecord]:
    records = []
    for domain in DOMAINS:
        index = 0
        for policy in POLICY_TYPES:
            for attack in ATTACK_TYPES:
                for _ in range(repetitions):
                    records.append(_record(domain, index, policy, attack))
                    index += 1
    return records


def test_one_record_per_cell_lowest_id_in_grid_order() -> None:
    records = _grid(3)
    shuffled = list(records)
    random.Random(4).shuffle(shuffled)
    picked = select_mini(shuffled)
    assert len(picked) == 250
    assert [(r.domain, r.policy, r.attack) for r in picked] == expected_cells()
    for record in picked:
        same_cell = [
            r
            for r in records
            if (r.domain, r.policy, r.attack) == (record.domain, record.policy, record.attack)
        ]
        assert record.sample_id == min(r.sample_id for r in same_cell)
    assert [r.sample_id for r in select_mini(records)] == [r.sample_id for r in picked]


def test_empty_cells_are_reported_not_skipped_silently(caplog: pytest.LogCaptureFixture) -> None:
    records = [r for r in _grid(1) if not (r.domain == "legal" and r.policy == "P2")]
    picked = select_mini(records)
    assert len(picked) == 245
    (line,) = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert "5 of the 250 policy/attack cells of the data's 10 domain(s)" in line
    assert "legal/P2/S1" in line and "in legal)" in line and "245 samples" in line
    assert "\n" not in line


def test_on_generated_records(subset_records: list[dict], caplog: pytest.LogCaptureFixture) -> None:
    """A two-domain set of one's own: its 50 cells are all there, so nothing is reported
    about the eight domains it never had (it listed 200 "missing" cells)."""
    records = [PolarRecord.model_validate(r) for r in subset_records]
    picked = select_mini(records)
    assert not [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(picked) == 50
    assert {r.domain for r in picked} == {"medical", "finance"}
    medical_first = next(r for r in picked if r.domain == "medical")
    assert medical_first.sample_id == "medical_000000"
