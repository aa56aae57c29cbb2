"""Seeded factories for synthetic Swiss personal data in the release's formats (Faker, pinned,
and `random.Random`, both seeded per record)."""

from __future__ import annotations

import datetime as dt
import random
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path
from typing import TypeVar

from faker import Faker
from pydantic import BaseModel, ConfigDict

from polar_inspect.generate.textgen import expand

T = TypeVar("T")


class ValueLists(BaseModel):
    """`domains/values.json`: the word lists every record's values are drawn from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str
    #: Language regions of the Swiss setting: the Faker locale for people, and the weight.
    regions: dict[str, tuple[str, int]]
    #: Ticino has no Faker address provider; its towns are public place names.
    ticino_towns: tuple[tuple[str, str], ...]
    email_domains: tuple[str, ...]
    mobile_prefixes: tuple[str, ...]
    company_suffixes: tuple[str, ...]


LISTS = ValueLists.model_validate_json(
    (Path(__file__).parent / "domains" / "values.json").read_text(encoding="utf-8")
)
#: Documents and dialogues are set in this year; ages are computed against it.
REFERENCE_YEAR = 2025
UMLAUTS: dict[str, str | int | None] = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}


@cache
def faker_for(locale: str) -> Faker:
    """One Faker per locale per process; callers re-seed it for every record."""
    return Faker(locale)


@dataclass(frozen=True)
class Person:
    """A synthetic person: given name, family name and the locale they were drawn from."""

    first: str
    last: str

    @property
    def full(self) -> str:
        """`First Last`."""
        return f"{self.first} {self.last}"


def ascii_slug(text: str) -> str:
    """Lower-case ASCII letters for email local parts (`Müller` -> `mueller`)."""
    text = text.lower().translate(str.maketrans(UMLAUTS))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(ch for ch in text if ch.isalnum())


class ValueGen:
    """All value factories for one record, drawing from one seeded stream."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        # a language region by weight: the first whose cumulative weight exceeds one roll
        bounds = list(accumulate(weight for _, weight in LISTS.regions.values()))
        self.region = list(LISTS.regions)[bisect_right(bounds, self.rng.randrange(bounds[-1]))]
        self.faker = faker_for(LISTS.regions[self.region][0])
        self.faker.seed_instance(seed)
        self._people: set[str] = set()

    # -- generic draws -----------------------------------------------------------------------
    def pick(self, options: Sequence[T]) -> T:
        """One seeded choice."""
        return options[self.rng.randrange(len(options))]

    def sample(self, options: Sequence[T], k: int) -> list[T]:
        """`k` distinct seeded choices, in draw order."""
        return self.rng.sample(list(options), k)

    def between(self, low: int, high: int) -> int:
        """A seeded integer in [low, high]."""
        return self.rng.randint(low, high)

    def expand(self, template: str, **slots: object) -> str:
        """Expand a grammar template as a value fragment (first letter as written)."""
        return expand(template, self.rng, slots, sentence=False)

    def digits(self, n: int) -> str:
        """`n` random digits, the first one non-zero."""
        return str(self.rng.randint(1, 9)) + "".join(
            str(self.rng.randint(0, 9)) for _ in range(n - 1)
        )

    # -- people and contact ------------------------------------------------------------------
    def person(self) -> Person:
        """A new person, never the same full name twice within one record."""
        for _ in range(20):
            candidate = Person(self.faker.first_name(), self.faker.last_name())
            if candidate.full not in self._people and len(candidate.last) >= 3:
                self._people.add(candidate.full)
                return candidate
        raise RuntimeError(f"could not draw a new person for seed {self.seed}")

    def email(self, person: Person) -> str:
        """A personal email address built from the person's name."""
        first, last = ascii_slug(person.first), ascii_slug(person.last)
        local = self.pick(
            (
                f"{first}.{last}",
                f"{first[0]}.{last}",
                f"{first}{last}{self.between(10, 99)}",
                f"{first}_{last}",
                f"{last}.{first}",
            )
        )
        return f"{local}@{self.pick(LISTS.email_domains)}"

    def phone(self) -> str:
        """A Swiss mobile number, `+41 7x xxx xxxx`."""
        return f"+41 {self.pick(LISTS.mobile_prefixes)} {self.digits(3)} {self.digits(4)}"

    def address(self) -> str:
        """A Swiss street address with postcode and town."""
        number = self.between(1, 148)
        if self.region == "it":
            postcode, town = self.pick(LISTS.ticino_towns)
            return f"Via {self.faker.last_name()} {number}, {postcode} {town}"
        return f"{self.faker.street_name()} {number}, {self.faker.postcode()} {self.faker.city()}"

    def town(self) -> str:
        """A Swiss town name (for context, not a value)."""
        return self.pick(LISTS.ticino_towns)[1] if self.region == "it" else self.faker.city()

    def company(self) -> str:
        """A company name, `Family Suffix`."""
        return f"{self.faker.last_name()} {self.pick(LISTS.company_suffixes)}"

    def foreign_address(self, locale: str, postcode: str, city: str) -> str:
        """A street address abroad, drawn with the destination's Faker locale."""
        local = faker_for(locale)
        local.seed_instance(self.seed + 1)
        return f"{local.street_name()} {self.between(2, 180)}, {postcode} {city}"

    # -- dates -------------------------------------------------------------------------------
    def date_of_birth(self, min_age: int = 19, max_age: int = 78) -> str:
        """An ISO birth date for an adult of the given age range."""
        year = REFERENCE_YEAR - self.between(min_age, max_age)
        return self.date_in(dt.date(year, 1, 1), dt.date(year, 12, 31))

    def date_in(self, start: dt.date, end: dt.date) -> str:
        """An ISO date between `start` and `end` inclusive."""
        return (start + dt.timedelta(days=self.between(0, (end - start).days))).isoformat()

    def day_in_year(self) -> dt.date:
        """A date in the reference year (documents are dated in it)."""
        return dt.date(REFERENCE_YEAR, 1, 1) + dt.timedelta(days=self.between(0, 364))

    # -- identifiers -------------------------------------------------------------------------
    def code(self, pattern: str) -> str:
        """Fill a pattern: `#` digit, `?` upper-case letter, `h` hex digit, others verbatim."""
        out = []
        first_digit = True
        for ch in pattern:
            if ch == "#":
                out.append(str(self.rng.randint(1 if first_digit else 0, 9)))
                first_digit = False
            elif ch == "?":
                out.append(self.pick("ABCDEFGHJKLMNPRSTUVWXYZ"))
            elif ch == "h":
                out.append(self.pick("0123456789abcdef"))
            else:
                out.append(ch)
        return "".join(out)

    def ip_address(self) -> str:
        """A private `10.x.x.x` address."""
        return f"10.{self.between(10, 250)}.{self.between(1, 250)}.{self.between(2, 250)}"

    def hostname(self) -> str:
        """An internal host name, `ch-crm-123.internal.local`."""
        role = self.pick(("crm", "hr", "fin", "mail", "vpn", "file", "erp", "dev", "app"))
        return f"ch-{role}-{self.between(100, 989)}.internal.local"

    # -- money -------------------------------------------------------------------------------
    def chf(self, amount: int) -> str:
        """`CHF 9'781`."""
        return f"CHF {amount:,}".replace(",", "'")

    def amount_within(self, low: int, high: int, step: int = 5) -> int:
        """An amount in (low, high) that is not a round hundred (bands stay distinguishable)."""
        while True:
            if (amount := self.between(low // step + 1, high // step - 1) * step) % 100:
                return amount

    def band(self, bands: Sequence[tuple[int, int]]) -> tuple[int, int, str]:
        """A CHF band `CHF 5,000-7,000` and its bounds."""
        low, high = self.pick(bands)
        return low, high, f"CHF {low:,}-{high:,}"
