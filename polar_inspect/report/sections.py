"""The report's sections, in the order they appear after the groups' leaderboards
(`report.section` defines the shape)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from polar_inspect.report.cross_section import CROSS_SECTION
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.paired_section import PAIRED_SECTION, neighbour_marks
from polar_inspect.report.section import Section, SectionInputs, SectionOutput, run_sections
from polar_inspect.report.stats import Group, per_sample_at

SECTIONS: tuple[Section, ...] = (PAIRED_SECTION, CROSS_SECTION)


def write_sections(
    out: Path,
    runs: Sequence[RunHeader],
    groups: Sequence[Group],
    summary: pd.DataFrame,
    samples: pd.DataFrame,
    weight: float,
) -> tuple[list[SectionOutput], pd.DataFrame]:
    """Compute and write every section; return them with `summary` given its `vs_next`
    column (the leaderboard's mark: is each run distinguishable from the next one?)."""
    inputs = SectionInputs(runs, groups, summary, per_sample_at(runs, samples, weight), weight)
    done = run_sections(SECTIONS, inputs, out)
    paired = next(d.frame for d in done if d.section is PAIRED_SECTION)
    marks = neighbour_marks(paired, inputs)
    return done, summary.assign(vs_next=[marks.get(int(r), "") for r in summary["run"]])
