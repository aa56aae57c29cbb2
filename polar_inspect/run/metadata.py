"""The log's `eval.metadata` as one typed model, 1-A logs included (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from polar_inspect.data.short_values import ShortValueSummary
from polar_inspect.data.sources import DataSource
from polar_inspect.data.target_checks import TargetSummary
from polar_inspect.run.identity import TaskIdentity

BENCHMARK = "POLAR-Bench (arXiv 2605.19127)"


class TemplateNote(BaseModel):
    """One template the run sent: where it came from, its full sha256, its text."""

    source: str
    sha256: str
    text: str = ""

    @property
    def short_hash(self) -> str:
        """The first 12 hex digits of its sha256."""
        return self.sha256[:12]


class DefenseNote(BaseModel):
    """The defense stack as the report tells runs apart by it."""

    label: str = "none"
    stack: list[str] = Field(default_factory=list)
    prompts: dict[str, str] = Field(default_factory=dict)  # defense -> template path given
    oracle: bool = False
    roles: list[str] = Field(default_factory=list)


class AttackerNote(BaseModel):
    """The attacker: its registered name, its options, and how it plays the selected strategies."""

    name: str = "paper"
    options: dict[str, Any] = Field(default_factory=dict)
    note: str = ""


class RunMetadata(BaseModel):
    """The log's eval metadata (task version 1-B and later)."""

    model_config = ConfigDict(extra="allow")

    benchmark: str = BENCHMARK
    polar_inspect_version: str
    full_task_version: str
    task_comparability_version: int
    task_interface_version: str
    identity: TaskIdentity | None = None  # None: read from a 1-A log
    data_source: DataSource
    subset: str = "all"
    samples_available: int | None = None
    samples_selected: int | None = None
    domains: list[str] = Field(default_factory=list)
    policies: list[str] = Field(default_factory=list)
    attacks: list[str] = Field(default_factory=list)
    max_turns: int | None = None
    weight: float = 0.5
    truncated: str = "score"
    judge: bool = False
    attacker: AttackerNote = Field(default_factory=AttackerNote)
    defense: DefenseNote = Field(default_factory=DefenseNote)
    prompts: dict[str, TemplateNote] = Field(default_factory=dict)
    value_fields: dict[str, Any] = Field(default_factory=dict)
    short_values: ShortValueSummary = Field(default_factory=ShortValueSummary)
    #: Repeated target values merged, target values their document lacks (data/target_checks).
    target_checks: TargetSummary = Field(default_factory=TargetSummary)
    trusted_model_config: dict[str, Any] = Field(default_factory=dict)
    #: The `-T` parameters as validated (`run.config.PolarConfig`).
    config: dict[str, Any] = Field(default_factory=dict)

    @property
    def is_legacy(self) -> bool:
        """Read from a log of task version 1-A."""
        return self.identity is None


class MetadataVersionError(ValueError):
    """A log written by a task version this package cannot read."""


def is_polar_metadata(meta: dict[str, Any] | None) -> bool:
    """Whether an eval's metadata is a polar_inspect run's (any version)."""
    return str((meta or {}).get("benchmark", "")).startswith("POLAR-Bench")


def read_run_metadata(meta: dict[str, Any], known_comparability: int) -> RunMetadata:
    """A log's run metadata, whatever task version wrote it; refused if its comparability
    version (N of N-X) is above `known_comparability`, this package's."""
    version = meta.get("task_comparability_version")
    if isinstance(version, int) and version > known_comparability:
        raise MetadataVersionError(
            f"written by task version {meta.get('full_task_version')} (comparability "
            f"{version}); this polar_inspect reads versions up to {known_comparability}: "
            "upgrade polar_inspect to report it"
        )
    try:  # a 1-A log's metadata has no identity
        return RunMetadata.model_validate(meta if "identity" in meta else _from_1a(meta))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise MetadataVersionError(f"eval metadata {where}: {first['msg']}") from None


def _from_1a(meta: dict[str, Any]) -> dict[str, Any]:
    """The untyped metadata of a 1-A log in the typed model's keys (its others dropped)."""
    attacker = str(meta.get("attacker") or "paper")
    options = {
        key: meta[key]
        for key in ("attacker_knowledge", "attack_budget", "attack_language")
        if meta.get(key) is not None and attacker == "adaptive"
    }
    return {
        **{k: v for k, v in meta.items() if k in RunMetadata.model_fields and v is not None},
        "polar_inspect_version": str(meta.get("polar_inspect_version", "")),
        "full_task_version": str(meta.get("full_task_version", "1-A")),
        "task_comparability_version": int(meta.get("task_comparability_version") or 1),
        "task_interface_version": str(meta.get("task_interface_version", "A")),
        "data_source": meta.get("data_source") or {},
        "attacker": AttackerNote(
            name=attacker, options=options, note=meta.get("s5_attacker") or ""
        ),
        "defense": meta.get("defense") if isinstance(meta.get("defense"), dict) else {},
        "prompts": {  # a template's source, sha256 and text, or its source alone
            name: entry
            if isinstance(entry, dict)
            else {"source": str(entry or "default"), "sha256": ""}
            for name, entry in (meta.get("prompts") or {}).items()
        },
    }


def legacy_identity(meta: RunMetadata) -> dict[str, Any]:
    """What a 1-A log's metadata tells of its identity (for telling such runs apart)."""
    return {
        "versions": [meta.polar_inspect_version, meta.full_task_version],
        "data": meta.data_source.sha256,
        "selection": [meta.subset, meta.domains, meta.policies, meta.attacks],
        "settings": [
            meta.max_turns,
            meta.weight,
            meta.truncated,
            meta.judge,
            meta.attacker.name,
            meta.attacker.options,
            meta.defense.label,
        ],
        "templates": {name: note.sha256 or note.source for name, note in meta.prompts.items()},
    }
