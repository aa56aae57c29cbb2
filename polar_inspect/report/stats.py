"""Numbers behind the report: headline scores (the logs' own metrics), 95% confidence intervals,
breakdowns and epoch means from the per-sample scores (docs/results.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES
from polar_inspect.precision import Z95
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import TEXTS
from polar_inspect.report.sample_rows import AXES
from polar_inspect.scorers.parity import SCORE_KEYS

PAPER_WEIGHT = 0.5


class Group(BaseModel):
    """Runs that may be ranked together: same data, selection, S5 attacker and sample set."""

    name: str
    runs: list[int]
    description: list[str]


def _same_weight(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=1e-12)


def _list_or_all(values: list[str], everything: Sequence[str], noun: str) -> str:
    if not values:
        return f"{noun}: not recorded"
    if list(values) == list(everything):
        return f"{noun}: all {len(everything)}"
    return f"{noun}: {', '.join(values)}"


def describe_setup(run: RunHeader) -> list[str]:
    """The facts that make two runs comparable, one line each."""
    sel = run.selection
    lines = [
        f"data: {run.data.describe(full_path=True)}",
        _list_or_all(sel.get("domains", []), DOMAINS, "domains selected"),
        _list_or_all(sel.get("policies", []), list(POLICY_TYPES), "policies selected"),
        _list_or_all(sel.get("attacks", []), list(ATTACK_TYPES), "attacks selected"),
        f"S5 attacker: {run.s5_attacker}",
    ]
    if sel.get("samples_selected") is not None:
        lines.append(
            f"task selection: {sel['samples_selected']} of {sel.get('samples_available')} "
            "samples in the data"
        )
    lines.append(f"sample set: {run.samples.describe()}")
    if sel.get("subset", "all") != "all":
        lines.append(f"subset: {sel['subset']}")
    if sel.get("max_turns") is not None:
        lines.append(f"max_turns: {sel['max_turns']}")
    lines.extend(_target_caveats(run))
    lines.extend(_attacker_lines(run))
    return lines


def _target_caveats(run: RunHeader) -> list[str]:
    """Target values the run cannot score as the others (short, absent, repeated)."""
    lines = []
    if run.short_values:
        parity = run.metrics.get("short_parity", {}).get("mean")
        strict = run.metrics.get("short_strict", {}).get("mean")
        found = (
            f"; per sample the parity matcher found {parity:.2f} of them, the strict detector "
            f"{strict:.2f}"
            if parity is not None and strict is not None
            else ""
        )
        count, samples = run.short_values, run.short_value_samples
        lines.append(TEXTS["short_values"].format(count=count, samples=samples, found=found))
    if run.targets_not_in_document or run.repeated_targets:
        missing, repeated = run.targets_not_in_document, run.repeated_targets
        lines.append(TEXTS["not_in_document"].format(missing=missing, repeated=repeated))
    return lines


def _attacker_lines(run: RunHeader) -> list[str]:
    """The live S5 attacker's prompts and sampling."""
    if not run.s5_attacker.startswith("live"):
        return []
    lines = [f"S5 attacker prompts: {run.attacker_prompts}"]
    if run.attacker_sampling is not None:
        caveat = f" ({run.attacker_sampling_caveat})" if run.attacker_sampling_caveat else ""
        lines.append(f"S5 attacker sampling: {run.attacker_sampling}{caveat}")
    return lines


def comparison_groups(runs: Sequence[RunHeader]) -> list[Group]:
    """Partition runs by setup, in order of first appearance; groups are named A, B, ..."""
    keys: dict[str, list[int]] = {}
    for index, run in enumerate(runs):
        keys.setdefault(run.group_key, []).append(index)
    return [
        Group(name=_group_name(number), runs=members, description=describe_setup(runs[members[0]]))
        for number, members in enumerate(keys.values())
    ]


def _group_name(number: int) -> str:
    letters = ""
    number += 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def per_sample(samples: pd.DataFrame) -> pd.DataFrame:
    """Scored samples reduced over epochs (mean per run and sample id), with their axes."""
    scored = samples.dropna(subset=list(SCORE_KEYS), how="all")
    keys = ["run", "id"]
    values = scored.groupby(keys, sort=False, observed=True)[list(SCORE_KEYS)].mean()
    axes = scored.groupby(keys, sort=False, observed=True)[list(AXES)].first()
    return values.join(axes).reset_index()


def mean_ci(values: np.ndarray, center: float) -> tuple[float, float]:
    """95% normal-approximation interval around `center`, clipped to [0, 1]."""
    values = values[~np.isnan(values)]
    if len(values) < 2:
        return (math.nan, math.nan)
    half = Z95 * float(np.std(values, ddof=1)) / math.sqrt(len(values))
    return (max(0.0, center - half), min(1.0, center + half))


def _sample_overall(frame: pd.DataFrame, run: RunHeader, weight: float) -> np.ndarray:
    if _same_weight(run.weight, weight):
        return frame["overall"].to_numpy(dtype=float)
    privacy = frame["privacy"].to_numpy(dtype=float)
    return weight * privacy + (1.0 - weight) * frame["utility"].to_numpy(dtype=float)


def per_sample_at(runs: Sequence[RunHeader], samples: pd.DataFrame, weight: float) -> pd.DataFrame:
    """`per_sample` with each sample's `overall` at `weight`."""
    # in id order: the paired bootstrap resamples by position, so the order the log lists its
    # samples in must not change an interval
    reduced = per_sample(samples).sort_values(["run", "id"], kind="stable")
    parts = []
    for index, frame in reduced.groupby("run", sort=False):
        parts.append(frame.assign(overall=_sample_overall(frame, runs[int(index)], weight)))
    return pd.concat(parts, ignore_index=True) if parts else reduced


def logged_overall(run: RunHeader, metric: str, weight: float) -> float:
    """The overall metric at `weight`: the log's own when it used that weight, else derived."""
    if _same_weight(run.weight, weight):
        return run.metrics["overall"].get(metric, math.nan)
    privacy = run.metrics["privacy"].get(metric, math.nan)
    return weight * privacy + (1.0 - weight) * run.metrics["utility"].get(metric, math.nan)


def run_summary(
    runs: Sequence[RunHeader], samples: pd.DataFrame, groups: Sequence[Group], weight: float
) -> pd.DataFrame:
    """One row per run: scores (0-1) with CI bounds, n, errors, epochs, group and rank."""
    reduced = per_sample(samples)
    by_run = dict(tuple(reduced.groupby("run", sort=False)))
    scored = set(zip(reduced["run"], reduced["id"], strict=True))
    failed = samples[samples["error"] != ""][["run", "id"]]
    # a sample left out: errored with no scored epoch (one scored epoch keeps it in n)
    errors = Counter(
        r for r, i in failed.drop_duplicates().itertuples(index=False) if (r, i) not in scored
    )
    errored_epochs = Counter(r for r, i in failed.itertuples(index=False) if (r, i) in scored)
    group_of = {index: group.name for group in groups for index in group.runs}
    rows = []
    for index, run in enumerate(runs):
        frame = by_run.get(index, reduced.iloc[0:0])
        row: dict[str, object] = {"run": index, "label": run.label, "group": group_of[index]}
        for key in SCORE_KEYS:
            if key == "overall":
                center = logged_overall(run, "mean", weight)
                values = _sample_overall(frame, run, weight)
            else:
                center = run.metrics[key]["mean"]
                values = frame[key].to_numpy(dtype=float)
            low, high = mean_ci(values, center)
            row.update({key: center, f"{key}_low": low, f"{key}_high": high})
        row.update(
            n=int(frame["privacy"].notna().sum()),
            errors=int(errors.get(index, 0)),
            errored_epochs=int(errored_epochs.get(index, 0)),  # of samples still in n
            epochs=run.epochs,
            log_weight=run.weight,
        )
        rows.append(row)
    table = pd.DataFrame(rows)
    table["rank"] = (
        table.groupby("group")["overall"].rank(ascending=False, method="min").astype(int)
    )
    return table.sort_values(["group", "rank", "label"], kind="stable").reset_index(drop=True)


def breakdown(runs: Sequence[RunHeader], samples: pd.DataFrame, weight: float) -> pd.DataFrame:
    """Long table of run, axis, key, score, mean value and n from the per-sample scores."""
    reduced = per_sample(samples).dropna(subset=["privacy"])
    rows = []
    for axis in AXES:
        for index, run in enumerate(runs):
            frame = reduced[reduced["run"] == index]
            groups = dict(tuple(frame.groupby(axis, sort=False, observed=True)))
            for key in sorted(groups, key=_axis_order(axis)):
                means = _means(groups[key], run, weight)
                for score in SCORE_KEYS:
                    rows.append((index, axis, str(key), score, means[score], len(groups[key])))
    return pd.DataFrame(rows, columns=["run", "axis", "key", "score", "value", "n"])


def _means(frame: pd.DataFrame, run: RunHeader, weight: float) -> dict[str, float]:
    """The mean of each score over `frame`'s samples, overall at `weight`."""
    means = {key: float(frame[key].mean()) for key in ("privacy", "utility")}
    return means | {"overall": float(np.nanmean(_sample_overall(frame, run, weight)))}


def _axis_order(axis: str) -> Callable[[str], tuple[int, str]]:
    """The sort key of an axis's keys: domains in their order, others as text."""
    if axis == "domain":
        return lambda k: (DOMAINS.index(k) if k in DOMAINS else len(DOMAINS), k)
    return lambda k: (0, k)


def epoch_means(runs: Sequence[RunHeader], samples: pd.DataFrame, weight: float) -> pd.DataFrame:
    """Per run with more than one epoch: the mean of each score in each epoch."""
    if not (multi := [i for i, run in enumerate(runs) if run.epochs > 1]):
        return pd.DataFrame(columns=["run", "epoch", *SCORE_KEYS, "n"])
    subset = samples[samples["run"].isin(multi)].dropna(subset=["privacy"])
    rows = []
    for (index, epoch), frame in subset.groupby(["run", "epoch"], sort=True):
        means = _means(frame, runs[int(index)], weight)
        rows.append({"run": int(index), "epoch": int(epoch), **means, "n": len(frame)})
    return pd.DataFrame(rows)


def scores_x100(row: Any) -> dict[str, float]:
    """A summary row's scores and 95% CI bounds x100 (NaN stays NaN)."""
    names = [key + suffix for key in SCORE_KEYS for suffix in ("", "_low", "_high")]
    return {name: 100 * float(getattr(row, name)) for name in names}


def score_cell(value: float, low: float | None, high: float | None, delta: float = math.nan) -> str:
    """`value [low, high] (+delta)` at one decimal; a missing interval or delta is left out."""
    text = f"{value:.1f}"
    if low is not None and not math.isnan(low):
        text += f" [{low:.1f}, {high:.1f}]"
    if not math.isnan(delta):
        text += f" ({delta:+.1f})"
    return text
