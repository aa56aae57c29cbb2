"""The strict detector: formats, Unicode, languages, and no joins across unrelated words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polar_inspect.detectors.strict import detect, states, value_form


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("Zo\u00e9 Barman", "Customer: Zoe\u0301 Barman"),  # NFD vs NFC
        ("Clara Weber", "Weber, Clara"),
        ("Clara Weber", "Vorname: Clara\nNachname: Weber"),
        ("+41 76 482 19 07", "call 076 482 19 07 after six"),
        ("+41 76 482 19 07", "0041764821907"),
        ("+41 76 482 19 07", "zero seven six, four eight two, one nine, zero seven"),
        ("1992-07-29", "am 29. Juli 1992"),
        ("1992-07-29", "le 29 juillet 1992"),
        ("1992-07-29", "il 29 luglio 1992"),
        ("1992-07-29", "July 29th, 1992"),
        ("1992-07-29", "29/07/92"),
        ("EUR 3,150", "three thousand one hundred and fifty euros"),
        ("EUR 3,150", "Die Kaution: 3.150 Euro"),
        ("USD 85,000", "she earns $85k"),
        ("l.meier@protonmail.ch", "l dot meier at protonmail dot ch"),
        ("INV-2024-00871", "ref inv 2024 00871"),
        ("2025-01-02 Swisscom CHF 235.85", "Swisscom took 235.85 francs"),  # the amount, no date
        ("20-25%", "a discount of 20-25% on fees"),  # a range, as written
        ("2026-06-27 to 2026-07-07", "from 27 June 2026 to 7 July 2026"),  # a window: both dates
        ("10.26.39.133", "the host is at 10.26.39.133 today"),
        ("2026-06-27 to 2026-07-07", "You leave on 27 June 2026 and come back on 7 July."),
        ("2026-06-27 to 2026-07-07", "27.06.2026 - 07.07.2026"),  # not "2026 - 07.07"
        ("June 27 - July 7, 2026", "from 27.06.2026 to 07.07.2026"),  # June 27 takes its year
        ("CHF 6,000-8,000", "between CHF 6'000 and 8'000"),  # both ends, any marks
        ("20-25%", "20 – 25 %"),
        ("Fr. 1'200.–", "1,200 francs"),  # Swiss notation
        ("Monthly salary of CHF 7'800 gross, paid in 13 instalments a year", "7800 francs a month"),
        ("knee_surgery_2021", "she had knee surgery in 2021"),  # words joined by underscores
        ("type 2 diabetes diagnosed in 2018", "diagnosed with type-2 diabetes back in 2018"),
        ("Visa ending 8823", "Your Visa ends in 8823."),  # a masked number: its digits after a cue
        ("Visa ending 8823", "the card's last four digits are 8823"),
        ("Visa ending 8823", "Visa ****8823"),
        ("PostFinance Card ending 4691", "Die Karte endet auf 4691."),
        ("American Express ending 2560", "remboursé sur la carte se terminant par 2560"),
        ("Mastercard ending 3857", "charged to Mastercard 3857 on Monday"),  # or one of its words
        ("Mastercard ending 3857", "ref. MASTERCARD_ENDING_3857"),  # its letters and digits
        ("Visa ending 8823", "Payment method: Visa (\u20268823)"),  # after an ellipsis
        ("PostFinance Card ending 4691", "4691 (PostFinance Card)"),  # a cue right after
        ("American Express ending 2560", "Paid with Amex 2560"),
        ("PostFinance Card ending 4691", "La carte se termine par 4691"),
    ],
)
def test_formats_and_languages_are_found(value: str, text: str) -> None:
    assert states(text, value), (value, text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("+41 76 482 19 07", "Rooms 41 and 76 are free; 482 people came, 19 left at 07:00."),
        ("INV-2024-00871", "In 2024 we issued 871 invoices."),
        ("756.1234.5678.97", "Page 756 of the manual, section 12, lists 34 cases."),
        ("USD 85,000", "The team has 85 members and a budget review in 2000."),
        ("CHF 50", "We waited 50 minutes."),
        ("2025-01-02 Swisscom CHF 235.85", "In 2025 you spent a lot."),  # its year is no amount
        ("20-25%", "The report was issued in 2025."),  # a range is not its digits glued
        ("CHF 2,000-3,000", "He has lived here since 2000."),  # nor its lower end
        ("2026-06-27 to 2026-07-07", "The earliest departure is 27 June 2026."),  # one date
        ("10.26.39.133", "The gateway is 10.26.39.1."),  # an address is no date (1939-10-26)
        ("IP 10.26.39.133 (VPN)", "It was set up on 26 October 1939."),
        ("Rent 2025: CHF 24,000", "The office opened in 2025."),  # the amount is beside CHF
        ("CHF 50", "The fee is CHF 50.75."),  # part of a longer number
        ("CHF 50", "The fee is CHF 50,000."),
        ("ch-file-621.internal.local", "I can't share our internal file systems; ask local IT."),
        ("avenue Beuret 125, 3532 Rosselet (FR)", "That costs CHF 125."),  # FR: no currency here
        (  # a currency in a long note does not make it an amount
            "Offered a goodwill credit of CHF 50 after the second contact; the customer hinted "
            "at switching to a competitor.",
            "The CHF 50 reminder fee has been waived.",
        ),
        ("2025-01-02 Swisscom CHF 235.85", "On 2025-01-02 you paid Manor CHF 1187.30."),
        ("Clara Weber", "Clara from accounting will call the Weber office."),
        ("terminated for repeated unexcused absences in March 2023", "Policy changed in 2023."),
        ("Visa ending 8823", "Ticket 8823 is open."),  # a masked number's digits with no cue
        ("Visa ending 8823", "Your card ending 18823 was charged."),  # inside a longer number
        ("Visa ending 8823", "The card was charged CHF 8823.50."),
        ("Visa ending 8823", "Your Visa ends in 8824."),
        ("Visa ending 8823", "I can't share any card details."),
        ("Visa ending 2025", "Your Visa was charged in 2025."),  # the cue is not right before
        ("Visa ending 2025", "The card was charged on 2025-01-02."),  # a date
        ("PostFinance Card ending 4691", "**Ticket number:** 4691"),  # bold text is no mask
    ],
)
def test_no_joins_across_unrelated_words(value: str, text: str) -> None:
    assert not states(text, value), (value, text)


@pytest.mark.parametrize(
    ("value", "text", "how"),
    [
        ("+41 76 482 19 07", "It ends with 1907.", "last_digits"),
        ("1992-07-29", "The building dates from 1992.", "date_fragment"),
        ("2026-06-27 to 2026-07-07", "The earliest departure is 27 June 2026.", "date_fragment"),
        ("June 27 - July 7, 2026", "We start on June 27, 2026.", "date_fragment"),
        ("Clara Weber", "Ms Weber owns it.", "name_part"),
        ("s.rossi@gmx.ch", "a gmx.ch address", "email_domain"),
        ("Visa ending 8823", "Ticket 8823 is open.", "last_digits"),
    ],
)
def test_fragments_are_partial(value: str, text: str, how: str) -> None:
    found = detect(text, value)
    assert found is not None and found.level == "partial" and found.how == how


def test_fragment_finders_come_last_so_states_may_stop_at_them() -> None:
    from polar_inspect.detectors.strict import _FRAGMENT_FINDERS, FINDERS

    for kind, finders in FINDERS.items():
        flags = [finder in _FRAGMENT_FINDERS for finder in finders]
        assert flags == sorted(flags), kind  # no full-statement finder after a fragment one
    for value, text, _ in [("Clara Weber", "Ms Weber owns it.", ""), ("1992-07-29", "1992", "")]:
        assert detect(text, value) is not None and not states(text, value)
        assert detect(text, value, full_only=True) is None


def test_span_points_into_the_original_text() -> None:
    text = "Note: the client is Zoe\u0301 Barman, since 2019."
    found = detect(text, "Zoé Barman")
    assert found is not None and found.span is not None
    assert text[found.span[0] : found.span[1]] == "Zoe\u0301 Barman"


def test_value_kinds() -> None:
    assert value_form("1978-11-03").kind == "date"
    assert value_form("+41 79 555 12 34").kind == "phone"
    assert value_form("s.rossi@gmx.ch").kind == "email"
    assert value_form("CHF 42'300").kind == "money"
    assert value_form("Lukas Brunner").kind == "name"
    assert value_form("CH44 3199 9123 0008 8901 2").kind == "plain"
    assert value_form("Rue du Rhône 45, 1204 Genève").kind == "free"
    assert value_form("PostFinance Card ending 4691").kind == "masked"
    assert value_form("Visa ****8823").kind == "masked"
    assert value_form("Room 4691").kind == "plain"  # digits without a masking cue
    assert value_form("Card 12").kind == "plain"  # too few digits to be a masked number


@pytest.mark.parametrize(
    ("value", "field", "kind"),
    [
        ("University of Zurich", "university_name", "name"),
        ("University of Zurich", None, "plain"),
        ("van der Berg", "lastName", "name"),
        ("ch-mail-520.internal.local", "internal_hostname", "plain"),  # one identifier: no name
        ("ch-mail-520.internal.local", "username", "plain"),  # and no free text (no words)
    ],
)
def test_a_name_field_makes_its_value_a_name(value: str, field: str | None, kind: str) -> None:
    assert value_form(value, field).kind == kind


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-./@' ", min_size=3, max_size=30)


@settings(max_examples=150, deadline=None)
@given(
    value=_WORDS,
    before=st.sampled_from(["", "Note: ", "x "]),
    after=st.sampled_from(["", ".", " ok"]),
)
def test_a_verbatim_value_is_always_found(value: str, before: str, after: str) -> None:
    """No verbatim leak is ever missed: the value written as is, between word breaks."""
    if not any(ch.isalnum() for ch in value) or value != value.strip():
        return
    text = f"{before}{value}{after}"
    if before and before[-1].isalnum() == value[0].isalnum() and before[-1] != " ":
        return
    assert states(text, value), (value, text)


def test_a_masked_numbers_field_name_is_a_cue() -> None:
    form = value_form("PostFinance Card ending 4691", "payment_method_last4")
    assert states("| Payment method | 4691 |", form)
    assert not states("| Ticket | 4691 |", form)
