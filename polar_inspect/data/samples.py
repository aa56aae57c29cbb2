"""Turn release records into Inspect samples."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.solver import TaskState
from pydantic import BaseModel, ConfigDict, ValidationError

from polar_inspect.data.records import AttackSetup, PolarRecord
from polar_inspect.data.sources import DataSource
from polar_inspect.data.value_fields import ValueFields, value_fields
from polar_inspect.frozen_json import freeze_values


class SampleTexts(BaseModel):
    """The long texts a dialogue is built from, nested so Inspect's summaries drop them at once."""

    source_document: str
    privacy_policy: str
    task_instruction: str


class SampleInfo(BaseModel):
    """What the solver and scorer read from `Sample.metadata`; read it with `sample_info`."""

    model_config = ConfigDict(frozen=True)

    domain: str
    policy: str
    attack: str
    cell: str
    privacy_type: str
    attack_type: str
    document_form: str
    task_type: str
    texts: SampleTexts
    planned_turns: list[str]
    turn_budget: int
    attacker_goal: str | None
    protected_values: list[str]
    allowed_values: list[str]
    #: Field names (not values): what an attacker that knows only the form is after.
    protected_fields: list[str] = []
    allowed_fields: list[str] = []
    #: Target value -> the field that holds it, from `hidden_target` (`data/value_fields.py`);
    #: a value without an entry has no known field.
    value_fields: dict[str, str] = {}
    #: Provenance: the absolute path and sha256 of the data file the sample was built from, so
    #: a log shows what each sample came from (and a retry over changed data is caught).
    data_path: str = ""
    data_sha256: str = ""

    #: What the live attacker is shown as its attack setup (see `attack_setup_view`).
    attack_setup: dict[str, Any] = {}


def sample_info(state: TaskState) -> SampleInfo:
    """The sample's `SampleInfo`, or one line naming the sample and each bad field."""
    try:
        return SampleInfo.model_validate(state.metadata)
    except ValidationError as err:
        problems = (
            "; ".join(
                f"{'.'.join(str(part) for part in error['loc'])}: {error['msg'].lower()}"
                for error in err.errors()
            )
            if state.metadata
            else "no metadata at all"
        )
    raise ValueError(
        f"sample {state.sample_id}: its metadata is not a POLAR-Bench sample's ({problems}); "
        "build samples with polar_inspect's loaders (polar_inspect.data.samples.record_to_sample)"
    )


def attack_setup_view(record: PolarRecord) -> dict[str, Any]:
    """The record's attack setup as the paper's live attacker receives it."""
    given = record.attack_setup or AttackSetup()
    setup: dict[str, Any] = given.model_dump(mode="json", exclude_none=True)
    setup.setdefault("attack_type", record.metadata.attack_type or record.attack)
    setup.setdefault("attack_strength", int(record.attack.removeprefix("S")))
    setup["planned_turns"] = record.planned_turns()
    return setup


def record_to_sample(
    record: PolarRecord, source: DataSource | None = None, fields: ValueFields | None = None
) -> Sample:
    """One Sample with the record's `sample_id` (`fields`: `value_fields(record)`, if known)."""
    meta = record.metadata
    info = SampleInfo(
        domain=record.domain,
        policy=record.policy,
        attack=record.attack,
        cell=record.cell,
        privacy_type=meta.privacy_type or "",
        attack_type=meta.attack_type or "",
        document_form=meta.document_form or "",
        task_type=meta.task_type or "",
        texts=SampleTexts(
            source_document=record.generated_texts.source_document_text,
            privacy_policy=record.generated_texts.privacy_policy_text,
            task_instruction=record.generated_texts.task_instruction_text,
        ),
        planned_turns=record.planned_turns(),
        turn_budget=record.turn_budget(),
        attacker_goal=record.attacker_goal(),
        protected_values=record.protected_values(),
        allowed_values=record.allowed_values(),
        protected_fields=record.protected_fields(),
        allowed_fields=record.allowed_fields(),
        value_fields=(fields if fields is not None else value_fields(record)).fields,
        data_path=source.path if source is not None else "",
        data_sha256=source.sha256 if source is not None else "",
        attack_setup=attack_setup_view(record),
    )
    return Sample(
        id=record.sample_id,
        input=record.generated_texts.task_instruction_text,
        target=info.allowed_values,
        metadata=freeze_values(info.model_dump()),
    )


def records_to_dataset(
    records: Sequence[PolarRecord],
    name: str,
    location: str,
    source: DataSource | None = None,
    fields: Sequence[ValueFields] | None = None,
) -> MemoryDataset:
    """The records as an Inspect dataset (`fields`: each one's `value_fields`, if known)."""
    found: Sequence[ValueFields | None] = fields if fields is not None else [None] * len(records)
    samples = [record_to_sample(r, source, f) for r, f in zip(records, found, strict=True)]
    return MemoryDataset(samples, name=name, location=location, shuffled=False)
