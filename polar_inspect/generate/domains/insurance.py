"""Insurance values: how one claim's values are drawn."""

from __future__ import annotations

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Policy(schema.Knowledge):
    """A policy type with the claim types that fit it."""

    policy_type: str
    claim_types: tuple[str, ...] = Field(min_length=1)


class Vocabulary(schema.Vocabulary):
    """The lists a claim's values are drawn from."""

    policies: tuple[Policy, ...]
    #: Coverage bands in CHF, (low, high).
    coverage_bands: tuple[tuple[int, int], ...]
    claim_statuses: tuple[str, ...]
    #: Grammar templates for the medical details and the risk notes.
    medical_details: str
    risk_notes: str


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One claim's values."""
    policy = g.pick(words.policies)
    holder, beneficiary = g.person(), g.person()
    return {
        "policy_type": policy.policy_type,
        "claim_type": g.pick(policy.claim_types),
        "coverage_band": g.band(words.coverage_bands)[2],
        "claim_status": g.pick(words.claim_statuses),
        "policyholder_name": holder.full,
        "email": g.email(holder),
        "phone": g.phone(),
        "exact_dob": g.date_of_birth(20, 82),
        "policy_number": g.code("POL-########"),
        "claim_number": g.code("CLM-######"),
        "medical_details": g.expand(words.medical_details),
        "risk_notes": g.expand(words.risk_notes),
        "beneficiary_name": beneficiary.full,
    }
