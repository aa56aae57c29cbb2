"""The Pareto plot's geometry: its front, iso-score segments, labels pushed apart."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


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


Point = tuple[float, float]


def iso_segment(lam: float, level: float, low: float, high: float) -> tuple[Point, Point] | None:
    """The part of `lam*x + (1-lam)*y = level` inside [low, high]^2, or None."""
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


def iso_end(segment: tuple[Point, Point], high: float, close: float) -> tuple[str, float]:
    """The edge (right, top or bottom) an iso line's level is written at, and where."""
    (x0, y0), (x1, y1) = segment
    if x1 >= high - close:
        return "right", y1
    return ("top", x0) if max(y0, y1) >= high - close else ("bottom", x1)


def spread(positions: list[float], gap: float, low: float, high: float) -> list[float]:
    """Positions (sorted) pushed apart to at least `gap`, kept within [low, high] if they fit."""
    out = [min(max(p, low), high) for p in positions]
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    for i in range(len(out) - 2, -1, -1):
        if out[i + 1] > high:
            out[i + 1] = high
        out[i] = min(out[i], out[i + 1] - gap)
    return out


def axis_limits(
    values: list[np.ndarray], errors: list[np.ndarray], pad: float = 2.0
) -> tuple[float, float]:
    """One range for both axes: a round number below every CI to 100, padded."""
    lows = [float(np.nanmin(v - e[0])) for v, e in zip(values, errors, strict=True) if len(v)]
    low = min(lows, default=0.0)
    low = math.floor((low - 3) / 10) * 10 if low > 10 else 0.0
    return (low - pad, 100.0 + pad)
