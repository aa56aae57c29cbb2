"""The shape of a report section: one theme's frame, files, figures, Markdown and HTML; the build
loops over `sections.SECTIONS` (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from polar_inspect.report.figstyle import FigureFile
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.stats import Group, per_sample_at
from polar_inspect.report.usage import ModelPrice

Job = tuple[Callable[..., Any], tuple[Any, ...]]
#: A figure to draw: the group it belongs to and its `(function, args)` job.
Planned = tuple[str, Job]


@dataclass(frozen=True, eq=False)
class SectionInputs:
    """What every section is computed from (one report's runs and settings)."""

    out: Path
    runs: Sequence[RunHeader]
    groups: Sequence[Group]
    #: `stats.run_summary`: one row per run, sorted by group, rank and label.
    summary: pd.DataFrame
    samples: pd.DataFrame
    #: `stats.breakdown` and `stats.epoch_means` at the report's weight.
    rows: pd.DataFrame
    epochs: pd.DataFrame
    #: `sections.inventory_frame`: every file considered.
    logs: pd.DataFrame
    weight: float
    lambdas: Sequence[float] = ()
    paper_points: bool = False
    prices: Mapping[str, ModelPrice] | None = None
    #: Every drawn figure by group, in plan order (filled once the figures are drawn).
    drawn: dict[str, list[FigureFile]] = field(default_factory=dict)
    _memo: dict[str, pd.DataFrame] = field(default_factory=dict)

    @property
    def many(self) -> bool:
        """Several comparison groups (each ranked on its own)."""
        return len(self.groups) > 1

    @cached_property
    def reduced(self) -> pd.DataFrame:
        """`stats.per_sample_at`: one row per run and sample id, epochs reduced by their mean."""
        return per_sample_at(self.runs, self.samples, self.weight)

    def once(self, name: str, compute: Callable[[SectionInputs], pd.DataFrame]) -> pd.DataFrame:
        """`compute(self)`, computed once however many sections ask for it."""
        if name not in self._memo:
            self._memo[name] = compute(self)
        return self._memo[name]

    def suffix_and_heading(self, group: Group) -> tuple[str, str]:
        """A group's file-name suffix and figure heading (none / `POLAR-Bench` for one group)."""
        return (f"_{group.name}", f"Group {group.name}") if self.many else ("", "POLAR-Bench")


@dataclass(frozen=True)
class Section:
    """One theme of the report: its frame (empty: nothing shown, unless `always`), files,
    figures, Markdown, a fragment per group (`group_html`) and a part of its own (`html`)."""

    name: str
    compute: Callable[[SectionInputs], pd.DataFrame]
    title: str = ""  # the page's link to its own part (`html`)
    files: Callable[[pd.DataFrame, SectionInputs], dict[str, pd.DataFrame | str]] = (
        lambda frame, inputs: {}
    )
    figures: Callable[[pd.DataFrame, SectionInputs], list[Planned]] = lambda frame, inputs: []
    markdown: Callable[[pd.DataFrame, SectionInputs], str] = lambda frame, inputs: ""
    group_html: Callable[[SectionOutput, SectionInputs, Group], str] | None = None
    html: Callable[[SectionOutput, SectionInputs], str] | None = None
    always: bool = False


@dataclass(frozen=True)
class SectionOutput:
    """A computed section: its frame and its figures by group (once drawn)."""

    section: Section
    frame: pd.DataFrame
    figures: dict[str, list[FigureFile]] = field(default_factory=dict)

    @property
    def shown(self) -> bool:
        """Whether the section writes and shows anything."""
        return self.section.always or not self.frame.empty

    def write(self, inputs: SectionInputs) -> list[str]:
        """Write the section's files into `inputs.out`; return their names."""
        if not self.shown:
            return []
        files = self.section.files(self.frame, inputs)
        for name, content in files.items():
            if isinstance(content, str):
                (inputs.out / name).write_text(content, encoding="utf-8")
            else:
                content.to_csv(inputs.out / name, index=False)
        return list(files)

    def markdown(self, inputs: SectionInputs) -> str:
        """The section's part of `report.md` ("" when it shows nothing)."""
        return self.section.markdown(self.frame, inputs) if self.shown else ""

    def html(self, inputs: SectionInputs) -> str:
        """The section's own part of the page ("" when it has none or its frame is empty)."""
        part = self.section.html
        return part(self, inputs) if part is not None and not self.frame.empty else ""


def compute_sections(
    sections: Sequence[Section], inputs: SectionInputs, figures: bool
) -> tuple[list[SectionOutput], list[tuple[SectionOutput, Planned]]]:
    """Compute every section; return them and, with `figures`, every figure they plan."""
    done = [SectionOutput(section, section.compute(inputs)) for section in sections]
    planned = [
        (output, job)
        for output in done
        if figures and output.shown
        for job in output.section.figures(output.frame, inputs)
    ]
    return done, planned
