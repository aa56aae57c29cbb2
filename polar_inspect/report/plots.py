"""Model-level figures: ranking bars (paper Fig. 2), Pareto scatter (Fig. 3), epoch spread."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.transforms import ScaledTranslation

from polar_inspect.report.figstyle import (
    SCORE_COLOURS,
    SCORE_TITLES,
    FigureFile,
    new_figure,
    save,
    shorten,
)
from polar_inspect.scorers.parity import SCORE_KEYS

MARKERS = "osD^vP*Xhp<>"
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


def ranking_figure(
    table: pd.DataFrame, out_dir: Path, name: str, weight: float, heading: str
) -> FigureFile:
    """Three bar panels (privacy, utility, overall) per model, best overall at the top."""
    rows = table.sort_values(["rank", "label"]).reset_index(drop=True)
    count = len(rows)
    fig = new_figure(13.0, max(3.0, 0.42 * count + 1.8))
    axes = fig.subplots(1, 3, sharey=True)
    positions = np.arange(count)[::-1]
    labels = [f"{r.rank}. {shorten(r.label)}" for r in rows.itertuples()]
    for ax, key in zip(axes, SCORE_KEYS, strict=True):
        values = 100 * rows[key].to_numpy(dtype=float)
        ax.barh(positions, values, color=SCORE_COLOURS[key], height=0.7)
        ax.errorbar(
            values,
            positions,
            xerr=_errors(rows, key),
            fmt="none",
            ecolor="black",
            elinewidth=1,
            capsize=3,
        )
        for y, value in zip(positions, values, strict=True):
            inside = value >= 18
            ax.text(
                2 if inside else value + 2,
                y,
                f"{value:.1f}",
                va="center",
                ha="left",
                fontsize=9,
                color="white" if inside else "black",
                fontweight="bold" if inside else "normal",
            )
        title = SCORE_TITLES[key] + (f" (λ = {weight:g})" if key == "overall" else "")
        ax.set_title(title)
        ax.set_xlim(0, 100)
        ax.set_xlabel("score (x100)")
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
    axes[0].set_yticks(positions, labels)
    axes[0].set_ylim(-0.6, count - 0.4)
    fig.suptitle(f"{heading}: models ranked by overall score (error bars: 95% CI)")
    caption = (
        f"Privacy, utility and overall (lambda = {weight:g}) per model, x100, sorted by overall. "
        "Error bars are 95% confidence intervals over samples."
    )
    return save(fig, out_dir, name, f"Ranking ({heading})", caption)


def pareto_front(privacy: Sequence[float], utility: Sequence[float]) -> list[int]:
    """Indices of the points no other point beats on both axes, by increasing privacy."""
    points = list(zip(privacy, utility, strict=True))
    front = [
        i
        for i, (p, u) in enumerate(points)
        if not any(
            (p2 >= p and u2 >= u) and (p2 > p or u2 > u) for p2, u2 in points if (p2, u2) != (p, u)
        )
    ]
    return sorted(front, key=lambda i: (points[i][0], -points[i][1]))


def _limits(values: list[np.ndarray], errors: list[np.ndarray]) -> tuple[float, float]:
    """One range for both axes: from a round number below every CI to just above 100."""
    lows = [float(np.nanmin(v - e[0])) for v, e in zip(values, errors, strict=True) if len(v)]
    low = min(lows, default=0.0)
    low = math.floor((low - 3) / 10) * 10 if low > 10 else 0.0
    return (low - 2.0, 102.0)


Point = tuple[float, float]


def iso_segment(lam: float, level: float, low: float, high: float) -> tuple[Point, Point] | None:
    """The part of the line `lam * x + (1 - lam) * y = level` inside the square
    [low, high]^2, upper-left end first; None if the line misses the square."""
    a, b = lam, 1.0 - lam
    found: list[Point] = []
    for edge in (low, high):
        if b:
            found.append((edge, (level - a * edge) / b))
        if a:
            found.append(((level - b * edge) / a, edge))
    eps = 1e-9 * (high - low)
    inside = sorted(
        {(x, y) for x, y in found if low - eps <= x <= high + eps and low - eps <= y <= high + eps},
        key=lambda point: (point[0], -point[1]),
    )
    if len(inside) < 2 or math.dist(inside[0], inside[-1]) <= eps:
        return None
    return inside[0], inside[-1]


def _spread(positions: list[float], gap: float, low: float, high: float) -> list[float]:
    """Positions (sorted) pushed apart to at least `gap`, kept within [low, high] if they fit."""
    out = [min(max(p, low), high) for p in positions]
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    for i in range(len(out) - 2, -1, -1):
        if out[i + 1] > high:
            out[i + 1] = high
        out[i] = min(out[i], out[i + 1] - gap)
    return out


def _iso_lines(ax: Axes, lambdas: Sequence[float], limits: tuple[float, float]) -> list:
    """Dashed lines of equal overall score at ISO_LEVELS, one colour and dash per lambda, each
    with its level written at one end: outside the axes on the right or top edge, else inside
    above the bottom edge.
    Returns one legend handle per lambda."""
    low, high = limits
    span = high - low
    ends: dict[str, list[tuple[float, str, str]]] = {"right": [], "top": [], "bottom": []}
    handles = []
    for i, lam in enumerate(lambdas):
        colour, dash = ISO_COLOURS[i % len(ISO_COLOURS)], ISO_DASHES[i % len(ISO_DASHES)]
        style = {"color": colour, "linestyle": dash, "linewidth": 1.3}
        handles.append(Line2D([], [], label=f"λ = {lam:g}", **style))
        for level in ISO_LEVELS:
            segment = iso_segment(lam, level, low, high)
            if segment is None or math.dist(*segment) < 0.25 * span:
                continue  # a sliver in a corner says nothing
            (x0, y0), (x1, y1) = segment
            ax.plot([x0, x1], [y0, y1], zorder=1, **style)
            close = 1e-6 * span
            if x1 >= high - close:
                ends["right"].append((y1, f"{level:g}", colour))
            elif max(y0, y1) >= high - close:
                ends["top"].append((x0, f"{level:g}", colour))
            else:
                ends["bottom"].append((x1, f"{level:g}", colour))
    for edge, marks in ends.items():
        marks.sort()
        spread = _spread([m[0] for m in marks], 0.035 * span, low + 0.01 * span, high)
        for place, (_, text, colour) in zip(spread, marks, strict=True):
            xy, offset, align = {
                "right": ((high, place), (3, 0), {"ha": "left", "va": "center"}),
                "top": ((place, high), (0, 2), {"ha": "center", "va": "bottom"}),
                "bottom": ((place, low), (0, 2), {"ha": "center", "va": "bottom"}),
            }[edge]
            ax.annotate(
                text,
                xy,
                xytext=offset,
                textcoords="offset points",
                color=colour,
                fontsize=8.5,
                fontweight="bold",
                annotation_clip=False,
                **align,
            )
    return handles


def pareto_figure(
    table: pd.DataFrame,
    out_dir: Path,
    name: str,
    lambdas: Sequence[float],
    heading: str,
) -> FigureFile:
    """Utility against privacy per model with 95% CIs, the Pareto front and iso-score lines."""
    rows = table.sort_values(["rank", "label"]).reset_index(drop=True)
    privacy = 100 * rows["privacy"].to_numpy(dtype=float)
    utility = 100 * rows["utility"].to_numpy(dtype=float)
    x_err, y_err = _errors(rows, "privacy"), _errors(rows, "utility")
    fig = new_figure(2 * PARETO_HEIGHT, PARETO_HEIGHT, layout=None)
    ax = fig.add_subplot(1, 1, 1)
    limits = _limits([privacy, utility], [x_err, y_err])
    ax.set_xlim(*limits)
    ax.set_ylim(*limits)
    ax.set_aspect("equal")
    front = pareto_front(list(privacy), list(utility))
    front_style = {"color": "black", "alpha": 0.35, "linewidth": 2.5, "marker": "o"}
    front_style |= {"markersize": 17, "markerfacecolor": "none", "markeredgewidth": 1.5}
    ax.plot(privacy[front], utility[front], zorder=1, **front_style)
    iso_handles = _iso_lines(ax, lambdas, limits)
    colours = _palette(len(rows))
    model_handles = []
    for i, row in enumerate(rows.itertuples()):
        marker = {"marker": MARKERS[i % len(MARKERS)], "markersize": 8, "color": colours[i]}
        marker["markeredgecolor"] = "black"
        ax.errorbar(
            privacy[i],
            utility[i],
            xerr=x_err[:, i : i + 1],
            yerr=y_err[:, i : i + 1],
            linestyle="none",
            capsize=3,
            zorder=3,
            **marker,
        )
        label = f"#{i + 1} {shorten(row.label)}  (P {privacy[i]:.1f}, U {utility[i]:.1f})"
        model_handles.append(Line2D([], [], linestyle="none", label=label, **marker))
    _number_points(ax, privacy, utility, limits)
    ax.set_xlabel("Privacy (x100): share of protected values withheld")
    ax.set_ylabel("Utility (x100): share of task values shared")
    ax.grid(alpha=0.3)
    ax.set_title(f"{heading}: privacy-utility trade-off (error bars: 95% CI)", loc="left", pad=16)
    levels = "/".join(f"{level:g}" for level in ISO_LEVELS)
    front_handle = Line2D([], [], label="Pareto front (ringed: no model better on both)")
    front_handle.update(front_style | {"markersize": 11})
    iso_title = f"Iso-score lines at {levels}: λ·P + (1 − λ)·U\nis constant along each line"
    iso_title += " (level at its end)"
    handles = [
        *model_handles,
        front_handle,
        Line2D([], [], linestyle="none", label=iso_title),
        *iso_handles,
    ]
    legend = ax.legend(
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
    _place(fig, ax, legend)
    caption = (
        "One point per model (#1 = best overall) with 95% confidence intervals and the Pareto "
        "front (ringed). Dashed iso-score lines: along a line, lambda * privacy + (1 - lambda) "
        f"* utility is constant, at the level printed at its end ({levels}); one colour and "
        "dash per lambda. Models on the same line have the same overall score for that lambda."
    )
    return save(fig, out_dir, name, f"Pareto ({heading})", caption)


def _place(fig: Figure, ax: Axes, legend: Legend) -> None:
    """Size the figure to its content: margins, the square axes, its level labels and the legend
    beside them (width in whole quarter inches, so that pixel sizes stay exact)."""
    left, bottom, top, gap, right = PARETO_MARGINS
    height = fig.get_size_inches()[1]
    side = height - bottom - top
    legend_width = legend.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
    width = max(6.0, math.ceil(4 * (left + side + gap + legend_width + right)) / 4)
    fig.set_size_inches(width, height)
    ax.set_position((left / width, bottom / height, side / width, side / height))


def _number_points(
    ax: Axes, privacy: np.ndarray, utility: np.ndarray, limits: tuple[float, float]
) -> None:
    """Write each point's number beside it; points closer than a few percent of the axis
    share one label, so that labels never sit on top of each other."""
    span = limits[1] - limits[0]
    clusters: list[tuple[float, float, list[int]]] = []
    for i, (p, u) in enumerate(zip(privacy, utility, strict=True)):
        for cp, cu, members in clusters:
            if math.hypot(p - cp, u - cu) < 0.06 * span:
                members.append(i + 1)
                break
        else:
            clusters.append((p, u, [i + 1]))
    for p, u, numbers in clusters:
        dx = -8 if p > limits[1] - 0.08 * span else 8
        dy = -12 if u > limits[1] - 0.05 * span else 7
        ax.annotate(
            ",".join(f"#{n}" for n in numbers),
            (p, u),
            xytext=(dx, dy),
            textcoords="offset points",
            ha="right" if dx < 0 else "left",
            fontsize=9,
            fontweight="bold",
            zorder=4,
        )


def _palette(count: int) -> list:
    import matplotlib

    cmap = matplotlib.colormaps["tab10" if count <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(count)]


def epochs_figure(
    table: pd.DataFrame, epochs: pd.DataFrame, out_dir: Path, name: str, heading: str
) -> FigureFile:
    """Per model with several epochs: each epoch's mean (dots), their range and the mean (bar)."""
    rows = table[table["run"].isin(epochs["run"].unique())].sort_values(["rank", "label"])
    count = len(rows)
    fig = new_figure(13.0, max(3.0, 0.45 * count + 1.8))
    axes = fig.subplots(1, 3, sharey=True)
    positions = {run: y for y, run in zip(np.arange(count)[::-1], rows["run"], strict=True)}
    for ax, key in zip(axes, SCORE_KEYS, strict=True):
        for run, frame in epochs.groupby("run"):
            if run not in positions:
                continue
            y = positions[run]
            values = 100 * frame[key].to_numpy(dtype=float)
            ax.hlines(y, values.min(), values.max(), color=SCORE_COLOURS[key], linewidth=3)
            ax.scatter(values, [y] * len(values), color="black", s=18, zorder=3)
            mean = 100 * float(rows.loc[rows["run"] == run, key].iloc[0])
            ax.scatter([mean], [y], marker="|", s=300, color="red", zorder=4)
            ax.text(
                values.max(),
                y + 0.25,
                f"range {values.max() - values.min():.1f}",
                fontsize=8,
                ha="right",
            )
        shown = 100 * epochs[key].to_numpy(dtype=float)
        low, high = float(shown.min()), float(shown.max())
        pad = max(2.0, 0.15 * (high - low))
        ax.set_xlim(max(-0.5, low - pad), min(100.5, high + pad))
        ax.set_title(SCORE_TITLES[key])
        ax.set_xlabel("score (x100)")
        ax.grid(axis="x", alpha=0.3)
    labels = [f"{shorten(r.label)} ({r.epochs} epochs)" for r in rows.itertuples()]
    axes[0].set_yticks(list(positions.values()), labels)
    axes[0].set_ylim(-0.7, count - 0.3)
    fig.suptitle(f"{heading}: spread across epochs (dots: epoch means; red bar: overall mean)")
    caption = "Mean score of each epoch per model (dots), their range (line) and the log's mean."
    return save(fig, out_dir, name, f"Epoch spread ({heading})", caption)
