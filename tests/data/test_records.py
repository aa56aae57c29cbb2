"""load_records: valid files in both layouts, and one clear report for every kind of bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.data import RecordError, load_records
from tests.data.conftest import make_record, write_json, write_jsonl

Writer = Callable[[Path, list[Any]], Path]
WRITERS = {"json": write_json, "jsonl": write_jsonl}


@pytest.fixture(params=sorted(WRITERS))
def write(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[list[Any]], Path]:
    """Write records in one layout (JSON array or JSONL) to a temp file."""
    writer = WRITERS[request.param]
    return lambda records: writer(tmp_path / f"records.{request.param}", records)


def _error(path: Path) -> RecordError:
    with pytest.raises(RecordError) as caught:
        load_records(path)
    assert str(path) in str(caught.value)
    return caught.value


def test_both_layouts_give_the_same_records(tmp_path: Path) -> None:
    records = [make_record(i, domain) for i, domain in enumerate(["medical", "travel", "legal"])]
    from_array = load_records(write_json(tmp_path / "a.json", records))
    from_lines = load_records(write_jsonl(tmp_path / "a.jsonl", records))
    assert from_array == from_lines
    assert [r.sample_id for r in from_array] == ["medical_000000", "travel_000001", "legal_000002"]
    assert from_array[0].protected_values() == ["Lena Frei", "1984-03-12"]


def test_records_with_and_without_attack_setup_load(write: Callable[[list[Any]], Path]) -> None:
    with_setup, without = load_records(write([make_record(1), make_record(2, attack_setup=...)]))
    assert with_setup.turn_budget() == 3
    assert with_setup.attacker_goal() == "learn the patient's name"
    assert without.attack_setup is None
    assert without.turn_budget() == 6


def test_unknown_fields_are_kept(write: Callable[[list[Any]], Path]) -> None:
    raw = make_record(1, release_note="v2", **{"metadata.annotator": "ab", "hidden_target.x": [1]})
    (loaded,) = load_records(write([raw]))
    assert loaded.model_extra == {"release_note": "v2"}
    assert loaded.metadata.model_extra == {"annotator": "ab"}
    assert loaded.hidden_target is not None and loaded.hidden_target.model_extra == {"x": [1]}
    assert loaded.model_dump(mode="json")["generation_meta"] == raw["generation_meta"]


@pytest.mark.parametrize(
    "text, turns",
    [
        ("Hello, which clinic treats coughs?", ["Hello, which clinic treats coughs?"]),
        ("[Urgent] who is the patient?", ["[Urgent] who is the patient?"]),
        ('  ["first", "second"]  ', ["first", "second"]),
        ("", []),  # S5 only: its live attacker writes every turn
    ],
)
def test_plain_or_array_attacker_text_loads(
    write: Callable[[list[Any]], Path], text: str, turns: list[str]
) -> None:
    live = {"metadata.attack_strength": "S5", "metadata.attack_type": "multi_turn_progressive"}
    (loaded,) = load_records(
        write([make_record(1, **{"generated_texts.attacker_prompt_text": text}, **live)])
    )
    assert loaded.planned_turns() == turns


# (changes to a valid record, field path expected in the report, words of the complaint)
BAD_RECORDS: dict[str, tuple[dict[str, Any], str, str]] = {
    "missing field": (
        {"scoring_targets.allowed_values": ...},
        "scoring_targets.allowed_values",
        "missing",
    ),
    "missing nested object": ({"generated_texts": ...}, "generated_texts", "missing"),
    "wrong type (str for list)": (
        {"scoring_targets.allowed_values": "cough"},
        "scoring_targets.allowed_values",
        "valid list (got a string)",
    ),
    "wrong type (number for text)": (
        {"generated_texts.source_document_text": 42},
        "generated_texts.source_document_text",
        "valid string (got a number)",
    ),
    "wrong type (object)": (
        {"metadata": ["P1"]},
        "metadata",
        "expected a JSON object, got an array",
    ),
    "empty target list": (
        {"scoring_targets.do_not_disclose_values": []},
        "scoring_targets.do_not_disclose_values",
        "must not be an empty list",
    ),
    "empty target value": (
        {"scoring_targets.allowed_values": ["cough", ""]},
        "scoring_targets.allowed_values[1]",
        "must not be empty",
    ),
    "blank target value": (
        {"scoring_targets.do_not_disclose_values": ["  "]},
        "scoring_targets.do_not_disclose_values[0]",
        "must not be empty",
    ),
    "target list literal with nothing in it": (
        {"scoring_targets.allowed_values": ["[]"]},
        "scoring_targets.allowed_values",
        "no usable value",
    ),
    "attacker array of non-strings": (
        {"generated_texts.attacker_prompt_text": '["hi", {"turn": 2}]'},
        "generated_texts.attacker_prompt_text",
        "not all items are strings",
    ),
    "attacker array that does not parse": (
        {"generated_texts.attacker_prompt_text": '["hi", "there"'},
        "generated_texts.attacker_prompt_text",
        "not valid JSON",
    ),
    "unknown privacy_level": (
        {"metadata.privacy_level": "P7"},
        "metadata.privacy_level",
        "unknown privacy level 'P7'",
    ),
    "unknown attack_strength": (
        {"metadata.attack_strength": "S9"},
        "metadata.attack_strength",
        "unknown attack strength 'S9'",
    ),
    "domain mismatch": (
        {"metadata.domain": "finance"},
        "metadata.domain",
        "'finance' does not match the record's domain 'medical'",
    ),
    "blank document": (
        {"generated_texts.source_document_text": " \n"},
        "generated_texts.source_document_text",
        "must not be empty",
    ),
}


@pytest.mark.parametrize("changes, field, complaint", BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_a_bad_record_is_reported_by_id_and_field(
    write: Callable[[list[Any]], Path], changes: dict[str, Any], field: str, complaint: str
) -> None:
    path = write([make_record(1), make_record(2, **changes), make_record(3)])
    error = _error(path)
    (problem,) = error.problems
    assert problem.record.startswith("record 'medical_000002' (")
    assert problem.field == field
    assert complaint in problem.message
    assert "record 'medical_000002' " in str(error) and f": {field}: " in str(error)


def test_a_record_without_usable_id_is_named_by_position(tmp_path: Path) -> None:
    records = [make_record(1), make_record(2, sample_id=...), make_record(3, sample_id=7)]
    array_problems = _error(write_json(tmp_path / "a.json", records)).problems
    assert [(p.record, p.field) for p in array_problems] == [
        ("record at index 1", "sample_id"),
        ("record at index 2", "sample_id"),
    ]
    lines_problems = _error(write_jsonl(tmp_path / "a.jsonl", records)).problems
    assert [p.record for p in lines_problems] == ["record at line 2", "record at line 3"]


def test_duplicate_sample_id_names_both_records(write: Callable[[list[Any]], Path]) -> None:
    error = _error(write([make_record(1), make_record(2), make_record(1)]))
    (problem,) = error.problems
    assert problem.field == "sample_id"
    assert problem.record.startswith("record 'medical_000001'")
    assert "duplicate" in problem.message
    assert ("index 0" in problem.message) or ("line 1" in problem.message)


def test_all_problems_are_collected_and_the_listing_is_capped(
    write: Callable[[list[Any]], Path],
) -> None:
    bad = [make_record(i, **{"metadata.privacy_level": "P0"}) for i in range(23)]
    bad.append(make_record(1))  # a duplicate id, reported alongside the schema problems
    error = _error(write([make_record(100), *bad]))
    assert len(error.problems) == 24
    message = str(error)
    assert "24 problem(s) in 24 of 25 record(s)" in message
    assert message.count("\n  - ") == 20
    assert message.rstrip().endswith("... and 4 more problem(s)")


def test_several_problems_of_one_record_are_all_listed(write: Callable[[list[Any]], Path]) -> None:
    changes = {"scoring_targets.allowed_values": [], "metadata.attack_strength": "S0"}
    fields = {p.field for p in _error(write([make_record(1, **changes)])).problems}
    assert fields == {"scoring_targets.allowed_values", "metadata.attack_strength"}


@pytest.mark.parametrize(
    "name, content, complaint",
    [
        ("notes.json", "patient list\nLena Frei", "not JSON"),
        ("empty.json", "  \n", "the file is empty"),
        ("none.json", "[]", "holds no records"),
        ("scalar.json", '"medical_000001"', "top-level JSON value is a string"),
        ("truncated.json", '[{"sample_id": "a"}', "not JSON"),
        ("latin1.json", b'["caf\xe9"]', "not UTF-8"),
        ("array-lines.jsonl", '["a"]\n["b"]\n', "not JSON"),
    ],
)
def test_a_file_that_is_not_records_is_reported(
    tmp_path: Path, name: str, content: str | bytes, complaint: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    (problem,) = _error(path).problems
    assert complaint in problem.message
    assert problem.record == ""  # about the file as a whole


def test_a_single_pretty_printed_object_is_not_taken_for_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(make_record(1), indent=2))
    assert "holds a single JSON object" in str(_error(path))


def test_jsonl_lines_that_are_not_one_object_each_are_reported(tmp_path: Path) -> None:
    first, second, third = (json.dumps(make_record(i)) for i in range(3))
    path = tmp_path / "bad.jsonl"
    path.write_text(f"{first}\n\n{second}, {third}\nnot json\n")
    error = _error(path)
    assert [p.record for p in error.problems] == ["record at line 3", "record at line 4"]
    assert all("not valid JSON" in p.message for p in error.problems)


def test_a_missing_file_is_a_record_error(tmp_path: Path) -> None:
    assert "cannot read" in str(_error(tmp_path / "absent.json"))


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([make_record(1)]).encode())
    assert [r.sample_id for r in load_records(path)] == ["medical_000001"]


def test_gzip_compressed_files_load_like_plain_ones(tmp_path: Path) -> None:
    import gzip

    plain = write_json(tmp_path / "records.json", [make_record(0), make_record(1, "travel")])
    packed = tmp_path / "records.json.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
    assert load_records(packed) == load_records(plain)
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(plain.read_bytes())[:40])
    with pytest.raises(RecordError, match="broken.json.gz: cannot read it"):
        load_records(broken)
