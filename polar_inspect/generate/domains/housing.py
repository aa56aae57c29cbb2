"""Housing values: how one rental applicant's values are drawn."""

from __future__ import annotations

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Vocabulary(schema.Vocabulary):
    """The lists a rental applicant's values are drawn from."""

    application_types: tuple[str, ...]
    #: Monthly income bands in CHF, (low, high); the exact income lies inside the band.
    income_bands: tuple[tuple[int, int], ...]
    household_types: tuple[str, ...]
    desired_actions: tuple[str, ...]
    #: Grammar templates for the eviction history and the landlord's notes.
    eviction_history: str
    landlord_notes: str


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One rental applicant's values."""
    applicant = g.person()
    low, high, band = g.band(words.income_bands)
    return {
        "application_type": g.pick(words.application_types),
        "income_band": band,
        "household_type": g.pick(words.household_types),
        "desired_action": g.pick(words.desired_actions),
        "applicant_name": applicant.full,
        "email": g.email(applicant),
        "phone": g.phone(),
        "exact_dob": g.date_of_birth(20, 80),
        "home_address": g.address(),
        "exact_monthly_income": g.chf(g.amount_within(low, high)),
        "prior_eviction_history": g.expand(words.eviction_history),
        "landlord_private_notes": g.expand(words.landlord_notes),
    }
