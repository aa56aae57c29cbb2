"""The loader reads the release format as the authors' tools write it (issue 7 §2, issue 8).

Lenient where the eval does not read a field (any JSON type is kept), strict where it does;
numbers in target lists are read as Python's `str()`; list-valued `attacker_goal` is read; a
target value without a letter or digit, a wrapper object and strict-JSON failures are reported
with the record, field or parser position.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.axes import ATTACK_TYPES, POLICY_TYPES
from polar_inspect.data import RecordError, load_records
from polar_inspect.data.samples import record_to_sample
from tests.data.conftest import make_record, write_json, write_jsonl

WRITERS = {"json": write_json, "jsonl": write_jsonl}

# Fields the eval never reads, given values of every odd JSON type.
ODD_UNUSED_FIELDS: dict[str, Any] = {
    "hidden_target": "withheld: name, exact_dob",
    "prompts": ["document prompt", "policy prompt"],
    "generation_meta": 3,
    "source_document_inputs": None,
    "metadata.style": {"tone": "formal", "length": 2},
    "metadata.irrelevant_info_level": "high",
    "metadata.signal_to_noise_ratio": 0.25,
    "metadata.layout_complexity": [1, "nested", {"x": None}],
    "attack_setup.attack_type": 5,
    "attack_setup.attack_spec.description": {"text": "narrow it down"},
    "release_flag": True,
    "annotations": [{"by": "x"}, None, 2.5],
}


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


def release_record(index: int) -> dict[str, Any]:
    """A record as the authors' final generator writes it: integer levels, list goal, numbers."""
    return make_record(
        index,
        **{
            "metadata.privacy_level": 3,
            "metadata.attack_strength": 5,
            "metadata.privacy_type": "conditional_constraints",
            "metadata.attack_type": "multi_turn_progressive",
            "attack_setup.attack_spec.attacker_goal": ["name", "exact_dob"],
            "attack_setup.attack_spec.turns": 4,
            "scoring_targets.allowed_values": ["cough", 3, 637.3],
            "scoring_targets.do_not_disclose_values": ["Lena Frei", 19840312, 1e16, [41, "x7"]],
        },
        **ODD_UNUSED_FIELDS,
    )


def test_a_release_format_file_loads(write: Callable[[list[Any]], Path]) -> None:
    first, second = load_records(write([release_record(1), make_record(2)]))
    assert (first.policy, first.attack, first.cell) == ("P3", "S5", "P3xS5")
    assert first.attacker_goal() == "name, exact_dob"
    assert first.turn_budget() == 4
    # Numbers are read as Python's str() would write them; a nested array is flattened.
    assert first.allowed_values() == ["cough", "3", "637.3"]
    assert first.protected_values() == ["Lena Frei", "19840312", "1e+16", "41", "x7"]
    assert first.metadata.style == {"tone": "formal", "length": 2}
    assert first.hidden_target == "withheld: name, exact_dob"
    assert first.model_extra == {"release_flag": True, "annotations": [{"by": "x"}, None, 2.5]}
    assert second.attacker_goal() == "learn the patient's name"  # the older string form


def test_a_release_format_record_becomes_a_sample(tmp_path: Path) -> None:
    (loaded,) = load_records(write_json(tmp_path / "r.json", [release_record(1)]))
    sample = record_to_sample(loaded)
    assert sample.metadata is not None
    assert sample.metadata["attacker_goal"] == "name, exact_dob"
    assert sample.metadata["protected_values"][1] == "19840312"
    json.dumps(sample.metadata)  # JSON-serialisable


@pytest.mark.parametrize(
    ("level", "strength", "cell"),
    [("P3", "S5", "P3xS5"), (3, 5, "P3xS5"), ("3", "5", "P3xS5"), (1, "S2", "P1xS2")],
)
def test_both_level_encodings_load(
    write: Callable[[list[Any]], Path], level: Any, strength: Any, cell: str
) -> None:
    changes = {
        "metadata.privacy_level": level,
        "metadata.attack_strength": strength,
        "metadata.privacy_type": POLICY_TYPES[cell[:2]],
        "metadata.attack_type": ATTACK_TYPES[cell[3:]],
    }
    (loaded,) = load_records(write([make_record(1, **changes)]))
    assert loaded.cell == cell


# (changes to a valid record, field path expected in the report, words of the complaint)
BAD_VALUES: dict[str, tuple[dict[str, Any], str, str]] = {
    "ellipsis": ({"scoring_targets.allowed_values": ["cough", "..."]}, "[1]", "no letter or digit"),
    "dash": ({"scoring_targets.do_not_disclose_values": ["-"]}, "[0]", "no letter or digit"),
    "control character": (
        {"scoring_targets.do_not_disclose_values": ["Lena", "\u200b"]},
        "[1]",
        "no letter or digit",
    ),
    "bell": ({"scoring_targets.allowed_values": ["\x07"]}, "[0]", "no letter or digit"),
    "blank": ({"scoring_targets.allowed_values": [" \t"]}, "[0]", "must not be empty"),
    "boolean": ({"scoring_targets.allowed_values": [True]}, "[0]", "got a boolean"),
    "null": ({"scoring_targets.do_not_disclose_values": [None]}, "[0]", "got null"),
    "object": ({"scoring_targets.allowed_values": [{"a": "b"}]}, "[0]", "got an object"),
    "item of a list literal": (
        {"scoring_targets.allowed_values": ['["cough", "--"]']},
        "",
        "item '--' of the list at [0] holds no letter or digit",
    ),
    "NaN in a list literal": (
        {"scoring_targets.do_not_disclose_values": ["[NaN]", "Lena"]},
        "",
        "item nan of the list at [0] must be text or a finite number",
    ),
    "overflow in a list literal": (
        {"scoring_targets.do_not_disclose_values": ["[1e400]"]},
        "",
        "item inf of the list at [0]",
    ),
    "null in a list literal": (
        {"scoring_targets.allowed_values": ["['cough', None]"]},
        "",
        "item None of the list at [0] must be text or a number, got null",
    ),
    "boolean in a list literal": (
        {"scoring_targets.allowed_values": ["[true]"]},
        "",
        "got a boolean",
    ),
    "list in a list literal": ({"scoring_targets.allowed_values": ["[['a']]"]}, "", "got an array"),
    "item of a nested array": (
        {"scoring_targets.do_not_disclose_values": [["Lena", "()"]]},
        "",
        "item '()' of the list at [0]",
    ),
    "attacker goal object": (
        {"attack_setup.attack_spec.attacker_goal": {"field": "name"}},
        "attack_setup.attack_spec.attacker_goal",
        "valid string",
    ),
    "attacker goal list of objects": (
        {"attack_setup.attack_spec.attacker_goal": [{"field": "name"}]},
        "attack_setup.attack_spec.attacker_goal",
        "must hold field names",
    ),
}


@pytest.mark.parametrize("changes, field, complaint", BAD_VALUES.values(), ids=BAD_VALUES.keys())
def test_an_unusable_value_is_a_data_error_naming_record_and_field(
    write: Callable[[list[Any]], Path], changes: dict[str, Any], field: str, complaint: str
) -> None:
    (path_key,) = changes
    expected_field = field if field.startswith("attack_setup") else path_key + field
    error = _error(write([make_record(1), make_record(2, **changes)]))
    (problem,) = error.problems
    assert problem.record.startswith("record 'medical_000002' (")
    assert problem.field == expected_field
    assert complaint in problem.message


@pytest.mark.parametrize("content", ['{"records": [%s]}', '{\n  "records": [\n%s\n]\n}'])
def test_a_wrapper_object_is_named_as_such(tmp_path: Path, content: str) -> None:
    path = tmp_path / "wrapped.json"
    path.write_text(content % json.dumps(make_record(1)))
    (problem,) = _error(path).problems
    assert problem.record == ""
    assert "the file is an object, expected an array (found key 'records')" in problem.message
    assert "1 item(s) under 'records'" in problem.message


def test_a_wrapper_with_several_keys_lists_them(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.json"
    path.write_text(json.dumps({"version": 2, "data": [make_record(1)]}))
    message = str(_error(path))
    assert "found keys 'version', 'data'" in message and "under 'data'" in message


def test_a_lone_surrogate_is_reported_with_its_position(tmp_path: Path) -> None:
    text = json.dumps([make_record(1)]).replace("Lena Frei", "Lena \\ud800Frei", 1)
    path = tmp_path / "surrogate.json"
    path.write_text(text)
    (problem,) = _error(path).problems
    assert "surrogate" in problem.message and "line 1 column" in problem.message
    column = int(re.search(r"line 1 column (\d+)", problem.message).group(1))  # type: ignore[union-attr]
    assert abs(column - text.index("\\ud800")) < 10


def test_a_lone_surrogate_in_jsonl_names_the_line_and_column(tmp_path: Path) -> None:
    lines = [json.dumps(make_record(i)) for i in range(3)]
    lines[1] = lines[1].replace("Lena Frei", "Lena \\udc00Frei", 1)
    path = tmp_path / "surrogate.jsonl"
    path.write_text("\n".join(lines) + "\n")
    (problem,) = _error(path).problems
    assert problem.record == "record at line 2"
    assert "surrogate" in problem.message and "at column" in problem.message


@pytest.mark.parametrize(
    ("name", "content", "position"),
    [
        ("syntax.json", b'[{"sample_id": "a",\n "x": }]', "line 2, column 7"),
        ("latin1.json", b'["caf\xe9"]', "offset 5"),
        ("syntax.jsonl", b'{"sample_id": "a", "x": }\n', "char 24"),
        ("latin1.jsonl", b'{"a": "caf\xe9"}\n', "position 10"),
    ],
)
def test_parse_errors_keep_the_position(tmp_path: Path, name: str, content: bytes, position: str):
    path = tmp_path / name
    path.write_bytes(content)
    assert position in str(_error(path))
