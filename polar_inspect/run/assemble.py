"""The pieces a task is built from: the selected data, the settings and plug-in code that
enter the task identity, and the run metadata the log carries (`tasks.build_task` puts them
together)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.model import GenerateConfig
from pydantic import BaseModel, ConfigDict

from polar_inspect.attackers.registry import ATTACKERS
from polar_inspect.axes import SelectionError, parse_domains
from polar_inspect.data.loading import RecordError
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.short_values import ShortValueSummary
from polar_inspect.data.sources import DataSource, load_source, resolve_source
from polar_inspect.data.target_checks import summarize_targets
from polar_inspect.data.value_fields import ValueFields, field_coverage, value_fields
from polar_inspect.defenses.registry import DEFENSES
from polar_inspect.errors import UserInputError
from polar_inspect.redaction import fingerprint
from polar_inspect.register import register_entry
from polar_inspect.run.code import CodeIdentity, code_identity
from polar_inspect.run.config import PolarConfig
from polar_inspect.run.identity import DETECTOR_VERSIONS, TaskIdentity
from polar_inspect.run.metadata import AttackerNote, DefenseNote, RunMetadata, TemplateNote
from polar_inspect.run.setup import RunSetup

#: The paper's settings for the trusted model; `--temperature` / `--max-tokens` override them.
TRUSTED_MODEL_CONFIG = GenerateConfig(temperature=0.0, top_p=1.0, max_tokens=1200)


class EmptySelectionError(UserInputError):
    """The filters left no sample to run."""


#: The config fields that are no setting: the data and the selection are parts of their own, a
#: template path enters by its file's hash, the rest changes no number. Every other is a setting.
NOT_SETTINGS = {"data", "domain", "policy", "attack", "system_prompt", "max_in_flight", "gc_tuning"}
#: Settings left out at their default: the paper's setting keeps the identity its earlier logs have.
OMITTED_AT_DEFAULT = ("trusted_agent", "document_access")


def settings_of(config: PolarConfig) -> dict[str, Any]:
    """The parameters that change what is sent or scored: the config but `NOT_SETTINGS`."""
    fields = type(config).model_fields
    at_default = {n for n in OMITTED_AT_DEFAULT if getattr(config, n) == fields[n].default}
    settings = config.model_dump(exclude=NOT_SETTINGS | at_default)
    settings["defense"] = [spec.name for spec in config.defense]
    settings["attacker_options"] = {
        name: value
        for name, value in config.attacker_options.items()
        if not name.endswith("_prompt")  # a path: its template's hash is in the templates
    }
    settings["trusted_model_config"] = TRUSTED_MODEL_CONFIG.model_dump(exclude_none=True)
    return fingerprint(settings)  # a plug-in's `-T ..._api_key`: its sha256, never the key


def plugin_code(config: PolarConfig, setup: RunSetup) -> dict[str, CodeIdentity]:
    """The code identity of every plug-in and agent the run uses from outside the package."""
    pieces: dict[str, tuple[object, tuple[str, str | None] | None]] = {
        f"attacker {config.attacker}": (
            config.attacker_class(),
            ATTACKERS.origins.get(config.attacker),
        )
    }
    for spec in config.defense:
        pieces[f"defense {spec.name}"] = (DEFENSES.get(spec.name), DEFENSES.origins.get(spec.name))
    if setup.trusted_agent is not None:
        pieces["trusted_agent"] = (setup.trusted_agent, None)
    found = {name: code_identity(piece, origin) for name, (piece, origin) in pieces.items()}
    return {name: code for name, code in found.items() if code is not None}


def _check_named_fields(
    records: Sequence[PolarRecord], fields: Sequence[ValueFields], path: str
) -> None:
    """With `fields` access every target value must sit in a named field: a value no field
    holds could never be fetched, and would score as withheld."""
    unnamed = [
        (record.sample_id, [v for v in record.protected_values() + record.allowed_values()
                            if v not in found.fields])
        for record, found in zip(records, fields, strict=True)
    ]  # fmt: skip
    unnamed = [(sample_id, values) for sample_id, values in unnamed if values]
    if unnamed:
        sample_id, values = unnamed[0]
        raise UserInputError(
            f"Task parameter document_access=fields: {len(unnamed)} record(s) of {path} have "
            f"target values that no field of hidden_target.gold_sensitive_values / "
            f"gold_safe_values holds (first: {sample_id}: {values[:3]}); name their fields "
            "there, or use -T document_access=tool"
        )


class Selection(BaseModel):
    """The data a run reads and the records it selects."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    source: DataSource
    available: int
    selected: list[PolarRecord]
    domains: list[str]  # the domains of the selected records, in the selection's order
    fields: list[ValueFields]


def select_data(
    config: PolarConfig, subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None
) -> Selection:
    """Load the data, apply the subset and the filters; refuse an empty selection."""
    try:
        source = resolve_source(config.data)
        records = load_source(source)
    except RecordError as err:
        raise UserInputError(str(err)) from None
    try:
        domains = parse_domains(config.domain, available={r.domain for r in records})
    except SelectionError as err:
        raise SelectionError(f"Task parameter domain: {err.message}") from None
    if subset is not None:
        records = subset(records)
    wanted = set(domains)
    selected = [
        r
        for r in records
        if r.domain in wanted and r.policy in config.policy and r.attack in config.attack
    ]
    if not selected:
        raise EmptySelectionError(
            f"No sample in {source.path} matches domain={domains}, policy={list(config.policy)}, "
            f"attack={list(config.attack)} ({len(records)} samples before filtering)."
        )
    fields = [value_fields(record) for record in selected]  # read once, used twice
    if config.document_access == "fields":
        _check_named_fields(selected, fields, source.path)
    present = {r.domain for r in selected}
    return Selection(
        source=source,
        available=len(records),
        selected=selected,
        domains=[d for d in domains if d in present],
        fields=fields,
    )


def run_metadata(
    setup: RunSetup, data: Selection, subset_name: str, short: ShortValueSummary, version: str
) -> RunMetadata:
    """The run's metadata with its task identity (`RunMetadata`), as the task logs it."""
    config, entry = setup.config, register_entry()
    identity = TaskIdentity(
        package_version=version,
        task_version=entry.version,
        detectors=dict(DETECTOR_VERSIONS),
        data_sha256=data.source.sha256,
        subset=subset_name,
        selection={
            "domains": data.domains,
            "policies": list(config.policy),
            "attacks": list(config.attack),
            "samples": len(data.selected),
        },
        settings=settings_of(config),
        templates={name: t.sha256 for name, t in sorted(setup.templates().items())},
        code=plugin_code(config, setup),
    )
    return RunMetadata(
        polar_inspect_version=version,
        full_task_version=entry.version,
        task_comparability_version=entry.comparability_version,
        task_interface_version=entry.interface_version,
        identity=identity,
        data_source=data.source,
        subset=subset_name,
        samples_available=data.available,
        samples_selected=len(data.selected),
        domains=data.domains,
        policies=list(config.policy),
        attacks=list(config.attack),
        **config.model_dump(include={"max_turns", "weight", "truncated", "judge"}),
        attacker=AttackerNote(
            name=config.attacker,
            options=config.attacker_options,
            note=setup.attacker.describe(list(config.attack)),
        ),
        defense=DefenseNote(
            label=setup.defenses.label,
            stack=[spec.name for spec in config.defense],
            prompts={spec.name: spec.prompt for spec in config.defense if spec.prompt},
            oracle=setup.defenses.oracle,
            roles=sorted(setup.defenses.roles),
        ),
        prompts={
            name: TemplateNote(source=t.source, sha256=t.sha256, text=t.text)
            for name, t in setup.templates().items()
        },
        value_fields=field_coverage(
            data.selected, origin=data.source.path, fields=data.fields
        ).model_dump(),
        short_values=short,
        target_checks=summarize_targets(data.selected, origin=data.source.path),
        trusted_model_config=TRUSTED_MODEL_CONFIG.model_dump(exclude_none=True),
        config=config.model_dump(mode="json"),
    )
