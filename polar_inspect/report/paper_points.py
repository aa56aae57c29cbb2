"""The paper's published points on the Pareto plot (`--paper-points`; docs/report/README.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: Points read off the paper's published privacy-utility figure (x100).
PAPER_POINTS: tuple[tuple[str, float, float], ...] = (
    ("GLM-5.1", 99.3, 89.9),
    ("GLM-4.7-Flash", 98.9, 61.2),
)
PAPER_STYLE: dict[str, Any] = {"marker": "*", "markersize": 13, "color": "#9a9a9a",
                               "markeredgecolor": "#444444"}  # fmt: skip
#: Where a name may go, in order of preference: offset (points) and alignment.
LABEL_SIDES: tuple[tuple[tuple[float, float], str, str], ...] = (
    ((-9, 0), "right", "center"),
    ((-7, -8), "right", "top"),
    ((-7, 8), "right", "bottom"),
    ((9, 0), "left", "center"),
    ((0, -10), "center", "top"),
    ((0, 10), "center", "bottom"),
)
#: Half the side (points) of the square a run's marker is taken to cover.
MARKER_HALF = 6.0
#: Clear space (points) kept between a name and anything else.
CLEARANCE = 3.0


def draw_paper_points(ax: Axes) -> list[Line2D]:
    """Draw the paper's points as grey stars; return their legend handles."""
    handles = []
    for model, p, u in PAPER_POINTS:
        ax.plot([p], [u], linestyle="none", zorder=3, **PAPER_STYLE)
        label = f"{model}: the paper's published number (P {p:g}, U {u:g}), not a run"
        handles.append(Line2D([], [], linestyle="none", label=label, **PAPER_STYLE))
    return handles


def name_paper_points(ax: Axes, taken: Sequence[Text], markers: Sequence[np.ndarray]) -> None:
    """Name each star on the first side that covers no text, run marker or name."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg canvas
    half, clearance = MARKER_HALF * fig.dpi / 72, CLEARANCE * fig.dpi / 72
    boxes = [text.get_window_extent(renderer) for text in taken]
    boxes += [Bbox.from_extents(x - half, y - half, x + half, y + half) for x, y in markers]
    frame = ax.get_window_extent(renderer)
    for model, p, u in PAPER_POINTS:
        chosen = None
        for offset, ha, va in LABEL_SIDES:
            text = _name(ax, model, (p, u), offset, ha, va)
            box = text.get_window_extent(renderer).padded(clearance)
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0
            if inside and box.y1 <= frame.y1 and not any(box.overlaps(b) for b in boxes):
                chosen = box
                break
            text.remove()
        if chosen is None:  # nowhere free: the first side, as readable as any
            offset, ha, va = LABEL_SIDES[0]
            chosen = _name(ax, model, (p, u), offset, ha, va).get_window_extent(renderer)
        boxes.append(chosen)


def _name(
    ax: Axes, model: str, point: tuple[float, float], offset: tuple[float, float], ha: str, va: str
) -> Text:
    return ax.annotate(f"{model} (paper)", point, xytext=offset, textcoords="offset points",
                       ha=ha, va=va, fontsize=8.5, color="#444444", style="italic",
                       zorder=4)  # fmt: skip
