"""polar-cost's precision lines: what a selection can tell apart before it runs."""

from __future__ import annotations

from polar_inspect.cost.precision_note import precision_lines


def _grid(per_cell: int) -> list[tuple[str, str, str]]:
    return [
        (f"d{d}", f"P{p}", f"S{s}")
        for d in range(10)
        for p in range(1, 6)
        for s in range(1, 6)
        for _ in range(per_cell)
    ]


def test_the_mini_selection_gives_six_points_at_worst() -> None:
    (line,) = precision_lines(_grid(1), None)
    assert "250 samples" in line and "+/-6.2 points" in line and "+/-12.4" in line


def test_a_target_width_asks_for_whole_rounds_of_cells() -> None:
    lines = precision_lines(_grid(1), 5.0)
    assert lines[1].startswith("+/-5 points needs 385 samples")
    assert "stratified subset of 500 (2 per cell of 250)" in lines[1]
    assert "select more data" in lines[1]  # 250 < 500
    assert "select more data" not in precision_lines(_grid(4), 5.0)[1]


def test_an_empty_selection_says_nothing() -> None:
    assert precision_lines([], 5.0) == []
