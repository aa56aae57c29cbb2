"""Shared figure plumbing: the Agg backend (no mathtext: `$` in a name stays as written), fixed
sizes, colours, label shortening, saving, and spreading points that would hide each other.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["text.parse_math"] = False

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.transforms import ScaledTranslation, Transform  # noqa: E402
from pydantic import BaseModel  # noqa: E402

#: Pixels per inch: a figure of w x h inches is written as (w * DPI) x (h * DPI) pixels.
DPI = 100
SCORE_COLOURS = {"privacy": "#3b6fb6", "utility": "#e08a2c", "overall": "#3a9a5b"}
SCORE_TITLES = {"privacy": "Privacy", "utility": "Utility", "overall": "Overall"}
#: One colour scale for every score heatmap, so figures can be compared with each other.
HEATMAP_CMAP = "viridis"
MISSING_COLOUR = "#d9d9d9"
LABEL_WIDTH = 56
#: One marker per run, in order; no star: the paper's published points (`--paper-points`) are.
RUN_MARKERS = "osD^vPXhp<>d8"


#: Where the page shows a figure: with the group's results, folded among the breakdowns, or in
#: the section of the one model (`FigureFile.model`) it is about.
FigureKind = Literal["main", "breakdown", "model"]


class FigureFile(BaseModel):
    """A written figure: path relative to the report folder, and what it shows."""

    path: str
    title: str
    caption: str
    width: int
    height: int
    kind: FigureKind = "main"
    model: str | None = None  # the run label a `model` figure is about


def new_figure(width: float, height: float, layout: str | None = "constrained") -> Figure:
    """A figure of fixed size (inches), with constrained layout unless told otherwise."""
    return plt.figure(figsize=(width, height), dpi=DPI, layout=layout)


def save(
    fig: Figure,
    out_dir: Path,
    name: str,
    title: str,
    caption: str,
    kind: FigureKind = "main",
    model: str | None = None,
) -> FigureFile:
    """Write `fig` to `out_dir/figures/name` as PNG at a fixed pixel size, then close it."""
    folder = out_dir / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    width, height = fig.get_size_inches()
    fig.savefig(folder / name, dpi=DPI, format="png")
    plt.close(fig)
    size = {"width": round(width * DPI), "height": round(height * DPI)}
    return FigureFile(path=f"figures/{name}", title=title, caption=caption, kind=kind, model=model,
                      **size)  # fmt: skip


def wrap_label(label: str, width: int = LABEL_WIDTH) -> str:
    """A long label on lines of at most `width` characters, broken at spaces: none of it is cut
    (the part that tells two runs apart is often in the middle)."""
    return textwrap.fill(label, width, break_long_words=False)


def slug(label: str) -> str:
    """A file-name-safe form of a label (lower-case words joined by `-`, at most 60 characters)."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")[:60].strip("-") or "model"


def text_colour(value: float) -> str:
    """Black on the light end of viridis (0-100), white on the dark end."""
    return "black" if value / 100.0 > 0.55 else "white"


Offset = tuple[float, float]


def coincident_clusters(points: Sequence[tuple[float, float]], tolerance: float) -> list[list[int]]:
    """Indices of points grouped with the first of a group within `tolerance`."""
    clusters: list[list[int]] = []
    for index, (x, y) in enumerate(points):
        for members in clusters:
            cx, cy = points[members[0]]
            if math.hypot(x - cx, y - cy) <= tolerance:
                members.append(index)
                break
        else:
            clusters.append([index])
    return clusters


def spread_offsets(
    points: Sequence[tuple[float, float]], tolerance: float, marker_points: float = 9.0
) -> list[Offset]:
    """Offsets (points) setting coinciding points on a small circle around their spot."""
    offsets: list[Offset] = [(0.0, 0.0)] * len(points)
    for members in coincident_clusters(points, tolerance):
        count = len(members)
        if count == 1:
            continue
        radius = max(1.2 * marker_points, 1.6 * marker_points * count / (2 * math.pi))
        for step, index in enumerate(members):
            angle = math.pi / 2 - 2 * math.pi * step / count
            offsets[index] = (radius * math.cos(angle), radius * math.sin(angle))
    return offsets


def shifted(ax: Axes, offset: Offset) -> Transform:
    """Data coordinates of `ax`, drawn `offset` points away (for spread markers)."""
    dx, dy = offset
    return ax.transData + ScaledTranslation(dx / 72, dy / 72, ax.figure.dpi_scale_trans)


def mark_spread(ax: Axes, points: list[tuple[float, float]], offsets: list[Offset]) -> bool:
    """A dot at each shared position and a spoke to each spread marker; True if any."""
    moved = [i for i, offset in enumerate(offsets) if offset != (0.0, 0.0)]
    spoke = {"arrowstyle": "-", "color": "#555555", "linewidth": 0.8, "shrinkA": 0, "shrinkB": 0}
    for i in moved:
        ax.annotate("", points[i], xytext=offsets[i], textcoords="offset points",
                    arrowprops=spoke, zorder=2)  # fmt: skip
    for x, y in dict.fromkeys(points[i] for i in moved):
        ax.plot([x], [y], marker="o", markersize=3.5, color="black", zorder=5)
    return bool(moved)


def palette(count: int) -> list:
    """`count` distinct colours: tab10, or tab20 beyond ten (repeating beyond twenty)."""
    cmap = matplotlib.colormaps["tab10" if count <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(count)]


def run_marker(marker: str, colour: Any, oracle: bool) -> dict[str, Any]:
    """A run's marker style: filled, or hollow in its colour for an [ORACLE] run."""
    style: dict[str, Any] = {"marker": marker, "color": colour, "markeredgecolor": "black"}
    if oracle:
        style |= {"markerfacecolor": "white", "markeredgecolor": colour, "markeredgewidth": 2.2}
    return style
