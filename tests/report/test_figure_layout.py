"""Figures at publication quality: one iso-score family by default, the paper's points only on
request, legends off the data, and no point or curve hidden behind another."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from polar_inspect.report.cli import parse
from polar_inspect.report.defenses import frontier_figure
from polar_inspect.report.figstyle import spread_offsets
from polar_inspect.report.leakage import leakage_figure
from polar_inspect.report.plots import pareto_figure
from tests.report.conftest import BuiltReport
from tests.report.test_ranks import tied_table


def _legend_texts(figure: Figure) -> list[str]:
    legends = [*figure.legends, *(ax.get_legend() for ax in figure.axes if ax.get_legend())]
    return [text.get_text() for legend in legends for text in legend.get_texts()]


def _iso_families(figure: Figure) -> list[str]:
    return [t for t in _legend_texts(figure) if t.startswith("λ = ")]


def test_pareto_draws_one_iso_family_unless_asked(tmp_path: Path, drawn: list[Figure]) -> None:
    pareto_figure(tied_table(), tmp_path, "one.png", (0.5,), "T")
    pareto_figure(tied_table(), tmp_path, "three.png", (0.3, 0.5, 0.7), "T")
    one, three = drawn
    assert _iso_families(one) == ["λ = 0.5"]
    assert _iso_families(three) == ["λ = 0.3", "λ = 0.5", "λ = 0.7"]
    dashed = [line for line in one.axes[0].lines if line.get_linestyle() == "--"]
    assert 1 <= len(dashed) <= 3  # the levels of one family, not 3 x 3 lines


def test_the_report_uses_its_weight_for_the_one_default_family(set_report: BuiltReport) -> None:
    pareto = next(f for f in set_report.result.figures if f.path.endswith("/pareto.png"))
    assert "for lambda = 0.5 (one line per level)" in pareto.caption
    assert "paper" not in pareto.caption


def test_the_command_line_takes_iso_lambdas_and_paper_points() -> None:
    args = parse(["logs", "--out", "r", "--iso-lambdas", "0.3,0.5,0.7"])
    assert args["iso_lambdas"] == [0.3, 0.5, 0.7] and args["paper_points"] is False
    assert parse(["logs", "--out", "r"])["iso_lambdas"] is None  # -> --weight
    old = parse(["logs", "--out", "r", "--lambdas", "0.25", "--paper-points"])
    assert old["iso_lambdas"] == [0.25] and old["paper_points"] is True


def test_paper_points_are_drawn_only_when_asked(tmp_path: Path, drawn: list[Figure]) -> None:
    pareto_figure(tied_table(), tmp_path, "plain.png", (0.5,), "T")
    pareto_figure(tied_table(), tmp_path, "paper.png", (0.5,), "T", paper_points=True)
    plain, paper = drawn
    assert not [t for t in _legend_texts(plain) if "paper" in t]
    published = [t for t in _legend_texts(paper) if "paper's published number" in t]
    assert published == [
        "GLM-5.1: the paper's published number (P 99.3, U 89.9), not a run",
        "GLM-4.7-Flash: the paper's published number (P 98.9, U 61.2), not a run",
    ]
    stars = [
        tuple(line.get_xydata()[0])
        for line in paper.axes[0].lines
        if line.get_marker() == "*" and len(line.get_xydata())
    ]
    assert stars == [(99.3, 89.9), (98.9, 61.2)]


def _marker_positions(figure: Figure) -> list[tuple[np.ndarray, Line2D]]:
    """Display position (pixels) of every drawn single-point marker of the first axes."""
    figure.canvas.draw()
    found = []
    for line in figure.axes[0].lines:
        data = line.get_xydata()
        if len(data) == 1 and line.get_marker() not in ("None", "", None) and line.get_visible():
            found.append((line.get_transform().transform(data)[0], line))
    return found


def _apart(positions: list[np.ndarray], pixels: float) -> bool:
    return all(math.dist(a, b) >= pixels for a, b in itertools.combinations(positions, 2))


def test_coincident_pareto_points_are_spread_and_marked(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    table = tied_table()
    table["oracle"] = [True, False, False, False]
    figure_file = pareto_figure(table, tmp_path, "p.png", (0.5,), "T")
    [figure] = drawn
    markers = [(xy, line) for xy, line in _marker_positions(figure) if line.get_markersize() == 8]
    assert len(markers) == 4
    assert _apart([xy for xy, _ in markers], 8.0)  # the tied pair is two visible markers
    hollow = [line for _, line in markers if line.get_markerfacecolor() == "white"]
    assert len(hollow) == 1  # the ORACLE run
    assert "drawn around their shared position" in figure_file.caption


def test_frontier_shows_every_defense_when_they_fall_on_two_points(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    """Eight defenses of one model on two spots (as the reference agents give) stay visible,
    ORACLE runs hollow and on top."""
    defenses = ["none", "policy_reminder", "ci_reasoning", "hardened_prompt", "spotlight"]
    defenses += ["minimize", "guard", "redact_oracle"]
    rows = []
    for defense in defenses:
        oracle = defense in ("minimize", "guard", "redact_oracle")
        score = 100.0 if oracle else 0.0
        rows.append(
            {
                "group": "A",
                "model": "polar/leaky",
                "defense": defense,
                "oracle": oracle,
                "privacy": score,
                "utility": 100.0,
            }
        )
    frontier_figure(pd.DataFrame(rows), tmp_path, "f.png", "T")
    [figure] = drawn
    markers = [(xy, line) for xy, line in _marker_positions(figure) if line.get_markersize() == 10]
    assert len(markers) == 8
    assert _apart([xy for xy, _ in markers], 10.0)
    axes = figure.axes[0].get_window_extent()
    for xy, _ in markers:  # spread markers at the edge stay inside the plot
        assert axes.x0 <= xy[0] <= axes.x1 and axes.y0 <= xy[1] <= axes.y1
    hollow = [line for _, line in markers if line.get_markerfacecolor() == "white"]
    assert len(hollow) == 3 and all(line.get_zorder() == 4 for line in hollow)
    assert any("ORACLE run" in text for text in _legend_texts(figure))


def _curves(runs: dict[int, tuple[str, list[float]]]) -> pd.DataFrame:
    rows = []
    for run, (label, values) in runs.items():
        for attack in ("all", "S1", "S5"):
            for turn, value in enumerate(values, start=1):
                rows.append((run, label, attack, turn, value, value, value, 5))
    columns = ["run", "label", "attack", "turn", "leakage", "low", "high", "n"]
    return pd.DataFrame(rows, columns=columns)


def test_leakage_legend_is_off_the_data_and_identical_curves_share_a_line(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    curves = _curves(
        {
            0: ("polar/leaky", [1.0, 1.0, 1.0]),
            1: ("polar/oracle [ORACLE]", [0.0, 0.0, 0.0]),
            2: ("polar/refuse", [0.0, 0.0, 0.0]),
            3: ("polar/trickle", [0.2, 0.4, 0.6]),
        }
    )
    leakage_figure(curves, tmp_path, "l.png", "T")
    [figure] = drawn
    figure.canvas.draw()
    [legend] = figure.legends
    box = legend.get_window_extent()
    for ax in figure.axes:
        if ax.get_visible():
            assert not box.overlaps(ax.get_window_extent()), "the legend covers a panel"
    labels = _legend_texts(figure)
    assert labels == [
        "polar/leaky",
        "polar/oracle [ORACLE]\n= polar/refuse\n(identical curves)",
        "polar/trickle",
    ]
    assert all(len(ax.lines) == 3 for ax in figure.axes if ax.get_visible())


@pytest.mark.parametrize("count", [2, 3, 5, 8])
def test_spread_offsets_keep_coincident_markers_apart(count: int) -> None:
    points = [(50.0, 50.0)] * count + [(10.0, 10.0)]
    offsets = spread_offsets(points, tolerance=1.0, marker_points=10.0)
    assert offsets[-1] == (0.0, 0.0)  # a lone point stays where it is
    assert _apart([np.array(o) for o in offsets[:count]], 10.0)


def _cluster_table(count: int) -> pd.DataFrame:
    """`count` runs tied at (100, 100), as ORACLE references and a strong model give, five
    tied at (0, 100) and one at (100, 0), as in an offline defense sweep: the paper's GLM-5.1
    point sits just below the top-right cluster."""
    rows = [(f"model-{i}", 1.0, 1.0, 1) for i in range(count)]
    rows += [(f"leaky-{i}", 0.0, 1.0, count + 1) for i in range(5)] + [("refuse", 1.0, 0.0, 99)]
    return pd.DataFrame(
        {
            "label": label,
            "rank": rank,
            **{f"privacy{s}": privacy for s in ("", "_low", "_high")},
            **{f"utility{s}": utility for s in ("", "_low", "_high")},
            **{f"overall{s}": (privacy + utility) / 2 for s in ("", "_low", "_high")},
        }
        for label, privacy, utility, rank in rows
    )


@pytest.mark.parametrize("count", [1, 4, 10])
def test_the_papers_names_cover_no_rank_label_and_no_run(
    count: int, tmp_path: Path, drawn: list[Figure]
) -> None:
    pareto_figure(_cluster_table(count), tmp_path, "p.png", (0.5,), "T", paper_points=True)
    [figure] = drawn
    figure.canvas.draw()
    ax = figure.axes[0]
    names = [t for t in ax.texts if t.get_text().endswith("(paper)")]
    ranks = [t for t in ax.texts if t.get_text().startswith("#")]
    assert len(names) == 2 and ranks
    frame = ax.get_window_extent()
    runs = [xy for xy, line in _marker_positions(figure) if line.get_markersize() == 8]
    for name in names:
        box = name.get_window_extent().padded(2.0)  # not even touching
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, name.get_text()
        assert not any(box.overlaps(r.get_window_extent()) for r in ranks), name.get_text()
        assert not any(box.contains(*xy) for xy in runs), name.get_text()
    assert not names[0].get_window_extent().overlaps(names[1].get_window_extent())


def test_no_run_is_drawn_as_a_star_like_the_papers_points(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    pareto_figure(_cluster_table(14), tmp_path, "p.png", (0.5,), "T", paper_points=True)
    [figure] = drawn
    runs = [line for _, line in _marker_positions(figure) if line.get_markersize() == 8]
    assert len(runs) == 20 and all(line.get_marker() != "*" for line in runs)


def test_frontier_arrows_end_at_the_markers_of_defenses_that_changed_a_score(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    rows = [
        {"model": "m", "defense": d, "oracle": False, "privacy": p, "utility": 100.0}
        for d, p in (("none", 0.0), ("spotlight", 0.0), ("guard", 100.0), ("minimize", 100.0))
    ]
    frontier_figure(pd.DataFrame(rows), tmp_path, "f.png", "T")
    [figure] = drawn
    figure.canvas.draw()
    arrows = [t for t in figure.axes[0].texts if t.arrow_patch is not None and not t.get_text()]
    heads = [a for a in arrows if "-|>" in str(a.arrowprops.get("arrowstyle"))]
    assert len(heads) == 2  # to guard and to minimize; spotlight changed nothing: no arrow
    markers = {line.get_marker(): xy for xy, line in _marker_positions(figure)}
    for arrow in heads:
        end = arrow.xycoords.transform(arrow.xy)  # where the arrow points, in pixels
        assert any(math.dist(end, xy) < 1.0 for xy in markers.values())


def test_a_single_turn_gets_whole_turn_ticks(tmp_path: Path, drawn: list[Figure]) -> None:
    leakage_figure(_curves({0: ("polar/leaky", [1.0]), 1: ("x", [0.0])}), tmp_path, "l.png", "T")
    [figure] = drawn
    figure.canvas.draw()
    for ax in figure.axes:
        if ax.get_visible():
            ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
            assert ticks == [1.0]


def test_a_curve_equal_to_another_in_one_panel_only_stays_visible(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    curves = _curves({0: ("polar/mixed", [0.5, 0.5]), 1: ("polar/leaky", [1.0, 1.0])})
    s1 = (curves["run"] == 0) & (curves["attack"] == "S1")
    curves.loc[s1, ["leakage", "low", "high"]] = 1.0  # polar/mixed leaks fully in S1 only
    leakage_figure(curves, tmp_path, "l.png", "T")
    [figure] = drawn
    panels = {ax.get_title(): ax for ax in figure.axes if ax.get_visible()}
    under, over = panels["S1"].lines
    assert over.get_linestyle() == "--" and under.get_linestyle() == "-"
    assert over.get_markersize() < under.get_markersize()
    for title in ("all strategies", "S5"):  # the curves differ there: both drawn alike
        assert {line.get_linestyle() for line in panels[title].lines} == {"-"}
