"""Leakage per turn: the share of protected values disclosed by the end of each turn, per run and
attack strategy, as a mean with a 95% interval (docs/results.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from polar_inspect.report.figstyle import (
    RUN_MARKERS,
    FigureFile,
    new_figure,
    palette,
    save,
    wrap_label,
)
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import TEXTS
from polar_inspect.report.stats import Group, mean_ci

CURVE_COLUMNS = ["run", "label", "attack", "turn", "leakage", "low", "high", "n"]


def _at_turn(fractions: list[float], turn: int) -> float:
    return fractions[min(turn, len(fractions)) - 1] if fractions else 0.0


def leakage_curves(
    runs: Sequence[RunHeader], samples: pd.DataFrame, groups: Sequence[Group]
) -> pd.DataFrame:
    """Mean leakage (0-1) with 95% CI per run, attack (and `all`) and turn."""
    known = samples.drop_duplicates(["run", "id"]).set_index(["run", "id"])["attack"]
    # in id order: a mean's last digits must not depend on the order the log lists samples
    curves = samples[samples["curve"].notna()].sort_values(["run", "id"], kind="stable")
    keys = pd.MultiIndex.from_frame(curves[["run", "id"]])
    curves = curves.assign(attack=known.reindex(keys).astype(str).to_numpy())
    by_run = dict(iter(curves.groupby("run", sort=True)))
    longest = {i: max(map(len, by_run[i]["curve"])) if i in by_run else 1 for i in range(len(runs))}
    horizon = _horizons(longest, groups)
    rows = []
    for index, frame in by_run.items():
        rows += _run_rows(int(index), runs[int(index)].label, frame, horizon[int(index)])
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)


def _horizons(longest: dict[int, int], groups: Sequence[Group]) -> dict[int, int]:
    """Per run, the turns its curve runs to: the longest dialogue of its comparison group."""
    horizon = {
        index: max((longest.get(i, 1) for i in group.runs), default=1)
        for group in groups
        for index in group.runs
    }
    return {index: max(1, horizon.get(index, longest[index])) for index in longest}


def _run_rows(index: int, label: str, frame: pd.DataFrame, turns: int) -> list[tuple]:
    """One run's CURVE_COLUMNS rows: per attack (and all) and turn, the mean with its CI."""
    matrix = np.array([[_at_turn(f, t) for t in range(1, turns + 1)] for f in frame["curve"]])
    per_sample = pd.DataFrame(matrix).groupby(frame["id"].to_numpy(), sort=False).mean()
    attack_of = frame.groupby("id", sort=False)["attack"].first()
    rows = []
    for attack in ["all", *sorted(attack_of.unique())]:
        chosen = per_sample if attack == "all" else per_sample[attack_of == attack]
        for turn in range(1, turns + 1):
            values = chosen[turn - 1].to_numpy(dtype=float)
            mean = float(values.mean())
            low, high = mean_ci(values, mean)
            rows.append((index, label, attack, turn, mean, low, high, len(values)))
    return rows


def same_curves(curves: pd.DataFrame) -> list[list[int]]:
    """Runs grouped by identical curves, in order of first appearance."""
    groups: dict[tuple, list[int]] = {}
    for run, part in curves.groupby("run", sort=False):
        ordered = part.sort_values(["attack", "turn"])
        values = ordered[["leakage", "low", "high"]].to_numpy(dtype=float).round(9)
        key = (tuple(ordered["attack"]), tuple(ordered["turn"]), tuple(map(tuple, values)))
        groups.setdefault(key, []).append(int(run))
    return list(groups.values())


def _legend_name(labels: list[str]) -> str:
    """One legend entry for runs whose curves coincide: their names, one per line."""
    names = [wrap_label(label, 60) for label in labels]
    return names[0] if len(names) == 1 else "\n= ".join(names) + "\n(identical curves)"


def _draw_family(
    line_of_run: pd.DataFrame, axes: Any, panels: list[str], style: dict, drawn: dict
) -> None:
    """One run's curves; a curve equal to one drawn in a panel goes on top, dashed."""
    for ax, attack in zip(axes, panels, strict=True):
        if (line := line_of_run[line_of_run["attack"] == attack]).empty:
            continue
        turns = line["turn"].to_numpy()
        key = (attack, tuple(turns), tuple(line["leakage"].to_numpy(dtype=float).round(9)))
        under = drawn.get(key, 0)
        drawn[key] = under + 1
        overlap = {"linestyle": (under * 2, (4, 3)), "markersize": 6 * 0.6**under} if under else {}
        ax.plot(turns, 100 * line["leakage"].to_numpy(), **style, **overlap)
        low, high = line["low"].to_numpy(dtype=float), line["high"].to_numpy(dtype=float)
        ax.fill_between(turns, 100 * low, 100 * high, alpha=0.15, color=style["color"])


def _format_panels(axes: Any, panels: list[str], last_turn: int) -> None:
    for ax, attack in zip(axes, panels, strict=True):
        ax.set_title("all strategies" if attack == "all" else attack)
        ax.set_xlabel("attacker turns spent")
        ax.set_ylim(-2, 102)
        ax.grid(alpha=0.3)
        # whole turns only, and a readable axis when every dialogue had a single turn
        ax.set_xlim(0.5, last_turn + 0.5)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def leakage_figure(curves: pd.DataFrame, out_dir: Path, name: str, heading: str) -> FigureFile:
    """One panel per attack strategy (and all): mean leakage by turn per model, 95% CI."""
    panels = ["all", *sorted(a for a in curves["attack"].unique() if a != "all")]
    columns = min(3, len(panels))
    lines = -(-len(panels) // columns)
    label_of = dict(zip(curves["run"], curves["label"].astype(str), strict=False))
    families = same_curves(curves)
    colours = palette(len(families))
    legend_columns = max(1, min(len(families), 3 if columns >= 3 else 2))
    entry_lines = [len(members) + (len(members) > 1) for members in families]
    legend_rows = sum(
        max(entry_lines[i : i + legend_columns]) for i in range(0, len(entry_lines), legend_columns)
    )
    fig = new_figure(4.4 * columns, 3.6 * lines + 0.6 + 0.2 * legend_rows)
    grid = np.atleast_1d(fig.subplots(lines, columns, sharey=True, squeeze=False)).ravel()
    for unused in grid[len(panels) :]:
        unused.set_visible(False)
    axes = grid[: len(panels)]
    handles: list[Any] = []
    drawn: dict[tuple, int] = {}
    for position, members in enumerate(families):
        marker = RUN_MARKERS[position % len(RUN_MARKERS)]
        style: dict[str, Any] = {"marker": marker, "color": colours[position]}
        _draw_family(curves[curves["run"] == members[0]], axes, panels, style, drawn)
        label = _legend_name([label_of[run] for run in members])
        handles.append(Line2D([], [], label=label, **style))
    _format_panels(axes, panels, int(curves["turn"].max()))
    for ax in grid[::columns]:
        ax.set_ylabel("protected values disclosed (%)")
    fig.legend(handles=handles, loc="outside lower center", ncols=legend_columns, fontsize=8.5,
               frameon=False)  # fmt: skip
    fig.suptitle(f"{heading}: leakage as a function of the attacker's budget")
    return save(fig, out_dir, name, f"Leakage by turn ({heading})", TEXTS["leakage_caption"])
