"""Field names of target values, from `hidden_target`: present, absent, malformed."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.data import load_records, records_to_dataset
from polar_inspect.data.value_fields import field_coverage
from polar_inspect.tasks import privacy
from tests.data.conftest import make_record, write_json


def _fields_of(path: Path) -> list[dict[str, str]]:
    """The `value_fields` of each sample built from the file, through the loader."""
    dataset = records_to_dataset(load_records(path), "test", str(path))
    return [(sample.metadata or {})["value_fields"] for sample in dataset]


def test_values_are_named_after_their_hidden_target_fields(tmp_path: Path) -> None:
    record = make_record(
        1,
        **{
            "scoring_targets.allowed_values": ["cough", "3 weeks", "rest", "fluids", "12"],
            "scoring_targets.do_not_disclose_values": ["Lena Frei", "1984-03-12", "Migros"],
            # a list is flattened and a number read with str(), as the targets are written;
            # a value held by no field (Migros) gets no name
            "hidden_target.gold_safe_values": {
                "symptom": "cough",
                "duration": "3 weeks",
                "advice": ["rest", "fluids"],
                "visits": 12,
                "unused_field": "not a target",
            },
        },
    )
    (fields,) = _fields_of(write_json(tmp_path / "r.json", [record]))
    assert fields == {
        "Lena Frei": "name",
        "1984-03-12": "exact_dob",
        "cough": "symptom",
        "3 weeks": "duration",
        "rest": "advice",
        "fluids": "advice",
        "12": "visits",
    }


def test_a_protected_value_keeps_its_sensitive_field(tmp_path: Path) -> None:
    # The safe map names it too, but it is protected: the sensitive field names it.
    record = make_record(
        1, **{"hidden_target.gold_safe_values": {"contact": "Lena Frei", "symptom": "cough"}}
    )
    (fields,) = _fields_of(write_json(tmp_path / "r.json", [record]))
    assert fields["Lena Frei"] == "name"


@pytest.mark.parametrize(
    "change",
    [{"hidden_target": ...}, {"hidden_target.gold_sensitive_values": ...}, {"hidden_target": None}],
)
def test_records_without_hidden_target_have_no_field_names(
    change: dict[str, Any], tmp_path: Path
) -> None:
    path = write_json(tmp_path / "r.json", [make_record(1, **change)])
    (fields,) = _fields_of(path)
    protected = {"Lena Frei", "1984-03-12"}
    assert not protected & set(fields)
    coverage = field_coverage(load_records(path))
    assert (coverage.records, coverage.malformed) == (1, 0)


MALFORMED = [
    ({"hidden_target": "name: Lena Frei"}, "hidden_target is a string, expected an object"),
    ({"hidden_target": [1, 2]}, "hidden_target is an array, expected an object"),
    (
        {"hidden_target.gold_sensitive_values": ["Lena Frei"]},
        "hidden_target.gold_sensitive_values is an array, expected an object",
    ),
]


def test_a_boolean_gold_entry_is_read_as_its_text_and_keeps_the_other_fields(
    tmp_path: Path,
) -> None:
    change = {"hidden_target.gold_safe_values": {"symptom": True}}
    path = write_json(tmp_path / "r.json", [make_record(1, **change)])
    (fields,) = _fields_of(path)
    assert fields["Lena Frei"] == "name"  # the record keeps its field names
    coverage = field_coverage(load_records(path))
    assert (coverage.with_fields, coverage.malformed) == (1, 0)


@pytest.mark.parametrize(("change", "reason"), MALFORMED)
def test_a_malformed_hidden_target_is_read_as_absent_and_counted(
    change: dict[str, Any], reason: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    records = [make_record(1, **change), make_record(2), make_record(3, **change)]
    path = write_json(tmp_path / "r.json", records)
    first, good, third = _fields_of(path)  # the file loads; nothing fails
    assert first == third == {}
    assert good["Lena Frei"] == "name"
    with caplog.at_level(logging.WARNING):
        task = privacy(data=str(path))
    coverage = task.metadata["value_fields"] if task.metadata else {}
    assert coverage["records"] == 3 and coverage["with_fields"] == 1
    assert coverage["malformed"] == 2
    assert coverage["malformed_examples"][0].startswith("medical_000001: ")
    assert reason in coverage["malformed_examples"][0]
    warning = caplog.text
    assert str(path) in warning and "2 of 3 record(s) have a malformed hidden_target" in warning
    assert "medical_000003" in warning
