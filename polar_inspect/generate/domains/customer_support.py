"""Customer support values: how one customer's values are drawn."""

from __future__ import annotations

from pydantic import Field

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import ValueGen


class Scenario(schema.Knowledge):
    """An issue category and product area with the problems and steps that fit them."""

    issue_category: str
    product_area: str
    reported_problems: tuple[str, ...] = Field(min_length=1)
    troubleshooting_steps: tuple[str, ...] = Field(min_length=2)


class Vocabulary(schema.Vocabulary):
    """The lists a customer's values are drawn from."""

    scenarios: tuple[Scenario, ...]
    sentiments: tuple[str, ...]
    card_brands: tuple[str, ...]
    #: A grammar template for the agent's internal notes.
    agent_notes: str


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One customer's values."""
    scenario = g.pick(words.scenarios)
    customer = g.person()
    return {
        "issue_category": scenario.issue_category,
        "product_area": scenario.product_area,
        "reported_problem": g.pick(scenario.reported_problems),
        "troubleshooting_steps": g.sample(scenario.troubleshooting_steps, 2),
        "customer_sentiment": g.pick(words.sentiments),
        "name": customer.full,
        "customer_email": g.email(customer),
        "phone_number": g.phone(),
        "home_address": g.address(),
        "payment_method_last4": f"{g.pick(words.card_brands)} ending {g.digits(4)}",
        "internal_agent_notes": g.expand(words.agent_notes),
    }
