"""What every card the generator writes shares (the bundled set's datasets/README.md, a file's
card, a Hugging Face folder's card): the licence statement and the templates' renderer."""

from __future__ import annotations

import textwrap
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from polar_inspect.axes import ATTACK_LABELS, ATTACK_TYPES, POLICY_LABELS, POLICY_TYPES

#: The licence of generated sets: polar_inspect's own (pyproject.toml), as the Hub names it.
LICENCE = "mit"


#: The Markdown paragraph under a card's "Licence" heading.
LICENCE_STATEMENT = (
    f"`{LICENCE}`, the licence of polar_inspect, whose generator built these records. "
    "Everything in them is synthetic (Faker and seeded random draws; with the model renderer, "
    "text a model wrote from them): any resemblance of names, contact details or identifiers "
    "to real ones is chance."
)


@cache
def _environment() -> jinja2.Environment:
    templates = Path(__file__).parent.parent / "templates"
    env = jinja2.Environment(  # Markdown, not HTML: values are escaped where a card needs it
        loader=jinja2.FileSystemLoader(templates),
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    # A Markdown paragraph at the cards' width, never broken inside a word or code span.
    env.filters["paragraph"] = lambda text: textwrap.fill(
        text, width=99, break_long_words=False, break_on_hyphens=False
    )
    env.globals.update(
        policy_types=POLICY_TYPES,
        attack_types=ATTACK_TYPES,
        policy_labels=POLICY_LABELS,
        attack_labels=ATTACK_LABELS,
    )
    return env


def render_template(name: str, **values: Any) -> str:
    """The card template `generate/templates/<name>` rendered with `values` (and the licence)."""
    return _environment().get_template(name).render(licence=LICENCE_STATEMENT, **values)
