"""Medical values: how one patient's values are drawn."""

from __future__ import annotations

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Vocabulary(schema.Vocabulary):
    """The lists a patient's values are drawn from."""

    symptoms: tuple[str, ...]
    durations: tuple[str, ...]
    #: A grammar template for the preferred time (drawn two times in three) ...
    preferred_time: str
    #: ... and plain preferred times for the rest.
    preferred_times_simple: tuple[str, ...]


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One patient's values."""
    patient = g.person()
    if g.between(0, 2):
        time = g.expand(words.preferred_time)
    else:
        time = g.pick(words.preferred_times_simple)
    return {
        "symptom": g.pick(words.symptoms),
        "duration": g.pick(words.durations),
        "preferred_time": time,
        "name": patient.full,
        "email": g.email(patient),
        "phone": g.phone(),
        "exact_dob": g.date_of_birth(18, 86),
        "hospital_id": g.code("H-######"),
        "employer": g.company(),
    }
