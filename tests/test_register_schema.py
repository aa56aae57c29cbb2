"""`polar_inspect/eval.yaml` against the constraints Inspect Evals puts on `eval.yaml`.

The models below are this project's own restatement of the register's rules, as documented in
UKGovernmentBEIS/inspect_evals (pull requests #1504 "Support external evals", #1507 "Forbid
unknown fields on eval.yaml metadata models", #2470 "metadata.requires", #2183 "register schema
validation", the `register/` submission guide) and in the eval template's `eval.yaml` reference
(Generality-Labs/inspect-evals-template, CONTRIBUTING.md and TASK_VERSIONING.md):

- every model forbids unknown keys (a typo or a stale key is an error, not silently dropped);
- required: title, description, arxiv, group, contributors, version (`N-X`), tasks (each with
  `name` and `dataset_samples`), external_assets (`[]` when there is none);
- an external asset is `type` / `source` / `fetch_method` / `state` / optional `comment`;
- a register entry (`register/<name>/eval.yaml` in inspect_evals) is the same metadata plus a
  `source:` block (repository URL, full 40-character commit SHA) and a `task_path` per task.

Where the register's own lists are longer than what is written here (for instance its fetch
methods), the lists below are the values seen in its documentation and examples.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from inspect_ai import list_tasks
from pydantic import BaseModel, ConfigDict, Field, HttpUrl, ValidationError, model_validator

from polar_inspect.data.sources import OFFICIAL_RELEASE
from polar_inspect.register import EVAL_YAML

REPO_ROOT = Path(__file__).resolve().parents[1]
TASK_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
N_X = r"^[1-9][0-9]*-[A-Z]+$"
COMMIT = r"^[0-9a-f]{40}$"


class Strict(BaseModel):
    """Unknown keys are errors, as in the register."""

    model_config = ConfigDict(extra="forbid")


class HumanBaseline(Strict):
    metric: str
    score: float
    source: str


class RegisterTask(Strict):
    name: str = Field(pattern=TASK_NAME.pattern)
    dataset_samples: int = Field(gt=0)
    task_path: str | None = None
    human_baseline: HumanBaseline | None = None


class Asset(Strict):
    type: Literal["huggingface", "git_clone", "direct_url", "git_dependency"]
    source: str = Field(min_length=1)
    fetch_method: Literal[
        "load_dataset",
        "hf_dataset",
        "hf_hub_download",
        "snapshot_download",
        "git_clone",
        "download_and_verify",
        "other",
    ]
    state: Literal["floating", "pinned", "controlled"]
    comment: str | None = None


class Requires(Strict):
    internet: bool | None = None
    gpu: bool | dict[str, Any] | None = None


class RuntimeMetadata(Strict):
    sandbox: list[Literal["solver", "scorer"]] | None = None
    requires: Requires | None = None
    environment: str | None = None
    supports_k8s: bool | None = None


class EvalYaml(Strict):
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    arxiv: HttpUrl
    group: str = Field(min_length=1)
    contributors: list[str] = Field(min_length=1)
    version: str = Field(pattern=N_X)
    tasks: list[RegisterTask] = Field(min_length=1)
    external_assets: list[Asset]
    dependency: str | None = None
    tags: list[str] | None = None
    metadata: RuntimeMetadata | None = None

    @model_validator(mode="after")
    def _unique_task_names(self) -> EvalYaml:
        names = [t.name for t in self.tasks]
        if len(names) != len(set(names)):
            raise ValueError(f"task names repeat: {names}")
        return self


class Source(Strict):
    repository_url: HttpUrl
    repository_commit: str = Field(pattern=COMMIT)
    package_name: str | None = None
    maintainers: list[str] | None = None
    comment: str | None = None


class RegisterEntry(EvalYaml):
    """`register/<name>/eval.yaml`: the metadata, where the code is, and each task's file."""

    source: Source

    @model_validator(mode="after")
    def _every_task_has_a_path(self) -> RegisterEntry:
        missing = [t.name for t in self.tasks if not t.task_path]
        if missing:
            raise ValueError(f"tasks without task_path: {missing}")
        return self


def _raw() -> dict[str, Any]:
    return yaml.safe_load(EVAL_YAML.read_text(encoding="utf-8"))


def _entry(raw: dict[str, Any], commit: str = "0123456789abcdef0123456789abcdef01234567") -> dict:
    return {
        **raw,
        "source": {
            "repository_url": "https://github.com/example/polar_inspect",
            "repository_commit": commit,
            "package_name": "polar_inspect",
            "maintainers": ["example"],
        },
    }


def test_eval_yaml_meets_the_register_schema() -> None:
    meta = EvalYaml.model_validate(_raw())
    assert str(meta.arxiv) == "https://arxiv.org/abs/2605.19127"
    [asset] = meta.external_assets
    assert (asset.type, asset.source, asset.state) == (
        "huggingface",
        "Qiaoyuan/POLAR-Bench",
        "pinned",
    )
    # "pinned" is a claim: the comment names the very commit the loader downloads
    assert OFFICIAL_RELEASE.revision in " ".join((asset.comment or "").split())


def test_the_register_entry_is_this_file_plus_a_source_block() -> None:
    entry = RegisterEntry.model_validate(_entry(_raw()))
    assert {t.task_path for t in entry.tasks} == {
        "polar_inspect/tasks.py",
        "polar_inspect/domain_tasks.py",
    }


def test_every_task_path_defines_its_task() -> None:
    """The register looks for each task's `@task` definition in its `task_path`; Inspect's own
    file-based discovery (`inspect list tasks`) must find exactly the tasks eval.yaml lists."""
    tasks = EvalYaml.model_validate(_raw()).tasks
    for path in {t.task_path for t in tasks}:
        assert path is not None and (REPO_ROOT / path).is_file(), path
        assert (REPO_ROOT / path).parent.joinpath("__init__.py").is_file()  # inside a package
        found = {info.name for info in list_tasks(path, root_dir=REPO_ROOT)}
        assert found == {t.name for t in tasks if t.task_path == path}


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda r: r.update(requires_internet=True), "requires_internet"),
        (lambda r: r.update(version="1.0"), "version"),
        (lambda r: r.update(version="1-a"), "version"),
        (lambda r: r.pop("external_assets"), "external_assets"),
        (lambda r: r.pop("contributors"), "contributors"),
        (lambda r: r["tasks"][0].update(samples=1), "samples"),
        (lambda r: r["tasks"].append(dict(r["tasks"][0])), "repeat"),
        (lambda r: r["external_assets"][0].update(revision="abc"), "revision"),
        (lambda r: r["external_assets"][0].update(state="latest"), "state"),
        (lambda r: r.update(metadata={"requires_internet": True}), "requires_internet"),
    ],
)
def test_the_schema_rejects_what_the_register_rejects(change: Any, error: str) -> None:
    raw = copy.deepcopy(_raw())
    change(raw)
    with pytest.raises(ValidationError, match=error):
        EvalYaml.model_validate(raw)


def test_a_register_entry_needs_a_full_commit_and_every_task_path() -> None:
    raw = _raw()
    with pytest.raises(ValidationError, match="repository_commit"):
        RegisterEntry.model_validate(_entry(raw, commit="2fe6a18"))
    without_path = copy.deepcopy(raw)
    del without_path["tasks"][1]["task_path"]
    with pytest.raises(ValidationError, match="task_path"):
        RegisterEntry.model_validate(_entry(without_path))
    with pytest.raises(ValidationError, match="source"):
        RegisterEntry.model_validate(raw)
