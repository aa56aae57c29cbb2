"""The strict detector's value side: `value_form(value, field)` prepares a value once, with its
kind (`ValueKind`) and every written form the finders of `strict.py` look for."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import groupby
from typing import Literal

from polar_inspect.detectors import textdates as td
from polar_inspect.detectors import textforms as tf
from polar_inspect.detectors.lexicon import LEXICON, STOPWORDS, currency_pattern, masked_cue_pattern
from polar_inspect.detectors.strict_text import TextView, stem

ValueKind = Literal[
    "date", "phone", "email", "money", "number", "range", "masked", "org", "name", "free", "plain"
]


_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_PHONE = re.compile(r"^\+?[\d\s\-().\/]{7,}$")
_CURRENCY = rf"(?:{currency_pattern()})"
#: A currency word beside a number ("CHF 50", "Fr. 50.-", "50.- CHF"): a money value has one.
_MONEY = re.compile(rf"{_CURRENCY}[\s.:]{{0,3}}\d|\d[\s.-]{{0,3}}{_CURRENCY}")
_NUMBER = r"\d+(?:[',. ]\d{3})*(?:[.,]\d+)?"
#: Two numbers as one value ("20-25%", "CHF 2,000 to 3,000"): found as written, never by one end.
_RANGE = re.compile(
    rf"^(?:{_CURRENCY} ?)?{_NUMBER}(?: ?- ?| (?:to|bis|a) ){_NUMBER} ?(?:%|{_CURRENCY})?$"
)
#: Words, a masking cue and the few digits a card or an account shows ("Visa ending 8823").
_MASKED = re.compile(rf"^\D*(?:{masked_cue_pattern()})\D{{0,6}}\d{{4,6}}$")
_IPV4 = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\.?\d)")
_WORD_BREAK = re.compile(r"[\s_,;/:]")  # a value of several words may be paraphrased
_NUMBER_VALUE = re.compile(r"^[+-]?\d+(?:[.,]\d+)?\s*%?$")
_NAME_PARTICLES = frozenset(LEXICON["name_particles"])


def _edge_free(text: str, index: int, edge: str, step: int) -> bool:
    """No character of the value's edge class (letter or digit) at `index` of `text`."""
    if not 0 <= index < len(text):
        return True
    neighbour, beyond = text[index], text[index + step : index + step + 1]
    if edge.isdigit() and neighbour in ".,'" and beyond.isdigit():
        return False  # "50" in "50.75" or "50,000": part of a longer number
    return not (edge.isdigit() and neighbour.isdigit() or edge.isalpha() and neighbour.isalpha())


@dataclass
class ValueForm:
    """One value prepared once: its kind and the forms the detector looks for."""

    value: str
    kind: ValueKind
    folded: str
    compacts: list[str]
    tokens: list[str]
    date: tuple[int, int, int] | None = None
    amount: float | None = None
    #: Each date a date value holds (a window, "2026-06-27 to 2026-07-07": both to be stated).
    held_dates: list[tuple[int, int, int]] = field(default_factory=list)
    whole_date: bool = False  # a date and no other letter or digit ("2 May 2020", not "$5 2 May")
    digits: str = ""
    content_stems: list[str] = field(default_factory=list)
    core: list[str] = field(default_factory=list)  # an "org" value's tokens without legal form
    cue: re.Pattern[str] | None = None  # a masked number's: what a reply puts beside its digits

    @cached_property
    def ends(self) -> list[set[float]]:
        """A range's two numbers, each with its readings ("6,000": 6000 and 6.0)."""
        by_start = groupby(tf.numbers_in(self.folded), key=lambda number: number[1])
        return [{n for n, _, _ in readings} for _, readings in by_start][:2]

    def find_verbatim(
        self, view: TextView, which: str, text: str | None = None
    ) -> tuple[int, int] | None:
        """Span of the value (or of `text`, a folded part of it) written as is in one form of
        the view: any whitespace run between its parts, no letter (digit) glued to an edge letter
        (digit)."""
        if not (needle := " ".join((self.folded if text is None else text).split())):
            return None
        squeezed = view.squeezed(which)
        start = squeezed.find(needle)
        while start >= 0:
            end = start + len(needle)
            edges = (start - 1, needle[0], -1), (end, needle[-1], 1)  # (index, edge, step)
            if all(_edge_free(squeezed, *edge) for edge in edges):
                offsets = view.squeeze_points(which)
                return tf.form_offset(offsets, start), tf.form_offset(offsets, end - 1) + 1
            start = squeezed.find(needle, start + 1)
        return None


HOME_COUNTRY_CODES: tuple[str, ...] = tuple(LEXICON["home_country_codes"])


def _phone_splits(value: str, digits: str) -> list[tuple[str, str]]:
    """(country code, subscriber number without trunk 0) readings of a phone value: an
    international one with a code of 1-3 digits, a national one with `HOME_COUNTRY_CODES`."""
    if value.startswith(("+", "00")):
        number = digits[2:] if value.startswith("00") else digits
        return [
            (number[:n], number[n:].removeprefix("0")) for n in (1, 2, 3) if len(number) >= n + 6
        ]
    if digits.startswith("0") and not digits.startswith("00") and 9 <= len(digits) <= 12:
        return [(cc, digits[1:]) for cc in HOME_COUNTRY_CODES]
    return []


def _phone_compacts(value: str, digits: str) -> list[str]:
    """Every written form of a phone value (0 + subscriber; CC, 00CC, with or without a 0)."""
    alternatives = [digits]
    for cc, subscriber in _phone_splits(value.strip(), digits):
        alternatives += [
            prefix + subscriber for prefix in ("0", cc, "00" + cc, cc + "0", "00" + cc + "0")
        ]
    return list(dict.fromkeys(alternatives))


_NAME_FIELD_WORDS = frozenset(LEXICON["name_field_words"])


def _field_words(field_name: str) -> list[str]:
    """The words of a field name: "customer_name", "firstName" -> customer name, first name."""
    return re.split(r"[^a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", field_name).lower())


def is_name_field(field_name: str) -> bool:
    """Whether a field holds a name: one of its words ("customer_name", "firstName", "name2")
    is a name word; "internal_hostname" or "username" is not."""
    return any(word in _NAME_FIELD_WORDS for word in _field_words(field_name))


def _mask_cue(tokens: list[str], field_name: str | None) -> re.Pattern[str]:
    """What a reply puts beside a masked number's digits: a masking cue, one of the value's words
    or of its field name's ("Visa 8823", "payment method: 8823")."""
    words = [*tokens, *_field_words(field_name or "")]
    own = {w for w in words if w.isalpha() and len(w) > 2 and w not in STOPWORDS}
    alternatives = rf"|(?<![^\W\d_])(?:{'|'.join(sorted(own))})(?![^\W\d_])" if own else ""
    return re.compile(masked_cue_pattern() + alternatives)


def _is_name(value: str, tokens: list[str], field_name: str | None) -> bool:
    if field_name and is_name_field(field_name):
        return True
    words = value.split()
    if not 2 <= len(words) <= 4 or any(ch.isdigit() for ch in value):
        return False
    return all(w[:1].isupper() or w.lower() in _NAME_PARTICLES for w in words) and all(
        t.isalpha() for t in tokens
    )


@lru_cache(maxsize=4096)
def value_form(value: str, field_name: str | None = None) -> ValueForm:
    """Prepare `value` (and optionally its field name, a hint for names) for detection."""
    folded = tf.fold(value).text.strip()
    toks = [t for t, _, _ in tf.tokens(folded)]
    compact = "".join(toks)
    digits = re.sub(r"\D", "", folded)
    content_tokens = [t for t in toks if t not in STOPWORDS]
    stems = list(dict.fromkeys(stem(t) for t in content_tokens))
    compacts = [compact] if compact else []
    form = ValueForm(value, "plain", folded, compacts, toks, digits=digits, content_stems=stems)
    if _IPV4.search(folded):
        return form  # holds a network address: no date, phone or amount in it
    # a complete date always has digits (its year): a value without any is no date
    dates = _complete_dates(folded) if digits else []
    date_chars = sum(d.end - d.start for d in dates)
    if dates and date_chars >= 0.7 * len(folded):
        _set_date_kind(form, dates)
    else:
        _set_other_kind(form, field_name)
    return form


def _complete_dates(folded: str) -> list[td.DateMention]:
    """The complete dates of a value, and each day and month without a year in the year of the
    first (a window's first day: "27 June - 7 July 2026")."""
    mentions = td.dates_in(folded)
    if not (dates := [d for d in mentions if d.complete]):
        return []
    year, days = dates[0].year, [m for m in mentions if m.day and m.month and not m.year]
    return dates + [td.DateMention(year, m.month, m.day, m.start, m.end) for m in days]


def _set_date_kind(form: ValueForm, dates: list[td.DateMention]) -> None:
    """A date value: its first date, each date it holds, and whether it is one date alone."""
    d = dates[0]
    assert d.year and d.month and d.day
    form.kind, form.date = "date", (d.year, d.month, d.day)
    held = {m.start: (m.year or 0, m.month or 0, m.day or 0) for m in reversed(dates)}
    form.held_dates = list(held.values())  # the first reading of each
    rest = form.folded[: d.start] + form.folded[d.end :]
    form.whole_date = len(held) == 1 and not any(map(str.isalnum, rest))


def _money_amount(folded: str) -> float | None:
    """The amount of a money value: the number beside its currency word ("2025-01-02 Coop CHF
    5.50" is 5.50); in more than eight words only a distinct one (1,000 or more, or with cents),
    so a note that mentions "CHF 50" is text, not an amount."""
    if not (money := _MONEY.search(folded)):
        return None
    amount = next(
        (n for n, at, end in tf.numbers_in(folded) if money.start() < end and at < money.end()),
        None,
    )
    if amount is None or (len(folded.split()) > 8 and amount < 1000 and amount.is_integer()):
        return None
    return amount


def _set_other_kind(form: ValueForm, field_name: str | None) -> None:
    """Set the kind of a value that is no date, and what that kind needs (else it stays plain)."""
    folded, toks, digits = form.folded, form.tokens, form.digits
    if _EMAIL.match(folded):
        form.kind = "email"
    elif _PHONE.match(folded) and len(digits) >= 7:
        form.kind = "phone"
        form.compacts = _phone_compacts(folded, digits)
    elif _RANGE.match(folded):
        form.kind = "range"  # both ends (`strict.range_ends`), never one, nor their digits glued
    elif _MASKED.match(folded):  # its digits beside a cue (`strict.masked`)
        form.kind, form.cue = "masked", _mask_cue(toks, field_name)
    elif (amount := _money_amount(folded)) is not None:
        form.kind, form.amount = "money", amount
    elif _NUMBER_VALUE.match(folded):
        form.kind, form.amount = "number", float(folded.rstrip("% ").replace(",", "."))
    elif (core := tf.without_legal_form(toks)) != toks and any(t.isalpha() for t in core):
        form.kind, form.core = "org", core
    elif _is_name(form.value, toks, field_name):
        form.kind = "name"
    elif (
        _WORD_BREAK.search(folded)
        and len(form.content_stems) >= 3
        and sum(t.isalpha() for t in toks if t not in STOPWORDS) >= 2
    ):
        form.kind = "free"
