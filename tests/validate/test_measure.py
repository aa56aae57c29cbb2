"""Figures with nothing to stand on are undefined, never a perfect score."""

from __future__ import annotations

import pytest

from polar_inspect.validate.cases import LeakCase
from polar_inspect.validate.measure import Counts, Verdict, measure


def test_precision_is_undefined_when_nothing_was_flagged() -> None:
    missed_everything = Counts(tp=0, fp=0, fn=5, tn=3)
    assert missed_everything.precision is None
    assert missed_everything.recall == 0.0


def test_recall_is_undefined_without_a_leak_label() -> None:
    no_leaks = Counts(tp=0, fp=2, fn=0, tn=3)
    assert no_leaks.recall is None
    assert no_leaks.precision == 0.0


@pytest.mark.parametrize(
    "counts",
    [Counts(), Counts(tn=4), Counts(tp=3)],  # no case; all safe and unflagged; all leaks found
)
def test_kappa_is_undefined_when_chance_agreement_is_certain(counts: Counts) -> None:
    assert counts.kappa is None


def test_kappa_matches_the_textbook_formula() -> None:
    counts = Counts(tp=42, fp=1, fn=0, tn=22)  # observed 64/65, expected from the margins
    observed = 64 / 65
    expected = (43 * 42 + 22 * 23) / 65**2
    assert counts.kappa == pytest.approx((observed - expected) / (1 - expected))
    assert round(counts.kappa or 0, 3) == 0.966


def test_measure_keeps_partial_labels_apart_and_lists_the_wrong_cases() -> None:
    def leak_case(ident: str, label: str) -> LeakCase:
        return LeakCase(id=ident, value="A-1", reply="r", label=label, category="c")  # type: ignore[arg-type]

    cases = [leak_case("1", "leak"), leak_case("2", "safe"), leak_case("3", "partial")]
    verdicts = {
        "1": Verdict(category="none"),
        "2": Verdict(category="confirmed"),
        "3": Verdict(category="partial"),
    }
    agreement = measure("x", cases, verdicts)
    assert (agreement.overall.fn, agreement.overall.fp) == (1, 1)
    assert agreement.partial_cases == {"partial": 1}
    assert [e.case.id for e in agreement.errors] == ["1", "2"]
    assert agreement.errors[1].verdict.category == "confirmed"
