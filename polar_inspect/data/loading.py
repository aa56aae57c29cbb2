"""Loading release files (docs/data.md, "Validation rules"): a fast path parses and validates at
once; when anything fails, the slow path re-reads the input and lists every problem."""

from __future__ import annotations

import codecs
import gzip
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jiter
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from polar_inspect.axes import DOMAINS
from polar_inspect.data.json_text import (
    EXPECTED_SHAPE,
    loads_tracking_repeats,
    looks_like_record,
    one_object,
    repeated_keys,
    single_object_message,
    strict_json_error,
)
from polar_inspect.data.record_values import json_kind
from polar_inspect.data.records import RECORD_LIST, PolarRecord, RecordRuleError

#: How many problems a RecordError lists before summarising the rest as a count.
MAX_LISTED_PROBLEMS = 20


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
    """Load and validate a release file; RecordError lists every problem (record, field, what)."""
    return parse_records(read_file(path), str(path))


def read_file(path: str | Path) -> bytes:
    """The bytes of the file at `path`; RecordError naming it when it cannot be read."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(str(path), [_file_problem(f"cannot read it ({exc})")]) from exc


def parse_records(data: bytes, origin: str) -> list[PolarRecord]:
    """Validate the bytes of a release file, maybe gzip-compressed; `origin` names the file."""
    if data.startswith(b"\x1f\x8b"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise RecordError(origin, [_file_problem(f"cannot read it ({exc})")]) from exc
    data, lines = _as_array(data.removeprefix(codecs.BOM_UTF8), origin)
    records = _validate_fast(_parse_strict(data))
    # Joined lines can hide a bad line (two objects on one line, one object over two lines).
    if records is None or (lines is not None and len(records) != len(lines)):
        raise _explain(data if lines is None else None, lines, origin)
    if not records:
        raise RecordError(origin, [_file_problem("the file holds no records")])
    where = (
        [f"line {n}" for n, _ in lines] if lines else [f"index {i}" for i in range(len(records))]
    )
    return _across(records, where, origin)


def _as_array(data: bytes, origin: str) -> tuple[bytes, list[tuple[int, bytes]] | None]:
    """The bytes as one JSON array, and for JSONL the numbered non-blank lines joined into it."""
    if not (head := data.lstrip()[:1]):
        raise RecordError(origin, [_file_problem("the file is empty")])
    if head == b"{":
        lines = [(n, line) for n, line in enumerate(data.splitlines(), 1) if line.strip()]
        return b"[" + b",".join(line for _, line in lines) + b"]", lines
    if head != b"[":
        kind = json_kind(_read_json(data, origin))
        raise RecordError(
            origin, [_file_problem(f"its top-level JSON value is {kind}; {EXPECTED_SHAPE}")]
        )
    return data, None


def validate_items(
    items: list[tuple[str, Any]], origin: str, *, may_repeat_keys: bool = False
) -> list[PolarRecord]:
    """Validate (where, raw record) pairs as a file's records are; RecordError."""
    if not items:
        raise RecordError(origin, [_file_problem("the data holds no records")])
    records = None if may_repeat_keys else _validate_fast([raw for _, raw in items])
    if records is not None:
        return _across(records, [where for where, _ in items], origin)
    found = _item_problems([(p, where, raw) for p, (where, raw) in enumerate(items)])
    raise RecordError(
        origin, _in_order(found) or [_file_problem("cannot be read as records")], len(items)
    )


def check_across_parts(
    parts: Sequence[tuple[str, list[PolarRecord]]], origin: str
) -> list[PolarRecord]:
    """The records of validated parts (shards) in order, once the rules across records hold."""
    labels = [f"index {i} of {name}" for name, records in parts for i in range(len(records))]
    return _across([record for _, records in parts for record in records], labels, origin)


def _across(records: list[PolarRecord], labels: list[str], origin: str) -> list[PolarRecord]:
    """`records` once the rules across records hold; `labels` say where each record is."""
    keys = ((r.sample_id, r.domain, r.metadata.domain) for r in records)
    if found := _inconsistencies(zip(range(len(records)), labels, keys, strict=True)):
        raise RecordError(origin, _in_order(found), len(records))
    return records


def _parse_strict(data: bytes) -> Any:
    """The parsed JSON, or None if it is not strict JSON or an object repeats a key."""
    try:
        return jiter.from_json(data, catch_duplicate_keys=True)
    except ValueError:
        return None


def _validate_fast(items: Any) -> list[PolarRecord] | None:
    try:
        return RECORD_LIST.validate_python(items)
    except ValidationError:
        return None


def _parse_lines(
    lines: list[tuple[int, bytes]],
) -> tuple[list[tuple[int, str, Any]], list[tuple[int, RecordProblem]]]:
    """JSONL lines parsed one by one: the items that parse, a problem per line that does not."""
    items: list[tuple[int, str, Any]] = []
    found: list[tuple[int, RecordProblem]] = []
    for n, line in lines:
        try:
            items.append((n, f"line {n}", loads_tracking_repeats(line)))
        except ValueError as exc:
            found.append((n, RecordProblem(f"record at line {n}", "", f"not valid JSON ({exc})")))
    return items, found


def _explain(
    array: bytes | None, lines: list[tuple[int, bytes]] | None, origin: str
) -> RecordError:
    """The slow path: find every problem of a file that failed fast validation."""
    found: list[tuple[int, RecordProblem]] = []
    if array is not None:  # items: (position, where, raw item) of the items that parse
        items = [(i, f"index {i}", item) for i, item in enumerate(_read_json(array, origin))]
    else:
        assert lines is not None
        items, found = _parse_lines(lines)
        whole = one_object(b"\n".join(line for _, line in lines))
        if whole is not None and (found or not looks_like_record(whole)):
            return RecordError(origin, [_file_problem(single_object_message(whole))])
    found += _item_problems(items)
    if not found:
        found = _strict_json_problems(array, lines)
    if not found:
        found = [(0, _file_problem(f"cannot be read as records; {EXPECTED_SHAPE}"))]
    return RecordError(origin, _in_order(found), len(lines) if lines is not None else len(items))


def _item_problems(items: list[tuple[int, str, Any]]) -> list[tuple[int, RecordProblem]]:
    """Every problem of parsed items: schema, rules, repeated keys, rules across records."""
    found = _schema_problems(items) + _repeat_problems(items)
    found += _inconsistencies((pos, where, _raw_key_fields(item)) for pos, where, item in items)
    return found


def _item_label(item: Any, where: str) -> str:
    return _label_id(item.get("sample_id") if isinstance(item, dict) else None, where)


def _schema_problems(items: list[tuple[int, str, Any]]) -> list[tuple[int, RecordProblem]]:
    """The schema and declared-rule errors of the items, each at its item's position."""
    try:
        RECORD_LIST.validate_python([item for _, _, item in items])
    except ValidationError as exc:
        found = []
        for err in exc.errors():
            index = err["loc"][0] if err["loc"] else None
            position, where, item = items[index] if isinstance(index, int) else (-1, "", None)
            problem = RecordProblem(_item_label(item, where), _error_field(err), _message(err))
            found.append((position, problem))
        return found
    return []


def _repeat_problems(items: list[tuple[int, str, Any]]) -> list[tuple[int, RecordProblem]]:
    """A key repeated within one object of an item (JSON would keep only its last value)."""
    found = []
    for position, where, item in items:
        for field, key, count in repeated_keys(item):
            message = (
                f"key {key!r} appears {count} times in one object; JSON keeps only the last "
                "value, so the others would be lost silently: keep one"
            )
            found.append((position, RecordProblem(_item_label(item, where), field, message)))
    return found


def _strict_json_problems(
    array: bytes | None, lines: list[tuple[int, bytes]] | None
) -> list[tuple[int, RecordProblem]]:
    """What the strict parser rejects although Python's `json` reads it (a lone surrogate)."""
    if array is not None:
        error = strict_json_error(array)
        return [(0, _file_problem(f"not JSON ({error}); {EXPECTED_SHAPE}"))] if error else []
    found = []
    for n, line in lines or []:
        if error := strict_json_error(line):
            error = error.replace("at line 1 column", "at column")
            found.append((n, RecordProblem(f"record at line {n}", "", f"not valid JSON ({error})")))
    return found


def _read_json(data: bytes, origin: str) -> Any:
    """The parsed value, or a RecordError saying why the bytes are not JSON."""
    try:
        return loads_tracking_repeats(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problem = f"not UTF-8 text (bad byte at offset {exc.start})"
    except json.JSONDecodeError as exc:
        problem = f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    raise RecordError(origin, [_file_problem(f"{problem}; {EXPECTED_SHAPE}")])


# (sample_id, domain, metadata.domain) of one record; in raw input each may be of any type.
_KeyFields = tuple[Any, Any, Any]


def _raw_key_fields(item: Any) -> _KeyFields:
    if not isinstance(item, dict):
        return None, None, None
    meta = item.get("metadata")
    meta_domain = meta.get("domain") if isinstance(meta, dict) else None
    return item.get("sample_id"), item.get("domain"), meta_domain


def _inconsistencies(
    entries: Iterable[tuple[int, str, _KeyFields]],
) -> list[tuple[int, RecordProblem]]:
    """Problems across records: duplicate sample_id, domain disagreement, a domain's spellings."""
    found: list[tuple[int, RecordProblem]] = []
    first_seen: dict[str, str] = {}
    spellings: dict[str, tuple[str, str]] = {}  # folded domain -> (first spelling, where)
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
        # A benchmark domain or a name with spaces around it is refused per record already.
        if isinstance(domain, str) and domain == domain.strip() and not _benchmark(domain):
            spelling, seen_at = spellings.setdefault(domain.lower(), (domain, where))
            if spelling != domain:
                message = (
                    f"{domain!r} differs only by case from the domain {spelling!r} of the record "
                    f"at {seen_at}; spell one domain one way"
                )
                found.append((position, RecordProblem(label, "domain", message)))
    return found


def _benchmark(domain: str) -> bool:
    return domain.lower() in {name.lower() for name in DOMAINS}


def _in_order(found: list[tuple[int, RecordProblem]]) -> list[RecordProblem]:
    return [problem for _, problem in sorted(found, key=lambda pair: pair[0])]


def _usable_id(sample_id: Any) -> bool:
    return isinstance(sample_id, str) and bool(sample_id.strip())


def _label_id(sample_id: Any, where: str) -> str:
    return f"record {sample_id!r} ({where})" if _usable_id(sample_id) else f"record at {where}"


def _file_problem(message: str) -> RecordProblem:
    return RecordProblem("", "", message)


def _error_field(err: ErrorDetails) -> str:
    """The dotted field of an error, plus the field a `RecordRuleError` names below it."""
    field = _field_path(err["loc"][1:])
    rule = err.get("ctx", {}).get("error")
    below = rule.field if isinstance(rule, RecordRuleError) else ""
    return ".".join(part for part in (field, below) if part)


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
        return f"expected a JSON object, got {json_kind(value)}"
    if kind == "too_short" and value == []:
        return "must not be an empty list"
    message = err["msg"].removeprefix("Value error, ")
    return f"{message} (got {json_kind(value)})" if kind.endswith("_type") else message
