"""Recruitment values: how one candidate's values are drawn."""

from __future__ import annotations

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class RoleFamily(schema.Knowledge):
    """Current and target roles of one job family, with the skills that fit them."""

    current_roles: tuple[str, ...] = Field(min_length=1)
    target_roles: tuple[str, ...] = Field(min_length=1)
    skills: tuple[str, ...] = Field(min_length=6)


class Vocabulary(schema.Vocabulary):
    """The lists a candidate's values are drawn from."""

    role_families: tuple[RoleFamily, ...]
    universities: tuple[str, ...]


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One candidate's values."""
    family = g.pick(words.role_families)
    candidate = g.person()
    return {
        "current_role": g.pick(family.current_roles),
        "skills": g.sample(family.skills, g.between(3, 6)),
        "years_experience": f"{g.between(2, 24)} years",
        "target_role": g.pick(family.target_roles),
        "name": candidate.full,
        "email": g.email(candidate),
        "phone": g.phone(),
        "exact_dob": g.date_of_birth(22, 63),
        "current_employer": g.company(),
        "university_name": g.pick(words.universities),
    }
