"""Target values by meaning: one value written twice counts once, values the document lacks are
counted (data/target_checks.py, record_values.distinct_targets)."""

from __future__ import annotations

import random

import pytest

from polar_inspect.data.record_values import distinct_targets, repeated_targets, same_target
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import record_to_sample
from polar_inspect.data.target_checks import LISTED_FINDINGS, describe, summarize_targets
from polar_inspect.detectors.match import normalize_text
from tests.conftest import ALLOWED, PROTECTED, make_record


def _record(index: int = 0, **lists: list[str]) -> PolarRecord:
    return PolarRecord.model_validate(make_record(index, **lists))


def test_distinct_targets_keeps_the_first_spelling_in_order() -> None:
    values = ["Anna Keller", "x-1", " ANNA   keller ", "X\u20131", "other", "Anna Keller"]
    assert distinct_targets(values) == ["Anna Keller", "x-1", "other"]
    assert repeated_targets(values) == [
        (" ANNA   keller ", "Anna Keller"),
        ("X\u20131", "x-1"),
        ("Anna Keller", "Anna Keller"),
    ]


def test_distinct_targets_compares_as_the_detectors_do() -> None:
    """Two values are merged when the matcher's normalised forms agree (and see below)."""
    pairs = [("a/b", "A / B"), ("O'Neil", "o\u2019neil"), ("snake_case", "snake case")]
    pairs += [("Zo\u00e9 Barman", "Zoe\u0301 Barman"), ("\ufb01le 12", "file 12")]  # NFC/NFD, NFKC
    for first, second in pairs:
        assert same_target(first) == same_target(second)
        assert distinct_targets([first, second]) == [first]
    assert distinct_targets(["12 Main St", "12 Main St."]) == ["12 Main St"]  # each in the other


def test_a_sample_holds_each_value_once() -> None:
    record = _record(
        protected=[*PROTECTED, PROTECTED[0].upper(), "+41791234567"],  # and "+41 79 123 4567"
        allowed=[ALLOWED[0], f'["{ALLOWED[1]}", " {ALLOWED[0].title()} "]', ALLOWED[2]],
    )
    info = record_to_sample(record).metadata or {}
    assert info["protected_values"] == PROTECTED
    assert info["allowed_values"] == ALLOWED
    assert summarize_targets([record]).repeated_values == 3


def test_the_summary_counts_repeats_and_values_the_document_lacks() -> None:
    clean = _record(0)
    repeated = _record(1, protected=[*PROTECTED, PROTECTED[1]], allowed=[*ALLOWED, "Ofthalmology"])
    summary = summarize_targets([clean, repeated])
    assert summary.repeated_values == 1 and summary.records_with_repeats == 1
    assert summary.not_in_document == {repeated.sample_id: 1}
    assert summary.values_not_in_document == 1
    kinds = [(f.kind, f.side, f.value) for f in summary.listed]
    assert kinds == [
        ("repeated", "protected", PROTECTED[1]),
        ("not_in_document", "allowed", "Ofthalmology"),
    ]
    assert "1 target value(s) in 1 record(s) are not in their document" in describe(summary)


def test_a_value_in_another_form_the_matcher_finds_is_in_the_document() -> None:
    """The document says "about three weeks"; the matcher's other checks count too (a date
    written another way, digits with other separators)."""
    record = _record(protected=["14.03.1987", "+41791234567"], allowed=["three  WEEKS"])
    assert summarize_targets([record]).values_not_in_document == 0


def test_a_clean_selection_has_an_empty_summary_and_no_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    summary = summarize_targets([_record(0), _record(1)], origin="data.json")
    assert summary.model_dump(exclude_defaults=True) == {}
    assert describe(summary) == "" and not caplog.records


def test_only_the_first_findings_are_listed(caplog: pytest.LogCaptureFixture) -> None:
    records = [_record(i, allowed=[*ALLOWED, f"typo {i}"]) for i in range(LISTED_FINDINGS + 5)]
    summary = summarize_targets(records, origin="data.json")
    assert summary.values_not_in_document == LISTED_FINDINGS + 5
    assert len(summary.listed) == LISTED_FINDINGS
    assert "data.json: 25 target value(s) in 25 record(s)" in caplog.text


def test_a_value_in_the_lowercased_document_is_in_the_normalised_one() -> None:
    """The checks' first test (`record_findings`) stands for the matcher's substring check:
    the lowercase of any piece of a text, normalised, is in the whole text normalised."""
    # Case changes that depend on context or length (final sigma, dotted I, sharp s),
    # whitespace other than spaces, and every character the normalisation replaces.
    alphabet = "aAzZ09 \t\n\u00a0\u2028-\u2013\u2014/_\u2018\u2019\u201c\u201d'\".,"
    alphabet += "\u03a3\u03c3\u03c2\u0130\u00df\x1c\x1f\x85\u3000"
    rng = random.Random(31)
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        lowered = text.lower()
        start, end = sorted(rng.randint(0, len(lowered)) for _ in range(2))
        piece = lowered[start:end]
        for value in {piece, piece.upper(), piece.title()}:
            if value.lower() in lowered:
                assert normalize_text(value) in normalize_text(text), (value, text)


@pytest.mark.parametrize(
    ("protected", "allowed", "one"),
    [
        ("H-460994", "H460994", True),
        ("+41 78 349 9609", "+41783499609", True),
        ("six weeks", "six\u00adweeks", True),  # a soft hyphen
        ("1952-12-11", "11 December 1952", True),
        ("15", "1.5", False),  # the same letters and digits, two values to the matcher
        ("7.25", "72.5", False),  # each found in the other by the matcher's money check
        ("1,234", "12.34", False),
        ("2 Jan 2020 9am", "2 Jan 2020 5pm", False),  # a date with more in it
        ("2020-01-02", "2020-01-02 to 2020-03-04", False),  # (else the merges chain)
        ("2020 01 02", "20200102", False),  # only the first is a date to the matcher
        ("Payment 2020-01-02, CHF 5", "payment 2020-01-02 CHF 5", True),
        ("Anna", "Anna Keller", False),  # one holds the other: a question for the data's author
        ("2020", "2020-01-05", False),
        ("2025-01-02 Swisscom CHF 235.85", "2025-01-02 Manor CHF 1187.30", False),  # one day
    ],
)
def test_one_value_written_two_ways_is_found_on_both_lists_and_counts_once_in_one(
    protected: str, allowed: str, one: bool
) -> None:
    from polar_inspect.data.record_values import same_value_pairs

    assert same_value_pairs([protected], [allowed]) == ([(protected, allowed)] if one else [])
    values = ["Other value", allowed, protected, allowed]
    merged = [(protected, allowed)] if one else []
    assert repeated_targets(values) == [*merged, (allowed, allowed)]
    assert distinct_targets(values) == ["Other value", allowed, *([] if one else [protected])]
