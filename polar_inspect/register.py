"""The register metadata in `polar_inspect/eval.yaml`, typed; the task version comes from it."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

EVAL_YAML = Path(__file__).with_name("eval.yaml")
_VERSION = re.compile(r"^(\d+)-([A-Z]+)$")


class RegisteredTask(BaseModel):
    """One task as the register lists it."""

    model_config = ConfigDict(extra="forbid")

    name: str
    dataset_samples: int = Field(gt=0)
    task_path: str | None = None  # the file defining the task, from the repository root


class ExternalAsset(BaseModel):
    """Something the eval fetches at run time (the pinned Hugging Face release), in Inspect
    Evals' keys; the code's pin is `data.sources.OFFICIAL_RELEASE`."""

    model_config = ConfigDict(extra="forbid")

    type: str
    source: str
    fetch_method: str
    state: str
    comment: str | None = None


class EvalMetadata(BaseModel):
    """What the Inspect Evals register reads from `eval.yaml` (unknown keys are errors)."""

    model_config = ConfigDict(extra="forbid")

    title: str
    description: str
    arxiv: str
    group: str
    contributors: list[str]
    version: str
    tasks: list[RegisteredTask]
    external_assets: list[ExternalAsset] = []
    dependency: str | None = None  # the register's optional-dependency group, if any
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None  # Inspect Evals' runtime block (sandbox, requires)

    @field_validator("version")
    @classmethod
    def _n_x(cls, value: str) -> str:
        if not _VERSION.match(value):
            raise ValueError(f"version must be N-X (e.g. 1-A), got {value!r}")
        return value

    @property
    def comparability_version(self) -> int:
        """N of N-X: logs with the same N have comparable scores."""
        return int(value.group(1)) if (value := _VERSION.match(self.version)) else 0

    @property
    def interface_version(self) -> str:
        """X of N-X: changes to parameters or outputs that keep scores comparable."""
        return value.group(2) if (value := _VERSION.match(self.version)) else ""


@functools.cache
def register_entry() -> EvalMetadata:
    """`eval.yaml`, parsed and checked once per process."""
    return EvalMetadata.model_validate(yaml.safe_load(EVAL_YAML.read_text(encoding="utf-8")))
