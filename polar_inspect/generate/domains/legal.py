"""Legal values: how one matter's values are drawn."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Case(schema.Knowledge):
    """A case type, facts that fit it and whether the other side is a person or a company."""

    case_type: str
    facts: tuple[str, ...] = Field(min_length=1)
    opposing_party: Literal["person", "company"]


class Vocabulary(schema.Vocabulary):
    """The lists a matter's values are drawn from."""

    cases: tuple[Case, ...]
    jurisdictions: tuple[str, ...]
    urgency_levels: tuple[str, ...]
    #: A grammar template for the lawyer's private notes.
    private_notes: str


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One matter's values."""
    case = g.pick(words.cases)
    client = g.person()
    opponent = g.person().full if case.opposing_party == "person" else g.company()
    return {
        "case_type": case.case_type,
        "task_relevant_fact": g.pick(case.facts),
        "jurisdiction": g.pick(words.jurisdictions),
        "urgency_level": g.pick(words.urgency_levels),
        "client_name": client.full,
        "email": g.email(client),
        "phone": g.phone(),
        "exact_dob": g.date_of_birth(22, 84),
        "case_number": g.code("LEG-######"),
        "opposing_party_name": opponent,
        "private_legal_notes": g.expand(words.private_notes),
        "settlement_limit": g.chf(g.between(8, 180) * 500 + g.pick((0, 250))),
    }
