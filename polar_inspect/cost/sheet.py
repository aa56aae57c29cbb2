"""A price sheet (`--prices FILE`), read as strictly as a record (docs/cost.md#price-sheets)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from polar_inspect.errors import UserInputError

CacheTtl = Literal["5m", "1h"]
#: A role's cache lifetime: pinned (`-M cache_ttl=5m|1h`) or `auto` (the provider may switch).
RoleTtl = Literal["5m", "1h", "auto"]
Rate = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Factor = Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)]


class PricedUsage(Protocol):
    """Tokens of one role or run, as a price applies to them."""

    input_tokens: int  # input neither read from nor written to a prompt cache
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    batched: bool


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Source(_Strict):
    """Where a rule comes from: a page and the date it was read (or stated)."""

    url: str = Field(min_length=1)
    date: str = Field(min_length=1)


class CacheRules(_Strict):
    """How a provider caches prompts for this model."""

    mode: Literal["breakpoints", "prefix", "none"]
    min_tokens: int = Field(default=1024, ge=1)
    step: int = Field(default=1, ge=1)  # `prefix`: cached lengths are min_tokens + k x step


class ModelPrice(_Strict):
    """One model's prices in USD per million tokens and its provider's caching rules."""

    input: Rate
    output: Rate
    cache_read: Rate | None = None
    cache_write: dict[CacheTtl, Rate] | None = None
    cache: CacheRules | None = None
    batch: Factor | None = None
    batch_cached: bool | None = None
    flex: Factor | None = None
    source: Source | None = None
    sources: dict[str, Source] = Field(default_factory=dict)

    @field_validator("cache_write", mode="before")
    @classmethod
    def _bare_rate_is_5m(cls, value: object) -> object:
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return {"5m": value} if is_number else value

    @field_validator("sources")
    @classmethod
    def _sources_name_rules(cls, value: dict[str, Source]) -> dict[str, Source]:
        if unknown := sorted(set(value) - RULES):
            raise ValueError(f"names no rule: {unknown[0]!r} (rules: {', '.join(sorted(RULES))})")
        return value

    def write_rate(self, ttl: RoleTtl) -> float | None:
        """The cache-write rate for `ttl` (`auto`: only when both lifetimes cost the same)."""
        rates = self.cache_write or {}
        if ttl != "auto":
            return rates.get(ttl)
        known = {rates.get("5m"), rates.get("1h")}
        return known.pop() if len(known) == 1 else None

    def missing_rates(
        self, usage: PricedUsage, ttl: RoleTtl = "5m", flex: bool = False
    ) -> list[str]:
        """The rates `usage` needs that this price lacks (empty: it can be priced)."""
        write = {"5m": "cache_write", "1h": "cache_write 1h"}.get(
            ttl, "cache_write (cache_ttl auto)"
        )
        needed = {
            "cache_read": usage.cache_read_tokens > 0 and self.cache_read is None,
            write: usage.cache_write_tokens > 0 and self.write_rate(ttl) is None,
            "batch": usage.batched and self.batch is None,
            "flex": flex and (self.flex is None or usage.batched),
        }
        return [name for name, missing in needed.items() if missing]

    def cost(self, usage: PricedUsage, ttl: RoleTtl = "5m", flex: bool = False) -> float:
        """USD for the tokens of `usage` at these prices (check `missing_rates` first)."""
        usd = usage.input_tokens * self.input + usage.output_tokens * self.output
        usd += usage.cache_read_tokens * (self.cache_read or 0.0)
        usd += usage.cache_write_tokens * (self.write_rate(ttl) or 0.0)
        if usage.batched:
            usd *= self.batch or 1.0
        elif flex:
            usd *= self.flex or 1.0
        return usd / 1e6


RULES = frozenset(ModelPrice.model_fields) - {"source", "sources"}


class PriceFileError(UserInputError):
    """A `--prices` file cannot be read or has a bad entry."""


def _refuse_constant(name: str) -> float:
    raise PriceFileError(f"{name} is not a price (give a finite number)")


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise PriceFileError(f"{key!r} is given twice; keep one entry")
        seen[key] = value
    return seen


class _StrictYaml(yaml.SafeLoader):
    """YAML that refuses a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """The mapping, its keys as strings, each key once."""
        build = self.construct_object
        return _no_repeats([(str(build(k, deep=True)), build(v, deep=True)) for k, v in node.value])


def _decimal(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int | float:
    """A YAML number written in decimal: YAML 1.1 reads `010` as 8 and `1:30` as 90."""
    text = str(node.value)
    if re.fullmatch(r"[-+]?(0|[1-9][0-9_]*)(\.[0-9_]*)?([eE][-+]?[0-9]+)?|[-+]?\.[0-9]+", text):
        digits = text.replace("_", "")
        return float(digits) if re.search("[.eE]", text) else int(digits)
    if node.tag.endswith(":float") and text.lower().lstrip("+-") in (".inf", ".nan"):
        return loader.construct_yaml_float(node)  # refused as no finite price by the model
    raise PriceFileError(f"{text!r} is not a decimal number (octal, hex or base 60 in YAML 1.1)")


for _tag in ("int", "float"):
    _StrictYaml.add_constructor(f"tag:yaml.org,2002:{_tag}", _decimal)


def _parse(file: Path, text: str) -> object:
    try:
        if file.suffix == ".json":
            return json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_refuse_constant)
        return yaml.load(text, Loader=_StrictYaml)  # noqa: S506 (a SafeLoader)
    except PriceFileError as err:
        raise PriceFileError(f"{file}: {err}") from None
    except (json.JSONDecodeError, yaml.YAMLError) as err:
        raise PriceFileError(f"{file} is not valid JSON/YAML: {err}".splitlines()[0]) from err


def _entry(file: Path, model: str, entry: object) -> ModelPrice:
    try:
        return ModelPrice.model_validate(entry)
    except ValidationError as err:
        problem = err.errors()[0]
        field = ".".join(str(p) for p in problem["loc"]) or "entry"
        raise PriceFileError(
            f"{file}: model {model!r}, field {field}: {problem['msg']} (rates are USD per "
            "million tokens, numbers >= 0; batch and flex factors in (0, 1]; see docs/cost.md)"
        ) from None


def load_prices(*paths: str | Path) -> dict[str, ModelPrice]:
    """Read sheets (JSON or YAML) into `model -> ModelPrice`, a model in one sheet only."""
    prices: dict[str, ModelPrice] = {}
    origin: dict[str, Path] = {}
    for path in paths:
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as err:
            raise PriceFileError(f"cannot read the price file {file}: {err.strerror}") from err
        if not isinstance(data := _parse(file, text), dict):
            raise PriceFileError(f"{file} must map model names to their rates (docs/cost.md)")
        for model, entry in data.items():
            if str(model).startswith("_"):
                continue
            if model in prices:
                raise PriceFileError(f"{file}: model {model!r} is also in {origin[model]}")
            prices[str(model)] = _entry(file, str(model), entry)
            origin[str(model)] = file
    return prices


def sheet_date(prices_file: str | Path) -> str:
    """A sheet's `_date` note, or `undated`."""
    data = _parse(Path(prices_file), Path(prices_file).read_text(encoding="utf-8"))
    date = data.get("_date") if isinstance(data, Mapping) else None
    return str(date) if date else "undated"
