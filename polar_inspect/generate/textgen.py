"""A tiny template grammar for varied, seeded text: `[a|b|c]` a seeded choice (nested or empty
alternatives allowed), `{slot}` a named slot filled last, so slot values appear verbatim."""

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


def _alternative(nodes: list[Node], literal: str) -> str | Parsed:
    """One alternative: plain text as one string (expanding it needs no recursion), else nodes."""
    parts = [n for n in (*nodes, literal) if n != ""]
    return "".join(parts) if all(isinstance(n, str) for n in parts) else tuple(parts)  # type: ignore[arg-type]


def _parse(template: str, index: int = 0, nested: bool = False) -> tuple[list[str | Parsed], int]:
    """Parse from `index` to the closing `]` (when nested) into alternatives of nodes."""
    alternatives: list[str | Parsed] = []
    nodes: list[Node] = []
    literal = ""
    while index < len(template):
        char = template[index]
        index += 1
        if char == "[":
            if literal:
                nodes.append(literal)
            options, index = _parse(template, index, nested=True)
            nodes, literal = [*nodes, options], ""
        elif nested and char in "|]":
            alternatives.append(_alternative(nodes, literal))
            nodes, literal = [], ""
            if char == "]":
                return alternatives, index
        else:
            literal += char
    if nested:
        raise TemplateError(f"unclosed '[' in template: {template!r}")
    alternatives.append(_alternative(nodes, literal))
    return alternatives, index


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
    """Expand `[a|b]` choices with `rng`, then fill `{slot}`s (`{Who}`: `who` capitalised);
    `sentence=False` keeps the first letter as written."""
    if isinstance(tree := parse(template), str):
        text = tree
    else:
        out: list[str] = []
        _walk(tree, rng, out)
        text = "".join(out)
    text = capitalise(_squeeze(text)) if sentence else _squeeze(text)
    if "{" not in text:
        return text
    values = slots or {}

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return str(values[name])
        if name[:1].isupper() and (lower := name[:1].lower() + name[1:]) in values:
            return capitalise(str(values[lower]))
        raise TemplateError(f"template slot {{{name}}} has no value in: {template!r}")

    return _SLOT.sub(fill, text)


def _squeeze(text: str) -> str:
    """Collapse doubled spaces left by empty alternatives, and spaces before punctuation."""
    if "  " in text or "\t" in text:
        text = _SPACES.sub(" ", text)
    if any(p in text for p in _PUNCT):
        text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return text.strip()


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
    """`items` dealt into `parts` consecutive chunks whose sizes differ by at most one."""
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        out.append(list(items[start:end]))
        start = end
    return out
