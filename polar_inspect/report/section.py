"""The shape of a report section: one theme's frame, files, Markdown and HTML fragment.

A `Section` is computed once from the inputs every section shares (`SectionInputs`: the runs,
their comparison groups, the ranked summary and the per-sample scores at the report's
weight), then written: its CSV files, its part of `report.md` and its fragment of
`index.html`. The build loops over `SECTIONS` (`report.sections`); a new theme is one new
`Section` there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.stats import Group

__all__ = ["Section", "SectionInputs", "SectionOutput", "run_sections"]


@dataclass(frozen=True)
class SectionInputs:
    """What every section is computed from."""

    runs: Sequence[RunHeader]
    groups: Sequence[Group]
    #: `stats.run_summary`: one row per run, sorted by group, rank and label.
    summary: pd.DataFrame
    #: `stats.per_sample_at`: one row per run and sample id, epochs reduced by their mean,
    #: `overall` at the report's weight.
    reduced: pd.DataFrame
    weight: float

    @property
    def many(self) -> bool:
        """Several comparison groups (each ranked on its own)."""
        return len(self.groups) > 1


@dataclass(frozen=True)
class Section:
    """One theme of the report.

    `compute` gives its frame (empty: the section has nothing to show); `csv` the CSV files
    to write (file name -> frame); `markdown` its part of `report.md` and `html` its fragment
    of the page (a `<section id="{name}">`), both "" when there is nothing to show."""

    name: str
    title: str
    compute: Callable[[SectionInputs], pd.DataFrame]
    csv: Callable[[pd.DataFrame, SectionInputs], dict[str, pd.DataFrame]]
    markdown: Callable[[pd.DataFrame, SectionInputs], str]
    html: Callable[[pd.DataFrame, SectionInputs], str]


@dataclass(frozen=True)
class SectionOutput:
    """A section as written: its frame, the files it wrote, its Markdown and HTML."""

    section: Section
    frame: pd.DataFrame
    files: list[str]
    markdown: str
    html: str


def run_sections(
    sections: Sequence[Section], inputs: SectionInputs, out: Path
) -> list[SectionOutput]:
    """Compute every section and write its CSV files into `out`; sections with an empty
    frame write nothing."""
    done = []
    for section in sections:
        frame = section.compute(inputs)
        if frame.empty:
            done.append(SectionOutput(section, frame, [], "", ""))
            continue
        files = []
        for name, table in section.csv(frame, inputs).items():
            table.to_csv(out / name, index=False)
            files.append(name)
        markdown = section.markdown(frame, inputs)
        done.append(SectionOutput(section, frame, files, markdown, section.html(frame, inputs)))
    return done
