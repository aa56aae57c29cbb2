"""Every figure is written at its declared pixel size, and the HTML page embeds all of them."""

from __future__ import annotations

import base64
import math
import re
import shutil
import struct
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgb
from matplotlib.image import imread

from polar_inspect.report.plots import ISO_COLOURS, iso_segment, pareto_figure
from tests.report.conftest import BuiltReport

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, path
    return struct.unpack(">II", head[16:24])


def test_every_expected_figure_is_written(set_report: BuiltReport) -> None:
    names = {Path(f.path).name for f in set_report.result.figures}
    heatmaps = {
        f"heatmap_{axis}_{score}.png"
        for axis in ("domain", "attack", "policy")
        for score in ("privacy", "utility", "overall")
    }
    surfaces = {n for n in names if re.fullmatch(r"surface_0[1-4]_polar-[a-z0-9-]+\.png", n)}
    assert len(surfaces) == 4
    fixed = {"ranking.png", "pareto.png", "surface_mean.png", "leakage_by_turn.png"}
    assert names == fixed | heatmaps | surfaces
    on_disk = {p.name for p in (set_report.out / "figures").glob("*.png")}
    assert on_disk == names


def test_figures_are_non_empty_pngs_of_the_declared_size(set_report: BuiltReport) -> None:
    for figure in set_report.result.figures:
        path = set_report.out / figure.path
        assert path.stat().st_size > 10_000, figure.path
        assert png_size(path) == (figure.width, figure.height), figure.path
        assert figure.width >= 600 and figure.height >= 300


@pytest.mark.slow
def test_figures_grow_with_the_number_of_models(
    set_report: BuiltReport, mixed_report: BuiltReport
) -> None:
    """A group of four models gets taller ranking bars than a group of one."""
    heights = {
        Path(f.path).stem.removeprefix("ranking_"): f.height
        for f in mixed_report.result.figures
        if Path(f.path).name.startswith("ranking_")
    }
    four = next(f for f in set_report.result.figures if f.path.endswith("/ranking.png"))
    sizes = {g.name: len(g.runs) for g in mixed_report.result.groups}
    assert sorted(sizes.values()) == [1, 1, 1, 4]
    for group, height in heights.items():
        assert (height == four.height) if sizes[group] == 4 else (height < four.height), group


def test_html_embeds_every_figure_and_stands_alone(set_report: BuiltReport, tmp_path: Path) -> None:
    copy = tmp_path / "copied"
    shutil.copytree(set_report.out, copy)
    for png in (copy / "figures").glob("*.png"):
        png.unlink()  # the page must not need the files next to it
    page = (copy / set_report.result.html).read_text(encoding="utf-8")
    images = re.findall(r'<img src="([^"]+)"[^>]*data-file="([^"]+)"', page)
    assert {file for _, file in images} == {f.path for f in set_report.result.figures}
    for source, file in images:
        prefix = "data:image/png;base64,"
        assert source.startswith(prefix)
        embedded = base64.b64decode(source[len(prefix) :])
        assert embedded == (set_report.out / file).read_bytes()
    assert '<table class="sortable">' in page and "polar/mixed" in page
    assert "Breakdown tables (x100)" in page and "<h4>Privacy by attack (x100)</h4>" in page
    for table in ("leaderboard.csv", "breakdown.csv", "report.md", "logs.csv"):
        assert f'href="{table}"' in page


def _reference_table() -> pd.DataFrame:
    """Three reference agents: oracle at 100/100, mixed at 64/100 (CI 58-70), leaky at 0/100."""
    rows = [("polar/oracle", 1.0, 1.0, 0.0), ("polar/mixed", 0.64, 0.82, 0.06)]
    rows.append(("polar/leaky", 0.0, 0.5, 0.0))
    return pd.DataFrame(
        {
            "label": label,
            "rank": rank,
            "privacy": privacy,
            "privacy_low": privacy - half,
            "privacy_high": privacy + half,
            "utility": 1.0,
            "utility_low": 1.0,
            "utility_high": 1.0,
            "overall": overall,
        }
        for rank, (label, privacy, overall, half) in enumerate(rows, start=1)
    )


def _pixels_near(image: np.ndarray, colour: str, tolerance: float = 0.12) -> np.ndarray:
    target = np.array(to_rgb(colour))
    return np.linalg.norm(image[:, :, :3] - target, axis=2) < tolerance


def test_pareto_figure_fills_its_canvas(tmp_path: Path) -> None:
    """No empty band: drawn content reaches close to both side edges of the image."""
    figure = pareto_figure(_reference_table(), tmp_path, "p.png", (0.25, 0.5, 0.75), "T")
    image = imread(tmp_path / figure.path)
    assert image.shape[:2] == (figure.height, figure.width)
    columns = np.flatnonzero((image[:, :, :3] < 0.9).any(axis=(0, 2)))
    assert columns[0] < 0.05 * figure.width
    assert columns[-1] > 0.9 * figure.width
    assert figure.width < 1.6 * figure.height


def test_pareto_iso_lines_are_drawn_across_the_plot_when_the_best_is_perfect(
    tmp_path: Path,
) -> None:
    """With the best model at 100/100 each lambda still gets long lines at fixed levels."""
    lambdas = (0.25, 0.5, 0.75)
    figure = pareto_figure(_reference_table(), tmp_path, "p.png", lambdas, "T")
    image = imread(tmp_path / figure.path)
    for colour in ISO_COLOURS[: len(lambdas)]:
        rows = np.flatnonzero(_pixels_near(image, colour).any(axis=1))
        assert len(rows) > 0, colour
        assert rows[-1] - rows[0] > 0.5 * figure.height, colour  # not a corner stub


def test_iso_segment_is_the_clipped_line() -> None:
    for lam, level in ((0.25, 50.0), (0.5, 90.0), (0.75, 70.0), (0.0, 70.0), (1.0, 50.0)):
        segment = iso_segment(lam, level, -2.0, 102.0)
        assert segment is not None
        for x, y in segment:
            assert -2.0 - 1e-9 <= x <= 102.0 + 1e-9 and -2.0 - 1e-9 <= y <= 102.0 + 1e-9
            assert math.isclose(lam * x + (1 - lam) * y, level)
        (x0, y0), (x1, y1) = segment
        assert x0 <= x1 and y0 >= y1  # upper-left end first
    assert iso_segment(0.5, 90.0, -2.0, 102.0) == ((78.0, 102.0), (102.0, 78.0))
    assert iso_segment(0.5, 30.0, 48.0, 102.0) is None
