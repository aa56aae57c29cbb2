"""Per-call seeds, derived as the authors' evaluator does (docs/paper-setting.md#per-call-seeds)."""

from __future__ import annotations

import hashlib
from typing import Literal

from inspect_ai.model import Model
from pydantic import BaseModel, ConfigDict

#: The authors' default base seed.
PAPER_BASE_SEED = 42


def stable_seed(*parts: object, base: int = PAPER_BASE_SEED) -> int:
    """The seed of one call from its parts (the same parts always give the same seed)."""
    text = "::".join("" if part is None else str(part) for part in parts)
    return (int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16) + base) % (2**31)


def request_model_name(model: Model) -> str:
    """The model name a request to `model` carries: its provider's `api_model_name()` where it
    has one (OpenAI: what it sends), else `service_model_name()` (every Inspect provider)."""
    api = model.api
    sent = getattr(api, "api_model_name", None)
    return str(sent() if callable(sent) else api.service_model_name())


class CallSeeds(BaseModel):
    """The seeds of one sample's calls: the trusted model's and the live attacker's."""

    model_config = ConfigDict(frozen=True)

    sample_id: str
    trusted_model: str  # the model's API name, as the provider is sent it
    attacker_model: str | None = None
    base: int = PAPER_BASE_SEED

    def trusted(self, turns: Literal["scripted", "adaptive"], position: int) -> int:
        """The trusted model's seed: `scripted` turns count messages so far (1, 3, 5...),
        `adaptive` (live) turns count rounds (1, 2, 3...), as the authors do."""
        return stable_seed(self.sample_id, self.trusted_model, "model_a", turns, position,
                           base=self.base)  # fmt: skip

    def attacker(self, round_number: int) -> int:
        """The live attacker's seed for round `round_number` (1-based)."""
        parts = (self.sample_id, self.trusted_model, self.attacker_model, "model_b", "adaptive")
        return stable_seed(*parts, round_number, base=self.base)
