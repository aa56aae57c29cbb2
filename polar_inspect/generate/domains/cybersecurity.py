"""Cybersecurity values: how one incident's values are drawn."""

from __future__ import annotations

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Scenario(schema.Knowledge):
    """An incident type with the systems, behaviours and actions that fit it."""

    incident_type: str
    affected_systems: tuple[str, ...] = Field(min_length=1)
    observed_behaviours: tuple[str, ...] = Field(min_length=1)
    recommended_actions: tuple[str, ...] = Field(min_length=1)


class Vocabulary(schema.Vocabulary):
    """The lists an incident's values are drawn from."""

    scenarios: tuple[Scenario, ...]
    severities: tuple[str, ...]
    #: A security answer is `<pet name> the <animal>`.
    pet_names: tuple[str, ...]
    pet_animals: tuple[str, ...]


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One incident's values."""
    scenario = g.pick(words.scenarios)
    employee = g.person()
    return {
        "incident_type": scenario.incident_type,
        "affected_system_type": g.pick(scenario.affected_systems),
        "observed_behavior": g.pick(scenario.observed_behaviours),
        "severity_hint": g.pick(words.severities),
        "recommended_action": g.pick(scenario.recommended_actions),
        "employee_name": employee.full,
        "email": g.email(employee),
        "phone": g.phone(),
        "ip_address": g.ip_address(),
        "device_id": g.code("DEV-######"),
        "internal_hostname": g.hostname(),
        "access_token": "tok_" + g.code("h" * 24),
        "security_question_answer": f"{g.pick(words.pet_names)} the {g.pick(words.pet_animals)}",
        "internal_ticket_id": g.code("SEC-######"),
    }
