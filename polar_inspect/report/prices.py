"""A price sheet (`--prices FILE`): each model's rates, and the one rule that applies them.

Kept apart from the report's tables (no pandas) so `polar-cost` can read the same sheets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError


class PricedUsage(Protocol):
    """Tokens of one role or run, as a price applies to them."""

    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    batched: bool


class ModelPrice(BaseModel):
    """One model's prices in USD per million tokens (an entry of the `--prices` file).

    `input` and `output` are required; `cache_read` and `cache_write` (USD per million tokens
    read from / written to the prompt cache) and `batch` (the factor every rate is multiplied
    by for calls sent through the batch API, e.g. 0.5) are optional. `cost` is the one place
    that applies them, and it prices nothing it has no rate for: tokens of a kind without a
    rate make the cost unknown (`missing_rates`), never 0.
    """

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0, description="USD per million input tokens")
    output: float = Field(ge=0, description="USD per million output tokens")
    cache_read: float | None = Field(
        default=None, ge=0, description="USD per million input tokens read from the cache"
    )
    cache_write: float | None = Field(
        default=None, ge=0, description="USD per million input tokens written to the cache"
    )
    batch: float | None = Field(
        default=None, gt=0, le=1, description="factor on every rate for batch API calls"
    )

    def missing_rates(self, usage: PricedUsage) -> list[str]:
        """The rates `usage` needs that this price lacks (empty: it can be priced)."""
        needed = {
            "cache_read": usage.cache_read_tokens > 0 and self.cache_read is None,
            "cache_write": usage.cache_write_tokens > 0 and self.cache_write is None,
            "batch": usage.batched and self.batch is None,
        }
        return [name for name, missing in needed.items() if missing]

    def cost(self, usage: PricedUsage) -> float:
        """USD for the tokens of `usage` at these prices (check `missing_rates` first)."""
        usd = usage.input_tokens * self.input + usage.output_tokens * self.output
        usd += usage.cache_read_tokens * (self.cache_read or 0.0)
        usd += usage.cache_write_tokens * (self.cache_write or 0.0)
        factor = (self.batch or 1.0) if usage.batched else 1.0
        return usd * factor / 1e6


class PriceFileError(ValueError):
    """A `--prices` file cannot be read or has a bad entry."""


def load_prices(path: str | Path) -> dict[str, ModelPrice]:
    """Read a JSON or YAML mapping `model name -> {input, output[, cache_read, cache_write,
    batch]}` (USD per million tokens; `batch` a factor). Keys starting with `_` (a sheet's
    `_date`, `_source`, `_notes`) are notes, not models."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as err:
        raise PriceFileError(f"cannot read the price file {file}: {err.strerror}") from err
    try:
        data = json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as err:
        raise PriceFileError(f"{file} is not valid JSON/YAML: {err}".splitlines()[0]) from err
    if not isinstance(data, dict):
        raise PriceFileError(
            f"{file} must map model names to {{input: USD, output: USD}} per million tokens"
        )
    prices: dict[str, ModelPrice] = {}
    for model, entry in data.items():
        if str(model).startswith("_"):
            continue
        try:
            prices[str(model)] = ModelPrice.model_validate(entry)
        except ValidationError as err:
            problem = err.errors()[0]
            field = ".".join(str(p) for p in problem["loc"]) or "entry"
            raise PriceFileError(
                f"{file}: model {model!r}, field {field}: {problem['msg']} (expected "
                "{input: USD per million input tokens, output: USD per million output tokens, "
                "optional cache_read, cache_write: USD per million, batch: factor in (0, 1]})"
            ) from err
    return prices
