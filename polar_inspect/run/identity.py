"""A run's identity: one typed fingerprint of everything that can change a number.

Two runs with the same identity would give the same scores from the same model outputs; two runs
whose identities differ in any part are different experiments. The identity has two halves:

- `TaskIdentity`, fixed when the task is built and written to the log's eval metadata: the
  package and task versions, the detector versions, the sha256 of the data bytes actually
  parsed, the sample selection, every template's content hash (dialogue, attacker, defense,
  judge), the defense stack and every parameter that changes what is sent or scored;
- the run's half, known once the eval runs and read from the log header: each role's model,
  its arguments, base URL and generation settings, Inspect's message/token/time limits, the
  epochs and the samples run (`run_identity(log)`).

Each sample records the components it was played under (`sample_identity`, in its
`DialogueState` and its score's metadata): a retry that would mix samples of two identities
fails naming what changed (`scorers.parity.one_identity`), and `polar-report` groups and
de-duplicates runs by the full identity, showing what differs between runs it shows together.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from weakref import WeakKeyDictionary

from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

#: Bump a detector's version when its verdicts change for any input (scores are then not
#: comparable with logs of the previous version).
DETECTOR_VERSIONS: dict[str, str] = {"parity": "1", "strict": "1"}
#: Generation settings that change what a model generates (others are operational).
SAMPLING_FIELDS = (
    "temperature",
    "top_p",
    "top_k",
    "max_tokens",
    "seed",
    "reasoning_effort",
    "reasoning_tokens",
    "frequency_penalty",
    "presence_penalty",
    "stop_seqs",
    "system_message",
)
#: Inspect's limits that can cut a dialogue short.
LIMIT_FIELDS = (
    "message_limit",
    "token_limit",
    "turn_limit",
    "time_limit",
    "working_limit",
    "cost_limit",
)
SHORT = 12


def digest_of(value: Any) -> str:
    """The sha256 (hex) of a value's canonical JSON."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class TaskIdentity(BaseModel):
    """What the task build fixes, of everything that can change a number."""

    model_config = ConfigDict(frozen=True)

    package_version: str
    task_version: str  # N-X from eval.yaml
    detectors: dict[str, str]
    data_sha256: str
    subset: str
    selection: dict[str, Any]  # domains, policies, attacks, samples selected
    settings: dict[str, Any]  # the parameters that change what is sent or scored
    templates: dict[str, str]  # template name -> sha256 of its text

    def components(self) -> dict[str, str]:
        """Short digests per part, so that two identities can be told apart part by part."""
        parts: dict[str, str] = {
            "versions": digest_of([self.package_version, self.task_version, self.detectors])[
                :SHORT
            ],
            "data": self.data_sha256[:SHORT],
            "selection": digest_of([self.subset, self.selection])[:SHORT],
            "settings": digest_of(self.settings)[:SHORT],
        }
        for name, sha in sorted(self.templates.items()):
            parts[f"template {name}"] = sha[:SHORT]
        return parts

    def digest(self) -> str:
        """One digest of the whole task identity."""
        return digest_of(self.model_dump(mode="json"))


class ModelIdentity(BaseModel):
    """A role's model as far as it changes what the model generates."""

    model_config = ConfigDict(frozen=True)

    model: str
    args: dict[str, Any] = Field(default_factory=dict)
    base_url: str | None = None
    sampling: dict[str, Any] = Field(default_factory=dict)

    def digest(self) -> str:
        """Short digest of this model's identity."""
        return digest_of(self.model_dump(mode="json"))[:SHORT]

    def describe(self) -> str:
        """E.g. `openai/gpt-4o (base_url http://..., temperature=0)`."""
        extras = [f"{k}={v}" for k, v in sorted(self.args.items())]
        if self.base_url:
            extras.append(f"base_url {self.base_url}")
        extras += [f"{k}={v}" for k, v in sorted(self.sampling.items())]
        return f"{self.model} ({', '.join(extras)})" if extras else self.model


def _jsonable(args: dict[str, Any]) -> dict[str, Any]:
    """Model arguments as JSON (a value that is not JSON, e.g. a client object, by its type)."""
    return to_jsonable_python(dict(args), fallback=lambda value: type(value).__name__)


def _sampling(config: GenerateConfig | None) -> dict[str, Any]:
    if config is None:
        return {}
    return {f: getattr(config, f) for f in SAMPLING_FIELDS if getattr(config, f, None) is not None}


def model_identity(model: Model, defaults: GenerateConfig | None = None) -> ModelIdentity:
    """A live model's identity (inside a running sample); `defaults` are the settings its
    calls add under the model's own config (the same in every sample)."""
    config = defaults.merge(model.config) if defaults is not None else model.config
    return ModelIdentity(
        model=str(model),
        args=_jsonable(getattr(model, "model_args", {}) or {}),
        base_url=getattr(model.api, "base_url", None),
        sampling=_sampling(config),
    )


#: Each model object's digest, taken when the first sample of a run met it (a model's state
#: may change as it is used: the run's models are what they were when the run started).
_MODEL_DIGESTS: WeakKeyDictionary[Model, str] = WeakKeyDictionary()


def _model_digest(model: Model, defaults: GenerateConfig | None) -> str:
    known = _MODEL_DIGESTS.get(model)
    if known is None:
        known = _MODEL_DIGESTS[model] = model_identity(model, defaults).digest()
    return known


def sample_identity(
    task: TaskIdentity,
    trusted: Model,
    roles: dict[str, Model],
    role_defaults: dict[str, GenerateConfig] | None = None,
) -> dict[str, str]:
    """The components one sample is played under: the task's, plus each model's."""
    parts = task.components()
    parts["trusted model"] = _model_digest(trusted, None)
    for role, model in sorted(roles.items()):
        parts[f"role {role}"] = _model_digest(model, (role_defaults or {}).get(role))
    return parts


def changed_components(first: dict[str, str], second: dict[str, str]) -> list[tuple[str, str, str]]:
    """The components that differ between two samples' identities: (name, first's, second's)."""
    names = sorted(set(first) | set(second))
    return [
        (name, first.get(name, "(none)"), second.get(name, "(none)"))
        for name in names
        if first.get(name) != second.get(name)
    ]


class RunIdentity(BaseModel):
    """A finished run's full identity, from its log header."""

    model_config = ConfigDict(frozen=True)

    task_name: str
    task: TaskIdentity | None  # None: a log written before identities (version 1-A)
    legacy: dict[str, Any] = Field(default_factory=dict)  # 1-A: what its metadata tells
    trusted: ModelIdentity
    roles: dict[str, ModelIdentity]
    limits: dict[str, Any]
    epochs: int
    samples: dict[str, Any]

    def digest(self) -> str:
        """One digest of the whole run identity."""
        return digest_of(self.model_dump(mode="json"))

    def parts(self) -> dict[str, str]:
        """Readable parts, for saying what differs between two runs."""
        found: dict[str, str] = {"task": self.task_name}
        if self.task is not None:
            for name, value in self.task.components().items():
                found[name] = value
            found["settings"] = json.dumps(self.task.settings, sort_keys=True)
            found["versions"] = f"{self.task.package_version} / task {self.task.task_version}"
        else:
            for name, value in self.legacy.items():
                found[f"1-A {name}"] = json.dumps(value, sort_keys=True)
        found["trusted model"] = self.trusted.describe()
        for role, model in sorted(self.roles.items()):
            found[f"role {role}"] = model.describe()
        found["limits"] = json.dumps(self.limits, sort_keys=True)
        found["epochs"] = str(self.epochs)
        found["samples"] = json.dumps(self.samples, sort_keys=True)
        return found

    def differences(self, other: RunIdentity) -> list[str]:
        """What differs from `other`, one line per part."""
        mine, theirs = self.parts(), other.parts()
        return [
            f"{name}: {mine.get(name, '(none)')} vs {theirs.get(name, '(none)')}"
            for name in sorted(set(mine) | set(theirs))
            if mine.get(name) != theirs.get(name)
        ]


def _config_identity(model: str, config: GenerateConfig | None, args: dict[str, Any] | None,
                     base_url: str | None) -> ModelIdentity:  # fmt: skip
    return ModelIdentity(
        model=model, args=dict(args or {}), base_url=base_url, sampling=_sampling(config)
    )


def run_identity(log: EvalLog, task: TaskIdentity | None, legacy: dict[str, Any]) -> RunIdentity:
    """The full identity of a logged run (its task identity from the run metadata)."""
    spec = log.eval
    plan_config = log.plan.config if log.plan else GenerateConfig()
    trusted_config = (spec.model_generate_config or GenerateConfig()).merge(plan_config)
    roles: dict[str, ModelIdentity] = {}
    for role, bound in (spec.model_roles or {}).items():
        configs = bound if isinstance(bound, list) else [bound]
        for position, config in enumerate(configs):
            key = role if len(configs) == 1 else f"{role}[{position}]"
            roles[key] = _config_identity(config.model, config.config, config.args,
                                          config.base_url)  # fmt: skip
    config = spec.config
    ids = spec.dataset.sample_ids
    listing = "\n".join(sorted(str(i) for i in ids)) if ids is not None else None
    return RunIdentity(
        task_name=spec.task,
        task=task,
        legacy=legacy,
        trusted=_config_identity(spec.model, trusted_config, spec.model_args, spec.model_base_url),
        roles=roles,
        limits={f: getattr(config, f, None) for f in LIMIT_FIELDS if getattr(config, f, None)},
        epochs=config.epochs or 1,
        samples={
            "ids_sha256": hashlib.sha256(listing.encode()).hexdigest() if listing else None,
            "limit": config.limit,
            "sample_id": config.sample_id,
        },
    )
