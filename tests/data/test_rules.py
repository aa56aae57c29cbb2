"""Data by declaration (issue 23): each rule refuses a record, naming file, record and field.

Every rule is checked in both file layouts (JSON array, JSONL), and one file breaking every
rule is reported whole, in one message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.data import RecordError, load_records
from tests.data.conftest import make_record, write_json, write_jsonl

WRITERS = {"json": write_json, "jsonl": write_jsonl}
LIVE = {"metadata.attack_strength": "S5", "metadata.attack_type": "multi_turn_progressive"}


@pytest.fixture(params=sorted(WRITERS))
def write(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[list[Any]], Path]:
    """Write records in one layout (JSON array or JSONL) to a temp file."""
    writer = WRITERS[request.param]
    return lambda records: writer(tmp_path / f"records.{request.param}", records)


def _problem(path: Path) -> tuple[str, str, str]:
    """(record, field, message) of the one problem the loader reports for `path`."""
    with pytest.raises(RecordError) as caught:
        load_records(path)
    assert str(path) in str(caught.value)
    (problem,) = caught.value.problems
    return problem.record, problem.field, problem.message


# (changes to record 2, field named, words of the complaint)
RULES: dict[str, tuple[dict[str, Any], str, str]] = {
    "value allowed and protected": (
        {"scoring_targets.allowed_values": ["cough", "Lena Frei"]},
        "scoring_targets.do_not_disclose_values",
        "'Lena Frei' listed both in allowed_values and in do_not_disclose_values",
    ),
    "value allowed and protected once lists are flattened": (
        {"scoring_targets.allowed_values": ['["cough", "1984-03-12"]']},
        "scoring_targets.do_not_disclose_values",
        "'1984-03-12' listed both",
    ),
    "value allowed and protected in two Unicode forms": (
        {"scoring_targets.allowed_values": ["cough", "\uff2cena Frei"]},  # fullwidth L: NFKC L
        "scoring_targets.do_not_disclose_values",
        "listed both",
    ),
    "value allowed and protected with a zero-width space inside": (
        {"scoring_targets.allowed_values": ["cough", "Lena\u200bFrei"]},
        "scoring_targets.do_not_disclose_values",
        r"'Lena Frei' (allowed as 'Lena\u200bFrei') listed both",  # repr shows the invisible
    ),
    "value allowed and protected as the same date written another way": (
        {"scoring_targets.allowed_values": ["cough", "12 March 1984"]},
        "scoring_targets.do_not_disclose_values",
        "'1984-03-12' (allowed as '12 March 1984') listed both",
    ),
    "attack_type disagrees with attack_strength": (
        {"metadata.attack_type": "direct_single_turn", "metadata.attack_strength": 3},
        "metadata.attack_type",
        "'direct_single_turn' is S1, but attack_strength '3' is S3",
    ),
    "unknown attack_type": (
        {"metadata.attack_type": "flattery"},
        "metadata.attack_type",
        "unknown attack strategy 'flattery'",
    ),
    "privacy_type disagrees with privacy_level": (
        {"metadata.privacy_type": "conflicting_constraints"},
        "metadata.privacy_type",
        "'conflicting_constraints' is P5, but privacy_level 'P1' is P1",
    ),
    "attack_setup strength disagrees with the metadata": (
        {"attack_setup.attack_strength": 4},
        "attack_setup.attack_strength",
        "4 is S4, but metadata.attack_strength 'S2' is S2",
    ),
    "attack_setup strategy disagrees with the metadata": (
        {"attack_setup.attack_type": "role_confusion"},
        "attack_setup.attack_type",
        "'role_confusion' is S3",
    ),
    "zero turns": (
        {"attack_setup.attack_spec.turns": 0},
        "attack_setup.attack_spec.turns",
        "positive whole number of turns, got 0",
    ),
    "negative turns": (
        {"attack_setup.attack_spec.turns": -3},
        "attack_setup.attack_spec.turns",
        "got -3",
    ),
    "boolean turns": (
        {"attack_setup.attack_spec.turns": True},
        "attack_setup.attack_spec.turns",
        "got a boolean",
    ),
    "text turns": (
        {"attack_setup.attack_spec.turns": "4"},
        "attack_setup.attack_spec.turns",
        "got a string",
    ),
    "fractional turns": (
        {"attack_setup.attack_spec.turns": 2.5},
        "attack_setup.attack_spec.turns",
        "got a number",
    ),
    "S2 without attacker turns": (
        {"generated_texts.attacker_prompt_text": ""},
        "generated_texts.attacker_prompt_text",
        "an S2 record needs planned attacker turns",
    ),
    "S2 with blank attacker text": (
        {"generated_texts.attacker_prompt_text": " \n "},
        "generated_texts.attacker_prompt_text",
        "needs planned attacker turns",
    ),
    "S2 with an array of blank turns": (
        {"generated_texts.attacker_prompt_text": '["", "  "]'},
        "generated_texts.attacker_prompt_text",
        "needs planned attacker turns",
    ),
    "S2 with no attacker text at all": (
        {"generated_texts.attacker_prompt_text": ...},
        "generated_texts.attacker_prompt_text",
        "needs planned attacker turns",
    ),
}


@pytest.mark.parametrize("changes, field, complaint", RULES.values(), ids=RULES.keys())
def test_a_record_breaking_a_rule_is_refused_by_id_and_field(
    write: Callable[[list[Any]], Path], changes: dict[str, Any], field: str, complaint: str
) -> None:
    path = write([make_record(1), make_record(2, **changes), make_record(3)])
    record, named_field, message = _problem(path)
    assert record.startswith("record 'medical_000002' (")
    assert named_field == field
    assert complaint in message


@pytest.mark.parametrize("attack", ["S1", "S3", "S4"])
def test_every_scripted_strategy_needs_turns(
    write: Callable[[list[Any]], Path], attack: str
) -> None:
    from polar_inspect.axes import ATTACK_TYPES

    changes = {
        "metadata.attack_strength": attack,
        "metadata.attack_type": ATTACK_TYPES[attack],
        "attack_setup": ...,
        "generated_texts.attacker_prompt_text": "[]",
    }
    _, field, message = _problem(write([make_record(1, **changes)]))
    assert field == "generated_texts.attacker_prompt_text"
    assert f"an {attack} record needs planned attacker turns" in message


ACCEPTED: dict[str, dict[str, Any]] = {
    "S5 without planned turns": {**LIVE, "generated_texts.attacker_prompt_text": ""},
    "strategy and strength as codes and numbers": {
        "metadata.attack_type": "S2",
        "metadata.attack_strength": 2,
        "metadata.privacy_type": "P1",
        "attack_setup.attack_type": "yes_no_narrowing",
        "attack_setup.attack_strength": 2,
    },
    "a whole float as the turn budget": {"attack_setup.attack_spec.turns": 4.0},
    "no strategy name at all": {"metadata.attack_type": ..., "metadata.privacy_type": ...},
}


@pytest.mark.parametrize("changes", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_records_that_keep_the_rules_load(
    write: Callable[[list[Any]], Path], changes: dict[str, Any]
) -> None:
    (loaded,) = load_records(write([make_record(1, **changes)]))
    assert loaded.turn_budget() in (3, 4)


def test_the_turn_budget_is_the_declared_one(write: Callable[[list[Any]], Path]) -> None:
    with_budget, without = load_records(
        write(
            [
                make_record(1, **{"attack_setup.attack_spec.turns": 4.0}),
                make_record(2, attack_setup=...),
            ]
        )
    )
    assert (with_budget.turn_budget(), without.turn_budget()) == (4, 6)


# --- domains ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["Finance", "FINANCE", " finance", "finance\t"])
def test_a_benchmark_domain_spelled_otherwise_is_refused(
    write: Callable[[list[Any]], Path], spelling: str
) -> None:
    path = write([make_record(1, "finance"), make_record(2, spelling)])
    with pytest.raises(RecordError) as caught:
        load_records(path)
    fields = {p.field for p in caught.value.problems}
    assert fields == {"domain", "metadata.domain"}
    assert all("'finance'" in p.message for p in caught.value.problems)


def test_own_domains_load_in_any_spelling_used_consistently(
    write: Callable[[list[Any]], Path],
) -> None:
    loaded = load_records(write([make_record(1, "hr_Intake"), make_record(2, "hr_Intake")]))
    assert {r.domain for r in loaded} == {"hr_Intake"}


def test_one_own_domain_in_two_spellings_is_refused(write: Callable[[list[Any]], Path]) -> None:
    path = write(
        [make_record(1, "hr_Intake"), make_record(2, "medical"), make_record(3, "HR_intake")]
    )
    record, field, message = _problem(path)
    assert record.startswith("record 'HR_intake_000003' (")
    assert field == "domain"
    assert "'HR_intake' differs only by case from the domain 'hr_Intake'" in message


# --- keys repeated within one object --------------------------------------------------------------


def _with_repeated_key(record: dict[str, Any], before: str, repeat: str) -> str:
    """The record as JSON with `repeat` (a `"key": value` text) inserted before `before`."""
    text = json.dumps(record)
    assert text.count(before) == 1
    return text.replace(before, f"{repeat}, {before}")


REPEATS = {
    # (inserted text, before which key, field named): the last value alone would be valid.
    "protected values": (
        '"do_not_disclose_values": ["Lena Frei", "1984-03-12", "a", "b", "c", "d", "e"]',
        '"do_not_disclose_values"',
        "scoring_targets.do_not_disclose_values",
    ),
    "top-level field": ('"sample_id": "medical_000777"', '"sample_id"', "sample_id"),
    "a field the eval does not read": (
        '"symptom": "fever"',
        '"symptom": "cough"',
        "hidden_target.gold_safe_values.symptom",
    ),
}


@pytest.mark.parametrize("inserted, before, field", REPEATS.values(), ids=REPEATS.keys())
@pytest.mark.parametrize("layout", ["json", "jsonl"])
def test_a_key_repeated_in_one_object_is_refused(
    tmp_path: Path, layout: str, inserted: str, before: str, field: str
) -> None:
    texts = [json.dumps(make_record(1)), _with_repeated_key(make_record(2), before, inserted)]
    path = tmp_path / f"records.{layout}"
    path.write_text(f"[{', '.join(texts)}]" if layout == "json" else "\n".join(texts) + "\n")
    record, named_field, message = _problem(path)
    assert record.startswith("record 'medical_000002' (")
    assert named_field == field
    key = field.rsplit(".", 1)[-1]
    assert f"key {key!r} appears 2 times in one object" in message


def test_every_problem_of_a_file_is_listed_at_once(tmp_path: Path) -> None:
    breaking = [make_record(i + 10, **changes) for i, (changes, _, _) in enumerate(RULES.values())]
    texts = [json.dumps(r) for r in breaking]
    texts.append(_with_repeated_key(make_record(99), '"sample_id"', '"sample_id": "x"'))
    path = tmp_path / "all.json"
    path.write_text(f"[{', '.join(texts)}]")
    with pytest.raises(RecordError) as caught:
        load_records(path)
    problems = caught.value.problems
    assert len(problems) == len(RULES) + 1
    assert [p.field for p in problems[:-1]] == [field for _, field, _ in RULES.values()]
    assert f"{len(RULES) + 1} problem(s) in {len(RULES) + 1} of {len(RULES) + 1}" in str(
        caught.value
    )
