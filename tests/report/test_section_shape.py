"""A new theme is one `Section`: its file, figure, Markdown and page fragments all appear
without touching the build, and a fragment that is not markup is shown as text."""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup

from polar_inspect.report import build, build_report
from polar_inspect.report.figstyle import FigureFile, new_figure, save
from polar_inspect.report.html import render
from polar_inspect.report.section import Section
from polar_inspect.report.sections import SECTIONS
from tests.report.conftest import ReportLogs


def _toy_figure(out: Path, name: str) -> FigureFile:
    return save(new_figure(2, 1), out, name, "Toy figure", "Drawn by the toy section.")


TOY = Section(
    name="toy",
    title="Toy theme",
    compute=lambda inputs: inputs.summary[["group", "label"]],
    files=lambda frame, inputs: {"toy.csv": frame, "toy.md": "# Toy\n"},
    figures=lambda frame, inputs: [
        (g.name, (_toy_figure, (inputs.out, "toy.png"))) for g in inputs.groups
    ],
    markdown=lambda frame, inputs: "## Toy theme\n",
    group_html=lambda output, inputs, group: render(
        "figures", out=inputs.out, figures=output.figures[group.name]
    ),
    html=lambda output, inputs: (
        Markup('<section id="toy"><h2>Toy theme</h2>') + "<b>not markup</b></section>"
    ),
)


@pytest.mark.slow
def test_a_section_added_to_the_list_is_written_drawn_and_shown(
    report_logs: ReportLogs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "SECTIONS", (*SECTIONS, TOY))
    result = build_report([report_logs.epochs_dir], tmp_path, jobs=1)
    assert {"toy.csv", "toy.md"} <= set(result.tables)
    assert (tmp_path / "toy.md").read_text(encoding="utf-8") == "# Toy\n"
    assert "polar/oracle" in (tmp_path / "toy.csv").read_text(encoding="utf-8")
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report.endswith("\n## Toy theme\n")
    assert "![Toy figure](figures/toy.png)" in report  # listed with the group's figures
    assert "figures/toy.png" in [f.path for f in result.figures]
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert '<a href="#toy">Toy theme</a>' in page and '<section id="toy">' in page
    assert page.count('data-file="figures/toy.png"') == 1
    assert "&lt;b&gt;not markup&lt;/b&gt;" in page and "<b>not markup</b>" not in page
