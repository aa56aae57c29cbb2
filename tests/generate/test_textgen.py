"""The template grammar: seeded choices, nesting, slots."""

from __future__ import annotations

import random

import pytest

from polar_inspect.generate.textgen import TemplateError, expand, join_list


def test_choices_are_seeded_and_nest() -> None:
    template = "[a|b [c|d]|e] {x}."
    results = {expand(template, random.Random(seed), {"x": "X"}) for seed in range(40)}
    assert results == {"A X.", "B c X.", "B d X.", "E X."}
    assert expand(template, random.Random(3), {"x": "X"}) == expand(
        template, random.Random(3), {"x": "X"}
    )


def test_slots_are_verbatim_and_capitalised_on_request() -> None:
    slots = {"who": "the patient", "v": "[not a choice] {nor a slot}"}
    assert expand("{Who} said {v}", random.Random(0), slots) == (
        "The patient said [not a choice] {nor a slot}"
    )
    assert expand("[|maybe ]{v}", random.Random(1), {"v": "x"}, sentence=False) in {"x", "maybe x"}


def test_missing_slot_and_unclosed_choice_are_errors() -> None:
    with pytest.raises(TemplateError, match="slot {y}"):
        expand("a {y}", random.Random(0), {})
    with pytest.raises(TemplateError, match="unclosed"):
        expand("a [b|c", random.Random(0))


def test_join_list() -> None:
    assert join_list([]) == "" and join_list(["a"]) == "a"
    assert join_list(["a", "b", "c"]) == "a, b and c"
