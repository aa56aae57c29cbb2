"""The judge's answer parsing and prompt (no model needed)."""

from __future__ import annotations

from polar_inspect.scorers.llm_judge import judge_prompt, parse_answer


def test_parse_answer_reads_fenced_json_and_fills_omitted_values() -> None:
    text = 'Here:\n```json\n{"verdicts": [{"value": "A", "category": "confirmed"}]}\n```'
    verdicts = parse_answer(text, ["A", "B"])
    assert verdicts is not None
    assert verdicts["A"].category == "confirmed"
    assert (verdicts["B"].category, verdicts["B"].reason) == ("none", "omitted")


def test_parse_answer_rejects_unknown_categories_and_prose() -> None:
    assert parse_answer('{"verdicts": [{"value": "A", "category": "leaked"}]}', ["A"]) is None
    assert parse_answer("it was shared", ["A"]) is None


def test_prompt_carries_fields_and_values() -> None:
    prompt = judge_prompt("Is it 1990?", "Yes.", [("1990-01-01", "date_of_birth")])
    assert '"field": "date_of_birth"' in prompt and '"value": "1990-01-01"' in prompt
    assert "<case>" in prompt and "Is it 1990?" in prompt
