"""The figures of the report's sections, planned in one place as jobs for the worker pool."""

from __future__ import annotations

import pandas as pd

from polar_inspect.report import defenses, heatmaps, plots
from polar_inspect.report.figstyle import slug
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.leakage import leakage_figure
from polar_inspect.report.oracles import is_oracle
from polar_inspect.report.section import Planned, SectionInputs
from polar_inspect.report.stats import Group
from polar_inspect.scorers.parity import SCORE_KEYS


def run_slug(run: RunHeader) -> str:
    """A run's name in file names: the model and its defense stack, `oracle` said once."""
    words = slug(run.base_label or run.label)
    if run.defense != "none":
        stack = slug(run.defense)
        words = f"{words}-{stack}"
        if is_oracle(run) and "oracle" not in stack.split("-"):
            words += "-oracle"
    return words


def _table(inputs: SectionInputs, group: Group) -> pd.DataFrame:
    """The group's rows of the summary, best first."""
    summary = inputs.summary
    return summary[summary["group"] == group.name].sort_values(["rank", "label"])


def leaderboard_figures(_: pd.DataFrame, inputs: SectionInputs) -> list[Planned]:
    """Each group's ranking and Pareto plot (`lambdas`: its iso-score families)."""
    planned: list[Planned] = []
    for group in inputs.groups:
        suffix, heading = inputs.suffix_and_heading(group)
        table, out = _table(inputs, group), inputs.out
        ranking = (table, out, f"ranking{suffix}.png", inputs.weight, heading)
        pareto = (table, out, f"pareto{suffix}.png", tuple(inputs.lambdas), heading)
        planned += [
            (group.name, (plots.ranking_figure, ranking)),
            (group.name, (plots.pareto_figure, (*pareto, inputs.paper_points))),
        ]
    return planned


def _surfaces(inputs: SectionInputs, group: Group, cells: pd.DataFrame) -> list[Planned]:
    """The group's mean surface (several models) and each model's own surface."""
    suffix, heading = inputs.suffix_and_heading(group)
    table, out = _table(inputs, group), inputs.out
    planned: list[Planned] = []
    if len(table) > 1:
        title = (
            f"{heading}: mean over {len(table)} models "
            "(each model weighs the same; n = samples summed over models)"
        )
        mean = (heatmaps.mean_cells(cells), out, f"surface_mean{suffix}.png", title)
        planned.append((group.name, (heatmaps.surface_figure, mean)))
    for position, row in enumerate(table.itertuples(), start=1):
        name = f"surface{suffix}_{position:02d}_{run_slug(inputs.runs[int(row.run)])}.png"
        title = f"#{row.rank} {row.label}: diagnostic surface"
        own = (cells[cells["run"] == row.run], out, name, title, str(row.label))
        planned.append((group.name, (heatmaps.surface_figure, own)))
    return planned


def breakdown_figures(_: pd.DataFrame, inputs: SectionInputs) -> list[Planned]:
    """Each group's surfaces, then its domain / attack / policy heatmaps of every score."""
    planned: list[Planned] = []
    rows = inputs.rows
    for group in inputs.groups:
        suffix, heading = inputs.suffix_and_heading(group)
        mine = rows[rows["run"].isin(group.runs)]
        planned += _surfaces(inputs, group, mine[mine["axis"] == "cell"])
        order = [(int(r.run), f"#{r.rank} {r.label}") for r in _table(inputs, group).itertuples()]
        for axis in ("domain", "attack", "policy"):
            for score in SCORE_KEYS:
                name = f"heatmap_{axis}_{score}{suffix}.png"
                args = (mine[mine["axis"] != "cell"], order, axis, score, inputs.out, name, heading)
                planned.append((group.name, (heatmaps.breakdown_figure, args)))
    return planned


def epochs_figures(_: pd.DataFrame, inputs: SectionInputs) -> list[Planned]:
    """Each group's spread across epochs, for groups with several epochs."""
    planned: list[Planned] = []
    for group in inputs.groups:
        if not (mine := inputs.epochs[inputs.epochs["run"].isin(group.runs)]).empty:
            suffix, heading = inputs.suffix_and_heading(group)
            args = (_table(inputs, group), mine, inputs.out, f"epochs{suffix}.png", heading)
            planned.append((group.name, (plots.epochs_figure, args)))
    return planned


def defense_figures(frame: pd.DataFrame, inputs: SectionInputs) -> list[Planned]:
    """The defense frontier of each group that compares defense stacks."""
    return _per_group(frame, inputs, "group", "defense_frontier", defenses.frontier_figure)


def leakage_figures(frame: pd.DataFrame, inputs: SectionInputs) -> list[Planned]:
    """The leakage-by-turn figure of each group with curves."""
    return _per_group(frame, inputs, "run", "leakage_by_turn", leakage_figure)


def _per_group(
    frame: pd.DataFrame, inputs: SectionInputs, column: str, stem: str, draw: object
) -> list[Planned]:
    """One `draw(rows, out, name, heading)` figure per group with rows in `frame`."""
    planned: list[Planned] = []
    for group in inputs.groups:
        mine = frame[frame[column].isin(group.runs if column == "run" else [group.name])]
        if not mine.empty:
            suffix, heading = inputs.suffix_and_heading(group)
            planned.append((group.name, (draw, (mine, inputs.out, f"{stem}{suffix}.png", heading))))  # type: ignore[arg-type]
    return planned
