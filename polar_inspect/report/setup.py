"""What set a run apart beyond its model and data, read from its header: its prompts (run
metadata) and each role's effective sampling (docs/report/README.md#what-the-report-reads)."""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelConfig
from pydantic import BaseModel

from polar_inspect.attackers import ATTACKER_DEFAULTS
from polar_inspect.dialogue.sampling import describe_sampling, role_sampling
from polar_inspect.run.metadata import RunMetadata, TemplateNote

TRUSTED_PROMPT = "system_prompt"


class PromptFacts(BaseModel):
    """A run's prompts as the report labels and groups them (part of `RunHeader`)."""

    prompt: str = "default"  # e.g. "default 1a2b3c4d5e6f" or "custom mine.txt 9f8e7d6c5b4a"
    prompt_key: str = ""  # its hash (or source): runs with different prompts are never duplicates
    attacker_prompts: str = "default"
    attacker_key: str = ""  # the live attacker's templates, for the comparison group


class SamplingFacts(BaseModel):
    """Each role's effective sampling as text, and the provider caveats (part of `RunHeader`)."""

    sampling: str = ""
    sampling_caveat: str | None = None  # why some requested settings were not sent
    attacker_sampling: str | None = None
    attacker_sampling_caveat: str | None = None


def attacker_configs(log: EvalLog) -> list[ModelConfig]:
    """The models bound to the `attacker` role (`eval.model_roles`)."""
    role = (log.eval.model_roles or {}).get("attacker")
    return role if isinstance(role, list) else [role] if role is not None else []


def _label(note: TemplateNote) -> str:
    name = "default" if note.source == "default" else f"custom {Path(note.source).name}"
    return f"{name} {note.short_hash}" if note.sha256 else f"{name} (unhashed)"


def prompt_facts(meta: RunMetadata) -> PromptFacts:
    """Label and keys of a run's prompts from its run metadata."""
    trusted = meta.prompts.get(TRUSTED_PROMPT, TemplateNote(source="default", sha256=""))
    attacker = {
        name: note
        for name, note in meta.prompts.items()
        if name != TRUSTED_PROMPT and (name.startswith("attacker") or "attacker_" in name)
    }
    custom = [
        f"{name}={_label(note)}" for name, note in attacker.items() if note.source != "default"
    ]
    return PromptFacts(
        prompt=_label(trusted),
        prompt_key=trusted.sha256 or trusted.source,
        attacker_prompts="; ".join(custom) or "default",
        attacker_key=json.dumps(
            {name: note.sha256 or note.source for name, note in attacker.items()}, sort_keys=True
        ),
    )


def sampling_facts(log: EvalLog) -> SamplingFacts:
    """What each role was configured with, minus what its provider does not send."""
    base = log.eval.model_generate_config or GenerateConfig()
    plan = log.plan.config if log.plan else GenerateConfig()
    trusted = role_sampling(log.eval.model, base.merge(plan))
    facts = SamplingFacts(
        sampling=describe_sampling(trusted.effective), sampling_caveat=trusted.caveat
    )
    if configs := attacker_configs(log):
        attacker = role_sampling(configs[0].model, ATTACKER_DEFAULTS.merge(configs[0].config))
        facts.attacker_sampling = describe_sampling(attacker.effective)
        facts.attacker_sampling_caveat = attacker.caveat
    return facts
