"""The committed bundled dataset is what the generator builds from the card's seed."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from polar_inspect.axes import DOMAINS
from polar_inspect.generate import GENERATOR_VERSION, build_dataset
from polar_inspect.generate.build import build_cell
from polar_inspect.generate.io import record_line, sha256
from polar_inspect.generate.symbolic import grid

DATASETS = Path(__file__).resolve().parents[2] / "datasets"
BUNDLE = DATASETS / "polar_bundled.json.gz"
CARD = DATASETS / "README.md"


@pytest.fixture(scope="module")
def bundle_json() -> bytes:
    return gzip.decompress(BUNDLE.read_bytes())


def _card_value(label: str) -> str:
    match = re.search(rf"^\| {re.escape(label)} \| (.+?) \|$", CARD.read_text("utf-8"), re.M)
    assert match, f"datasets/README.md has no '{label}' row"
    return match.group(1).replace("`", "").strip()


def test_card_digests_match_the_committed_files(bundle_json: bytes) -> None:
    card = CARD.read_text(encoding="utf-8")
    assert sha256(bundle_json) in card
    assert sha256(BUNDLE.read_bytes()) in card
    assert _card_value("generator").endswith(GENERATOR_VERSION)


@pytest.mark.slow
def test_one_domain_rebuilt_from_the_cards_seed_is_byte_identical(bundle_json: bytes) -> None:
    seed = int(_card_value("seed"))
    records, _ = build_dataset(seed, "insurance", repetitions=5)
    lines = bundle_json.decode("utf-8").split("\n")[1:-2]
    bundled = [line.rstrip(",") for line in lines if line.startswith('{"sample_id":"insurance_')]
    assert len(bundled) == len(records) == 750
    assert [record_line(r) for r in records] == bundled
    assert json.loads(bundled[0])["generation_meta"]["seed"] == seed


def test_cells_of_every_domain_rebuild_byte_identical(bundle_json: bytes) -> None:
    """Three cells per domain (first, middle, last of its grid), built alone from the card's
    seed, give the bundled lines: every domain's knowledge file still yields the same bytes."""
    seed = int(_card_value("seed"))
    lines = {
        json.loads(line.rstrip(","))["sample_id"]: line.rstrip(",")
        for line in bundle_json.decode("utf-8").split("\n")[1:-2]
    }
    for domain in DOMAINS:
        cells = grid([domain], 5)
        for cell in (cells[0], cells[len(cells) // 2], cells[-1]):
            record = build_cell(cell, seed).record
            assert record is not None, cell.sample_id
            assert record_line(record) == lines[cell.sample_id], cell.sample_id


def test_ci_reads_the_json_sha256_from_the_card_as_it_is_written(bundle_json: bytes) -> None:
    """.ci/run greps the card's `sha256 of the JSON (uncompressed) | `...`` row."""
    rows = re.findall(
        r"sha256 of the JSON \(uncompressed\) \| `([0-9a-f]{64})`", CARD.read_text("utf-8")
    )
    assert rows == [sha256(bundle_json)]
