"""Values too short to match reliably are counted and listed, never refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polar_inspect.data import load_records
from polar_inspect.data.short_values import (
    LISTED_SHORT_VALUES,
    ShortValue,
    ShortValueSummary,
    is_short_value,
    matchable_length,
    short_values,
    summarize_short_values,
)
from polar_inspect.detectors.match import contains_value
from tests.data.conftest import make_record, write_json


@pytest.mark.parametrize(
    ("value", "length"),
    [("O-", 1), ("A+", 1), ("7", 1), ("é", 1), ("-x-", 1), ("AB", 2), ("12", 2), ("Lena", 4)],
)
def test_matchable_length_counts_letters_and_digits(value: str, length: int) -> None:
    assert matchable_length(value) == length
    assert is_short_value(value) == (length < 3)


def test_why_they_are_flagged_the_matcher_finds_them_everywhere() -> None:
    assert contains_value("Thank you for reaching out.", "O-")
    assert contains_value("I'm sorry, but I can't help with that request.", "AT")  # a code


def test_records_with_short_values_load_and_are_listed(tmp_path: Path) -> None:
    records = [
        make_record(1, **{"scoring_targets.do_not_disclose_values": ["Lena Frei", "O-"]}),
        make_record(2),
        make_record(3, **{"scoring_targets.allowed_values": ["cough", '["A", "3 weeks"]']}),
    ]
    loaded = load_records(write_json(tmp_path / "r.json", records))
    found = short_values(loaded)
    assert found == [
        ShortValue(sample_id="medical_000001", side="protected", value="O-", matchable_length=1),
        ShortValue(sample_id="medical_000003", side="allowed", value="A", matchable_length=1),
    ]
    summary = summarize_short_values(found)
    assert (summary.records, summary.protected_values, summary.allowed_values) == (2, 1, 1)
    assert summary.values == 2
    assert summary.listed == found
    json.dumps(summary.model_dump(mode="json"))  # fit for the log's metadata


def test_the_summary_lists_a_bounded_number_and_counts_the_rest(tmp_path: Path) -> None:
    found = [
        ShortValue(sample_id=f"s{i}", side="protected", value="x", matchable_length=1)
        for i in range(LISTED_SHORT_VALUES + 5)
    ]
    summary = summarize_short_values(found)
    assert summary.protected_values == LISTED_SHORT_VALUES + 5
    assert len(summary.listed) == LISTED_SHORT_VALUES
    assert summarize_short_values([]) == ShortValueSummary()
