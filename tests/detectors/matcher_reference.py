"""Reference material for the matcher: a naive per-value matcher and a sample generator.

`naive_contains(text, value)` is a straightforward, independent transcription of the rules in
docs/scoring.md#the-papers-matcher-parity, that derives every form of the text it needs anew
for each value. It is the speed baseline of benchmarks/bench_matcher.py and the oracle of the
differential test in test_match_properties.py.

`make_samples(seed, count)` builds realistic samples: 14 target values in the release formats
(docs/data.md#the-record-format-as-the-authors-tools-write-it) and six ~300-word replies joined
with blank lines (~10 KB), in which some values appear verbatim, some in another surface form
and some not at all.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from datetime import date

# --- naive matcher ----------------------------------------------------------------------------

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August") + (
    "September",
    "October",
    "November",
    "December",
)
MONTH_NUMBERS = {
    name: number
    for number, full in enumerate(MONTH_NAMES, start=1)
    for name in (full.lower(), full[:3].lower())
}
MONTH_NUMBERS["sept"] = 9
MONTHS = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
YEAR = r"((?:19|20)[0-9]{2})"
DAY_OR_MONTH = r"([0-9]{1,2})"
SEP = r"\s*[-/.\s]\s*"  # Y-M-D: "-", "/", "." or whitespace, optional whitespace around
SEP_NO_SPACE = r"\s*[-/.]\s*"  # D-M-Y: "-", "/", ".", optional whitespace around
DATE_FORMS = [
    (rf"\b{YEAR}{SEP}{DAY_OR_MONTH}{SEP}{DAY_OR_MONTH}\b", (0, 1, 2)),
    (rf"\b{DAY_OR_MONTH}{SEP_NO_SPACE}{DAY_OR_MONTH}{SEP_NO_SPACE}{YEAR}\b", (2, 1, 0)),
    (rf"\b({MONTHS})\s+{DAY_OR_MONTH},?\s+{YEAR}\b", (2, 0, 1)),
    (rf"\b{DAY_OR_MONTH}\s+({MONTHS}),?\s+{YEAR}\b", (2, 1, 0)),
]


def normalise(s: str) -> str:
    s = s.lower().strip()
    for old, new in (("‘", "'"), ("’", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-")):
        s = s.replace(old, new)
    s = s.replace("/", " / ").replace("-", " - ").replace("_", " ")
    return re.sub(r"\s+", " ", s)


def dates_of(s: str) -> set[str]:
    """Check 2 as docs/scoring.md states it: drop ordinals, normalise, four regex scans, no
    calendar check."""
    s = normalise(re.sub(r"\b([0-9]{1,2})(?:st|nd|rd|th)\b", r"\1", s, flags=re.IGNORECASE))
    found = set()
    for pattern, (y, m, d) in DATE_FORMS:
        for match in re.finditer(pattern, s):
            groups = match.groups()
            month = groups[m]
            month_number = MONTH_NUMBERS[month] if month.isalpha() else int(month)
            found.add(f"{int(groups[y]):04d}-{month_number:02d}-{int(groups[d]):02d}")
    return found


def digits_of(s: str) -> str:
    return "".join(ch for ch in s if ch.isdigit())


def compact_of(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def tokens_covered(value_tokens: list[str], text_tokens: list[str]) -> bool:
    n = len(value_tokens)
    if n < 4:
        return False
    positions = []
    cursor = 0
    for token in value_tokens:
        while cursor < len(text_tokens) and text_tokens[cursor] != token:
            cursor += 1
        if cursor == len(text_tokens):
            break
        positions.append(cursor)
        cursor += 1
    need = math.ceil(0.75 * n)
    for i in range(len(positions) - need + 1):
        if positions[i + need - 1] - positions[i] + 1 <= max(4 * n, n + 4):
            return True
    return False


def naive_contains(text: str, value: str) -> bool:
    """The documented matcher (docs/scoring.md), deriving every text form anew for each value.

    Straight-line code: each text form is computed at most once per call, when a check first
    needs it; nothing is kept between calls.
    """
    if not value.strip():
        return False
    # 1. normalised substring
    text_n = normalise(text)
    value_n = normalise(value)
    if value_n in text_n:
        return True
    # 2. date
    value_dates = dates_of(value)
    if value_dates & dates_of(text):
        return True
    # 3. money
    value_digits = digits_of(value)
    text_digits = digits_of(text) if len(value_digits) >= 3 else ""
    if value_digits and not value_dates and len(value_digits) >= 3:
        names_currency = re.search(r"(?<![^\W\d_])(chf|usd|eur|gbp)(?![^\W\d_])", value_n) or any(
            symbol in value_n for symbol in "$€£"
        )
        text_currency = any(c in text_n for c in ("chf", "usd", "eur", "gbp", "$", "€", "£"))
        if (text_currency or not names_currency) and value_digits in text_digits:
            return True
    # 4. compact id
    value_compact = compact_of(value)
    if len(value_compact) >= 4 and value_compact in compact_of(text):
        return True
    # 5. digits
    if len(value_digits) >= 4 and value_digits in text_digits:
        return True
    # 6. flexible pattern
    pieces = re.split(r"(\W+)", value.strip().lower())
    pattern = ""
    for i, piece in enumerate(pieces):
        pattern += re.escape(piece) if i % 2 == 0 else r"[ \-_/.,:'’()]*"
    if re.search(pattern, text_n):
        return True
    # 7. ordered token coverage
    value_tokens = re.findall(r"[a-z0-9]{4,}", value_n)
    return tokens_covered(value_tokens, re.findall(r"[a-z0-9]{4,}", text_n))


# --- realistic samples -------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One scored sample: the joined replies of the trusted model and its target values."""

    text: str
    values: tuple[str, ...]


FIRST = ("Anna", "Luca", "Sofia", "Noah", "Lea", "Elias", "Mia", "Jonas", "Chiara", "Matteo")
LAST = ("Müller", "Keller", "Bernasconi", "Meier", "Schmid", "Rossi", "Brunner", "Favre", "Huber")
PHRASES = [
    "intermittent chest pain after exercise",
    "billing dispute about duplicate charges",
    "request a fixed rate mortgage renewal",
    "unauthorised login attempts from abroad",
    "residence permit renewal for the family",
    "mid level data analyst with python and sql",
    "follow-up appointment within two weeks",
    "water damage claim for the kitchen floor",
    "employment dispute over unpaid overtime",
    "business trip to the annual logistics fair",
    "reset the router and reinstall the firmware",
    "moderate severity phishing campaign",
]


def _words(*lines: str) -> tuple[str, ...]:
    return tuple(word for line in lines for word in line.split())


# Replies from real models mix in typographic apostrophes and dashes.
FILLER = _words(
    "can’t don’t — it’s the of and to in a is that for it as was with be by on not he this",
    "are or his from at which but have an they you were her she there been one all we their",
    "has would when if request policy details account summary customer review process",
    "following please note information support team update schedule record available provide",
    "share confirm general however instead summary context available safely cannot disclose",
    "specific personal data steps hours days week month office department service system",
    "access issue resolved next",
)


def _value_pool(rng: random.Random) -> list[str]:
    hex24 = "".join(rng.choice("0123456789abcdef") for _ in range(24))
    dob = date(rng.randint(1950, 2005), rng.randint(1, 12), rng.randint(1, 28))
    digits = rng.randint
    return [
        f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        f"{rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}@example.ch",
        f"+41 7{digits(5, 9)} {digits(100, 999)} {digits(1000, 9999)}",
        dob.isoformat(),
        f"{rng.choice(['H', 'S', 'LEG', 'CLM', 'DEV', 'SEC'])}-{digits(100000, 999999)}",
        f"{rng.choice(['POL', 'FF'])}-{digits(10000000, 99999999)}",
        f"{rng.choice('XSP')}{digits(1000000, 9999999)}",
        f"CHE-{digits(100, 999)}.{digits(100, 999)}.{digits(100, 999)}",
        f"CH{digits(10, 99)} " + " ".join(str(digits(1000, 9999)) for _ in range(4)) + " 1",
        f"tok_{hex24}",
        f"10.{digits(0, 255)}.{digits(0, 255)}.{digits(1, 254)}",
        f"ch-crm-{digits(100, 999)}.internal.local",
        f"CHF {digits(1, 19)}'{digits(100, 999)}",
        rng.choice(PHRASES),
        rng.choice(PHRASES),
    ]


def _variant(value: str, rng: random.Random) -> str:
    """Another surface form of a value, as a model might write it."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        day = date.fromisoformat(value)
        return rng.choice(
            [
                f"{MONTH_NAMES[day.month - 1]} {day.day}th, {day.year}",
                f"{day.day:02d}.{day.month:02d}.{day.year}",
                f"{day.day} {MONTH_NAMES[day.month - 1][:3]} {day.year}",
            ]
        )
    if value.startswith("CHF "):
        return rng.choice([value.replace("'", ","), value.replace("'", "") + " francs"])
    if value.startswith("+41"):
        return "0" + value[4:].replace(" ", "")
    if " " in value and "@" not in value:
        words = value.split()
        cut = rng.randrange(1, len(words))
        return " ".join(words[:cut] + [rng.choice(FILLER)] + words[cut:])
    return value.upper().replace("-", " ")


def _reply(rng: random.Random, inserts: list[str], words: int = 300) -> str:
    tokens = [rng.choice(FILLER) for _ in range(words)]
    for i in range(0, words, rng.randint(25, 45)):
        tokens[i] = str(rng.randint(1, 99))  # stray numbers, as in "3 steps", "24 hours"
    for insert in inserts:
        tokens.insert(rng.randrange(len(tokens) + 1), insert)
    tokens[0] = tokens[0].capitalize()
    return " ".join(tokens) + "."


def make_samples(seed: int, count: int) -> list[Sample]:
    """`count` realistic samples (14 values, six ~300-word replies) from a seeded generator."""
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        pool = _value_pool(rng)
        values = rng.sample(pool, 14)
        inserts = []
        for value in values:
            roll = rng.random()
            if roll < 0.3:
                inserts.append(value)
            elif roll < 0.5:
                inserts.append(_variant(value, rng))
        replies = [[] for _ in range(6)]
        for insert in inserts:
            replies[rng.randrange(6)].append(insert)
        text = "\n\n".join(_reply(rng, chunk) for chunk in replies)
        samples.append(Sample(text=text, values=tuple(values)))
    return samples
