"""A run's identity: everything that can change a number (docs/large-runs.md#run-identity)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from inspect_ai.log import EvalConfig, EvalLog
from inspect_ai.model import GenerateConfig, Model
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

from polar_inspect.redaction import fingerprint, redact, redact_text
from polar_inspect.run.agent_options import options_read
from polar_inspect.run.code import CodeIdentity

#: Bump a detector's version when its verdicts change for any input (scores are then not
#: comparable with logs of the previous version).
DETECTOR_VERSIONS: dict[str, str] = {"parity": "1", "strict": "2"}
#: Inspect's config fields classified (`identity_fields.json`); every field not operational is
#: part of the identity, including one a future Inspect adds.
_FIELDS = json.loads(Path(__file__).with_name("identity_fields.json").read_text(encoding="utf-8"))
OPERATIONAL_FIELDS: dict[str, str] = _FIELDS["GenerateConfig"]["operational"]
GENERATION_FIELDS: tuple[str, ...] = tuple(_FIELDS["GenerateConfig"]["identity"])
#: Generation settings described as a role's sampling (`dialogue.sampling`).
SAMPLING_FIELDS: tuple[str, ...] = tuple(_FIELDS["GenerateConfig"]["sampling"])
#: `EvalConfig`'s (its message/token/turn/time/working/cost limits are the `eval_config` part).
EVAL_OPERATIONAL_FIELDS: dict[str, str] = _FIELDS["EvalConfig"]["operational"]
EVAL_FIELDS: tuple[str, ...] = tuple(_FIELDS["EvalConfig"]["identity"])
#: Generation settings a role inherits from the eval's own when it sets none (Inspect's
#: `Model._resolve_config`: the rest it inherits is operational).
INHERITED_BY_ROLES = ("fail_on_refusal",)
SHORT = 12


def digest_of(value: Any) -> str:
    """The sha256 (hex) of a value's canonical JSON."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Identity(BaseModel):
    """An identity, frozen, with one digest of the whole."""

    model_config = ConfigDict(frozen=True)

    def digest(self) -> str:
        """The sha256 (hex) of the whole identity."""
        return digest_of(self.model_dump(mode="json"))


class TaskIdentity(_Identity):
    """What the task build fixes, of everything that can change a number."""

    package_version: str
    task_version: str  # N-X from eval.yaml
    detectors: dict[str, str]
    data_sha256: str
    subset: str
    selection: dict[str, Any]  # domains, policies, attacks, samples selected
    settings: dict[str, Any]  # the parameters that change what is sent or scored
    templates: dict[str, str]  # template name -> sha256 of its text
    #: The code of every plug-in and agent from outside polar_inspect (`run.code`), by role:
    #: `attacker NAME`, `defense NAME`, `trusted_agent`.
    code: dict[str, CodeIdentity] = Field(default_factory=dict)

    def components(self) -> dict[str, str]:
        """Short digests per part, so that two identities can be told apart part by part."""
        digests = {
            "versions": digest_of([self.package_version, self.task_version, self.detectors]),
            "data": self.data_sha256,
            "selection": digest_of([self.subset, self.selection]),
            "settings": digest_of(self.settings),
        }
        digests |= {f"template {name}": sha for name, sha in sorted(self.templates.items())}
        for name, code in sorted(self.code.items()):
            digests[f"code {name}"] = digest_of(code.model_dump(mode="json"))
        return {part: digest[:SHORT] for part, digest in digests.items()}


class ModelIdentity(_Identity):
    """A role's model as far as it changes what the model generates."""

    model: str
    args: dict[str, Any] = Field(default_factory=dict)
    base_url: str | None = None
    #: Every generation setting that can change a number (`generation_identity`).
    generation: dict[str, Any] = Field(default_factory=dict)

    def describe(self) -> str:
        """E.g. `openai/gpt-4o (base_url http://..., temperature=0)`, secrets redacted."""
        extras = [f"{k}={_shown(v)}" for k, v in sorted(self.args.items())]
        if self.base_url:
            extras.append(f"base_url {self.base_url}")
        extras += [f"{k}={_shown(v)}" for k, v in sorted(self.generation.items())]
        return str(redact(f"{self.model} ({', '.join(extras)})" if extras else self.model))


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _jsonable(value: Any) -> Any:
    """A value as JSON (a non-JSON value by its type name), secrets fingerprinted."""
    return fingerprint(to_jsonable_python(value, fallback=lambda v: type(v).__name__))


def _fields_set(config: BaseModel, operational: dict[str, str]) -> dict[str, Any]:
    """The fields of `config` that are set and not `operational`, as JSON."""
    found = {
        name: getattr(config, name)
        for name in type(config).model_fields
        if name not in operational and getattr(config, name, None) is not None
    }
    return dict(_jsonable(found))


def generation_identity(config: GenerateConfig | None) -> dict[str, Any]:
    """Every `GenerateConfig` field set but `OPERATIONAL_FIELDS` (secrets fingerprinted)."""
    return {} if config is None else _fields_set(config, OPERATIONAL_FIELDS)


def eval_config_identity(config: EvalConfig) -> dict[str, Any]:
    """Every `EvalConfig` field set (its limits first of all) but `EVAL_OPERATIONAL_FIELDS`."""
    return _fields_set(config, EVAL_OPERATIONAL_FIELDS)


def role_config(own: GenerateConfig | None, run: GenerateConfig) -> GenerateConfig:
    """A role model's settings: its own, plus `INHERITED_BY_ROLES` from the run's if unset."""
    mine = own or GenerateConfig()
    inherited = {f: getattr(run, f) for f in INHERITED_BY_ROLES if getattr(mine, f) is None}
    return mine.merge(GenerateConfig(**inherited))


#: Each model object's digest, taken when the first sample of a run met it (a model's state
#: may change as it is used: the run's models are what they were when the run started).
_MODEL_DIGESTS: WeakKeyDictionary[Model, str] = WeakKeyDictionary()


def _model_digest(model: Model, defaults: GenerateConfig | None) -> str:
    """A live model's identity digest; `defaults`: the settings its calls add under its own."""
    if (known := _MODEL_DIGESTS.get(model)) is None:
        config = defaults.merge(model.config) if defaults is not None else model.config
        known = _MODEL_DIGESTS[model] = ModelIdentity(
            model=str(model),
            args=_jsonable(dict(getattr(model, "model_args", {}) or {})),
            base_url=_jsonable(getattr(model.api, "base_url", None)),
            generation=generation_identity(config),
        ).digest()[:SHORT]
    return known


#: The last task identity met and its components (frozen: computed once per run, not per sample).
_LAST_TASK: list[tuple[TaskIdentity, dict[str, str]]] = []


def sample_identity(
    task: TaskIdentity,
    trusted: Model,
    roles: dict[str, Model],
    role_defaults: dict[str, GenerateConfig] | None = None,
) -> dict[str, str]:
    """The components one sample is played under: the task's, plus each model's."""
    if not _LAST_TASK or _LAST_TASK[0][0] is not task:
        _LAST_TASK[:] = [(task, task.components())]
    parts = dict(_LAST_TASK[0][1])
    parts["trusted model"] = _model_digest(trusted, None)
    for role, model in sorted(roles.items()):
        parts[f"role {role}"] = _model_digest(model, (role_defaults or {}).get(role))
    return parts


def changed_components(first: dict[str, str], second: dict[str, str]) -> list[tuple[str, str, str]]:
    """The components that differ between two samples' identities: (name, first's, second's)."""
    return [
        (name, first.get(name, "(none)"), second.get(name, "(none)"))
        for name in sorted(set(first) | set(second))
        if first.get(name) != second.get(name)
    ]


class RunIdentity(_Identity):
    """A finished run's full identity, from its log header."""

    task_name: str
    task: TaskIdentity | None  # None: a log written before identities (version 1-A)
    legacy: dict[str, Any] = Field(default_factory=dict)  # 1-A: what its metadata tells
    trusted: ModelIdentity
    roles: dict[str, ModelIdentity]
    #: Inspect's limits and every other run setting that can change a number
    #: (`eval_config_identity`).
    limits: dict[str, Any]
    epochs: int
    samples: dict[str, Any]

    def parts(self) -> dict[str, str]:
        """Readable parts, for saying what differs between two runs."""
        found: dict[str, str] = {"task": self.task_name}
        if self.task is not None:
            found.update(self.task.components())
            found["settings"] = json.dumps(self.task.settings, sort_keys=True)
            detectors = ", ".join(f"{n} {v}" for n, v in sorted(self.task.detectors.items()))
            found["versions"] = (
                f"{self.task.package_version} / task {self.task.task_version} / {detectors}"
            )
            for name, code in sorted(self.task.code.items()):
                found[f"code {name}"] = code.describe()
        else:
            for name, value in self.legacy.items():
                found[f"1-A {name}"] = json.dumps(value, sort_keys=True)
        found["trusted model"] = self.trusted.describe()
        found |= {f"role {role}": model.describe() for role, model in sorted(self.roles.items())}
        found["limits"] = json.dumps(self.limits, sort_keys=True)
        found["epochs"] = str(self.epochs)
        found["samples"] = json.dumps(self.samples, sort_keys=True)
        return {name: redact_text(value) for name, value in found.items()}


def _config_identity(model: str, config: GenerateConfig | None, args: dict[str, Any] | None,
                     base_url: str | None) -> ModelIdentity:  # fmt: skip
    return ModelIdentity(
        model=model,
        args=_jsonable(options_read(model, args or {})),  # a reference agent: what it reads
        base_url=_jsonable(base_url),
        generation=generation_identity(config),
    )


def run_identity(log: EvalLog, task: TaskIdentity | None, legacy: dict[str, Any]) -> RunIdentity:
    """The full identity of a logged run (its task identity from the run metadata)."""
    spec = log.eval
    plan_config = log.plan.config if log.plan else GenerateConfig()
    trusted_config = (spec.model_generate_config or GenerateConfig()).merge(plan_config)
    roles: dict[str, ModelIdentity] = {}
    for role, bound in (spec.model_roles or {}).items():
        configs = bound if isinstance(bound, list) else [bound]
        for position, bound_config in enumerate(configs):
            key = role if len(configs) == 1 else f"{role}[{position}]"
            roles[key] = _config_identity(
                bound_config.model,
                role_config(bound_config.config, plan_config),
                bound_config.args,
                bound_config.base_url,
            )
    run = spec.config
    ids = spec.dataset.sample_ids
    listing = "\n".join(sorted(str(i) for i in ids)) if ids is not None else None
    return RunIdentity(
        task_name=spec.task,
        task=task,
        legacy=legacy,
        trusted=_config_identity(spec.model, trusted_config, spec.model_args, spec.model_base_url),
        roles=roles,
        limits=eval_config_identity(run),
        epochs=run.epochs or 1,
        samples=(  # the ids run, however chosen (`--limit 5` or `--sample-id` of the same five)
            {"ids_sha256": hashlib.sha256(listing.encode()).hexdigest()}
            if listing
            else {"limit": run.limit, "sample_id": run.sample_id}
        ),
    )
