"""Building blocks shared by the document layouts: phrasing of facts, filler, salutations."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from polar_inspect.generate.domains import common_knowledge
from polar_inspect.generate.domains.schema import FieldSpec, FormSpec
from polar_inspect.generate.symbolic import SymbolicRecord, derive_seed
from polar_inspect.generate.textgen import expand, join_list, words


@dataclass(frozen=True)
class Fact:
    """One field of the record as it appears in a document: the value text is verbatim."""

    spec: FieldSpec
    text: str


class Pool:
    """Filler templates in a seeded order, each used at most once; its own rng, so item `i` is
    the same text however many items an earlier rendering pass took."""

    def __init__(self, templates: list[str], rng: random.Random, slots: dict[str, str]) -> None:
        self.templates = templates
        self.rng = rng
        self.slots = slots
        self.items: list[str] = []
        self.position = 0

    def _item(self, index: int) -> str:
        while len(self.items) <= index:
            parts = self.templates[len(self.items)].split("\n")
            self.items.append("\n".join(expand(p, self.rng, self.slots) for p in parts))
        return self.items[index]

    def take(self, budget: int, overhead: int = 0) -> tuple[list[str], int]:
        """Items, in order, while their words (plus `overhead` each) fit into `budget`."""
        taken: list[str] = []
        used = 0
        while self.position < len(self.templates):
            item = self._item(self.position)
            size = words(item) + overhead
            if used + size > budget:
                break
            taken.append(item)
            used += size
            self.position += 1
        return taken, used


class DocContext:
    """What a layout needs: the record, its form, a structural rng, the filler pools and the
    filler word `budget` (each `fill` takes an even share of what is left)."""

    def __init__(self, sym: SymbolicRecord, form: FormSpec, attempt: int, budget: int = 0) -> None:
        self.sym = sym
        self.form = form
        self.remaining = max(budget, 0)
        seed = derive_seed(sym.record_seed, "document", attempt)
        self.rng = random.Random(seed)
        self.slots = dict(sym.context)
        spec, common = sym.spec, common_knowledge()
        self.narrative = self._pool(seed, "narrative", (*spec.filler, *common.filler))
        pairs = (*spec.exchanges, *common.exchanges)
        self.dialogue = self._pool(seed, "dialogue", tuple(f"{e.staff}\n{e.person}" for e in pairs))
        self.monologue = self._pool(seed, "monologue", (*spec.monologue, *common.monologue))

    def _pool(self, seed: int, name: str, templates: tuple[str, ...]) -> Pool:
        rng = random.Random(derive_seed(seed, name))
        order = list(templates)
        rng.shuffle(order)
        return Pool(order, rng, self.slots)

    # -- facts -------------------------------------------------------------------------------
    def facts(self) -> list[Fact]:
        """The record's facts (allowed, then protected)."""
        return [
            Fact(spec, join_list(v) if isinstance(v := self.sym.values[spec.name], list) else v)
            for spec in self.sym.spec.fields
        ]

    def phrase(self, fact: Fact, how: Literal["says", "spoken", "asked"]) -> str:
        """The fact as a third-person sentence (`says`), a first-person line (`spoken`) or a
        staff question (`asked`): the field's own phrasings, else its kind's defaults."""
        own: tuple[str, ...] = getattr(fact.spec, how)
        templates = own or getattr(common_knowledge().kind_phrasing[fact.spec.kind], how)
        slots = {
            **self.slots,
            "a": "an" if fact.text[:1].lower() in "aeiou" else "a",
            "v": fact.text,
            "label": fact.spec.label,
            "key": fact.spec.key_label,
        }
        return expand(self.rng.choice(templates), self.rng, slots)

    def kv(self, fact: Fact) -> str:
        """`Key: value`."""
        return f"{fact.spec.key_label}: {fact.text}"

    # -- structure ---------------------------------------------------------------------------
    def fill(self, pool: Pool, slots_left: int = 1, overhead: int = 0) -> list[str]:
        """Filler items for one slot: an even share of the remaining budget."""
        items, used = pool.take(self.remaining // max(slots_left, 1), overhead)
        self.remaining -= used
        return items

    def x(self, template: str, **extra: str) -> str:
        """Expand a structural template with the document's slots."""
        return expand(template, self.rng, {**self.slots, **extra})

    def shuffle(self, items: list) -> list:
        """A seeded shuffled copy."""
        out = list(items)
        self.rng.shuffle(out)
        return out

    def greeting(self, to: str | None = None) -> str:
        """An email greeting in the record's style, to `to` (default: the colleague)."""
        full = to or self.slots["colleague"]
        greetings = common_knowledge().document_phrasing.greetings
        return self.x(greetings[self.sym.style], full=full, first=full.split()[0])

    def signoff(self) -> str:
        """An email sign-off in the record's style."""
        return self.x(common_knowledge().document_phrasing.signoffs[self.sym.style])

    def heading(self, text: str) -> str:
        """A section heading in the record's layout complexity."""
        by_complexity = {"complex": f"## {text}", "moderate": text.upper()}
        return by_complexity.get(self.sym.layout_complexity, f"{text}:")

    def bullets(self, lines: list[str]) -> str:
        """Sentences as a list when the layout is rich enough, else as running text."""
        return " ".join(lines) if self.sym.layout_complexity == "simple" else self.listing(lines)

    def listing(self, lines: list[str]) -> str:
        """Lines (e.g. `Key: value`) one per line, marked in richer layouts."""
        if self.sym.layout_complexity == "simple":
            return "\n".join(lines)
        marker = "-" if self.sym.layout_complexity == "complex" else "*"
        return "\n".join(f"{marker} {line}" for line in lines)
