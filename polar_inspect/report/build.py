"""Logs in, report out: the pipeline behind `polar-report`."""

from __future__ import annotations

import shutil
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from polar_inspect.report.board_section import NOT_ONE_RANKING
from polar_inspect.report.figstyle import FigureFile
from polar_inspect.report.html import render
from polar_inspect.report.inventory import (
    ORACLE_TAG,
    KeepPolicy,
    ReportInputError,
    SkippedLog,
    expand_inputs,
)
from polar_inspect.report.oracles import is_oracle, mark_oracles
from polar_inspect.report.outdir import prepare_out_dir, staged_report
from polar_inspect.report.parallel import default_jobs, run_jobs, worker_pool
from polar_inspect.report.samples import Stepper, load_runs
from polar_inspect.report.section import SectionInputs, SectionOutput, compute_sections
from polar_inspect.report.sections import SECTIONS, inventory_frame
from polar_inspect.report.stats import (
    PAPER_WEIGHT,
    Group,
    breakdown,
    comparison_groups,
    epoch_means,
    run_summary,
)
from polar_inspect.report.usage import ModelPrice


class NoUsableLogsError(RuntimeError):
    """None of the given logs can be reported on (nothing is written)."""


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


class Timings(dict[str, float]):
    """Seconds spent per named step; a step timed twice adds up (printed by
    benchmarks/bench_report.py)."""

    def add(self, name: str, seconds: float) -> None:
        """Count `seconds` more for `name`."""
        self[name] = self.get(name, 0.0) + seconds

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time the block as `name`."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - started)


def timed_call(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> tuple[Any, float]:
    """Run one `(function, args)` job; return its result and the seconds it took."""
    function, args = job
    started = time.perf_counter()
    return function(*args), time.perf_counter() - started


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
    """Read polar_inspect logs and write the report into `out_dir` (`polar-report`'s options).

    Raises ReportInputError (a missing input, an unwritable `out_dir`) or NoUsableLogsError
    (nothing written); a failed report leaves `out_dir` as it was (`report.outdir`)."""
    lambdas = list(iso_lambdas) if iso_lambdas is not None else [weight]
    _check(weight, lambdas)
    paths = expand_inputs(inputs)  # a missing input is refused before --out is made
    if not paths:
        listed = " ".join(map(str, inputs))
        raise ReportInputError(f"{listed}: no .eval or .json file there; {GIVE_LOGS}")
    made = not Path(out_dir).expanduser().exists()
    out = prepare_out_dir(out_dir)
    settings = _Settings(weight, lambdas, paper_points, keep, jobs, figures, progress, prices)
    try:
        with staged_report(out) as staged:
            result, files = _build(paths, staged.path, settings)
            staged.commit(files)
    except NoUsableLogsError:
        if made:
            shutil.rmtree(out, ignore_errors=True)  # made by this call, and nothing written
        raise
    return result.model_copy(update={"out_dir": str(out)})


GIVE_LOGS = "give the .eval/.json logs of polar_inspect runs, or the folder Inspect wrote them to"


def no_runs_message(skipped: Sequence[SkippedLog]) -> str:
    """One line: how many files were read, why none is usable, the first and its reason."""
    count = f"{len(skipped)} file{'' if len(skipped) == 1 else 's'}"
    why = ", ".join(f"{n} {reason}" for reason, n in Counter(s.reason for s in skipped).items())
    first = skipped[0]
    name = first.path.rstrip("/").rsplit("/", 1)[-1]
    detail = textwrap.shorten(first.detail.replace(first.path, name), 160, placeholder=" ...")
    first_one = f"first: {name}: {detail}"
    return f"no usable polar_inspect log: {count}, none usable: {why} ({first_one}); {GIVE_LOGS}"


@dataclass(frozen=True)
class _Settings:
    """`build_report`'s options."""

    weight: float
    lambdas: Sequence[float]
    paper_points: bool
    keep: KeepPolicy
    jobs: int | None
    figures: bool
    progress: bool
    prices: Mapping[str, ModelPrice] | None


def _draw(
    planned: Sequence[tuple[SectionOutput, tuple[str, Any]]],
    drawn: Sequence[tuple[FigureFile, float]],
    inputs: SectionInputs,
    timings: Timings,
) -> None:
    """File the drawn figures under their section and group; add their time to `timings`
    under their drawing module's name."""
    inputs.drawn.update({group.name: [] for group in inputs.groups})
    for (output, (name, job)), (figure, seconds) in zip(planned, drawn, strict=True):
        output.figures.setdefault(name, []).append(figure)
        inputs.drawn[name].append(figure)
        timings.add("figures: " + job[0].__module__.rsplit(".", 1)[-1], seconds)


def _build(paths: list[str], out: Path, settings: _Settings) -> tuple[ReportResult, list[str]]:
    """Write the whole report into `out` (the staging folder); return it and the files written."""
    workers = settings.jobs or default_jobs()
    timings = Timings()
    with _progress(settings.progress) as step, worker_pool(workers) as pool:
        with timings.step("read logs (headers, summaries)"):
            inventory, samples = load_runs(paths, keep=settings.keep, step=step)
        if not inventory.runs:
            raise NoUsableLogsError(no_runs_message(inventory.skipped))
        inventory = inventory.model_copy(update={"runs": mark_oracles(inventory.runs)})
        logs = inventory_frame(inventory)
        runs, weight = inventory.runs, settings.weight
        groups = comparison_groups(runs)
        with timings.step("sections (frames)"):
            summary = run_summary(runs, samples, groups, weight)
            summary["oracle"] = [is_oracle(runs[int(i)]) for i in summary["run"]]
            shared = SectionInputs(
                out, runs, groups, summary, samples, breakdown(runs, samples, weight),
                epoch_means(runs, samples, weight), logs, weight, settings.lambdas,
                settings.paper_points, settings.prices,
            )  # fmt: skip
            done, planned = compute_sections(SECTIONS, shared, settings.figures)
        with timings.step("figures (wall, all sections)"):
            jobs = [job for _, (_, job) in planned]
            drawn = run_jobs(pool, timed_call, jobs, step("drawing figures", len(jobs)))
    _draw(planned, drawn, shared, timings)
    with timings.step("tables and page"):
        written = [name for output in done for name in output.write(shared)]
        parts = ["# POLAR-Bench report\n", *(o.markdown(shared) for o in done)]
        (out / "report.md").write_text("\n".join(p for p in parts if p), encoding="utf-8")
        written.append("report.md")
        page = write_page(done, shared, written)
    figures = [f for group in groups for f in shared.drawn[group.name]]
    report = ReportResult(
        out_dir=str(out),
        models=[runs[i].label for i in summary["run"]],
        groups=groups,
        skipped=inventory.skipped,
        files_seen=inventory.files_seen,
        figures=figures,
        tables=written,
        html=page.name,
        seconds=timings,
    )
    return report, [*written, page.name, *(f.path for f in figures)]


def write_page(done: Sequence[SectionOutput], inputs: SectionInputs, files: list[str]) -> Path:
    """Write `index.html`: each group's fragments, the sections' own parts, the files."""
    html = [(output.section, output.html(inputs)) for output in done if output.section.html]
    groups = [
        {
            "name": group.name,
            "title": f"Group {group.name}" if inputs.many else "Results",
            "parts": [
                o.section.group_html(o, inputs, group)
                for o in done
                if o.section.group_html is not None and o.shown
            ],
        }
        for group in inputs.groups
    ]
    links = [(f"group-{g['name']}", g["title"]) for g in groups]
    links += [(section.name, section.title) for section, part in html if part]
    decisions = inputs.logs["decision"]
    page = render(
        "page",
        links=[*links, ("files", "Files")],
        logs=inputs.logs,
        used=int((decisions == "used").sum()),
        skipped=int((decisions == "skipped").sum()),
        weight=f"{inputs.weight:g}",
        oracle_tag=ORACLE_TAG,
        warning=NOT_ONE_RANKING.format(count=len(groups)) if inputs.many else "",
        groups=groups,
        parts=[part for _, part in html],
        files=files,
    )
    path = inputs.out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
