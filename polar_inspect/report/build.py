"""Logs in, report out: the pipeline behind `polar-report`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from pydantic import BaseModel
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from polar_inspect.report import access, defenses, log_tables, tables
from polar_inspect.report.attribution import write_attribution
from polar_inspect.report.figstyle import FigureFile
from polar_inspect.report.figures import Job, figure_jobs
from polar_inspect.report.html import write_html
from polar_inspect.report.inventory import KeepPolicy, RunHeader, SkippedLog
from polar_inspect.report.leakage import curve_frames, leakage_curves, leakage_figure
from polar_inspect.report.loading import Stepper, load_runs
from polar_inspect.report.oracles import is_oracle, mark_oracles
from polar_inspect.report.outdir import prepare_out_dir, staged_report
from polar_inspect.report.outputs import write_tables
from polar_inspect.report.parallel import default_jobs, run_jobs, worker_pool
from polar_inspect.report.sections import write_sections
from polar_inspect.report.stats import (
    PAPER_WEIGHT,
    Group,
    breakdown,
    comparison_groups,
    epoch_means,
    run_summary,
)
from polar_inspect.report.timing import Timings, section_of, timed_call
from polar_inspect.report.usage import ModelPrice, usage_frame


class NoUsableLogsError(RuntimeError):
    """None of the given logs can be reported on."""


class ReportResult(BaseModel):
    """What a report run produced (paths relative to `out_dir`)."""

    out_dir: str
    models: list[str]
    groups: list[Group]
    skipped: list[SkippedLog]
    files_seen: int
    figures: list[FigureFile]
    tables: list[str]
    html: str
    seconds: dict[str, float] = {}  # wall time by step (figures: summed over workers)


@contextmanager
def _progress(enabled: bool) -> Iterator[Stepper]:
    """A stepper that adds a rich progress bar per step, or one that shows nothing."""
    if not enabled:
        yield lambda label, total: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True)) as bar:

        def step(label: str, total: int) -> Callable[[], None]:
            task = bar.add_task(label, total=total)
            return lambda: bar.advance(task)

        yield step


def _check(weight: float, lambdas: Sequence[float]) -> None:
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must be within [0, 1], got {weight}")
    if not lambdas or any(not 0.0 <= lam <= 1.0 for lam in lambdas):
        raise ValueError(f"iso_lambdas must be within [0, 1], got {list(lambdas)}")


def build_report(
    inputs: Sequence[str | Path],
    out_dir: str | Path,
    *,
    weight: float = PAPER_WEIGHT,
    iso_lambdas: Sequence[float] | None = None,
    paper_points: bool = False,
    keep: KeepPolicy = "newest",
    jobs: int | None = None,
    figures: bool = True,
    progress: bool = False,
    prices: Mapping[str, ModelPrice] | None = None,
) -> ReportResult:
    """Read polar_inspect logs (files or directories) and write tables, figures and HTML.

    The report is built in a staging folder and swapped into `out_dir` at the end
    (`report.outdir`): a report that fails or is interrupted leaves `out_dir` as it was.

    Args:
        inputs: Log files and/or directories (searched recursively; eval-set folders work).
        out_dir: Folder for the report (created if needed; the files of an earlier report
            there are replaced, the user's own files stay; see `report.outdir`).
        weight: lambda of the overall score in tables and rankings (the paper's 0.5).
        iso_lambdas: lambdas of the Pareto plot's iso-score line families (default: one
            family, at `weight`).
        paper_points: Draw the paper's published points on the Pareto plot.
        keep: Duplicate logs (same model, task and setup): `newest` or `all`.
        jobs: Worker processes for reading logs and drawing (default: CPUs, at most 4).
        figures: Draw the figures (False: tables and the HTML page only, much faster).
        progress: Show progress bars on stderr.
        prices: USD per million tokens by model name (`load_prices`): adds each role's cost
            to the tokens table (unknown, never zero, for a model without a price).

    Raises:
        ReportInputError: an input path does not exist, or `out_dir` cannot be written.
        NoUsableLogsError: no log can be used (`logs.csv` still lists why).
    """
    lambdas = list(iso_lambdas) if iso_lambdas is not None else [weight]
    _check(weight, lambdas)
    out = prepare_out_dir(out_dir)
    with staged_report(out) as staged:
        result = _build(
            inputs,
            staged.path,
            weight,
            lambdas,
            paper_points,
            keep,
            jobs,
            figures,
            progress,
            prices,
        )
        staged.commit(result.files)
    if isinstance(result, _NoRuns):
        raise NoUsableLogsError(result.message)
    return result.report.model_copy(update={"out_dir": str(out)})


class _Built(BaseModel):
    """A report built in a staging folder: what it wrote there."""

    report: ReportResult
    files: list[str]


class _NoRuns(BaseModel):
    """No usable log: only `logs.csv` was written."""

    message: str
    files: list[str]


@dataclass(frozen=True)
class _Drawing:
    """Where and how the figures are drawn."""

    out: Path
    weight: float
    lambdas: Sequence[float]
    paper_points: bool


def _suffix_and_heading(group: Group, groups: Sequence[Group]) -> tuple[str, str]:
    many = len(groups) > 1
    return (f"_{group.name}" if many else "", f"Group {group.name}" if many else "POLAR-Bench")


def _figure_plan(
    drawing: _Drawing,
    runs: Sequence[RunHeader],
    groups: Sequence[Group],
    summary: pd.DataFrame,
    rows: pd.DataFrame,
    epochs: pd.DataFrame,
    defense_table: pd.DataFrame,
    compared: Sequence[Group],
) -> list[tuple[str, Job]]:
    """Every group's figure jobs, then the defense frontiers, as (group name, job)."""
    out, many = drawing.out, len(groups) > 1
    planned: list[tuple[str, Job]] = [
        (group.name, job)
        for group in groups
        for job in figure_jobs(
            group, runs, many, summary, rows, epochs, out, drawing.weight, drawing.lambdas,
            drawing.paper_points,
        )
    ]  # fmt: skip
    for group in compared:
        suffix, heading = _suffix_and_heading(group, groups)
        mine = defense_table[defense_table["group"] == group.name]
        name = f"defense_frontier{suffix}.png"
        planned.append((group.name, (defenses.frontier_figure, (mine, out, name, heading))))
    return planned


def _leakage_jobs(
    drawing: _Drawing, groups: Sequence[Group], curves: pd.DataFrame
) -> list[tuple[str, Job]]:
    """Each group's leakage-by-turn figure, for groups with curves."""
    planned: list[tuple[str, Job]] = []
    for group in groups:
        mine = curves[curves["run"].isin(group.runs)]
        if not mine.empty:
            suffix, heading = _suffix_and_heading(group, groups)
            args = (mine, drawing.out, f"leakage_by_turn{suffix}.png", heading)
            planned.append((group.name, (leakage_figure, args)))
    return planned


def _by_group(
    groups: Sequence[Group],
    planned: Sequence[tuple[str, Job]],
    drawn: Sequence[tuple[FigureFile, float]],
    timings: Timings,
) -> dict[str, list[FigureFile]]:
    """The drawn figures by group (in plan order), their drawing time added to `timings`."""
    by_group: dict[str, list[FigureFile]] = {group.name: [] for group in groups}
    for (group_name, job), (figure, seconds) in zip(planned, drawn, strict=True):
        by_group[group_name].append(figure)
        timings.add(section_of(job), seconds)
    return by_group


def _access_table(
    summary: pd.DataFrame, runs: Sequence[RunHeader], groups: Sequence[Group]
) -> pd.DataFrame:
    """The agent and access table, for the groups whose runs differ in access mode."""
    table = access.access_frame(summary, runs)
    with_modes = {group.name for group in groups if access.has_access_modes(runs, group)}
    return table if table.empty else table[table["group"].isin(with_modes)]


def _build(
    inputs: Sequence[str | Path],
    out: Path,
    weight: float,
    lambdas: Sequence[float],
    paper_points: bool,
    keep: KeepPolicy,
    jobs: int | None,
    figures: bool,
    progress: bool,
    prices: Mapping[str, ModelPrice] | None,
) -> _Built | _NoRuns:
    """Write the whole report into `out` (the staging folder)."""
    workers = jobs or default_jobs()
    timings = Timings()
    with _progress(progress) as step, worker_pool(workers) as pool:
        with timings.step("read logs (headers, reduced scores, summaries)"):
            inventory, samples = load_runs(inputs, keep=keep, pool=pool, step=step)
        inventory = inventory.model_copy(update={"runs": mark_oracles(inventory.runs)})
        logs = log_tables.inventory_frame(inventory)
        logs.to_csv(out / "logs.csv", index=False)
        if not inventory.runs:
            message = (
                f"No usable polar_inspect log among {inventory.files_seen} files.\n"
                + log_tables.inventory_markdown(logs)
            )
            return _NoRuns(message=message, files=["logs.csv"])
        runs = inventory.runs
        groups = comparison_groups(runs)
        with timings.step("leaderboard, breakdowns, epochs"):
            summary = run_summary(runs, samples, groups, weight)
            summary["oracle"] = [is_oracle(runs[int(i)]) for i in summary["run"]]
            rows = breakdown(runs, samples, weight)
            epochs = epoch_means(runs, samples, weight)
        with timings.step("leakage by turn"):
            curves = leakage_curves(runs, curve_frames(samples, len(runs)), samples, groups)
        defense_table = defenses.defense_frame(summary, runs)
        compared = [group for group in groups if defenses.has_defenses(runs, group)]
        drawing = _Drawing(out, weight, lambdas, paper_points)
        planned = (
            _figure_plan(drawing, runs, groups, summary, rows, epochs, defense_table, compared)
            + _leakage_jobs(drawing, groups, curves)
            if figures
            else []
        )
        with timings.step("figures (wall, all sections)"):
            drawn = run_jobs(
                pool, timed_call, [job for _, job in planned], step("drawing figures", len(planned))
            )
    by_group = _by_group(groups, planned, drawn, timings)
    tables_started = time.perf_counter()
    compared_names = {group.name for group in compared}
    defense_table = defense_table[defense_table["group"].isin(compared_names)]
    order = [int(i) for i in summary["run"]]
    usage = usage_frame(
        [runs[i].label for i in order],
        [runs[i].usage for i in order],
        prices=prices,
        groups=list(summary["group"]),
    )
    access_table = _access_table(summary, runs, groups)
    sections, summary = write_sections(out, runs, groups, summary, samples, weight)
    written = write_tables(
        out, runs, groups, summary, rows, epochs, logs, weight, by_group, usage, defense_table,
        access_table, sections,
    )  # fmt: skip
    written += [name for section in sections for name in section.files]
    with timings.step("attribution"):
        written += write_attribution(out, runs, samples)
    if not curves.empty:
        curves.to_csv(out / "leakage_by_turn.csv", index=False)
        written.append("leakage_by_turn.csv")
    page = write_html(
        out,
        board=tables.leaderboard_frame(summary, runs, weight),
        details=tables.breakdown_frame(rows, summary),
        groups=groups,
        figures=by_group,
        inventory=logs,
        weight=weight,
        files=written,
        usage=usage,
        defenses=defense_table,
        access=access_table,
        sections=sections,
    )
    report = ReportResult(
        out_dir=str(out),
        models=[runs[i].label for i in summary["run"]],
        groups=groups,
        skipped=inventory.skipped,
        files_seen=inventory.files_seen,
        figures=[f for group in groups for f in by_group[group.name]],
        tables=written,
        html=page.name,
    )
    timings.add("tables and page (incl. attribution)", time.perf_counter() - tables_started)
    report.seconds = timings.seconds
    files = [*written, page.name, *(f.path for f in report.figures)]
    return _Built(report=report, files=files)
