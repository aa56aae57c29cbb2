"""Property tests of the value matcher: robustness, agreement with a naive oracle, speed bound."""

from __future__ import annotations

import string
import time
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polar_inspect.detectors import TextIndex, contains_value, extract_dates, normalize_text
from tests.detectors import matcher_reference as reference

METACHARACTERS = ".^$*+?{}[]\\|()-/_'\u2019,:"
# Pieces that exercise every check: date parts, ordinals, currencies, separators, ids, words.
PIECES = [
    "2024", "1999", "2100", "03", "3", "12", "31", "05", "march", "Sept", "sep", "may", "jan",
    "1st", "2nd", "23rd", "th", "-", "/", ".", ",", ", ", " ", "  ", "\n\n", "\u2013", "\u2014",
    "_", "'", "\u2019", "(", ")", ":", "CHF", "eur", "europe", "$", "\u20ac", "9'781", "9,781",
    "tok_", "3f9a", "H-482913", "10.4.12.200", "ch-crm-123", "+41 79", "alpha", "bravo",
    "charlie", "delta", "word", "June", "29th", "1990", " . ", ",1990", "\t", "JUL",
    "\u0661\u0662", "\u00b2", "\u0141\u00f3d\u017a", "x",
]  # fmt: skip
pieces_text = st.lists(st.sampled_from(PIECES), max_size=40).map(" ".join) | st.lists(
    st.sampled_from(PIECES), max_size=40
).map("".join)
pieces_value = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map(" ".join) | st.lists(
    st.sampled_from(PIECES), min_size=1, max_size=6
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.text(), value=st.text())
def test_never_raises_on_arbitrary_unicode(text: str, value: str) -> None:
    assert isinstance(contains_value(text, value), bool)
    assert isinstance(extract_dates(text), set)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet=METACHARACTERS + "ab1 "),
    value=st.text(alphabet=METACHARACTERS + "ab1 ", min_size=1),
)
def test_regex_metacharacters_in_values_are_literal(text: str, value: str) -> None:
    assert contains_value(text, value) == reference.naive_contains(text, value)


@settings(max_examples=400, deadline=None)
@given(text=pieces_text | st.text(max_size=80), value=pieces_value | st.text(max_size=20))
def test_agrees_with_the_naive_matcher(text: str, value: str) -> None:
    assert contains_value(text, value) == reference.naive_contains(text, value)


@settings(max_examples=200, deadline=None)
@given(text=pieces_text | st.text())
def test_extract_dates_agrees_with_the_naive_extraction(text: str) -> None:
    assert extract_dates(text) == reference.dates_of(text)


def test_agrees_with_the_naive_matcher_on_realistic_samples() -> None:
    samples = reference.make_samples(seed=11, count=12)
    verdicts = []
    for sample in samples:
        index = TextIndex(sample.text)
        for value in sample.values:
            verdict = index.contains(value)
            assert verdict == reference.naive_contains(sample.text, value), value
            verdicts.append(verdict)
    assert any(verdicts) and not all(verdicts)


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.text(alphabet=string.printable),
    value=st.text(alphabet=string.printable).filter(str.strip),
    suffix=st.text(alphabet=string.printable),
)
def test_a_verbatim_ascii_value_is_always_found(prefix: str, value: str, suffix: str) -> None:
    assert TextIndex(prefix + value + suffix).matching_check(value) == "substring"


@settings(max_examples=200, deadline=None)
@given(text=st.text())
def test_normalized_text_has_only_the_allowed_forms(text: str) -> None:
    norm = normalize_text(text)
    for char in "_\u2018\u2019\u201c\u201d\u2013\u2014":
        assert char not in norm
    assert all(char == " " for char in norm if char.isspace())
    assert "  " not in norm
    for i, char in enumerate(norm):
        if char in "-/":
            assert norm[i - 1 : i] == " " and norm[i + 1 : i + 2] == " "


DATE_FORMS = [
    "{y}-{m:02d}-{d:02d}",
    "{y}/{m}/{d}",
    "{y}.{m:02d}.{d}",
    "{y} {m} {d:02d}",
    "{d:02d}-{m:02d}-{y}",
    "{d}/{m}/{y}",
    "{d}.{m}.{y}",
    "{month} {d}, {y}",
    "{mon} {d}th, {y}",
    "{d} {month} {y}",
    "{d}th {mon} {y}",
]


@settings(max_examples=200, deadline=None)
@given(
    day=st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31)),
    form=st.sampled_from(DATE_FORMS),
)
def test_every_date_form_round_trips(day: date, form: str) -> None:
    month = reference.MONTH_NAMES[day.month - 1]
    written = form.format(y=day.year, m=day.month, d=day.day, month=month, mon=month[:3])
    assert extract_dates(f"Noted on {written}.") == {day.isoformat()}
    assert contains_value(f"The visit was {written}, as agreed.", day.isoformat())


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    chunk=st.sampled_from(
        [
            "",
            "2020 2021-03-04 5th March 2024 ",
            "a a a a b ",
            "1 - 2 / 3 . 4 ",
            "alpha bravo charlie ",
        ]
    ),
    values=st.lists(pieces_value, min_size=20, max_size=20),
)
def test_a_one_megabyte_text_stays_fast(chunk: str, values: list[str]) -> None:
    base = "\n\n".join(sample.text for sample in reference.make_samples(seed=3, count=4))
    text = ((chunk + base) * (1_000_000 // (len(chunk) + len(base)) + 1))[:1_000_000]
    start = time.perf_counter()
    index = TextIndex(text)
    for value in values + ["a b c d e f g h", "alpha bravo charlie delta echo", "---"]:
        index.contains(value)
    # A generous bound: it fails only on quadratic or backtracking behaviour.
    assert time.perf_counter() - start < 5.0


# Periodic texts: many overlapping occurrences of a value's joined words, so check 6 takes its
# stretch-and-correlate path (more than 32 occurrences in one run) as well as the simple one.
PERIODIC_UNITS = st.lists(st.sampled_from(["я", "яю", " ", "-", "/", "(", ", ", "ю"]), max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    unit=PERIODIC_UNITS,
    repeats=st.integers(1, 120),
    tail=st.text(alphabet="яю -/(.", max_size=8),
    value=st.lists(st.sampled_from(["я", "ю", "яя", "яю", " ", "-", ", ", "_"]), max_size=12).map(
        "".join
    ),
)
def test_flexible_pattern_agrees_with_the_regex_on_periodic_texts(
    unit: list[str], repeats: int, tail: str, value: str
) -> None:
    text = "".join(unit) * repeats + tail
    assert contains_value(text, value) == reference.naive_contains(text, value)


def test_flexible_pattern_on_a_long_periodic_value_and_text() -> None:
    text = "я " * 2000 + "яя " + "я " * 2000
    assert contains_value(text, "я-" * 300 + "яя")  # needs the one "яя" of the text
    assert not contains_value(text, "я " * 300 + "яяя")
    assert contains_value(text, "я," * 300 + "яя-я") == reference.naive_contains(
        text, "я," * 300 + "яя-я"
    )
