"""Which field each scoring-target value comes from, read from the record's `hidden_target`
(docs/data.md, "Field names per domain"); a malformed one is read as absent and counted."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel

from polar_inspect.data.record_values import flatten_values, json_kind
from polar_inspect.data.records import HiddenTarget, PolarRecord

logger = logging.getLogger(__name__)

#: How many malformed records `FieldCoverage` names (the rest are counted).
LISTED_EXAMPLES = 5
#: The sides of `hidden_target` read, with the target list each one names.
_GOLD_MAPS = (("gold_sensitive_values", "protected"), ("gold_safe_values", "allowed"))


class ValueFields(BaseModel):
    """A record's value -> field name map, or why its `hidden_target` could not be read."""

    fields: dict[str, str] = {}
    #: Why `hidden_target` was read as absent (None: usable, or absent).
    malformed: str | None = None


class FieldCoverage(BaseModel):
    """How many records named their values' fields; the malformed ones, counted and named."""

    records: int = 0
    with_fields: int = 0
    malformed: int = 0
    #: Up to LISTED_EXAMPLES "sample_id: reason" lines.
    malformed_examples: list[str] = []


def _texts(value: Any) -> Iterator[str]:
    """The texts of one gold entry: str() of each scalar (a bool too, as the renderer writes it),
    lists and objects flattened."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif value is not None:
        yield str(value)


def value_fields(record: PolarRecord) -> ValueFields:
    """The field name of each of `record`'s target values that `hidden_target` names."""
    if (target := record.hidden_target) is None:
        return ValueFields()
    if not isinstance(target, HiddenTarget):
        return ValueFields(malformed=f"hidden_target is {json_kind(target)}, expected an object")
    wanted = {"protected": record.protected_values(), "allowed": record.allowed_values()}
    fields: dict[str, str] = {}
    for key, side in _GOLD_MAPS:
        if (gold := getattr(target, key)) is None:
            continue
        if not isinstance(gold, dict):
            reason = f"hidden_target.{key} is {json_kind(gold)}, expected an object"
            return ValueFields(malformed=reason)
        _name_values(gold, set(wanted[side]), fields)
    return ValueFields(fields=fields)


def _name_values(gold: dict[Any, Any], targets: set[str], fields: dict[str, str]) -> None:
    """Name each of `targets` that `gold` holds after its first field in `fields`."""
    for field, raw in gold.items():
        if name := str(field).strip():
            for text in flatten_values(list(_texts(raw))):
                if text in targets:
                    fields.setdefault(text, name)


def field_coverage(
    records: Sequence[PolarRecord], origin: str = "", fields: Sequence[ValueFields] | None = None
) -> FieldCoverage:
    """Count the records with field names and the malformed ones (a warning with `origin`)."""
    coverage = FieldCoverage()
    known = fields if fields is not None else [value_fields(r) for r in records]
    for record, found in zip(records, known, strict=True):
        coverage.records += 1
        coverage.with_fields += bool(found.fields)
        if found.malformed is not None:
            coverage.malformed += 1
            if len(coverage.malformed_examples) < LISTED_EXAMPLES:
                coverage.malformed_examples.append(f"{record.sample_id}: {found.malformed}")
    if origin and coverage.malformed:
        logger.warning(
            "%s: %d of %d record(s) have a malformed hidden_target, read as absent (their "
            "values get no field names; counted in the eval metadata under 'value_fields'): %s%s",
            origin,
            coverage.malformed,
            coverage.records,
            "; ".join(coverage.malformed_examples),
            " ..." if coverage.malformed > len(coverage.malformed_examples) else "",
        )
    return coverage
