"""Target values read by meaning: repeated values merged and counted, values their document
lacks counted, for the run's metadata (docs/data.md, "Target values by meaning")."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from polar_inspect.data.record_values import expand_value, repeated_targets
from polar_inspect.data.records import PolarRecord, Side
from polar_inspect.detectors.match import TextIndex

logger = logging.getLogger(__name__)

#: How many findings a `TargetSummary` lists (the rest are counted).
LISTED_FINDINGS = 20


class TargetFinding(BaseModel):
    """One target value of one record: repeated (merged), or not in the document."""

    model_config = ConfigDict(frozen=True)

    sample_id: str
    side: Side
    kind: Literal["repeated", "not_in_document"]
    value: str
    #: For `repeated`: the spelling kept in its place.
    kept: str | None = None


class TargetSummary(BaseModel):
    """What the target checks found in the selected records, for the log's metadata."""

    #: Spellings dropped because an earlier value of the same list is the same value.
    repeated_values: int = 0
    records_with_repeats: int = 0
    #: Target values (after merging) the record's document does not contain.
    values_not_in_document: int = 0
    records_with_values_not_in_document: int = 0
    #: sample_id -> how many of its target values the document does not contain (records
    #: with none are left out).
    not_in_document: dict[str, int] = Field(default_factory=dict)
    #: The first LISTED_FINDINGS findings, in record order.
    listed: list[TargetFinding] = Field(default_factory=list)


def _not_in_document(document: str, sides: Sequence[tuple[Side, list[str], list[str]]]) -> set[str]:
    """The target values the matcher does not find in `document`, which is indexed only for a
    value its lowercase lacks (normalising acts per character and whitespace run)."""
    lowered = document.lower()
    pending = [v for _, _, values in sides for v in values if v.lower() not in lowered]
    index = TextIndex(document) if pending else None
    return {value for value in pending if index is not None and not index.contains(value)}


def record_findings(record: PolarRecord) -> list[TargetFinding]:
    """The repeated spellings and the values the document lacks, of one record."""
    sides = record.sides()
    missing = _not_in_document(record.generated_texts.source_document_text, sides)
    found: list[TargetFinding] = []
    for side, written, values in sides:
        items = [item for value in written for item in expand_value(value) if item.strip()]
        found += [
            TargetFinding(sample_id=record.sample_id, side=side, kind="repeated", value=v, kept=k)
            for v, k in repeated_targets(items)  # list literals expanded, exact repeats kept
        ]
        found += [
            TargetFinding(sample_id=record.sample_id, side=side, kind="not_in_document", value=v)
            for v in values
            if v in missing
        ]
    return found


def summarize_targets(records: Sequence[PolarRecord], origin: str = "") -> TargetSummary:
    """Every record's findings, counted (a warning line with `origin`)."""
    findings = [finding for record in records for finding in record_findings(record)]
    repeated = [f for f in findings if f.kind == "repeated"]
    missing = [f for f in findings if f.kind == "not_in_document"]
    per_record = dict(Counter(finding.sample_id for finding in missing))
    summary = TargetSummary(
        repeated_values=len(repeated),
        records_with_repeats=len({f.sample_id for f in repeated}),
        values_not_in_document=len(missing),
        records_with_values_not_in_document=len(per_record),
        not_in_document=per_record,
        listed=findings[:LISTED_FINDINGS],
    )
    if origin and findings:
        logger.warning("%s: %s", origin, describe(summary))
    return summary


def describe(summary: TargetSummary) -> str:
    """One line: what the target checks found (empty when nothing)."""
    parts = []
    if summary.repeated_values:
        parts.append(
            f"{summary.repeated_values} target value(s) in {summary.records_with_repeats} "
            "record(s) repeat an earlier value of their list in another case or spacing and "
            "are counted once"
        )
    if summary.values_not_in_document:
        parts.append(
            f"{summary.values_not_in_document} target value(s) in "
            f"{summary.records_with_values_not_in_document} record(s) are not in their "
            "document and can never be disclosed from it (a typo?)"
        )
    if not parts:
        return ""
    return "; ".join(parts) + " (listed in the eval metadata under 'target_checks')"
