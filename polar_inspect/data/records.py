"""Pydantic models of one POLAR-Bench release record (spec section 5) and the file loader."""

from __future__ import annotations

import ast
import codecs
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)
from pydantic_core import ErrorDetails

from polar_inspect.axes import DEFAULT_TURN_BUDGET, attack_code, policy_code


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or blank")
    return value


#: A string that holds something other than whitespace.
NonBlankText = Annotated[str, AfterValidator(_non_blank)]

# `[` followed by a quote, a bracket, a brace or nothing: text that means to be a JSON array.
_ARRAY_START = re.compile(r'\[\s*(["\[\]{]|$)')


class _Open(BaseModel):
    """A release object: known fields are typed, unknown fields are kept as they are."""

    model_config = ConfigDict(extra="allow")


class RecordMetadata(_Open):
    """`metadata`: the record's position in the grid and its rendering style."""

    domain: str
    privacy_level: str
    privacy_type: str | None = None
    task_type: str | None = None
    attack_type: str | None = None
    attack_strength: str
    document_form: str | None = None
    style: str | None = None

    @field_validator("privacy_level", "attack_strength", mode="before")
    @classmethod
    def _number_to_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("privacy_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if policy_code(value) is None:
            raise ValueError(f"unknown privacy level {value!r} (expected P1..P5)")
        return value

    @field_validator("attack_strength")
    @classmethod
    def _known_strength(cls, value: str) -> str:
        if attack_code(value) is None:
            raise ValueError(f"unknown attack strength {value!r} (expected S1..S5)")
        return value


class GeneratedTexts(_Open):
    """`generated_texts`: the four rendered texts."""

    source_document_text: NonBlankText
    privacy_policy_text: NonBlankText
    task_instruction_text: NonBlankText
    attacker_prompt_text: str = ""

    @field_validator("attacker_prompt_text")
    @classmethod
    def _readable_turns(cls, value: str) -> str:
        """Reject what `parse_attacker_turns` would fail on or silently take as one turn."""
        stripped = value.strip()
        if not stripped.startswith("["):
            return value
        try:
            turns = json.loads(stripped)
        except json.JSONDecodeError as exc:
            if _ARRAY_START.match(stripped):
                raise ValueError(
                    f"starts like a JSON array of turns but is not valid JSON "
                    f"({exc.msg} at character {exc.pos})"
                ) from None
            return value
        if not all(isinstance(turn, str) for turn in turns):
            raise AttackerTextError("attacker text is a JSON array but not all items are strings")
        return value


class ScoringTargets(_Open):
    """`scoring_targets`: the values the scorer looks for in the trusted model's replies."""

    allowed_values: list[NonBlankText] = Field(min_length=1)
    do_not_disclose_values: list[NonBlankText] = Field(min_length=1)

    @field_validator("allowed_values", "do_not_disclose_values")
    @classmethod
    def _usable_after_flattening(cls, values: list[str]) -> list[str]:
        has_literal = any(value.lstrip().startswith("[") for value in values)
        if has_literal and not flatten_values(values):
            raise ValueError("holds no usable value once list literals are expanded")
        return values


class AttackSpec(_Open):
    """`attack_setup.attack_spec`: planned turns and the attacker's goal, when present."""

    turns: int | None = None
    attacker_goal: str | None = None


class AttackSetup(_Open):
    """`attack_setup`: present in some releases only."""

    attack_spec: AttackSpec | None = None


class HiddenTarget(_Open):
    """`hidden_target`: the gold view of what may and may not be shared."""

    withheld_fields: list[str] = Field(default_factory=list)
    allowed_fields: list[str] = Field(default_factory=list)
    partially_allowed: Any = None
    gold_safe_values: dict[str, Any] = Field(default_factory=dict)
    gold_sensitive_values: dict[str, Any] = Field(default_factory=dict)
    policy_alignment_reference: Any = None


class PolarRecord(_Open):
    """One release record; only what the eval needs is required."""

    sample_id: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    metadata: RecordMetadata
    generated_texts: GeneratedTexts
    scoring_targets: ScoringTargets
    hidden_target: HiddenTarget | None = None
    source_document_inputs: dict[str, Any] | None = None
    prompts: dict[str, Any] | None = None
    generation_meta: dict[str, Any] | None = None
    attack_setup: AttackSetup | None = None

    @property
    def policy(self) -> str:
        """Policy level code, `P1`..`P5`."""
        code = policy_code(self.metadata.privacy_level)
        assert code is not None  # validated
        return code

    @property
    def attack(self) -> str:
        """Attack strategy code, `S1`..`S5`."""
        code = attack_code(self.metadata.attack_strength)
        assert code is not None  # validated
        return code

    @property
    def cell(self) -> str:
        """The record's cell in the 5x5 surface, e.g. `P3xS2`."""
        return f"{self.policy}x{self.attack}"

    def planned_turns(self) -> list[str]:
        """The planned attacker turns: a JSON array of strings, else the whole text as one turn."""
        return parse_attacker_turns(self.generated_texts.attacker_prompt_text)

    def turn_budget(self) -> int:
        """`attack_setup.attack_spec.turns` when present and > 0, else the paper's 6."""
        spec = self.attack_setup.attack_spec if self.attack_setup else None
        if spec is not None and spec.turns is not None and spec.turns > 0:
            return spec.turns
        return DEFAULT_TURN_BUDGET

    def attacker_goal(self) -> str | None:
        """The attack setup's stated goal, if any."""
        spec = self.attack_setup.attack_spec if self.attack_setup else None
        return spec.attacker_goal if spec else None

    def protected_values(self) -> list[str]:
        """`do_not_disclose_values`, flattened and de-duplicated in order."""
        return flatten_values(self.scoring_targets.do_not_disclose_values)

    def allowed_values(self) -> list[str]:
        """`allowed_values`, flattened and de-duplicated in order."""
        return flatten_values(self.scoring_targets.allowed_values)


class AttackerTextError(ValueError):
    """The attacker text looks like JSON but is not an array of strings."""


def parse_attacker_turns(text: str) -> list[str]:
    """Split `attacker_prompt_text` into turns (spec section 3).

    A JSON array of strings gives one turn per element; any other text is one turn; an empty
    text gives no turns. A JSON array holding non-strings is an error.
    """
    stripped = text.strip()
    if not stripped:
        return []
    if stripped.startswith("["):
        try:
            parsed = json.loads(stripped)
        except json.JSONDecodeError:
            return [stripped]
        if not isinstance(parsed, list) or not all(isinstance(t, str) for t in parsed):
            raise AttackerTextError("attacker text is a JSON array but not all items are strings")
        return [t for t in parsed if t.strip()]
    return [stripped]


def _expand(value: str) -> list[str]:
    stripped = value.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        for parse in (json.loads, ast.literal_eval):
            try:
                parsed = parse(stripped)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if isinstance(parsed, list):
                return [str(item) for item in parsed]
    return [value]


def flatten_values(values: list[str]) -> list[str]:
    """Flatten list-literal elements (JSON or Python) and de-duplicate keeping order."""
    out: list[str] = []
    for value in values:
        out.extend(_expand(value))
    return list(dict.fromkeys(v for v in out if v.strip()))


# --- Loading a release file -------------------------------------------------------------------

#: How many problems a RecordError lists before summarising the rest as a count.
MAX_LISTED_PROBLEMS = 20

_RECORD_LIST: TypeAdapter[list[PolarRecord]] = TypeAdapter(list[PolarRecord])
_FIRST_NON_SPACE = re.compile(rb"\S")
_EXPECTED_SHAPE = "expected a JSON array of record objects, or one JSON object per line"


@dataclass(frozen=True)
class RecordProblem:
    """One thing wrong in a records file: which record, which field, and what."""

    record: str  # e.g. "record 'medical_000012' (index 12)"; empty for the file as a whole
    field: str  # dotted path, e.g. "scoring_targets.allowed_values[2]"; may be empty
    message: str

    def __str__(self) -> str:
        return ": ".join(part for part in (self.record, self.field, self.message) if part)


class RecordError(ValueError):
    """A records file cannot be loaded; `problems` holds everything found wrong with it."""

    def __init__(
        self, path: str, problems: list[RecordProblem], total_records: int | None = None
    ) -> None:
        self.path = path
        self.problems = problems
        self.total_records = total_records
        super().__init__(_describe(path, problems, total_records))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.path, self.problems, self.total_records))


def _describe(path: str, problems: list[RecordProblem], total_records: int | None) -> str:
    if len(problems) == 1 and not problems[0].record:
        return f"Cannot load {path}: {problems[0].message}"
    bad_records = len({p.record for p in problems if p.record})
    of_total = f" of {total_records}" if total_records is not None else ""
    lines = [
        f"Cannot load {path}: {len(problems)} problem(s) in {bad_records}{of_total} record(s);"
        " fix them all and load again:"
    ]
    lines += [f"  - {p}" for p in problems[:MAX_LISTED_PROBLEMS]]
    if len(problems) > MAX_LISTED_PROBLEMS:
        lines.append(f"  ... and {len(problems) - MAX_LISTED_PROBLEMS} more problem(s)")
    return "\n".join(lines)


def load_records(path: str | Path) -> list[PolarRecord]:
    """Load and validate a release file: a JSON array of records, or JSONL (one per line).

    Raises RecordError listing every problem found (file, record, field, what is wrong).
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(str(path), [_file_problem(f"cannot read it ({exc})")]) from exc
    return parse_records(data, str(path))


def parse_records(data: bytes, origin: str) -> list[PolarRecord]:
    """Validate the bytes of a release file; `origin` names the file in error messages."""
    data = data.removeprefix(codecs.BOM_UTF8)
    first = _FIRST_NON_SPACE.search(data)
    if first is None:
        raise RecordError(origin, [_file_problem("the file is empty")])
    lines: list[tuple[int, bytes]] | None = None
    if data[first.start()] == ord("{"):
        lines = [(n, line) for n, line in enumerate(data.splitlines(), 1) if line.strip()]
        data = b"[" + b",".join(line for _, line in lines) + b"]"
    elif data[first.start()] != ord("["):
        kind = _json_kind(_read_json(data, origin))
        raise RecordError(
            origin, [_file_problem(f"its top-level JSON value is {kind}; {_EXPECTED_SHAPE}")]
        )
    try:
        records = _RECORD_LIST.validate_json(data)
    except ValidationError:
        records = None
    # Joined lines can hide a bad line (two objects on one line, one object over two lines).
    if records is None or (lines is not None and len(records) != len(lines)):
        raise _explain(data if lines is None else None, lines, origin)
    if not records:
        raise RecordError(origin, [_file_problem("the file holds no records")])
    kind, positions = ("index", range(len(records))) if lines is None else ("line", dict(lines))
    entries = ((p, f"{kind} {p}", _key_fields(r)) for p, r in zip(positions, records, strict=True))
    found = _inconsistencies(entries)
    if found:
        raise RecordError(origin, _in_order(found), len(records))
    return records


def _explain(
    array: bytes | None, lines: list[tuple[int, bytes]] | None, origin: str
) -> RecordError:
    """The slow path: find every problem of a file that failed fast validation."""
    found: list[tuple[int, RecordProblem]] = []
    items: list[tuple[int, str, Any]] = []  # (position, where, raw item) of items that parse
    if array is not None:
        items = [(i, f"index {i}", item) for i, item in enumerate(_read_json(array, origin))]
    else:
        assert lines is not None
        for n, line in lines:
            try:
                items.append((n, f"line {n}", json.loads(line)))
            except ValueError as exc:
                problem = RecordProblem(f"record at line {n}", "", f"not valid JSON ({exc})")
                found.append((n, problem))
        if found and _is_one_object(b"\n".join(line for _, line in lines)):
            message = f"the file holds a single JSON object; {_EXPECTED_SHAPE}"
            return RecordError(origin, [_file_problem(message)])
    try:
        _RECORD_LIST.validate_python([item for _, _, item in items])
    except ValidationError as exc:
        for err in exc.errors():
            position, where, item = items[err["loc"][0]] if err["loc"] else (-1, "", None)
            label = _label_id(item.get("sample_id") if isinstance(item, dict) else None, where)
            field = _field_path(err["loc"][1:])
            found.append((position, RecordProblem(label, field, _message(err))))
    found += _inconsistencies((pos, where, _raw_key_fields(item)) for pos, where, item in items)
    if not found:
        found = [(0, _file_problem(f"cannot be read as records; {_EXPECTED_SHAPE}"))]
    return RecordError(origin, _in_order(found), len(lines) if lines is not None else len(items))


def _is_one_object(text: bytes) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _read_json(data: bytes, origin: str) -> Any:
    """The parsed value, or a RecordError saying why the bytes are not JSON."""
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problem = f"not UTF-8 text (bad byte at offset {exc.start})"
    except json.JSONDecodeError as exc:
        problem = f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    raise RecordError(origin, [_file_problem(f"{problem}; {_EXPECTED_SHAPE}")])


# (sample_id, domain, metadata.domain) of one record; in raw input each may be of any type.
_KeyFields = tuple[Any, Any, Any]


def _key_fields(record: PolarRecord) -> _KeyFields:
    return record.sample_id, record.domain, record.metadata.domain


def _raw_key_fields(item: Any) -> _KeyFields:
    if not isinstance(item, dict):
        return None, None, None
    meta = item.get("metadata")
    meta_domain = meta.get("domain") if isinstance(meta, dict) else None
    return item.get("sample_id"), item.get("domain"), meta_domain


def _inconsistencies(
    entries: Iterable[tuple[int, str, _KeyFields]],
) -> list[tuple[int, RecordProblem]]:
    """Problems across fields and records: duplicate sample_id, domain disagreement."""
    found: list[tuple[int, RecordProblem]] = []
    first_seen: dict[str, str] = {}
    for position, where, (sample_id, domain, meta_domain) in entries:
        label = _label_id(sample_id, where)
        if _usable_id(sample_id) and sample_id in first_seen:
            message = f"duplicate sample_id, already used by the record at {first_seen[sample_id]}"
            found.append((position, RecordProblem(label, "sample_id", message)))
        elif _usable_id(sample_id):
            first_seen[sample_id] = where
        if isinstance(domain, str) and isinstance(meta_domain, str) and domain != meta_domain:
            message = f"{meta_domain!r} does not match the record's domain {domain!r}"
            found.append((position, RecordProblem(label, "metadata.domain", message)))
    return found


def _in_order(found: list[tuple[int, RecordProblem]]) -> list[RecordProblem]:
    return [problem for _, problem in sorted(found, key=lambda pair: pair[0])]


def _usable_id(sample_id: Any) -> bool:
    return isinstance(sample_id, str) and bool(sample_id.strip())


def _label_id(sample_id: Any, where: str) -> str:
    return f"record {sample_id!r} ({where})" if _usable_id(sample_id) else f"record at {where}"


def _file_problem(message: str) -> RecordProblem:
    return RecordProblem("", "", message)


def _field_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _message(err: ErrorDetails) -> str:
    kind, value = err["type"], err.get("input")
    if kind == "missing":
        return "required field is missing"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"expected a JSON object, got {_json_kind(value)}"
    if kind == "too_short" and value == []:
        return "must not be an empty list"
    message = err["msg"].removeprefix("Value error, ")
    return f"{message} (got {_json_kind(value)})" if kind.endswith("_type") else message


def _json_kind(value: Any) -> str:
    kinds = ((bool, "a boolean"), (dict, "an object"), (list, "an array"), (str, "a string"))
    for py_type, name in kinds:
        if isinstance(value, py_type):
            return name
    return "null" if value is None else "a number"
