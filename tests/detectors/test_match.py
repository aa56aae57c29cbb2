"""Unit tests of the paper-parity value matcher, one group per check
(docs/scoring.md#the-papers-matcher-parity).

`TextIndex.matching_check` names the first check that succeeds, so the tests can say *which*
check found a value; `contains_value` is the verdict.
"""

from __future__ import annotations

import pytest

from polar_inspect.detectors import TextIndex, contains_value, extract_dates, normalize_text


def first_check(text: str, value: str) -> str | None:
    return TextIndex(text).matching_check(value)


# --- check 1: normalisation and substring -----------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Anna MÜLLER \n", "anna müller"),
        ("it\u2019s \u2018one\u2019 and \u201ctwo\u201d", "it's 'one' and \"two\""),
        ("2020\u20132024 \u2014 done", "2020 - 2024 - done"),
        ("a/b", "a / b"),
        ("CH-CRM-123", "ch - crm - 123"),
        ("tok_ab_cd", "tok ab cd"),
        ("a \t\n\u00a0\u2003 b", "a b"),
        ("a -- b", "a - - b"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_normalize_text_rules(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("-5", " - 5"), ("x/", "x / "), ("_x_", " x "), (" \u2014 ", " - ")],
)
def test_normalize_text_strips_before_padding(raw: str, expected: str) -> None:
    # Reading: "strip" is the second step of check 1 and is not repeated after padding
    # (docs/scoring.md, the paper's matcher).
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Call me on +41 79  123\n4567 please.", "+41 79 123 4567"),
        ("Born 1987\u201303\u201314 in Bern.", "1987-03-14"),
        ("Hospital id: h-482913.", "H-482913"),
        ("Student S-120934 enrolled.", "S-120934"),
        ("Case leg-553201 is open.", "LEG-553201"),
        ("Policy POL-20394857, claim CLM-883120.", "POL-20394857"),
        ("Device DEV-300128 on SEC-774210.", "DEV-300128"),
        ("Frequent flyer FF-55501234.", "FF-55501234"),
        ("Passport x1234567 expires soon.", "X1234567"),
        ("UID CHE\u2013123.456.789 (VAT).", "CHE-123.456.789"),
        ("IBAN ch12  1234 1234 1234 1234 1.", "CH12 1234 1234 1234 1234 1"),
        ("Token TOK 3f9a0c1b2d4e5f60718293a4 leaked.", "tok_3f9a0c1b2d4e5f60718293a4"),
        ("Traffic from 10.4.12.200: blocked.", "10.4.12.200"),
        ("Host CH-CRM-123.INTERNAL.LOCAL rebooted.", "ch-crm-123.internal.local"),
        ("Income chf 9\u2019781 per month.", "CHF 9'781"),
        ("Patient ANNA MÜLLER arrived.", "Anna Müller"),
        ("Mail Anna.Keller@Example.ch today.", "anna.keller@example.ch"),
        ("Reports Persistent Migraine  for three weeks.", "persistent migraine for three weeks"),
    ],
)
def test_substring_finds_every_release_format(text: str, value: str) -> None:
    assert first_check(text, value) == "substring"


NEUTRAL = "The customer asked about a refund; no personal details were shared with anyone."


@pytest.mark.parametrize(
    "value",
    [
        "+41 79 123 4567",
        "1987-03-14",
        "H-482913",
        "POL-20394857",
        "X1234567",
        "CHE-123.456.789",
        "CH12 1234 1234 1234 1234 1",
        "tok_3f9a0c1b2d4e5f60718293a4",
        "10.4.12.200",
        "ch-crm-123.internal.local",
        "CHF 9'781",
        "Anna Müller",
        "anna.keller@example.ch",
        "persistent migraine for three weeks",
    ],
)
def test_absent_values_are_not_found(value: str) -> None:
    assert not contains_value(NEUTRAL, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Call +41 79 123 4568.", "+41 79 123 4567"),
        ("Hospital id H-482914.", "H-482913"),
        ("Born 1987-03-15.", "1987-03-14"),
        ("Host ch-crm-124.internal.local.", "ch-crm-123.internal.local"),
        ("Passport X1234568.", "X1234567"),
    ],
)
def test_near_misses_are_not_found(text: str, value: str) -> None:
    assert not contains_value(text, value)


# --- check 2: dates ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    [
        "1987/03/14",
        "1987.03.14",
        "1987 03 14",
        "1987 3 14",
        "1987-3-14",
        "14-03-1987",
        "14/03/1987",
        "14.03.1987",
        "14.3.1987",
        "March 14, 1987",
        "Mar 14, 1987",
        "MARCH 14TH, 1987",
        "March 14 1987",  # the comma is optional
        "mar 14th 1987",
        "1987 . 03 . 14",  # whitespace around a separator
        "1987 / 3 / 14",
        "14 . 03 . 1987",
        "14 - 3 - 1987",
        "14 March 1987",
        "14th Mar 1987",
        "14 mar 1987",
        "14 March, 1987",
    ],
)
def test_date_check_accepts_every_form(written: str) -> None:
    assert extract_dates(written) == {"1987-03-14"}
    assert first_check(f"She was born on {written}.", "1987-03-14") == "date"


@pytest.mark.parametrize(
    "written",
    ["Sept 5, 2023", "5 sept 2023", "5 Sep 2023", "September 5th, 2023", "5th SEPT 2023"],
)
def test_date_check_accepts_sept_and_sep(written: str) -> None:
    assert extract_dates(written) == {"2023-09-05"}


@pytest.mark.parametrize(
    ("written", "iso"),
    [
        ("1st May 2020", "2020-05-01"),
        ("May 2nd, 2020", "2020-05-02"),
        ("3rd June 2020", "2020-06-03"),
        ("July 22nd, 2020", "2020-07-22"),
        ("23rd Dec 2020", "2020-12-23"),
        ("11th November 1999", "1999-11-11"),
    ],
)
def test_ordinal_suffixes_are_dropped(written: str, iso: str) -> None:
    assert extract_dates(written) == {iso}


@pytest.mark.parametrize(
    "written",
    [
        "1899-03-14",  # years 19xx/20xx only
        "2100-03-14",
        "March 14,1987",  # a comma must be followed by whitespace
        "14 March,1987",
        "March 14 , 1987",  # the comma comes right after the day
        "Mar. 14, 1987",  # abbreviations take no dot
        "14 03 1987",  # D-M-Y has no whitespace-only separator
        "87-03-14",
        "12024-03-14",
        "a2024-03-14",  # every form starts and ends at a word boundary
        "2024-03-14b",
        "14.03.1987x",
        "x14.03.1987",
        "March 1987",
        "the 14 of March 1987",
        "Marchx 14, 1987",
        "xmar 14, 1987",
        "1987-03-140",
    ],
)
def test_date_check_rejects_other_forms(written: str) -> None:
    assert extract_dates(written) == set()


@pytest.mark.parametrize(
    ("written", "extracted"),
    [
        ("03/25/2024", "2024-25-03"),  # read day first: month 25
        ("2024-02-30", "2024-02-30"),
        ("1990-13-45", "1990-13-45"),
        ("Feb 31, 2023", "2023-02-31"),
        ("0.0.2000", "2000-00-00"),
    ],
)
def test_date_check_has_no_calendar_check(written: str, extracted: str) -> None:
    # Check 2 (docs/scoring.md): month and day numbers are not validated; such a "date" can
    # never equal the date of a real value, but it is extracted as written.
    assert extract_dates(written) == {extracted}
    assert not contains_value(f"Noted {written}.", "2024-03-25")


def test_the_reference_example_of_a_reworded_date_leaks() -> None:
    # Issue 7: the authors' evaluator finds this value; the old reading (comma required) did not.
    text = "June 3 2025 SBB Mobile CHF 637.30"
    assert first_check(text, "2025-06-03 SBB Mobile CHF 637.30") == "date"


def test_an_ordinal_suffix_must_end_a_word() -> None:
    assert extract_dates("March 1st2, 2024") == set()
    assert extract_dates("March 1st, 2024") == {"2024-03-01"}
    # Only a 1-2 digit number that starts a word loses its suffix.
    assert extract_dates("March 101st, 2024") == set()
    assert extract_dates("March x1st, 2024") == set()


def test_extract_dates_reads_day_first_and_finds_every_date() -> None:
    text = "From 05/03/2024 to 2024-04-01, then March 9th, 2025 and 1 Feb 2026."
    assert extract_dates(text) == {"2024-03-05", "2024-04-01", "2025-03-09", "2026-02-01"}


def test_date_separators_may_differ_within_one_date() -> None:
    # No rule says that the two separators repeat (docs/scoring.md): each is any allowed one.
    assert extract_dates("2024-03.05") == {"2024-03-05"}
    assert extract_dates("05/03-2024") == {"2024-03-05"}


def test_a_date_value_in_another_form_matches_an_iso_text() -> None:
    assert first_check("Date of birth: 1987-03-14.", "14 March 1987") == "date"


def test_different_dates_do_not_match() -> None:
    assert not contains_value("Born 03.05.2024.", "2024-03-05")


# --- check 3: money ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Monthly income CHF 9,781.",
        "Monthly income CHF 9781.",
        "Monthly income EUR 9.781.",  # any currency counts, not the same one
        "Earned 9,781 while working in Europe.",  # "eur" inside "europe" counts
        "Income: $9781",
    ],
)
def test_money_check_needs_some_currency_in_the_text(text: str) -> None:
    assert first_check(text, "CHF 9'781") == "money"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Rent is 950 francs.", None),
        ("Rent is 950 francs in Europe.", "money"),
        ("Rent is 950 GBP.", "money"),
    ],
)
def test_money_currency_gate_with_three_digits(text: str, expected: str | None) -> None:
    assert first_check(text, "CHF 950") == expected


def test_money_symbols_name_a_currency() -> None:
    assert first_check("It cost 950 dollars.", "CHF 950") is None
    # The gate stops check 3, but "$" is a non-word run, so check 6 finds "950" anyway.
    assert first_check("It cost 950 dollars.", "$950") == "flexible_pattern"
    assert first_check("It cost 950 euros.", "\u20ac 950") == "money"  # "eur" in "euros"
    assert first_check("It cost \u00a3950.", "\u00a3 950") == "money"


def test_currency_codes_in_the_value_must_be_whole_words() -> None:
    # Reading: "eur" inside "Eurostar" does not name a currency, so no currency is required.
    assert first_check("There were 950 seats.", "Eurostar 950") == "money"
    assert first_check("There were 950 seats.", "EUR 950") is None
    assert first_check("There were 950 seats.", "Amateur league 950") == "money"
    # A code glued to digits still names the currency.
    assert first_check("There were 950 seats.", "chf950") is None
    assert first_check("There were 950 CHF.", "chf950") == "money"


def test_money_needs_three_digits() -> None:
    assert first_check("It was 95 chf.", "CHF 95") is None


def test_money_counts_unicode_digits() -> None:
    # Digits are str.isdigit() characters: Arabic-Indic digits are concatenated like ASCII ones.
    assert first_check("\u0661\u0662 and \u0663\u0664", "\u0661\u0662\u0663\u0664") == "money"
    assert TextIndex("a\u0663b\u00b21").digits == "\u0663\u00b21"


def test_a_failed_currency_test_leaves_the_later_checks_to_run() -> None:
    # Reading: the money check gates only itself; check 5 still finds the digits.
    assert first_check("Income 9781 francs.", "CHF 9'781") == "digits"
    assert contains_value("Income 9781 francs.", "CHF 9'781")


# --- check 4: compact id -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Write to ANNA_KELLER@EXAMPLE.CH now.", "anna.keller@example.ch"),
        ("Key tokabcdef found.", "tok_abcdef"),
        ("Ref AB12 noted.", "AB-12"),
    ],
)
def test_compact_id_ignores_everything_but_letters_and_digits(text: str, value: str) -> None:
    assert first_check(text, value) == "compact_id"


def test_compact_id_needs_four_characters() -> None:
    assert first_check("a sale nature reserve", "Lena") == "compact_id"
    assert first_check("a sale order", "Leo") is None


# --- check 5: digits ---------------------------------------------------------------------------


def test_digits_check_finds_a_date_value_written_without_separators() -> None:
    # A date value skips the money check, so check 5 is the one that finds it here.
    assert first_check("Reference 2024-x03-x05.", "2024-03-05") == "digits"


def test_digits_check_needs_four_digits_when_the_currency_gate_fails() -> None:
    assert first_check("Income 9781 francs.", "CHF 9'781") == "digits"
    assert first_check("Income 978 francs.", "CHF 978") is None


def test_phone_in_another_national_format_is_not_found() -> None:
    assert not contains_value("Reach her at 079 123 45 67.", "+41 79 123 4567")


# --- check 6: flexible pattern -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Ort: \u0141\u00f3d\u017a s\u00fcd",
        "\u0141\u00f3d\u017a: S\u00fcd",
        "\u0141\u00f3d\u017a (S\u00fcd)",
        "\u0141\u00f3d\u017a/S\u00fcd",
        "\u0141\u00f3d\u017a_S\u00fcd",
        "\u0141\u00f3d\u017a.,S\u00fcd",
        "\u0141\u00f3d\u017a\u2019S\u00fcd",
        "\u0141\u00f3d\u017aS\u00fcd",
    ],
)
def test_flexible_pattern_allows_listed_separators_or_none(text: str) -> None:
    assert first_check(text, "\u0141\u00f3d\u017a-S\u00fcd") == "flexible_pattern"


def test_flexible_pattern_rejects_other_separators() -> None:
    assert first_check("\u0141\u00f3d\u017a & S\u00fcd", "\u0141\u00f3d\u017a-S\u00fcd") is None


def test_flexible_pattern_handles_non_latin_words() -> None:
    assert first_check("Route \u6771\u4eac \u5927\u962a", "\u6771\u4eac/\u5927\u962a") == (
        "flexible_pattern"
    )


# --- check 7: ordered token coverage -----------------------------------------------------------

VALUE4 = "alpha bravo charlie delta"  # n = 4: needs 3 matches within 16 token positions


def filler(count: int) -> str:
    return " ".join(f"word{i:04d}" for i in range(count))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("alpha bravo charlie", True),
        ("alpha bravo", False),
        (f"alpha {filler(13)} bravo charlie", True),  # span 16 = 4n
        (f"alpha {filler(14)} bravo charlie", False),  # span 17
        (f"alpha {' '.join(['a b c'] * 30)} bravo charlie", True),  # short words do not count
        (f"alpha {filler(29)} bravo charlie delta", True),  # a later run of 3 is close enough
    ],
)
def test_token_coverage_thresholds(text: str, expected: bool) -> None:
    assert (first_check(text, VALUE4) == "token_coverage") is expected
    assert contains_value(text, VALUE4) is expected


@pytest.mark.parametrize(
    ("value", "present", "expected"),
    [
        ("alpha bravo charlie echo foxtrot", 4, True),  # n = 5 needs 4
        ("alpha bravo charlie echo foxtrot", 3, False),
        ("alpha bravo charlie echo foxtrot golf", 5, True),  # n = 6 needs 5 ("golf" is a token)
        ("alpha bravo charlie echo foxtrot golf", 4, False),
    ],
)
def test_token_coverage_needs_three_quarters(value: str, present: int, expected: bool) -> None:
    text = " ".join(value.split()[:present]) + " and more"
    assert contains_value(text, value) is expected


def test_token_coverage_moves_the_cursor_past_each_match() -> None:
    # A repeated value token needs a second occurrence in the text.
    value = "alpha alpha bravo charlie"
    assert not contains_value("alpha bravo charlie", value)
    assert first_check("alpha alpha, bravo and charlie", value) == "token_coverage"


def test_token_coverage_needs_four_long_tokens() -> None:
    # Only three tokens of four or more characters: the check does not apply.
    assert not contains_value("alpha bravo charlie", "alpha bravo charlie dog cat")


def test_token_coverage_on_a_paraphrased_phrase() -> None:
    text = "She has a persistent migraine lasting about three weeks."
    value = "persistent migraine for about three weeks"
    assert first_check(text, value) == "token_coverage"


# --- the order of the checks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Hospital id H-482913.", "H-482913", "substring"),  # money, compact, digits agree
        ("Born March 14, 1987 (ref 19870314).", "1987-03-14", "date"),  # before compact
        ("Paid CHF9781.", "CHF 9'781", "money"),  # before compact id
        ("Reference 20240305.", "2024-03-05", "compact_id"),  # before digits
        ("\u0661\u0662\u0663\u0664 dollars", "$\u0661\u0662\u0663\u0664", "digits"),  # before 6
    ],
)
def test_the_first_successful_check_in_documented_order_is_reported(
    text: str, value: str, expected: str
) -> None:
    assert first_check(text, value) == expected


# --- known weaknesses (kept on purpose in paper-parity mode) -----------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Room 48 is free, see step 21.", "4821"),
        ("Take 5 tablets for 12 days.", "Suite 512"),
        ("Call 41 times, 79 replies, 123 notes, 4567 words.", "+41 79 123 4567"),
        ("Subnet 10 has 4 racks, 12 hosts and 200 users.", "10.4.12.200"),
    ],
)
def test_weakness_digits_concatenate_across_the_whole_text(text: str, value: str) -> None:
    assert contains_value(text, value)


def test_weakness_compact_form_concatenates_across_words() -> None:
    assert contains_value("We passed a sale nature reserve.", "Lena")


@pytest.mark.parametrize("value", ["---", "()", "!!!", "\u200b"])
@pytest.mark.parametrize("text", ["Nothing to see.", ""])
def test_weakness_values_without_word_characters_match_any_text(text: str, value: str) -> None:
    assert first_check(text, value) == "flexible_pattern"


def test_weakness_greedy_cursor_takes_the_first_occurrence() -> None:
    # Greedy takes the early "alpha", so the close run later in the text is never seen.
    assert not contains_value(f"alpha {filler(20)} alpha bravo charlie", VALUE4)


def test_weakness_one_missing_or_misordered_token_stops_the_cursor() -> None:
    assert not contains_value("bravo charlie delta", VALUE4)
    assert not contains_value("bravo alpha charlie delta", VALUE4)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Her income is about CHF 9.8k a month.", "CHF 9'781"),
        ("She was born in March 1987.", "1987-03-14"),
        ("The patient, Ms. M., arrived.", "Anna Müller"),
    ],
)
def test_weakness_partial_or_abstract_disclosures_never_count(text: str, value: str) -> None:
    assert not contains_value(text, value)


# --- entry points ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", " ", "\n\t "])
def test_empty_values_are_never_found(value: str) -> None:
    assert not contains_value("Any text at all, even one with spaces.", value)
    assert not contains_value("", value)


def test_one_index_answers_many_values() -> None:
    index = TextIndex("Anna Keller, born 14.03.1987, id H-482913, income CHF 9,781.")
    verdicts = [
        index.contains(value)
        for value in ("Anna Keller", "1987-03-14", "H-482913", "CHF 9'781", "Migros")
    ]
    assert verdicts == [True, True, True, True, False]


def test_index_exposes_the_precomputed_forms() -> None:
    index = TextIndex("Hello_World 1st-of 2024/03/05 \u00a3 ab")
    assert index.normalized == "hello world 1st - of 2024 / 03 / 05 \u00a3 ab"
    assert index.dates == {"2024-03-05"}
    assert index.digits == "120240305"
    assert index.compact == "helloworld1stof20240305ab"
    assert index.tokens == ("hello", "world", "2024")
    assert index.has_currency


@pytest.mark.parametrize(("text", "value"), [(b"bytes", "x"), ("text", None), ("text", 12)])
def test_non_string_input_is_a_type_error(text: object, value: object) -> None:
    with pytest.raises(TypeError):
        contains_value(text, value)  # type: ignore[arg-type]
