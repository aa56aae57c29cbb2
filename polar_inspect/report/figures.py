"""The figures of a report, as jobs that can run on worker processes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from polar_inspect.report import heatmaps, plots
from polar_inspect.report.figstyle import slug
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.oracles import is_oracle
from polar_inspect.report.stats import Group
from polar_inspect.scorers.parity import SCORE_KEYS

Job = tuple[Callable[..., Any], tuple[Any, ...]]


def run_slug(run: RunHeader) -> str:
    """A run's name in file names: the model and its defense stack, `oracle` said once.

    `polar/leaky` with `redact_oracle` (an oracle) is `polar-leaky-redact-oracle`, not the
    `...-redact-oracle-oracle` that its display label (`... [ORACLE]`) would give; a stack
    that is an oracle through its role's model (`guard` run by `polar/guard`) ends in
    `-oracle`.
    """
    words = slug(run.base_label or run.label)
    if run.defense != "none":
        stack = slug(run.defense)
        words = f"{words}-{stack}"
        if is_oracle(run) and "oracle" not in stack.split("-"):
            words += "-oracle"
    return words


def figure_jobs(
    group: Group,
    runs: Sequence[RunHeader],
    many: bool,
    summary: pd.DataFrame,
    rows: pd.DataFrame,
    epochs: pd.DataFrame,
    out_dir: Path,
    weight: float,
    lambdas: Sequence[float],
    paper_points: bool = False,
) -> list[Job]:
    """The figures of one comparison group, as `(function, args)` jobs for `timing.timed_call`.

    `lambdas` are the Pareto plot's iso-score families; `paper_points` adds the paper's
    published points to it."""
    suffix = f"_{group.name}" if many else ""
    heading = f"Group {group.name}" if many else "POLAR-Bench"
    table = summary[summary["group"] == group.name].sort_values(["rank", "label"])
    figures: list[Job] = [
        (plots.ranking_figure, (table, out_dir, f"ranking{suffix}.png", weight, heading)),
        (
            plots.pareto_figure,
            (table, out_dir, f"pareto{suffix}.png", tuple(lambdas), heading, paper_points),
        ),
    ]
    cells = rows[(rows["axis"] == "cell") & rows["run"].isin(group.runs)]
    if len(table) > 1:
        title = (
            f"{heading}: mean over {len(table)} models "
            "(each model weighs the same; n = samples summed over models)"
        )
        mean = heatmaps.mean_cells(cells)
        figures.append(
            (heatmaps.surface_figure, (mean, out_dir, f"surface_mean{suffix}.png", title))
        )
    for position, row in enumerate(table.itertuples(), start=1):
        name = f"surface{suffix}_{position:02d}_{run_slug(runs[int(row.run)])}.png"
        own = cells[cells["run"] == row.run]
        title = f"#{row.rank} {row.label}: diagnostic surface"
        figures.append((heatmaps.surface_figure, (own, out_dir, name, title, str(row.label))))
    order = [(int(r.run), f"#{r.rank} {r.label}") for r in table.itertuples()]
    mine = rows[rows["run"].isin(group.runs) & (rows["axis"] != "cell")]
    for axis in ("domain", "attack", "policy"):
        for score in SCORE_KEYS:
            name = f"heatmap_{axis}_{score}{suffix}.png"
            args = (mine, order, axis, score, out_dir, name, heading)
            figures.append((heatmaps.breakdown_figure, args))
    group_epochs = epochs[epochs["run"].isin(group.runs)] if not epochs.empty else epochs
    if not group_epochs.empty:
        spread = (table, group_epochs, out_dir, f"epochs{suffix}.png", heading)
        figures.append((plots.epochs_figure, spread))
    return figures
