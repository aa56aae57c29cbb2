"""Every figure is written at its declared pixel size, and the HTML page embeds all of them."""

from __future__ import annotations

import base64
import re
import shutil
import struct
from pathlib import Path

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
    surfaces = {n for n in names if re.fullmatch(r"surface_0[1-4]_polar-[a-z]+\.png", n)}
    assert len(surfaces) == 4
    assert names == {"ranking.png", "pareto.png", "surface_mean.png"} | heatmaps | surfaces
    on_disk = {p.name for p in (set_report.out / "figures").glob("*.png")}
    assert on_disk == names


def test_figures_are_non_empty_pngs_of_the_declared_size(set_report: BuiltReport) -> None:
    for figure in set_report.result.figures:
        path = set_report.out / figure.path
        assert path.stat().st_size > 10_000, figure.path
        assert png_size(path) == (figure.width, figure.height), figure.path
        assert figure.width >= 600 and figure.height >= 300


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
    assert "<table>" in page and "polar/mixed" in page
    assert "Breakdown tables (x100)" in page and "<h4>Privacy by attack</h4>" in page
    for table in ("leaderboard.csv", "breakdown.csv", "report.md", "logs.csv"):
        assert f'href="{table}"' in page
