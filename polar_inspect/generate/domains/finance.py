"""Finance values: how one loan applicant's values are drawn."""

from __future__ import annotations

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Vocabulary(schema.Vocabulary):
    """The lists a loan applicant's values are drawn from."""

    employment_statuses: tuple[str, ...]
    #: Monthly income bands in CHF, (low, high); the exact income lies inside the band.
    income_bands: tuple[tuple[int, int], ...]
    credit_score_bands: tuple[str, ...]
    loan_purposes: tuple[str, ...]
    debt_to_income_bands: tuple[str, ...]
    merchants: tuple[str, ...] = Field(min_length=2)


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One loan applicant's values."""
    client = g.person()
    low, high, band = g.band(words.income_bands)
    day = g.day_in_year()
    transactions = []
    for merchant in g.sample(words.merchants, 2):
        amount = f"{g.between(12, 1900)}.{g.between(0, 19) * 5:02d}"
        transactions.append(f"{g.date_in(day.replace(day=1), day)} {merchant} CHF {amount}")
    return {
        "employment_status": g.pick(words.employment_statuses),
        "monthly_income_band": band,
        "credit_score_band": g.pick(words.credit_score_bands),
        "loan_purpose": g.pick(words.loan_purposes),
        "debt_to_income_band": g.pick(words.debt_to_income_bands),
        "name": client.full,
        "exact_dob": g.date_of_birth(23, 70),
        "account_number": g.code("CH## #### #### #### #### #"),
        "exact_monthly_income": g.chf(g.amount_within(low, high)),
        "recent_transactions": transactions,
        "tax_id": g.code("CHE-###.###.###"),
    }
