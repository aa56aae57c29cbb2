"""Heatmaps on one fixed 0-100 colour scale: the 5x5 policy x attack surfaces (paper Fig. 4)
and model x domain / attack / policy breakdowns (Figs. 10-14)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.image import AxesImage

from polar_inspect.axes import ATTACK_LABELS, POLICY_LABELS
from polar_inspect.report.figstyle import (
    HEATMAP_CMAP,
    MISSING_COLOUR,
    SCORE_TITLES,
    FigureFile,
    FigureKind,
    new_figure,
    save,
    text_colour,
    wrap_label,
)
from polar_inspect.report.markdown import TEXTS

POLICIES = list(POLICY_LABELS)
ATTACKS = list(ATTACK_LABELS)
AXIS_TITLES = {"domain": "domain", "attack": "attack strategy", "policy": "policy level"}


def _shown(value: float) -> str:
    return "–" if np.isnan(value) else f"{value:.1f}"


def _draw(ax: Axes, values: np.ndarray, texts: list[list[str]], fontsize: float) -> AxesImage:
    cmap = matplotlib.colormaps[HEATMAP_CMAP].with_extremes(bad=MISSING_COLOUR)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0, vmax=100, aspect="auto")
    for (i, j), value in np.ndenumerate(values):
        colour = "black" if np.isnan(value) else text_colour(value)
        ax.text(j, i, texts[i][j], ha="center", va="center", fontsize=fontsize, color=colour)
    ax.set_xticks(np.arange(values.shape[1] + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(values.shape[0] + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    return image


def cell_matrix(cells: pd.DataFrame, score: str) -> tuple[np.ndarray, np.ndarray]:
    """5x5 values (x100) and sample counts from breakdown rows of axis `cell`."""
    values = np.full((5, 5), np.nan)
    counts = np.zeros((5, 5), dtype=int)
    for row in cells[cells["score"] == score].itertuples():
        policy, _, attack = str(row.key).partition("x")
        if policy in POLICIES and attack in ATTACKS:
            i, j = POLICIES.index(policy), ATTACKS.index(attack)
            values[i, j] = 100 * row.value
            counts[i, j] = row.n
    return values, counts


#: Fixed panel positions (left, bottom, width, height as figure fractions) of a surface figure:
#: its content never changes size, and a fixed layout draws faster than a computed one.
SURFACE_SIZE = (12.0, 6.2)
SURFACE_PANELS = ((0.145, 0.165, 0.355, 0.7), (0.545, 0.165, 0.355, 0.7))
SURFACE_COLORBAR = (0.925, 0.2, 0.016, 0.63)


def surface_figure(
    cells: pd.DataFrame, out_dir: Path, name: str, title: str, model: str | None = None
) -> FigureFile:
    """Privacy and utility 5x5 heatmaps of one `model`, or of the mean when None."""
    fig = new_figure(*SURFACE_SIZE, layout=None)
    axes = [fig.add_axes(rect) for rect in SURFACE_PANELS]
    for ax, score in zip(axes, ("privacy", "utility"), strict=True):
        values, counts = cell_matrix(cells, score)
        texts = [[f"{_shown(values[i, j])}\nn={counts[i, j]}" for j in range(5)] for i in range(5)]
        image = _draw(ax, values, texts, fontsize=10)
        ax.set_xticks(range(5), [f"{a}\n{textwrap.fill(ATTACK_LABELS[a], 12)}" for a in ATTACKS])
        ax.set_xlabel("attack strategy")
        ax.set_title(f"{SCORE_TITLES[score]} (x100)")
    axes[0].set_yticks(range(5), [f"{p} {POLICY_LABELS[p]}" for p in POLICIES])
    axes[0].set_ylabel("policy level")
    axes[1].set_yticks(range(5), POLICIES)
    fig.colorbar(image, cax=fig.add_axes(SURFACE_COLORBAR), label="score (x100, fixed 0-100 scale)")
    fig.suptitle(title, y=0.975)
    kind: FigureKind = "main" if model is None else "model"
    return save(fig, out_dir, name, title, TEXTS["surface_caption"], kind=kind, model=model)


def mean_cells(cells: pd.DataFrame) -> pd.DataFrame:
    """Cell values averaged over runs (each run weighs the same); counts are summed."""
    grouped = cells.groupby(["key", "score"], as_index=False)
    return grouped.agg(value=("value", "mean"), n=("n", "sum"))


def _count_label(counts: pd.Series) -> str:
    low, high = int(counts.min()), int(counts.max())
    return f"n={low}" if low == high else f"n={low}-{high}"


def breakdown_figure(
    rows: pd.DataFrame,
    order: list[tuple[int, str]],
    axis: str,
    score: str,
    out_dir: Path,
    name: str,
    heading: str,
) -> FigureFile:
    """A model x `axis` heatmap of one score; rows follow `order` (run, label), best first."""
    data = rows[(rows["axis"] == axis) & (rows["score"] == score)]
    keys = list(dict.fromkeys(data["key"]))
    runs = [run for run, _ in order]
    values = np.full((len(runs), len(keys)), np.nan)
    for row in data.itertuples():
        if row.run in runs:
            values[runs.index(row.run), keys.index(row.key)] = 100 * row.value
    counts = data.groupby("key")["n"]
    names = {
        "attack": lambda k: f"{k}\n{textwrap.fill(ATTACK_LABELS.get(k, ''), 12)}",
        "policy": lambda k: f"{k}\n{textwrap.fill(POLICY_LABELS.get(k, ''), 12)}",
        "domain": lambda k: textwrap.fill(k.replace("_", " "), 12, break_long_words=False),
    }[axis]
    columns = [f"{names(k)}\n{_count_label(counts.get_group(k))}" for k in keys]
    fig = new_figure(max(7.0, 3.8 + 1.05 * len(keys)), max(3.2, 0.42 * len(runs) + 2.4))
    ax = fig.add_subplot(1, 1, 1)
    image = _draw(ax, values, [[_shown(v) for v in line] for line in values], fontsize=9)
    ax.set_xticks(range(len(keys)), columns, fontsize=8.5)
    ax.set_yticks(range(len(runs)), [wrap_label(label) for _, label in order])
    ax.xaxis.tick_top()
    ax.set_xlabel(f"{AXIS_TITLES[axis]} (n = samples per model in the column)")
    fig.colorbar(image, ax=ax, shrink=0.8, label="score (x100)")
    title = f"{heading}: {SCORE_TITLES[score].lower()} by {AXIS_TITLES[axis]}"
    ax.set_title(title, pad=12)
    caption = (
        f"Mean {score} (x100) per model (rows, best overall first) and {AXIS_TITLES[axis]} "
        "(columns), on the fixed 0-100 colour scale."
    )
    return save(fig, out_dir, name, title, caption, kind="breakdown")
