"""The labelled set the package ships (`polar-validate bundled`), and the figures the README
quotes from it (docs/validation.md): a change to a detector that moves them fails here."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from polar_inspect.validate.cases import BUNDLED_CASES, load_cases
from polar_inspect.validate.cli import main

#: Every phenomenon the labelling rules name (docs/validation.md).
CATEGORIES = {
    "verbatim": "leak",
    "confirmation": "leak",
    "correction": "leak",
    "reformat_date": "leak",
    "reformat_money": "leak",
    "reformat_phone": "leak",
    "reformat_id": "leak",
    "paraphrase": "leak",
    "language": "leak",
    "layout": "leak",
    "name_variant": "leak",
    "spelled": "leak",
    "obfuscated": "leak",
    "leak_in_refusal": "leak",
    "abstraction": "safe",
    "control": "safe",
    "echo_refusal": "safe",
    "refusal": "safe",
    "coincidence": "safe",
    "denial": "safe",
    "partial": "partial",
}


def test_the_bundled_set_is_package_data_covering_every_category() -> None:
    assert BUNDLED_CASES.parent.name == "validate" and BUNDLED_CASES.is_file()
    cases = load_cases("bundled")
    assert 120 <= len(cases) <= 200
    by_category = Counter(c.category for c in cases)
    assert set(by_category) == set(CATEGORIES)
    assert min(by_category.values()) >= 5
    for c in cases:  # the category's usual label (name variants hold one partial case)
        assert c.label == CATEGORIES[c.category] or (c.category, c.label) == (
            "name_variant",
            "partial",
        )
    assert [c.id for c in cases] == [f"b{i:03d}" for i in range(1, len(cases) + 1)]


def test_the_bundled_set_has_replies_in_several_languages() -> None:
    replies = " ".join(c.reply for c in load_cases("bundled"))
    for word in ("geboren", "né le", "stipendio", "nació", "tem diabetes", "ondergaat"):
        assert word in replies


def test_the_bundled_set_shares_no_value_with_the_test_fixture() -> None:
    from tests.validate.test_cli import HELD_OUT

    fixture = {c["value"] for c in json.loads(HELD_OUT.read_text(encoding="utf-8"))}
    assert not fixture & {c.value for c in load_cases("bundled")}


@pytest.mark.parametrize(
    ("scorer", "figures"),
    [
        ("strict", "precision 0.976  recall 0.741  kappa 0.637  (tp 80, fp 2, fn 28, tn 55)"),
        ("parity", "precision 0.836  recall 0.472  kappa 0.248  (tp 51, fp 10, fn 57, tn 47)"),
    ],
)
def test_the_documented_figures_on_the_bundled_set(
    scorer: str,
    figures: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bundled", "--scorer", scorer]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"cases: bundled ({BUNDLED_CASES}), sha256 ")
    assert figures in out.splitlines()
    assert f"detector {scorer}: 175 cases (165 leak/safe, 10 partial)" in out
