"""Grid shape, sample ids, and byte-identical output for the same seed."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from polar_inspect.axes import DOMAINS
from polar_inspect.generate import DEFAULT_SEED, build_dataset
from polar_inspect.generate.io import canonical_json, sha256
from polar_inspect.generate.symbolic import grid


def test_full_grid_has_7875_cells_with_the_papers_form_counts() -> None:
    cells = grid(DOMAINS, 5)
    per_domain = Counter(c.domain for c in cells)
    assert len(cells) == 7875
    assert per_domain["medical"] == 875
    assert per_domain["recruitment"] == 1000
    assert all(per_domain[d] == 750 for d in DOMAINS if d not in ("medical", "recruitment"))
    assert len({c.sample_id for c in cells}) == len(cells)
    forms = {d: len({c.form for c in cells if c.domain == d}) for d in DOMAINS}
    assert forms["medical"] == 7 and forms["recruitment"] == 8
    cell_sizes = Counter((c.domain, c.policy, c.attack, c.form) for c in cells)
    assert set(cell_sizes.values()) == {5}


def test_sample_ids_of_a_smaller_build_are_those_of_the_full_grid() -> None:
    full = {
        (c.domain, c.policy, c.attack, c.form, c.repetition): c.sample_id for c in grid(DOMAINS, 5)
    }
    for cell in grid(["travel"], 2):
        assert (
            full[(cell.domain, cell.policy, cell.attack, cell.form, cell.repetition)]
            == cell.sample_id
        )
    assert grid(["medical"], 1)[0].sample_id == "medical_000000"


def test_subset_counts_are_balanced(subset_records: list[dict]) -> None:
    assert len(subset_records) == 175 + 150
    meta = [r["metadata"] for r in subset_records]
    assert Counter(m["domain"] for m in meta) == {"medical": 175, "finance": 150}
    assert set(Counter(m["privacy_level"] for m in meta).values()) == {65}
    assert set(Counter(m["attack_strength"] for m in meta).values()) == {65}


def test_same_seed_gives_identical_bytes_whatever_the_workers(subset_records: list[dict]) -> None:
    again, _ = build_dataset(DEFAULT_SEED, "medical,finance", repetitions=1, workers=2)
    assert canonical_json(again) == canonical_json(subset_records)


def test_a_record_does_not_depend_on_what_was_built_before_it(subset_records: list[dict]) -> None:
    alone, _ = build_dataset(DEFAULT_SEED, "finance", repetitions=1, workers=1)
    finance = [r for r in subset_records if r["domain"] == "finance"]
    assert canonical_json(alone) == canonical_json(finance)


def test_a_different_seed_gives_different_records(subset_records: list[dict]) -> None:
    other, _ = build_dataset(DEFAULT_SEED + 1, "medical,finance", repetitions=1, workers=1)
    assert sha256(canonical_json(other)) != sha256(canonical_json(subset_records))
    same_cell = zip(other, subset_records, strict=True)
    differing = sum(
        a["generated_texts"]["source_document_text"] != b["generated_texts"]["source_document_text"]
        for a, b in same_cell
    )
    assert differing == len(subset_records)


@pytest.mark.slow
def test_a_fresh_interpreter_builds_the_same_bytes(subset_records: list[dict]) -> None:
    code = (
        "from polar_inspect.generate import build_dataset, DEFAULT_SEED\n"
        "from polar_inspect.generate.io import canonical_json, sha256\n"
        "records, _ = build_dataset(DEFAULT_SEED, 'finance', repetitions=1, workers=1)\n"
        "print(sha256(canonical_json(records)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    finance = [r for r in subset_records if r["domain"] == "finance"]
    assert result.stdout.strip() == sha256(canonical_json(finance))


@pytest.mark.slow
def test_one_full_domain_builds_completely() -> None:
    records, report = build_dataset(DEFAULT_SEED, "legal", repetitions=5)
    assert len(records) == 750 and report.total.dropped == 0
    cells = Counter(
        (
            r["metadata"]["privacy_level"],
            r["metadata"]["attack_strength"],
            r["metadata"]["document_form"],
        )
        for r in records
    )
    assert len(cells) == 5 * 5 * 6 and set(cells.values()) == {5}
    documents = {r["generated_texts"]["source_document_text"] for r in records}
    assert len(documents) == 750
