"""The shape of the generator's knowledge files, `domains/<domain>.json` and `common.json`
(docs/generator.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from polar_inspect.generate.textgen import join_list
from polar_inspect.generate.values import ValueGen

#: A field's value: one string, or several for list fields (each scored on its own).
Value = str | list[str]

#: How a value is phrased by default when a field gives no phrasing of its own.
Kind = Literal["name", "email", "phone", "dob", "address", "id", "money", "text", "list", "date"]
KINDS: tuple[str, ...] = get_args(Kind)

#: A record's writing style.
Style = Literal["formal", "neutral", "casual", "terse"]

#: Where a document layout places a field: identity header, contact block or the case body.
Group = Literal["identity", "contact", "case", "detail"]

#: The document layouts the template renderer knows (`render.layouts.LAYOUTS`).
Layout = Literal[
    "email", "thread", "note", "report", "chat", "call", "voicemail", "record", "calendar"
]


class Knowledge(BaseModel):
    """Base of every knowledge record: immutable, and unknown keys are errors (typos show)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class FieldSpec(Knowledge):
    """One task-relevant or protected field of a domain (docs/generator.md)."""

    name: str
    label: str
    kind: Kind
    key: str = ""
    aliases: tuple[str, ...] = ()
    group: Group = "case"
    concept: str = ""
    abstraction: str = ""
    says: tuple[str, ...] = ()
    spoken: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()
    guesses: tuple[str, ...] = ()
    staff_only: bool = False

    @property
    def key_label(self) -> str:
        """The label used in key/value layouts."""
        return self.key or self.label[:1].upper() + self.label[1:]

    @property
    def ask_terms(self) -> tuple[str, ...]:
        """Every phrase that counts as asking for this field (lower case)."""
        return tuple(dict.fromkeys(t.lower() for t in (self.label, *self.aliases)))


class FormSpec(Knowledge):
    """A document form: which layout renders it, its title, headings and staff roles."""

    id: str
    layout: Layout
    title: str
    author: str
    audience: str = ""
    subject: str = ""
    sections: tuple[str, ...] = ()
    channel: str = ""


class TaskSpec(Knowledge):
    """A task instruction (a grammar template with `{person}`, `{org}`) and its `topic`."""

    id: str
    text: str
    topic: str = "this request"


class Distractor(Knowledge):
    """A task-irrelevant detail; `relevant` (`superficially_relevant`) if it looks related."""

    model_config = ConfigDict(populate_by_name=True)

    text: str
    relevant: bool = Field(alias="superficially_relevant")


class Exchange(Knowledge):
    """A filler exchange in a dialogue: a staff line and the person's answer."""

    staff: str
    person: str


class Prose(Knowledge):
    """Free text (grammar templates): `filler` sentences, `exchanges` and `monologue` lines."""

    filler: tuple[str, ...]
    exchanges: tuple[Exchange, ...]
    monologue: tuple[str, ...]


class KindPhrasing(Knowledge):
    """Default phrasings for fields of one kind (`{v}` value, `{who}` role, `{label}`)."""

    says: tuple[str, ...] = Field(min_length=1)
    spoken: tuple[str, ...] = Field(min_length=1)
    asked: tuple[str, ...] = Field(min_length=1)


class Lexicons(Knowledge):
    """Word lists the checks use (matched case-insensitively)."""

    #: Words that must not appear in a source document or a task instruction.
    disclosure_terms: tuple[str, ...]
    #: Further words a task instruction must not use (it is not a policy).
    task_extra_terms: tuple[str, ...]
    #: Override / debug / audit / policy-reinterpretation language (required by S4, banned
    #: in S3).
    override_terms: tuple[str, ...]
    #: Phrases that claim an identity (S3 needs one, S4 must have none).
    role_claims: tuple[str, ...]
    #: Workflow language expected from a role-confusion attacker.
    workflow_terms: tuple[str, ...]
    #: A P3, P4 or P5 policy uses one of its level's markers.
    level_markers: dict[Literal["P3", "P4", "P5"], tuple[str, ...]] = Field(min_length=3)
    #: How a yes/no question opens (each narrowing, S2, turn asks one or an either-or).
    yes_no_openers: tuple[str, ...]


class PolicyPhrasing(Knowledge):
    """The template renderer's policy and task phrasing (grammar templates)."""

    #: Each level's core statements (every level: `min_length` over the five keys).
    levels: dict[Literal["P1", "P2", "P3", "P4", "P5"], tuple[str, ...]] = Field(min_length=5)
    #: P3's sentence per conditional field.
    condition: str
    intros: tuple[str, ...] = Field(min_length=1)
    outros: tuple[str, ...] = Field(min_length=1)
    task_leads: tuple[str, ...] = Field(min_length=1)
    task_tails: tuple[str, ...] = Field(min_length=1)


class DocumentPhrasing(Knowledge):
    """The template renderer's structural document sentences (grammar templates)."""

    openers: tuple[str, ...] = Field(min_length=1)
    closings: tuple[str, ...] = Field(min_length=1)
    thread_replies: tuple[str, ...] = Field(min_length=1)
    log_verbs: tuple[str, ...] = Field(min_length=1)
    #: An email's greeting (`{full}` the name, `{first}` its first word) and sign-off per style.
    greetings: dict[Style, str] = Field(min_length=4)
    signoffs: dict[Style, str] = Field(min_length=4)


class AttackerPhrasing(Knowledge):
    """The template renderer's attacker turns per strategy (grammar templates)."""

    direct: str
    narrowing_question: str
    narrowing_first: str
    narrowing_next: str
    #: Narrowing questions about a free-text field without guesses of its own.
    narrowing_generic: tuple[str, ...] = Field(min_length=1)
    role_first: str
    role_next: str
    role_closing_last: str
    role_closing_next: str
    injection_openers: tuple[str, ...] = Field(min_length=1)
    injection_ask: str
    injection_closing: str
    progressive_first: str
    progressive_middle: str
    progressive_last: str


class CommonKnowledge(Prose):
    """`common.json`: what every domain shares."""

    about: str
    #: Partial fields a domain's field may start from (`"like": "email"`).
    field_templates: dict[str, dict[str, Any]]
    #: Every kind's default phrasing (`min_length` over the `Kind` keys: each kind once).
    kind_phrasing: dict[Kind, KindPhrasing] = Field(min_length=len(KINDS))
    lexicons: Lexicons
    policy_phrasing: PolicyPhrasing
    document_phrasing: DocumentPhrasing
    attacker_phrasing: AttackerPhrasing


class DomainSpec(Prose):
    """`domains/<domain>.json` with its fields' templates resolved, and its value recipe."""

    name: str
    about: str
    person: str
    org: str
    org_names: tuple[str, ...] = Field(min_length=1)
    staff_roles: tuple[str, ...] = Field(min_length=1)
    allowed: tuple[FieldSpec, ...] = Field(min_length=1)
    protected: tuple[FieldSpec, ...] = Field(min_length=1)
    #: P2 policies name protected fields by concept: concept key -> phrase.
    concepts: dict[str, str]
    forms: tuple[FormSpec, ...] = Field(min_length=1)
    tasks: tuple[TaskSpec, ...] = Field(min_length=1)
    #: P3 conditions under which a protected value may be given.
    conditions: tuple[str, ...] = Field(min_length=1)
    #: Trusted roles a role-confusion (S3) attacker claims.
    roles: tuple[str, ...] = Field(min_length=1)
    #: Workflow phrases for the role-confusion attacker.
    workflow: tuple[str, ...] = Field(min_length=1)
    distractors: tuple[Distractor, ...]
    #: `recipes.<Domain>.make_values` bound to the file's `vocabulary`.
    make_values: Callable[[ValueGen], dict[str, Value]] = Field(exclude=True, repr=False)

    @model_validator(mode="after")
    def _consistent(self) -> DomainSpec:
        names = [f.name for f in (*self.allowed, *self.protected)]
        if repeated := sorted({n for n in names if names.count(n) > 1}):
            raise ValueError(f"field names repeat: {repeated}")
        for f in self.protected:
            if f.concept not in self.concepts:
                raise ValueError(f"protected field {f.name!r} has no concept in `concepts`")
        form_ids, task_ids = [f.id for f in self.forms], [t.id for t in self.tasks]
        for what, ids in (("form", form_ids), ("task", task_ids)):
            if len(ids) != len(set(ids)):
                raise ValueError(f"{what} ids repeat: {ids}")
        if not any(d.relevant for d in self.distractors):
            raise ValueError("needs a superficially relevant distractor")
        return self

    @property
    def concept_phrases(self) -> str:
        """The protected fields' concepts, each once, as `a, b and c`."""
        keys = dict.fromkeys(f.concept for f in self.protected)
        return join_list([self.concepts[k] for k in keys])

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


class Vocabulary(Knowledge):
    """Base of a domain's word lists (the `vocabulary` section of its JSON file), `recipes.py`."""

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One sample's values, drawn from these lists."""
        raise NotImplementedError


def labels(fields: Sequence[FieldSpec]) -> str:
    """The fields' labels as `a, b and c`."""
    return join_list([f.label for f in fields])


def resolve_field(
    raw: Mapping[str, Any], templates: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """A field's keys with its `like` template applied (the field's own keys win)."""
    fields = dict(raw)
    if (like := fields.pop("like", None)) is None:
        return fields
    if like not in templates:
        known = ", ".join(sorted(templates)) or "none"
        raise ValueError(f"field {fields.get('name', '?')!r}: unknown template {like!r} ({known})")
    return {**templates[like], **fields}
