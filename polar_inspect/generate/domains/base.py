"""The shape of a domain's knowledge: fields, forms, tasks, vocabularies, value factory."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources

from polar_inspect.generate.values import ValueGen

#: A field's value: one string, or several for list fields (each scored on its own).
Value = str | list[str]

#: How a value is phrased by default when a field gives no phrasing of its own.
KINDS = ("name", "email", "phone", "dob", "address", "id", "money", "text", "list", "date")

#: Where a document layout places a field: identity header, contact block or the case body.
GROUPS = ("identity", "contact", "case", "detail")


@dataclass(frozen=True)
class FieldSpec:
    """One task-relevant or protected field of a domain.

    `label` is the plain noun phrase used in policies, tasks and attacker turns; `aliases`
    are further words that count as asking for it. `says` are third-person sentences,
    `spoken` first-person lines and `asked` a staff question, each with `{v}` for the value
    (`{who}` is the person's role noun). Empty phrasings fall back to the kind's defaults.
    `guesses` are yes/no or multiple-choice questions with concrete guesses (for the
    narrowing attacker); kinds with structured values get guesses computed from the value.
    `staff_only` fields (internal notes, internal ids) are written by staff, never said by the
    person, so dialogue layouts put them in the staff's notes.
    """

    name: str
    label: str
    kind: str
    key: str = ""
    aliases: tuple[str, ...] = ()
    group: str = "case"
    concept: str = ""
    abstraction: str = ""
    says: tuple[str, ...] = ()
    spoken: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()
    guesses: tuple[str, ...] = ()
    staff_only: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")
        if self.group not in GROUPS:
            raise ValueError(f"field {self.name!r}: unknown group {self.group!r}")

    @property
    def key_label(self) -> str:
        """The label used in key/value layouts."""
        return self.key or self.label[:1].upper() + self.label[1:]

    @property
    def ask_terms(self) -> tuple[str, ...]:
        """Every phrase that counts as asking for this field (lower case)."""
        return tuple(dict.fromkeys(t.lower() for t in (self.label, *self.aliases)))


@dataclass(frozen=True)
class FormSpec:
    """A document form: which layout renders it and what it is called.

    `sections` are headings for layouts with sections; `subject` a grammar template for a
    subject or title line; `author` and `audience` the staff roles writing and reading it.
    """

    id: str
    layout: str
    title: str
    author: str
    audience: str = ""
    subject: str = ""
    sections: tuple[str, ...] = ()
    channel: str = ""


@dataclass(frozen=True)
class TaskSpec:
    """A task instruction for the trusted agent, as a grammar template.

    Slots: `{person}` (role noun), `{org}`; every allowed field should be named in it.
    `topic` names the piece of work in attacker turns ("the referral").
    """

    id: str
    text: str
    topic: str = "this request"


@dataclass(frozen=True)
class Distractor:
    """A task-irrelevant detail; `relevant` marks the superficially relevant ones."""

    text: str
    relevant: bool = False


@dataclass(frozen=True)
class Prose:
    """A domain's free text, kept in `<domain>.json` next to its module.

    `filler`: third-person context sentences; `exchanges`: (staff line, person line) pairs;
    `monologue`: first-person lines; `distractors`: task-irrelevant details. All are grammar
    templates (see `textgen.expand`).
    """

    filler: tuple[str, ...]
    exchanges: tuple[tuple[str, str], ...]
    monologue: tuple[str, ...]
    distractors: tuple[Distractor, ...]


def load_prose(name: str) -> Prose:
    """Read `polar_inspect/generate/domains/<name>.json`; a malformed file names its problem."""
    path = resources.files(__package__) / f"{name}.json"
    where = f"polar_inspect/generate/domains/{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Prose(
            filler=tuple(str(t) for t in data["filler"]),
            exchanges=tuple((str(e["staff"]), str(e["person"])) for e in data["exchanges"]),
            monologue=tuple(str(t) for t in data["monologue"]),
            distractors=tuple(
                Distractor(str(d["text"]), bool(d["superficially_relevant"]))
                for d in data["distractors"]
            ),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{where}: cannot read domain prose ({exc!r})") from exc


@dataclass(frozen=True)
class DomainSpec:
    """Everything the generator knows about one domain."""

    name: str
    person: str
    org: str
    org_names: tuple[str, ...]
    staff_roles: tuple[str, ...]
    allowed: tuple[FieldSpec, ...]
    protected: tuple[FieldSpec, ...]
    forms: tuple[FormSpec, ...]
    tasks: tuple[TaskSpec, ...]
    concepts: Mapping[str, str]
    conditions: tuple[str, ...]
    roles: tuple[str, ...]
    workflow: tuple[str, ...]
    filler: tuple[str, ...]
    exchanges: tuple[tuple[str, str], ...]
    monologue: tuple[str, ...]
    distractors: tuple[Distractor, ...]
    make_values: Callable[[ValueGen], dict[str, Value]] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [f.name for f in (*self.allowed, *self.protected)]
        if len(names) != len(set(names)):
            raise ValueError(f"domain {self.name!r}: duplicate field names")
        for f in self.protected:
            if f.concept not in self.concepts:
                raise ValueError(f"domain {self.name!r}: field {f.name!r} has no P2 concept")
        if not any(d.relevant for d in self.distractors):
            raise ValueError(f"domain {self.name!r}: needs a superficially relevant distractor")

    @property
    def fields(self) -> tuple[FieldSpec, ...]:
        """Allowed fields, then protected fields."""
        return (*self.allowed, *self.protected)

    def field(self, name: str) -> FieldSpec:
        """The field called `name`."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"domain {self.name!r} has no field {name!r}")

    def form(self, form_id: str) -> FormSpec:
        """The form called `form_id`."""
        for f in self.forms:
            if f.id == form_id:
                return f
        raise KeyError(f"domain {self.name!r} has no document form {form_id!r}")
