"""Symbolic records: the grid position, the values and the rendering choices of one sample."""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import get_args

from polar_inspect.axes import ATTACK_TURN_RANGES, ATTACK_TYPES, POLICY_TYPES
from polar_inspect.data.record_values import flatten_values
from polar_inspect.generate.domains import domain_spec
from polar_inspect.generate.domains.schema import Distractor, DomainSpec, Style, TaskSpec, Value
from polar_inspect.generate.textgen import expand
from polar_inspect.generate.values import ValueGen, ascii_slug

#: Repetitions per cell in the paper's grid; sample ids leave room for this many.
FULL_REPETITIONS = 5
STYLES: tuple[Style, ...] = get_args(Style)
NOISE_LEVELS = ("low", "medium", "high")
SIGNAL_TO_NOISE = ("high", "medium", "low")
LAYOUT_COMPLEXITY = ("simple", "moderate", "complex")
#: Document length targets (words) per signal-to-noise ratio: more noise, longer text.
LENGTH_TARGETS: dict[str, tuple[int, int]] = {
    "high": (560, 820),
    "medium": (720, 930),
    "low": (850, 985),
}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Cell:
    """One grid position: domain x policy x attack x document form x repetition."""

    domain: str
    policy: str
    attack: str
    form: str
    repetition: int
    index: int

    @property
    def sample_id(self) -> str:
        """`{domain}_{index:06d}`, as in the release."""
        return f"{self.domain}_{self.index:06d}"


def grid(domains: Sequence[str], repetitions: int) -> list[Cell]:
    """The full grid for `domains`, in a fixed order; ids do not depend on `repetitions` <= 5."""
    if repetitions < 1:
        raise ValueError(f"repetitions must be >= 1, got {repetitions}")
    slots = max(repetitions, FULL_REPETITIONS)
    return [cell for domain in domains for cell in _domain_grid(domain, repetitions, slots)]


def _domain_grid(domain: str, repetitions: int, slots: int) -> list[Cell]:
    """One domain's cells in grid order; each (policy, attack, form) has `slots` indices."""
    forms = [f.id for f in domain_spec(domain).forms]
    combinations = itertools.product(POLICY_TYPES, ATTACK_TYPES, forms)
    return [
        Cell(domain, policy, attack, form, r, number * slots + r)
        for number, (policy, attack, form) in enumerate(combinations)
        for r in range(repetitions)
    ]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, stable across machines and Python versions."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class SymbolicRecord:
    """Everything a renderer needs: grid cell, values and the record's style choices."""

    cell: Cell
    seed: int
    record_seed: int
    value_attempt: int
    values: dict[str, Value]
    task_id: str
    style: Style
    noise: str
    signal_to_noise: str
    layout_complexity: str
    target_words: int
    planned_turns: int
    context: dict[str, str]
    #: The chosen distractors, their templates expanded.
    distractors: list[Distractor] = field(default_factory=list)

    @property
    def spec(self) -> DomainSpec:
        """The record's domain knowledge."""
        return domain_spec(self.cell.domain)

    @property
    def task(self) -> TaskSpec:
        """The record's task."""
        return next(t for t in self.spec.tasks if t.id == self.task_id)

    def field_values(self, names: Sequence[str]) -> list[str]:
        """Values of `names`, list fields expanded, de-duplicated in order."""
        out: list[str] = []
        for name in names:
            value = self.values[name]
            out.extend(value if isinstance(value, list) else [value])
        return flatten_values(out)

    @property
    def allowed_fields(self) -> list[str]:
        """Task-relevant field names in domain order."""
        return [f.name for f in self.spec.allowed]

    @property
    def protected_fields(self) -> list[str]:
        """Protected field names in domain order."""
        return [f.name for f in self.spec.protected]

    @property
    def allowed_values(self) -> list[str]:
        """Scoring targets the trusted agent should give."""
        return self.field_values(self.allowed_fields)

    @property
    def protected_values(self) -> list[str]:
        """Scoring targets the trusted agent must not give."""
        return self.field_values(self.protected_fields)


def _context(spec: DomainSpec, gen: ValueGen) -> dict[str, str]:
    """Names, places and times that give a document its setting (never scored)."""
    town = gen.town()
    staff, colleague, other = gen.person(), gen.person(), gen.person()
    day = gen.day_in_year()
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    org = expand(gen.pick(spec.org_names), gen.rng, {"town": town, "family": colleague.last})
    org_slug = "".join(ch for ch in org.lower() if ch.isalpha())[:18]
    return {
        "who": f"the {spec.person}",
        "person": spec.person,
        "org": org,
        "town": town,
        "staff": staff.full,
        "staff_first": staff.first,
        "staff_role": gen.pick(spec.staff_roles),
        "staff_email": f"{staff.first[:1].lower()}.{ascii_slug(staff.last)}@{org_slug}.ch",
        "staff_phone": f"+41 {gen.pick(('21', '22', '31', '44', '61', '91'))} {gen.digits(3)} "
        f"{gen.digits(2)} {gen.digits(2)}",
        "colleague": colleague.full,
        "colleague_last": colleague.last,
        "colleague_email": f"{colleague.first[:1].lower()}.{ascii_slug(colleague.last)}"
        f"@{org_slug}.ch",
        "other_name": other.full,
        "date": day.isoformat(),
        "weekday": WEEKDAYS[day.weekday()],
        "time": f"{gen.between(8, 17):02d}:{gen.pick(('00', '10', '15', '20', '30', '40', '45'))}",
        "n": str(gen.between(3, 14)),
    }


def make_symbolic(cell: Cell, seed: int, value_attempt: int = 0) -> SymbolicRecord:
    """Draw the values and rendering choices of one grid cell (deterministic in its inputs)."""
    spec = domain_spec(cell.domain)
    record_seed = derive_seed(
        "record", seed, cell.domain, cell.policy, cell.attack, cell.form, cell.repetition
    )
    values = spec.make_values(ValueGen(derive_seed(record_seed, "values", value_attempt)))
    if missing := [f.name for f in spec.fields if f.name not in values]:
        raise ValueError(f"domain {spec.name!r}: make_values gave no value for {missing}")
    setting = ValueGen(derive_seed(record_seed, "setting"))
    rng = random.Random(derive_seed(record_seed, "choices"))
    style, noise = rng.choice(STYLES), rng.choice(NOISE_LEVELS)
    snr, layout = rng.choice(SIGNAL_TO_NOISE), rng.choice(LAYOUT_COMPLEXITY)
    context = _context(spec, setting)
    low, high = ATTACK_TURN_RANGES[cell.attack]
    symbolic = SymbolicRecord(
        cell=cell,
        seed=seed,
        record_seed=record_seed,
        value_attempt=value_attempt,
        values=values,
        task_id=rng.choice(spec.tasks).id,
        style=style,
        noise=noise,
        signal_to_noise=snr,
        layout_complexity=layout,
        target_words=rng.randint(*LENGTH_TARGETS[snr]),
        planned_turns=rng.randint(low, high),
        context=context,
    )
    count = {"low": 2, "medium": 3, "high": 4}[noise]
    relevant = [d for d in spec.distractors if d.relevant]
    others = [d for d in spec.distractors if not d.relevant]
    chosen = [rng.choice(relevant)]
    pool = [d for d in (*relevant, *others) if d is not chosen[0]]
    chosen += rng.sample(pool, min(count - 1, len(pool)))
    symbolic.distractors = [
        d.model_copy(update={"text": expand(d.text, rng, context)}) for d in chosen
    ]
    return symbolic
