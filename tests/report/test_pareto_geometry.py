"""Where the Pareto plot writes an iso line's level, and how a score cell reads."""

from __future__ import annotations

import math

import pytest

from polar_inspect.report.pareto_geometry import iso_end, iso_segment
from polar_inspect.report.stats import score_cell


@pytest.mark.parametrize(
    ("lam", "level", "edge", "place"),
    [
        (0.5, 90.0, "right", 80.0),  # from (80, 100) to (100, 80): at the right edge
        (0.95, 50.0, "top", 47.368421),  # steep, from (47.4, 100) down to (52.6, 0): at the top
        (0.5, 20.0, "bottom", 40.0),  # from (0, 40) to (40, 0): above the bottom edge
    ],
)
def test_the_level_is_written_where_the_line_leaves_the_plot(
    lam: float, level: float, edge: str, place: float
) -> None:
    segment = iso_segment(lam, level, 0.0, 100.0)
    assert segment is not None
    found_edge, found_place = iso_end(segment, 100.0, 1e-6 * 100)
    assert found_edge == edge
    assert found_place == pytest.approx(place, abs=1e-5)


def test_a_score_cell_leaves_out_an_unknown_interval_or_delta() -> None:
    assert score_cell(50.0, 40.0, 60.0, 2.5) == "50.0 [40.0, 60.0] (+2.5)"
    assert score_cell(50.0, math.nan, math.nan, -1.0) == "50.0 (-1.0)"
    assert score_cell(50.0, 40.0, 60.0, math.nan) == "50.0 [40.0, 60.0]"
