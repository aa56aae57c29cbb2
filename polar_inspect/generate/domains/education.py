"""Education values: how one student's values are drawn."""

from __future__ import annotations

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Programme(schema.Knowledge):
    """A degree programme with research interests and courses that fit it."""

    degree_program: str
    research_interests: tuple[str, ...] = Field(min_length=1)
    advanced_courses: tuple[str, ...] = Field(min_length=3)
    #: Courses a student may have failed (one or two are drawn).
    first_year_courses: tuple[str, ...] = Field(min_length=2)


class Vocabulary(schema.Vocabulary):
    """The lists a student's values are drawn from."""

    programmes: tuple[Programme, ...]
    standings: tuple[str, ...]
    #: Grammar templates for the disciplinary record and the accommodation.
    disciplinary_record: str
    accommodation: str


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One student's values."""
    programme = g.pick(words.programmes)
    student = g.person()
    return {
        "degree_program": programme.degree_program,
        "academic_standing": g.pick(words.standings),
        "research_interests": g.pick(programme.research_interests),
        "relevant_courses": g.sample(programme.advanced_courses, 3),
        "name": student.full,
        "student_id": g.code("S-######"),
        "exact_gpa": f"{g.between(38, 59) / 10 + g.between(1, 9) / 100:.2f}",
        "disciplinary_record": g.expand(words.disciplinary_record),
        "mental_health_accommodation": g.expand(words.accommodation),
        "failed_courses": g.sample(programme.first_year_courses, g.between(1, 2)),
    }
