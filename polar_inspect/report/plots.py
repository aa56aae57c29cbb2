"""Model-level figures: ranking bars (paper Fig. 2), Pareto scatter (Fig. 3), epoch spread."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from polar_inspect.report.figstyle import (
    SCORE_COLOURS,
    SCORE_TITLES,
    FigureFile,
    new_figure,
    save,
    shorten,
)
from polar_inspect.scoring.scorer import SCORE_KEYS

MARKERS = "osD^vP*Xhp<>"


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
    fig = new_figure(14.5, 8.0)
    ax = fig.add_subplot(1, 1, 1)
    x_lim = _limits([privacy, utility], [x_err, y_err])
    ax.set_xlim(*x_lim)
    ax.set_ylim(*x_lim)
    ax.set_aspect("equal")
    front = pareto_front(list(privacy), list(utility))
    ax.plot(
        privacy[front],
        utility[front],
        color="black",
        alpha=0.35,
        linewidth=2.5,
        zorder=1,
        marker="o",
        markersize=17,
        markerfacecolor="none",
        markeredgewidth=1.5,
        label="Pareto front (ringed: no model is better on both axes)",
    )
    grid = np.linspace(x_lim[0], x_lim[1], 200)
    styles = ["--", (0, (6, 3, 1, 3)), ":", (0, (8, 2))]
    greys = ["#555555", "#8a3ea8", "#1f77b4", "#b3541e"]
    for i, lam in enumerate(lambdas):
        scores = lam * privacy + (1 - lam) * utility
        best = int(np.nanargmax(scores))
        level = scores[best]
        label = f"iso-score λ = {lam:g}: through #{best + 1}, score {level:.1f}"
        if lam >= 1.0:
            ax.axvline(level, linestyle=styles[i % 4], color=greys[i % 4], label=label)
        else:
            ax.plot(
                grid,
                (level - lam * grid) / (1 - lam),
                linestyle=styles[i % 4],
                color=greys[i % 4],
                linewidth=1.3,
                label=label,
                zorder=1,
            )
    colours = _palette(len(rows))
    for i, row in enumerate(rows.itertuples()):
        ax.errorbar(
            privacy[i],
            utility[i],
            xerr=x_err[:, i : i + 1],
            yerr=y_err[:, i : i + 1],
            fmt=MARKERS[i % len(MARKERS)],
            color=colours[i],
            markersize=8,
            capsize=3,
            markeredgecolor="black",
            zorder=3,
            label=f"#{i + 1} {shorten(row.label)}  (P {privacy[i]:.1f}, U {utility[i]:.1f})",
        )
    _number_points(ax, privacy, utility, x_lim)
    ax.set_xlabel("Privacy (x100): share of protected values withheld")
    ax.set_ylabel("Utility (x100): share of task values shared")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False)
    ax.set_title(f"{heading}: privacy-utility trade-off (error bars: 95% CI)", pad=10)
    caption = (
        "One point per model (#1 = best overall) with 95% confidence intervals, the "
        "Pareto front (solid), and dashed iso-score lines: on a line, lambda * privacy + "
        "(1 - lambda) * utility is constant; each passes through the best model at its lambda."
    )
    return save(fig, out_dir, name, f"Pareto ({heading})", caption)


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
