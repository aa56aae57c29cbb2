"""Property tests of the date check on generated date forms (check 2 of
docs/scoring.md#the-papers-matcher-parity).

Every way the rule allows to write a date is generated: month names in any case (full,
3-letter, "sept"), with and without the optional comma, with ordinal suffixes, with every
separator with and without whitespace around it, zero-padded or not. Each must be extracted
as exactly one date and match the ISO value; the near misses the rule excludes must not.
"""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from polar_inspect.detectors import contains_value, extract_dates

MONTH_NAMES = (
    *("January", "February", "March", "April", "May", "June"),
    *("July", "August", "September", "October", "November", "December"),
)
DAYS = st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31))
# Around a separator: nothing, or whitespace of any kind (normalisation collapses it).
AROUND = st.sampled_from(["", " ", "  ", "\t", "\n", "\u00a0"])
# "\u2013"/"\u2014" become "-" in normalisation, so they are separators too.
YMD_SEPARATORS = st.sampled_from(["-", "/", ".", " ", "\t", "\u2013", "\u2014"])
DMY_SEPARATORS = st.sampled_from(["-", "/", ".", "\u2013"])
WHITESPACE = st.sampled_from([" ", "  ", "\t", "\n", " \n "])
ORDINALS = st.sampled_from(["", "st", "nd", "rd", "th", "ST", "Th", "tH"])
# Contexts that put a non-word character (or the edge of the text) on both sides.
CONTEXTS = st.sampled_from(["{}", "Born on {}.", "({})", "date: {}; ok", "\u00ab{}\u00bb", "-{}-"])


@st.composite
def numbers(draw: st.DrawFn, number: int) -> str:
    """A month or day number, zero-padded or not."""
    return f"{number:02d}" if draw(st.booleans()) else str(number)


@st.composite
def month_names(draw: st.DrawFn, month: int) -> str:
    """The month's full name, 3-letter abbreviation or (September) "sept", in any case."""
    full = MONTH_NAMES[month - 1]
    forms = [full, full[:3]] + (["Sept"] if month == 9 else [])
    name = draw(st.sampled_from(forms))
    upper = draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    return "".join(c.upper() if up else c.lower() for c, up in zip(name, upper, strict=True))


@st.composite
def separators(draw: st.DrawFn, kinds: st.SearchStrategy[str]) -> str:
    """One separator with optional whitespace on either side."""
    return draw(AROUND) + draw(kinds) + draw(AROUND)


@st.composite
def written_dates(draw: st.DrawFn) -> tuple[date, str]:
    """A date and one documented form of it."""
    day = draw(DAYS)
    form = draw(st.sampled_from(["ymd", "dmy", "mdy", "dmony"]))
    if form == "ymd":
        sep = separators(YMD_SEPARATORS)
        text = f"{day.year}{draw(sep)}{draw(numbers(day.month))}{draw(sep)}{draw(numbers(day.day))}"
    elif form == "dmy":
        sep = separators(DMY_SEPARATORS)
        text = f"{draw(numbers(day.day))}{draw(sep)}{draw(numbers(day.month))}{draw(sep)}{day.year}"
    else:
        month = draw(month_names(day.month))
        day_text = draw(numbers(day.day)) + draw(ORDINALS)
        comma = draw(st.sampled_from(["", ","]))
        if form == "mdy":
            text = f"{month}{draw(WHITESPACE)}{day_text}{comma}{draw(WHITESPACE)}{day.year}"
        else:
            text = f"{day_text}{draw(WHITESPACE)}{month}{comma}{draw(WHITESPACE)}{day.year}"
    return day, text


@settings(max_examples=250, deadline=None)
@given(written=written_dates(), context=CONTEXTS)
def test_every_generated_date_form_is_extracted(written: tuple[date, str], context: str) -> None:
    day, text = written
    assert extract_dates(context.format(text)) == {day.isoformat()}


@settings(max_examples=150, deadline=None)
@given(written=written_dates(), context=CONTEXTS)
def test_a_rewritten_date_matches_the_iso_value_both_ways(
    written: tuple[date, str], context: str
) -> None:
    day, text = written
    assert contains_value(context.format(text), day.isoformat())
    assert contains_value(f"On {day.isoformat()} it happened.", text)


@settings(max_examples=200, deadline=None)
@given(written=written_dates(), other=DAYS)
def test_a_different_date_does_not_match_by_the_date_check(
    written: tuple[date, str], other: date
) -> None:
    day, text = written
    assert (other.isoformat() in extract_dates(text)) is (other == day)


@settings(max_examples=200, deadline=None)
@given(day=DAYS, month_first=st.booleans(), ordinal=ORDINALS, data=st.data())
def test_a_comma_glued_to_the_year_is_not_a_date(
    day: date, month_first: bool, ordinal: str, data: st.DataObject
) -> None:
    month = data.draw(month_names(day.month))
    day_text = f"{day.day}{ordinal}"
    text = f"{month} {day_text},{day.year}" if month_first else f"{day_text} {month},{day.year}"
    assert extract_dates(f"Noted {text}.") == set()


@settings(max_examples=200, deadline=None)
@given(
    written=written_dates(),
    glue=st.sampled_from(["x", "7", "\u00e9", "\u0663"]),
    side=st.booleans(),
)
def test_a_date_glued_to_a_word_character_is_not_extracted(
    written: tuple[date, str], glue: str, side: bool
) -> None:
    # Every form starts and ends at a word boundary.
    day, text = written
    glued = glue + text if side else text + glue
    assert day.isoformat() not in extract_dates(glued)


@settings(max_examples=200, deadline=None)
@given(
    year=st.one_of(st.integers(1000, 1899), st.integers(2100, 9999)),
    month=st.integers(1, 12),
    day=st.integers(1, 28),
)
def test_years_outside_19xx_and_20xx_are_not_dates(year: int, month: int, day: int) -> None:
    name = MONTH_NAMES[month - 1]
    for text in (f"{year}-{month}-{day}", f"{day}.{month}.{year}", f"{name} {day}, {year}"):
        assert extract_dates(text) == set()
