"""A tiny template grammar for varied, seeded text.

Templates use `[a|b|c]` for a seeded choice between alternatives (nesting allowed, an empty
alternative is allowed) and `{slot}` for a named slot. Alternatives are expanded first and the
template's own text is tidied; slots are filled last, in one pass, so slot values always
appear verbatim and are never expanded again.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TypeVar

T = TypeVar("T")

_SLOT = re.compile(r"\{(\w+)\}")
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r" +([,.;:?!])")
_PUNCT = (" ,", " .", " ;", " :", " ?", " !")

#: A parsed template: literal text, or a list of alternatives (each a literal or parsed).
Node = str | list["str | Parsed"]
Parsed = tuple[Node, ...]


class TemplateError(KeyError):
    """A template names a slot that was not provided, or its brackets do not balance."""


class _Alternatives:
    """The alternatives of one bracket (or of the whole template) as `_parse` collects them."""

    def __init__(self) -> None:
        self.alternatives: list[str | Parsed] = []
        self.nodes: list[Node] = []
        self.literal: list[str] = []

    def flush_literal(self) -> None:
        """End the current run of plain text (a bracket starts)."""
        if self.literal:
            self.nodes.append("".join(self.literal))
            self.literal = []

    def close(self) -> None:
        """End the current alternative; plain text is kept as one string."""
        self.nodes.append("".join(self.literal))
        parts = [n for n in self.nodes if n != ""]
        if all(isinstance(n, str) for n in parts):
            self.alternatives.append("".join(parts))  # type: ignore[arg-type]
        else:
            self.alternatives.append(tuple(parts))
        self.nodes, self.literal = [], []


def _parse(template: str, start: int = 0, nested: bool = False) -> tuple[list[str | Parsed], int]:
    """Parse from `start` to the closing `]` (when nested) into alternatives of nodes.

    An alternative that is plain text is kept as a string, so expanding it needs no recursion.
    """
    found = _Alternatives()
    index = start
    while index < len(template):
        char = template[index]
        if char == "[":
            found.flush_literal()
            options, index = _parse(template, index + 1, nested=True)
            found.nodes.append(options)
            continue
        if nested and char in "|]":
            found.close()
            if char == "]":
                return found.alternatives, index + 1
        else:
            found.literal.append(char)
        index += 1
    if nested:
        raise TemplateError(f"unclosed '[' in template: {template!r}")
    found.close()
    return found.alternatives, index


@cache
def parse(template: str) -> str | Parsed:
    """The template's parse tree (cached: templates are few, expansions many)."""
    return _parse(template)[0][0]


def _walk(nodes: Parsed, rng: random.Random, out: list[str]) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
            continue
        choice = node[rng.randrange(len(node))] if len(node) > 1 else node[0]
        if isinstance(choice, str):
            out.append(choice)
        else:
            _walk(choice, rng, out)


def expand(
    template: str,
    rng: random.Random,
    slots: Mapping[str, object] | None = None,
    *,
    sentence: bool = True,
) -> str:
    """Expand `[a|b]` choices with `rng`, then fill `{slot}` names from `slots`.

    A slot written with a capital first letter (`{Who}`) takes the capitalised value of its
    lower-case name (`who`). `sentence=False` keeps the first letter as written (fragments).
    """
    tree = parse(template)
    if isinstance(tree, str):
        text = tree
    else:
        out: list[str] = []
        _walk(tree, rng, out)
        text = "".join(out)
    text = tidy(text) if sentence else _squeeze(text)
    if "{" not in text:
        return text
    values = slots or {}

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return str(values[name])
        lower = name[:1].lower() + name[1:]
        if name[:1].isupper() and lower in values:
            return capitalise(str(values[lower]))
        raise TemplateError(f"template slot {{{name}}} has no value in: {template!r}")

    return _SLOT.sub(fill, text)


def _squeeze(text: str) -> str:
    if "  " in text or "\t" in text:
        text = _SPACES.sub(" ", text)
    if any(p in text for p in _PUNCT):
        text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return text.strip()


def tidy(text: str) -> str:
    """Collapse doubled spaces left by empty alternatives and capitalise the first letter."""
    return capitalise(_squeeze(text))


def capitalise(text: str) -> str:
    """Upper-case the first character only (unlike str.capitalize, keeps the rest)."""
    return text[:1].upper() + text[1:] if text else text


def words(text: str) -> int:
    """Whitespace word count, the unit of every length statistic."""
    return len(text.split())


def join_list(items: Sequence[str], conjunction: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def deal(items: Sequence[T], parts: int) -> list[list[T]]:
    """`items` dealt into `parts` consecutive chunks whose sizes differ by at most one (the
    first chunks take the extra items; more parts than items leaves some chunks empty)."""
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        out.append(list(items[start:end]))
        start = end
    return out


def pick(rng: random.Random, options: Sequence[str]) -> str:
    """One seeded choice (a named helper so call sites read as intent)."""
    return options[rng.randrange(len(options))]
