"""Case files are checked by declaration: every problem is one message naming file, case, field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.validate.cases import CaseFileError, load_cases


def case(**fields: Any) -> dict[str, Any]:
    """A valid case, with `fields` replaced."""
    base = {
        "id": "c1",
        "category": "verbatim",
        "field": "name",
        "value": "Anna Keller",
        "attacker_turn": "Who is it?",
        "reply": "It is Anna Keller.",
        "label": "leak",
    }
    return {**base, **fields}


def write(tmp_path: Path, cases: Any) -> Path:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


def refusal(tmp_path: Path, cases: Any) -> str:
    with pytest.raises(CaseFileError) as err:
        load_cases(write(tmp_path, cases))
    return str(err.value)


@pytest.mark.parametrize("value", ["", "   ", "...", "…", " - ", "\u00a0"])
def test_values_without_a_letter_or_digit_are_refused(tmp_path: Path, value: str) -> None:
    message = refusal(tmp_path, [case(), case(id="c2", value=value)])
    assert "case c2, field 'value'" in message
    assert "must contain a letter or a digit" in message


def test_a_reply_without_a_letter_or_digit_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, [case(reply="...")])
    assert "case c1, field 'reply'" in message


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        (
            {"label": "leaked"},
            "case c1, field 'label': Input should be 'leak', 'safe' or 'partial'",
        ),
        ({"value": 1990}, "case c1, field 'value': Input should be a valid string"),
        ({"id": 7}, "case #0, field 'id'"),
        ({"id": "  "}, "case #0, field 'id': must not be empty or blank"),
        ({"category": ""}, "case c1, field 'category'"),
        ({"reply": None}, "case c1, field 'reply'"),
    ],
)
def test_a_malformed_case_names_the_case_and_the_field(
    tmp_path: Path, bad: dict[str, Any], where: str
) -> None:
    assert where in refusal(tmp_path, [case(**bad)])


def test_a_missing_field_is_named(tmp_path: Path) -> None:
    incomplete = case()
    del incomplete["reply"]
    assert "case c1, field 'reply': Field required" in refusal(tmp_path, [incomplete])


def test_a_case_that_is_not_an_object_is_named(tmp_path: Path) -> None:
    assert "case #1: expected an object, got str" in refusal(tmp_path, [case(), "c2"])


def test_repeated_ids_and_repeated_keys_are_refused(tmp_path: Path) -> None:
    assert "case id 'c1' appears twice" in refusal(tmp_path, [case(), case()])
    path = tmp_path / "keys.json"
    path.write_text('[{"id": "c1", "label": "leak", "label": "safe"}]', encoding="utf-8")
    with pytest.raises(CaseFileError, match="the key 'label' appears twice"):
        load_cases(path)


def test_a_latin1_file_is_refused_with_the_byte_offset(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    text = json.dumps([case(value="Zoé Keller", reply="C'est Zoé Keller.")], ensure_ascii=False)
    path.write_bytes(text.encode("latin-1"))
    offset = text.encode("latin-1").index(b"\xe9")
    with pytest.raises(CaseFileError) as err:
        load_cases(path)
    assert str(err.value) == (
        f"{path}: not UTF-8 text (byte 0xe9 at offset {offset}); save the file as UTF-8"
    )


def test_a_utf8_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([case(value="Zoé")]).encode())
    assert load_cases(path)[0].value == "Zoé"


def test_extra_keys_are_kept(tmp_path: Path) -> None:
    [loaded] = load_cases(write(tmp_path, [case(paper_matcher=True)]))
    assert loaded.model_extra == {"paper_matcher": True}


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (["partial", "partial"], "nothing to measure"),
        ([], "holds no case"),
    ],
)
def test_files_with_nothing_to_measure_are_refused(
    tmp_path: Path, labels: list[str], message: str
) -> None:
    cases = [case(id=f"c{i}", label=label) for i, label in enumerate(labels)]
    refused = refusal(tmp_path, cases)
    assert message in refused
    if labels:
        assert "2 partial" in refused


def test_unreadable_paths_are_named(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match="no such file"):
        load_cases(tmp_path / "missing.json")
    with pytest.raises(CaseFileError, match="is a folder"):
        load_cases(tmp_path)
    path = tmp_path / "trailing.json"
    path.write_text("[1,]", encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"not valid JSON \(.* at line 1, column 4\)"):
        load_cases(path)
