"""The generation settings a role actually ran with, and the providers that drop some of them
(docs/paper-setting.md, "Sampling a provider does not send")."""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.model import GenerateConfig
from pydantic import BaseModel

from polar_inspect.run.identity import SAMPLING_FIELDS

ANTHROPIC_DROPS = ("temperature", "top_p", "top_k")
OPENAI_REASONING_DROPS = ("temperature", "top_p")
_OPENAI_O_SERIES = re.compile(r"^o\d")


class RoleSampling(BaseModel):
    """What one role's generate calls asked for and what reached the provider's API."""

    model: str
    requested: dict[str, Any]  # the resolved config's sampling fields that were set
    not_sent: list[str]  # requested fields the provider leaves out of the request
    effective: dict[str, Any]  # requested minus not_sent
    caveat: str | None = None

    def without_per_call_seed(self) -> RoleSampling:
        """This record with a seed that changes from call to call shown as `per call`."""
        if "seed" not in self.requested:
            return self
        per_call = {"seed": "per call"}
        requested = self.requested | per_call
        effective = self.effective | (per_call if "seed" in self.effective else {})
        return self.model_copy(update={"requested": requested, "effective": effective})


def dropped_parameters(model: str, config: GenerateConfig) -> tuple[list[str], str | None]:
    """The sampling fields of `config` that `model`'s provider does not send, and why."""
    provider, _, name = model.partition("/")
    candidates: tuple[str, ...] = ()
    why = None
    if provider == "anthropic":
        candidates = ANTHROPIC_DROPS
        why = (
            "Inspect's anthropic provider never sends temperature, top_p or top_k "
            "(API version 2026-10-21 rejects them): the model samples at its own defaults"
        )
    elif provider == "openai" and _openai_reasoning(name, config):
        candidates = OPENAI_REASONING_DROPS
        why = (
            "Inspect's openai provider does not send temperature or top_p to o-series and "
            "gpt-5 models while reasoning is on (temperature is always 1)"
        )
    dropped = [field for field in candidates if getattr(config, field) is not None]
    return dropped, (why if dropped else None)


def _openai_reasoning(name: str, config: GenerateConfig) -> bool:
    family = name.rsplit("/", 1)[-1].lower()
    if _OPENAI_O_SERIES.match(family):
        return True
    if family.startswith("gpt-5"):
        return "-chat" not in family and config.reasoning_effort != "none"
    return False


def role_sampling(model: str, config: GenerateConfig) -> RoleSampling:
    """The sampling record of a role whose calls use `config` on `model`."""
    values = {field: getattr(config, field) for field in SAMPLING_FIELDS}
    requested = {field: value for field, value in values.items() if value is not None}
    dropped, why = dropped_parameters(model, config)
    return RoleSampling(
        model=model,
        requested=requested,
        not_sent=dropped,
        effective={k: v for k, v in requested.items() if k not in dropped},
        caveat=why,
    )


def describe_sampling(settings: dict[str, Any]) -> str:
    """`temperature=0, top_p=1, max_tokens=1200`, or `provider defaults` when empty."""
    shown = (f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in settings.items())
    return ", ".join(shown) or "provider defaults"
