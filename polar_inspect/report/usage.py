"""Tokens per role and model from each log header's `stats`, and the cost of each run under a
user's price list (docs/report/README.md#costs).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelConfig, ModelUsage
from pydantic import BaseModel

from polar_inspect.cost.sheet import ModelPrice, PriceFileError, RoleTtl, load_prices
from polar_inspect.report.markdown import TEXTS, md_table, render_md

__all__ = ["ModelPrice", "PriceFileError", "load_prices"]

TRUSTED_ROLE = "trusted"
OTHER_ROLE = "other"
PRICE_COLUMNS = ["cost_usd", "unpriced_model"]
#: Column titles of the tokens table on the page and in Markdown.
USAGE_TITLES = {
    "group": "Group",
    "model": "Run",
    "role": "Role",
    "role_model": "Model in this role",
    "input_tokens": "Input tokens",
    "cache_read_tokens": "Cache reads",
    "cache_write_tokens": "Cache writes",
    "output_tokens": "Output tokens",
    "total_tokens": "Total tokens",
    "batched": "Batch API",
    "cost_usd": "Cost (USD)",
}
USAGE_COLUMNS = [column for column in USAGE_TITLES if column != "cost_usd"]
TOKEN_COLUMNS = [column for column in USAGE_COLUMNS if column.endswith("_tokens")]


class RoleUsage(BaseModel):
    """Tokens one role (or model) used in one run."""

    role: str
    model: str
    input_tokens: int = 0  # input not read from or written to a prompt cache
    output_tokens: int = 0
    total_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    batched: bool = False  # its calls went by the provider's batch API
    cache_ttl: RoleTtl = "5m"  # its cache writes' lifetime (`-M cache_ttl`; see `role_ttl`)
    service_tier: str | None = None  # `-M service_tier` (`flex`: the flex rate)


class Cost(BaseModel):
    """A sum of costs that says what it leaves out: the priced part and the unpriced models."""

    usd: float = 0.0
    unpriced: list[str] = []  # models with tokens but no price: their cost is unknown

    def __add__(self, other: Cost) -> Cost:
        """Both sums together (each unpriced model named once)."""
        unpriced = list(dict.fromkeys([*self.unpriced, *other.unpriced]))
        return Cost(usd=self.usd + other.usd, unpriced=unpriced)

    def describe(self) -> str:
        """E.g. `12.3400 USD + unknown for 1 model without a price (m)`."""
        if not self.unpriced:
            return f"{self.usd:.4f} USD"
        count = len(self.unpriced)
        names = ", ".join(self.unpriced)
        if self.usd == 0.0:
            return f"unknown (no price for {names})"
        noun = "model" if count == 1 else "models"
        return f"{self.usd:.4f} USD + unknown for {count} {noun} without a price ({names})"


#: `RoleUsage`'s token counts and the `ModelUsage` fields they are read from.
TOKEN_FIELDS = {
    "input_tokens": "input_tokens",
    "output_tokens": "output_tokens",
    "total_tokens": "total_tokens",
    "cache_read_tokens": "input_tokens_cache_read",
    "cache_write_tokens": "input_tokens_cache_write",
}


def _tokens(usage: ModelUsage) -> dict[str, int]:
    return {ours: getattr(usage, theirs) or 0 for ours, theirs in TOKEN_FIELDS.items()}


def role_ttl(args: Mapping[str, object], batched: bool) -> RoleTtl:
    """A role's cache-write lifetime: `cache_ttl` as pinned, else 5m batched, else auto."""
    if (ttl := args.get("cache_ttl")) == "5m" or ttl == "1h":
        return ttl
    return "5m" if batched else "auto"


def _entry(
    role: str,
    model: str,
    tokens: Mapping[str, int],
    batched: bool = False,
    args: Mapping[str, object] | None = None,
) -> RoleUsage:
    tier = (args or {}).get("service_tier")
    return RoleUsage(
        role=role,
        model=model,
        **tokens,
        batched=batched,
        cache_ttl=role_ttl(args or {}, batched),
        service_tier=str(tier) if tier is not None else None,
    )


def _is_batched(batch: object) -> bool:
    """Whether a config's `batch` value turns the batch API on (True, a size, a BatchConfig)."""
    return batch is not None and batch is not False and batch != 0


def _role_model(
    log: EvalLog, bound: ModelConfig | list[ModelConfig] | None
) -> tuple[str, bool, Mapping[str, object]]:
    """A role's model, whether batched, and its args (unbound: the main model's, which a
    defense role then is, batched under `--batch` as its calls are)."""
    if isinstance(bound, list):
        bound = bound[0] if bound else None
    if bound is None:
        return log.eval.model, _is_batched(log.plan.config.batch), log.eval.model_args
    return bound.model, _is_batched(bound.config.batch), bound.args


def role_usage(log: EvalLog) -> list[RoleUsage]:
    """Tokens per role of one log (trusted first, then bound roles, then other models)."""
    stats = log.stats
    roles = log.eval.model_roles or {}
    remaining = {model: _tokens(u) for model, u in stats.model_usage.items()}
    found: list[RoleUsage] = []
    for role, usage in sorted(stats.role_usage.items()):
        model, batched, args = _role_model(log, roles.get(role))
        used = _tokens(usage)
        found.append(_entry(role, model, used, batched, args))
        if model in remaining:
            remaining[model] = {k: max(0, n - used[k]) for k, n in remaining[model].items()}
    main, batched, args = _role_model(log, None)  # the trusted model: the eval's own
    result = [_entry(TRUSTED_ROLE, main, remaining.pop(main, {}), batched, args), *found]
    for model, left in sorted(remaining.items()):
        if any(left.values()):
            result.append(_entry(OTHER_ROLE, model, left))
    return result


def tokens_per_sample(usage: Sequence[RoleUsage], n: int) -> dict[str, float]:
    """`tokens_per_sample_{role}` columns: a run's total tokens per role over its `n` scored
    samples (entries of the same role added up; NaN without a scored sample)."""
    totals: dict[str, int] = {}
    for item in usage:
        totals[item.role] = totals.get(item.role, 0) + item.total_tokens
    return {f"tokens_per_sample_{r}": t / n if n else math.nan for r, t in sorted(totals.items())}


def role_cost(item: RoleUsage, prices: Mapping[str, ModelPrice]) -> Cost:
    """The cost of one role's tokens: unknown without a price or a rate for its tokens."""
    if (price := prices.get(item.model)) is not None:
        flex = item.service_tier == "flex"
        missing = price.missing_rates(item, item.cache_ttl, flex)
        if item.service_tier not in (None, "auto", "default", "flex"):
            missing.append(f"service_tier={item.service_tier}")
        if missing:
            return Cost(unpriced=[f"{item.model} (no {', '.join(missing)} rate)"])
        return Cost(usd=price.cost(item, item.cache_ttl, flex))
    if any(getattr(item, name) for name in TOKEN_FIELDS):
        return Cost(unpriced=[item.model])
    return Cost()


def _usage_row(
    group: str, label: str, item: RoleUsage, prices: Mapping[str, ModelPrice] | None
) -> dict[str, object]:
    """One run and role's row of `usage_frame`."""
    row: dict[str, object] = {"group": group, "model": label, "role": item.role}
    row |= {"role_model": item.model} | {column: getattr(item, column) for column in TOKEN_COLUMNS}
    row["batched"] = "yes" if item.batched else "no"
    if prices is not None:
        cost = role_cost(item, prices)
        row["cost_usd"] = math.nan if cost.unpriced else cost.usd
        row["unpriced_model"] = ", ".join(cost.unpriced)
    return row


def usage_frame(
    labels: Sequence[str],
    usages: Sequence[Sequence[RoleUsage]],
    prices: Mapping[str, ModelPrice] | None = None,
    groups: Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per run and role: group, tokens, and with prices the cost or unpriced model."""
    rows = [
        _usage_row(groups[index] if groups is not None else "", label, item, prices)
        for index, (label, run_usage) in enumerate(zip(labels, usages, strict=True))
        for item in run_usage
    ]
    return pd.DataFrame(rows, columns=USAGE_COLUMNS + (PRICE_COLUMNS if prices is not None else []))


def run_costs(frame: pd.DataFrame) -> dict[str, Cost]:
    """Each run's total cost from a priced usage frame, by label (with its group if many)."""
    many = frame["group"].nunique() > 1
    totals: dict[str, Cost] = {}
    for _, row in frame.iterrows():
        name = f"Group {row['group']}: {row['model']}" if many else str(row["model"])
        unpriced = str(row["unpriced_model"] or "")
        cost = Cost(unpriced=[unpriced]) if unpriced else Cost(usd=float(row["cost_usd"]))
        totals[name] = totals.get(name, Cost()) + cost
    return totals


def usage_display(frame: pd.DataFrame) -> pd.DataFrame:
    """The tokens table as shown: titles, grouped digits, `unknown` for unpriced costs."""
    shown = frame.drop(columns=["unpriced_model"], errors="ignore").copy()
    if shown["group"].nunique() <= 1:
        shown = shown.drop(columns=["group"])
    for column in TOKEN_COLUMNS:
        shown[column] = shown[column].map("{:,}".format)
    if "cost_usd" in shown:
        shown["cost_usd"] = shown["cost_usd"].map(lambda v: "unknown" if v != v else f"{v:.4f}")
    return shown.rename(columns=USAGE_TITLES)


def cost_lines(frame: pd.DataFrame) -> list[str]:
    """`run: cost` per run, then the total over runs, each saying what it leaves out."""
    costs = run_costs(frame)
    lines = [f"{label}: {cost.describe()}" for label, cost in costs.items()]
    if len(costs) > 1:
        lines.append(f"All runs: {sum(costs.values(), Cost()).describe()}")
    return lines


PRICES_HINT = TEXTS["prices_hint"]


def usage_view(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str], list[str] | None]:
    """The tokens table as shown, its numeric columns and, when priced, `cost_lines`."""
    shown = usage_display(frame)
    numeric = [USAGE_TITLES[c] for c in (*TOKEN_COLUMNS, "cost_usd") if c in frame]
    return shown, numeric, cost_lines(frame) if "cost_usd" in frame.columns else None


def usage_markdown(frame: pd.DataFrame) -> str:
    """The tokens table, with each run's total cost when priced, as a Markdown section."""
    shown, numeric, lines = usage_view(frame)
    table = md_table(list(shown.columns), shown.values.tolist(), numeric)
    return render_md("tokens", table=table, lines=lines, hint=PRICES_HINT)
