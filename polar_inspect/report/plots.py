"""Model-level figures: ranking bars (paper Fig. 2), Pareto scatter (Fig. 3), epoch spread."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import ScaledTranslation

from polar_inspect.report.figstyle import (
    RUN_MARKERS,
    SCORE_COLOURS,
    SCORE_TITLES,
    FigureFile,
    Offset,
    coincident_clusters,
    mark_spread,
    new_figure,
    palette,
    run_marker,
    save,
    shifted,
    spread_offsets,
    wrap_label,
)
from polar_inspect.report.markdown import TEXTS
from polar_inspect.report.paper_points import PAPER_POINTS, draw_paper_points, name_paper_points
from polar_inspect.report.pareto_geometry import axis_limits as _limits
from polar_inspect.report.pareto_geometry import iso_end, iso_segment, pareto_front
from polar_inspect.report.pareto_geometry import spread as _spread
from polar_inspect.scorers.parity import SCORE_KEYS

#: Overall-score levels (x100) at which the Pareto figure draws its iso-score lines.
ISO_LEVELS = (50.0, 70.0, 90.0)
ISO_COLOURS = ("#6a3d9a", "#a6761d", "#01665e", "#333333")
ISO_DASHES = ((0, (6, 3)), (0, (9, 3, 2, 3)), (0, (2, 2)), (0, (12, 3)))
#: Height (inches) of the Pareto figure; its width follows from the legend.
PARETO_HEIGHT = 8.0
#: Inches around its square axes: left, bottom, top, axes-to-legend gap, right of the legend.
PARETO_MARGINS = (0.85, 0.65, 0.55, 0.45, 0.15)


def _errors(table: pd.DataFrame, key: str) -> np.ndarray:
    """Asymmetric error bar lengths (x100) from CI bounds; zero where a bound is missing."""
    center = table[key].to_numpy(dtype=float)
    low = np.nan_to_num(center - table[f"{key}_low"].to_numpy(dtype=float))
    high = np.nan_to_num(table[f"{key}_high"].to_numpy(dtype=float) - center)
    return 100 * np.vstack([np.clip(low, 0, None), np.clip(high, 0, None)])


def _write_values(
    ax: Axes, positions: np.ndarray, values: np.ndarray, oracle: list[bool], colour: str
) -> None:
    """Each bar's value: inside a long bar in white bold, else after it."""
    backing = {"facecolor": colour, "edgecolor": "none", "pad": 1.5}
    for y, value, marked in zip(positions, values, oracle, strict=True):
        inside = value >= 18
        style: dict[str, Any] = (
            {"color": "white", "fontweight": "bold"} if inside else {"color": "black"}
        )
        box = backing if inside and marked else None
        ax.text(2 if inside else value + 2, y, f"{value:.1f}", va="center", ha="left",
                fontsize=9, bbox=box, **style)  # fmt: skip


def _score_panels(
    labels: list[str], row_height: float, pad: tuple[float, float], title: str
) -> tuple[Figure, list[tuple[Axes, str]], np.ndarray]:
    """Privacy, utility and overall panels sharing a row per label (first at the top)."""
    count = len(labels)
    fig = new_figure(13.0, max(3.0, row_height * count + 1.8))
    axes = fig.subplots(1, 3, sharey=True)
    positions = np.arange(count)[::-1]
    for ax, key in zip(axes, SCORE_KEYS, strict=True):
        ax.set_title(SCORE_TITLES[key])
        ax.set_xlabel("score (x100)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(positions, labels)
    axes[0].set_ylim(-pad[0], count - pad[1])
    fig.suptitle(title)
    return fig, list(zip(axes, SCORE_KEYS, strict=True)), positions


def ranking_figure(
    table: pd.DataFrame, out_dir: Path, name: str, weight: float, heading: str
) -> FigureFile:
    """Three bar panels (privacy, utility, overall) per model, best overall at the top."""
    rows = table.sort_values(["rank", "label"]).reset_index(drop=True)
    labels = [f"#{r.rank} {wrap_label(r.label)}" for r in rows.itertuples()]
    title = f"{heading}: models ranked by overall score (error bars: 95% CI)"
    fig, panels, positions = _score_panels(labels, 0.42, (0.6, 0.4), title)
    oracle = _oracle_flags(rows)
    for ax, key in panels:
        values = 100 * rows[key].to_numpy(dtype=float)
        bars = ax.barh(positions, values, color=SCORE_COLOURS[key], height=0.7)
        for bar, marked in zip(bars, oracle, strict=True):
            if marked:  # [ORACLE] runs: hatched, an upper bound rather than a result
                bar.set_hatch("/")
                bar.set_edgecolor("white")
                bar.set_linewidth(0)
        errors = _errors(rows, key)
        ax.errorbar(
            values, positions, xerr=errors, fmt="none", ecolor="black", elinewidth=1, capsize=3
        )
        _write_values(ax, positions, values, oracle, SCORE_COLOURS[key])
        if key == "overall":
            ax.set_title(f"{SCORE_TITLES[key]} (λ = {weight:g})")
        ax.set_xlim(0, 100)
        ax.set_axisbelow(True)
    caption = TEXTS["ranking_caption"].format(weight=f"{weight:g}")
    if any(oracle):
        caption += " Hatched bars: [ORACLE] runs, which read the scorer's targets (upper bounds)."
    return save(fig, out_dir, name, f"Ranking ({heading})", caption)


#: Typographic points per inch, and the side of the Pareto plot's square axes in points.
POINTS_PER_INCH = 72.0
PARETO_SIDE = (PARETO_HEIGHT - PARETO_MARGINS[1] - PARETO_MARGINS[2]) * POINTS_PER_INCH


#: Where an iso line's level label sits on each edge: offset (points) and alignment.
ISO_LABELS: dict[str, tuple[tuple[float, float], dict[str, Any]]] = {
    "right": ((3, 0), {"ha": "left", "va": "center"}),
    "top": ((0, 2), {"ha": "center", "va": "bottom"}),
    "bottom": ((0, 2), {"ha": "center", "va": "bottom"}),
}


def _write_levels(
    ax: Axes, ends: dict[str, list[tuple[float, str, str]]], low: float, high: float
) -> None:
    """Write each iso line's level at its end, pushed apart along each edge."""
    span = high - low
    for edge, marks in ends.items():
        marks.sort()
        offset, align = ISO_LABELS[edge]
        places = _spread([m[0] for m in marks], 0.035 * span, low + 0.01 * span, high)
        for place, (_, text, colour) in zip(places, marks, strict=True):
            xy = (high, place) if edge == "right" else (place, high if edge == "top" else low)
            ax.annotate(text, xy, xytext=offset, textcoords="offset points", color=colour,
                        fontsize=8.5, fontweight="bold", annotation_clip=False,
                        **align)  # fmt: skip


def _iso_lines(ax: Axes, lambdas: Sequence[float], limits: tuple[float, float]) -> list:
    """Iso-score lines at ISO_LEVELS per lambda, labelled; one legend handle per lambda."""
    low, high = limits
    span = high - low
    ends: dict[str, list[tuple[float, str, str]]] = {edge: [] for edge in ISO_LABELS}
    handles = []
    for i, lam in enumerate(lambdas):
        colour, dash = ISO_COLOURS[i % len(ISO_COLOURS)], ISO_DASHES[i % len(ISO_DASHES)]
        style: dict[str, Any] = {"color": colour, "linestyle": dash, "linewidth": 1.3}
        handles.append(Line2D([], [], label=f"λ = {lam:g}", **style))
        for level in ISO_LEVELS:
            segment = iso_segment(lam, level, low, high)
            if segment is None or math.dist(*segment) < 0.25 * span:
                continue  # a sliver in a corner says nothing
            ax.plot(*zip(*segment, strict=True), zorder=1, **style)
            edge, place = iso_end(segment, high, 1e-6 * span)
            ends[edge].append((place, f"{level:g}", colour))
    _write_levels(ax, ends, low, high)
    return handles


#: Points closer than this share of the axis would cover each other: they are spread.
COINCIDENT = 0.015
FRONT_STYLE: dict[str, Any] = {"color": "black", "alpha": 0.35, "linewidth": 2.5, "marker": "o",
                               "markerfacecolor": "none", "markeredgewidth": 1.5}  # fmt: skip


def _oracle_flags(rows: pd.DataFrame) -> list[bool]:
    """Per row: an [ORACLE] run (False for every row of a table without the column)."""
    return rows["oracle"].astype(bool).to_list() if "oracle" in rows else [False] * len(rows)


def _pareto_frame(
    privacy: np.ndarray, utility: np.ndarray, errors: list[np.ndarray], paper_points: bool
) -> tuple[tuple[float, float], list[Offset]]:
    """The axis limits (every CI, the paper's points, spread markers) and run offsets."""
    extra = [(p, u) for _, p, u in PAPER_POINTS] if paper_points else []
    values = [privacy, utility, np.array([p for p, _ in extra]), np.array([u for _, u in extra])]
    errors = [*errors, np.zeros((2, len(extra))), np.zeros((2, len(extra)))]
    limits = _limits(values, errors)
    span = limits[1] - limits[0]
    offsets = spread_offsets(list(zip(privacy, utility, strict=True)), COINCIDENT * span)
    reach = max((math.hypot(*offset) for offset in offsets), default=0.0)
    if reach:  # room for the spread markers: their circle plus a marker beyond the point
        limits = _limits(values, errors, pad=2.0 + (reach + 8.0) * span / PARETO_SIDE)
    return limits, offsets


def _draw_runs(
    ax: Axes, rows: pd.DataFrame, scores: tuple[np.ndarray, np.ndarray],
    errors: tuple[np.ndarray, np.ndarray], offsets: list[Offset],
) -> list[Line2D]:  # fmt: skip
    """Each run's marker with its CIs; returns the runs' legend handles."""
    (privacy, utility), (x_err, y_err) = scores, errors
    colours = palette(len(rows))
    handles = []
    for i, (row, oracle) in enumerate(zip(rows.itertuples(), _oracle_flags(rows), strict=True)):
        shape = RUN_MARKERS[i % len(RUN_MARKERS)]
        marker = run_marker(shape, colours[i], oracle) | {"markersize": 8}
        ax.errorbar(privacy[i], utility[i], xerr=x_err[:, i : i + 1], yerr=y_err[:, i : i + 1],
                    linestyle="none", capsize=3, zorder=4 if oracle else 3,
                    transform=shifted(ax, offsets[i]), **marker)  # fmt: skip
        label = f"#{row.rank} {wrap_label(row.label)}  (P {privacy[i]:.1f}, U {utility[i]:.1f})"
        handles.append(Line2D([], [], linestyle="none", label=label, **marker))
    return handles


def _legend(fig: Figure, ax: Axes, handles: list[Any]) -> Legend:
    """The legend right of the axes, one column (two when long)."""
    return ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        bbox_transform=ax.transAxes + ScaledTranslation(PARETO_MARGINS[3], 0, fig.dpi_scale_trans),
        borderaxespad=0.0,
        ncols=1 if len(handles) <= 34 else 2,
        fontsize=8.5,
        frameon=False,
        handlelength=3.0,
    )


def _pareto_caption(lambdas: Sequence[float], spread: bool, paper_points: bool) -> str:
    levels = "/".join(f"{level:g}" for level in ISO_LEVELS)
    lines = "one line per level" if len(lambdas) == 1 else "one colour and dash per lambda"
    shown = ", ".join(f"{lam:g}" for lam in lambdas)
    caption = TEXTS["pareto_caption"].format(levels=levels, lambdas=shown, lines=lines)
    caption += TEXTS["spread_caption"] if spread else ""
    if paper_points:
        caption += (
            " Grey stars: the paper's published numbers "
            + ", ".join(f"{n} (P {p:g}, U {u:g})" for n, p, u in PAPER_POINTS)
            + ", not runs of this report."
        )
    return caption


def _key_handles(lambdas: Sequence[float], oracle: bool, spread: bool) -> list[Line2D]:
    """Legend entries after the runs: the front, notes, and the iso lines' title."""
    front = Line2D([], [], label="Pareto front (ringed: no model better on both)")
    front.update(FRONT_STYLE | {"markersize": 11})
    notes = ["hollow: [ORACLE] run (reads the scorer's targets)"] if oracle else []
    notes += ["•: shared position of runs\nspread around it"] if spread else []
    levels = "/".join(f"{level:g}" for level in ISO_LEVELS)
    family = "lines" if len(lambdas) > 1 else f"lines (λ = {lambdas[0]:g})"
    iso_title = f"Iso-score {family} at {levels}: λ·P + (1 − λ)·U\nis constant along each line"
    iso_title += " (level at its end)"
    notes.append(iso_title)
    return [front, *(Line2D([], [], linestyle="none", label=note) for note in notes)]


def pareto_figure(
    table: pd.DataFrame,
    out_dir: Path,
    name: str,
    lambdas: Sequence[float],
    heading: str,
    paper_points: bool = False,
) -> FigureFile:
    """Utility against privacy per run with 95% CIs, the Pareto front and iso lines."""
    rows = table.sort_values(["rank", "label"]).reset_index(drop=True)
    privacy = 100 * rows["privacy"].to_numpy(dtype=float)
    utility = 100 * rows["utility"].to_numpy(dtype=float)
    errors = (_errors(rows, "privacy"), _errors(rows, "utility"))
    fig = new_figure(2 * PARETO_HEIGHT, PARETO_HEIGHT, layout=None)
    ax = fig.add_subplot(1, 1, 1)
    limits, offsets = _pareto_frame(privacy, utility, list(errors), paper_points)
    ax.set_xlim(*limits)
    ax.set_ylim(*limits)
    ax.set_aspect("equal")
    front = pareto_front(list(privacy), list(utility))
    ax.plot(privacy[front], utility[front], zorder=1, markersize=17, **FRONT_STYLE)
    iso_handles = _iso_lines(ax, lambdas, limits)
    model_handles = _draw_runs(ax, rows, (privacy, utility), errors, offsets)
    points = list(zip(privacy, utility, strict=True))
    spread = mark_spread(ax, points, offsets)
    rank_labels = _number_points(ax, privacy, utility, list(rows["rank"]), offsets, limits)
    paper_handles = draw_paper_points(ax) if paper_points else []
    ax.set_xlabel("Privacy (x100): share of protected values withheld")
    ax.set_ylabel("Utility (x100): share of task values shared")
    ax.grid(alpha=0.3)
    ax.set_title(f"{heading}: privacy-utility trade-off (error bars: 95% CI)", loc="left", pad=16)
    keys = _key_handles(lambdas, any(_oracle_flags(rows)), spread)
    _place(fig, ax, _legend(fig, ax, [*model_handles, *paper_handles, *keys, *iso_handles]))
    if paper_points:  # named once the figure has its final size, where no run's mark is
        markers = [shifted(ax, o).transform(xy) for xy, o in zip(points, offsets, strict=True)]
        name_paper_points(ax, rank_labels, markers)
    caption = _pareto_caption(lambdas, spread, paper_points)
    return save(fig, out_dir, name, f"Pareto ({heading})", caption)


def _place(fig: Figure, ax: Axes, legend: Legend) -> None:
    """Size the figure to its margins, square axes and legend (whole quarter inches)."""
    left, bottom, top, gap, right = PARETO_MARGINS
    height = fig.get_size_inches()[1]
    side = height - bottom - top
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg canvas
    legend_width = legend.get_window_extent(renderer).width / fig.dpi
    width = max(6.0, math.ceil(4 * (left + side + gap + legend_width + right)) / 4)
    fig.set_size_inches(width, height)
    ax.set_position((left / width, bottom / height, side / width, side / height))


def _number_points(
    ax: Axes,
    privacy: np.ndarray,
    utility: np.ndarray,
    ranks: list[int],
    offsets: list[Offset],
    limits: tuple[float, float],
) -> list[Text]:
    """Write each point's rank beside it, one label per cluster (`#1 ×2, #3`)."""
    span = limits[1] - limits[0]
    labels: list[Text] = []
    points = list(zip(privacy, utility, strict=True))
    for members in coincident_clusters(points, 0.06 * span):
        p, u = points[members[0]]
        counts = Counter(ranks[i] for i in members)
        text = ", ".join(
            f"#{rank}" + (f" ×{count}" if count > 1 else "")
            for rank, count in sorted(counts.items())
        )
        reach = max(math.hypot(*offsets[i]) for i in members)
        dx = -(8 + reach) if p > limits[1] - 0.1 * span else 8 + reach
        dy = -(12 + reach) if u > limits[1] - 0.1 * span else 7 + reach
        labels.append(
            ax.annotate(text, (p, u), xytext=(dx, dy), textcoords="offset points",
                        ha="right" if dx < 0 else "left", fontsize=9, fontweight="bold", zorder=6)
        )  # fmt: skip
    return labels


def epochs_figure(
    table: pd.DataFrame, epochs: pd.DataFrame, out_dir: Path, name: str, heading: str
) -> FigureFile:
    """Per model with several epochs: each epoch's mean (dots), their range and the mean (bar)."""
    rows = table[table["run"].isin(epochs["run"].unique())].sort_values(["rank", "label"])
    labels = [f"#{r.rank} {wrap_label(r.label)} ({r.epochs} epochs)" for r in rows.itertuples()]
    title = f"{heading}: spread across epochs (dots: epoch means; red bar: overall mean)"
    fig, panels, ys = _score_panels(labels, 0.45, (0.7, 0.3), title)
    positions = dict(zip(rows["run"], ys, strict=True))
    for ax, key in panels:
        for run, frame in epochs.groupby("run"):
            if run not in positions:
                continue
            y = positions[run]
            values = 100 * frame[key].to_numpy(dtype=float)
            ax.hlines(y, values.min(), values.max(), color=SCORE_COLOURS[key], linewidth=3)
            ax.scatter(values, [y] * len(values), color="black", s=18, zorder=3)
            mean = 100 * float(rows.loc[rows["run"] == run, key].iloc[0])
            ax.scatter([mean], [y], marker="|", s=300, color="red", zorder=4)
            spread = f"range {values.max() - values.min():.1f}"
            ax.text(values.max(), y + 0.25, spread, fontsize=8, ha="right")
        shown = 100 * epochs[key].to_numpy(dtype=float)
        low, high = float(shown.min()), float(shown.max())
        pad = max(2.0, 0.15 * (high - low))
        ax.set_xlim(max(-0.5, low - pad), min(100.5, high + pad))
    caption = "Mean score of each epoch per model (dots), their range (line) and the log's mean."
    return save(fig, out_dir, name, f"Epoch spread ({heading})", caption)
