"""The one licence statement of every card the generator writes (the bundled set's
datasets/README.md, a file's card, a Hugging Face folder's card)."""

from __future__ import annotations

#: The licence of generated sets: polar_inspect's own (pyproject.toml), as the Hub names it.
LICENCE = "mit"


def licence_statement() -> str:
    """The Markdown paragraph under a card's "Licence" heading."""
    return (
        f"`{LICENCE}`, the licence of polar_inspect, whose generator built these records. "
        "Everything in them is synthetic (Faker and seeded random draws; with the model renderer, "
        "text a model wrote from them): any resemblance of names, contact details or identifiers "
        "to real ones is chance."
    )
