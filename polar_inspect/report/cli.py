"""`polar-report LOG_OR_DIR... --out DIR`: the paper's tables and figures from Inspect logs."""

from __future__ import annotations

import signal
import sys
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from polar_inspect.extras import help_option
from polar_inspect.report.build import NoUsableLogsError, ReportResult, build_report
from polar_inspect.report.inventory import ReportInputError
from polar_inspect.report.outdir import TERMINATED
from polar_inspect.report.stats import PAPER_WEIGHT
from polar_inspect.report.usage import PriceFileError, load_prices

DESCRIPTION = (
    "Turn polar_inspect logs (.eval or .json files, log directories, eval-set directories) "
    "into a leaderboard, the paper's figures and an HTML page."
)


class Lambdas(click.ParamType):
    """A comma-separated list of lambdas, each within [0, 1]."""

    name = "L1,L2,..."

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """`0.3,0.5` -> [0.3, 0.5]."""
        if isinstance(value, list):
            return value
        try:
            values = [float(part) for part in str(value).split(",") if part.strip()]
        except ValueError:
            self.fail(f"not a comma-separated list of numbers: {value}", param, ctx)
        if not values or any(not 0.0 <= v <= 1.0 for v in values):
            self.fail(f"each lambda must be within [0, 1]: {value}", param, ctx)
        return values


class Bounded(click.ParamType):
    """A number (`kind` float or int) of at least `low` (and at most `high`), checked in one
    line: `not a number: 'abc'`, `must be within [0, 1]: 2`."""

    def __init__(self, name: str, kind: type, low: float, high: float | None, rule: str) -> None:
        self.name, self.kind, self.low, self.high, self.rule = name, kind, low, high, rule

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """`0.5` -> 0.5 (`4` -> 4 for an int)."""
        if isinstance(value, self.kind):
            return value
        try:
            number = self.kind(value)
        except ValueError:
            what = "whole number" if self.kind is int else "number"
            self.fail(f"not a {what}: {value!r}", param, ctx)
        if number < self.low or (self.high is not None and number > self.high):
            self.fail(f"{self.rule}: {value}", param, ctx)
        return number


WEIGHT = Bounded("WEIGHT", float, 0.0, 1.0, "must be within [0, 1]")
JOBS = Bounded("JOBS", int, 1, None, "must be at least 1 (1 = no worker processes)")
PRICES_HELP = (
    "JSON or YAML mapping model name -> {input, output, optional cache_read, cache_write} USD "
    "per million tokens and an optional batch factor (e.g. 0.5): adds the cost of each run to "
    "the tokens table (a model or a rate without a price: unknown)"
)


@click.command("polar-report", help=DESCRIPTION, context_settings={"help_option_names": []})
@help_option
@click.argument("logs", nargs=-1, required=True)
@click.option("--out", required=True, metavar="DIR", help="folder to write the report to")
@click.option("--weight", type=WEIGHT, default=PAPER_WEIGHT,
              help="lambda for overall = lambda*privacy + (1-lambda)*utility "
              "(default 0.5, the paper's)")  # fmt: skip
@click.option("--iso-lambdas", "--lambdas", "iso_lambdas", type=Lambdas(), default=None,
              help="lambdas of the Pareto plot's iso-score line families, e.g. 0.3,0.5,0.7 "
              "(default: one family, at --weight)")  # fmt: skip
@click.option("--paper-points", is_flag=True,
              help="also draw the paper's published points (GLM-5.1, GLM-4.7-Flash) on the "
              "Pareto plot, labelled as published numbers, not runs")  # fmt: skip
@click.option("--keep", type=click.Choice(["newest", "all"]), default="newest",
              help="duplicate logs (same model, task and setup): keep the newest (default) "
              "or all")  # fmt: skip
@click.option("--jobs", type=JOBS, default=None,
              help="worker processes for drawing the figures (default: none on 2 CPUs or "
              "fewer, else the CPUs, at most 4; 1 = none)")  # fmt: skip
@click.option("--tables-only", is_flag=True, help="write tables and HTML only, no figures")
@click.option("--prices", default=None, metavar="FILE", help=PRICES_HELP)
@click.option("--quiet", is_flag=True, help="no progress bar")
def command(**options: Any) -> int:
    """The `polar-report` command (see DESCRIPTION)."""
    try:
        prices = load_prices(options["prices"]) if options["prices"] else None
        result = build_report(
            list(options["logs"]),
            options["out"],
            weight=options["weight"],
            iso_lambdas=options["iso_lambdas"],
            paper_points=options["paper_points"],
            keep=options["keep"],
            jobs=options["jobs"],
            figures=not options["tables_only"],
            progress=not options["quiet"],
            prices=prices,
        )
    except (PriceFileError, ReportInputError, NoUsableLogsError) as err:
        print(f"polar-report: {err}", file=sys.stderr)
        return 2
    print(_summary(result))
    return 0


def parse(argv: Sequence[str]) -> dict[str, Any]:
    """The command line's options by name, as the command receives them."""
    with command.make_context("polar-report", list(argv)) as ctx:
        return dict(ctx.params)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _summary(result: ReportResult) -> str:
    lines = [
        f"Read {_count(result.files_seen, 'file')}: {_count(len(result.models), 'run')} used, "
        f"{len(result.skipped)} skipped."
    ]
    for reason, count in Counter(s.reason for s in result.skipped).most_common():
        lines.append(f"  skipped ({reason}): {count}")
    lines += [f"    {s.path}: {s.reason}: {s.detail}" for s in result.skipped]
    if len(result.groups) > 1:
        lines.append(
            f"The runs form {len(result.groups)} groups with different data, selection, S5 "
            "attacker or sample set; each is ranked on its own (see leaderboard.md)."
        )
    lines.append(
        f"Wrote {len(result.figures)} figures and {len(result.tables)} tables to "
        f"{result.out_dir}; open {result.out_dir}/{result.html}"
    )
    return "\n".join(lines)


@contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """Turn SIGTERM into SystemExit while the report runs, so that a terminated report
    removes its staging folder as an interrupted one does (no-op off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        TERMINATED.set()
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        TERMINATED.clear()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 2 bad input or no usable log); a
    malformed option exits (SystemExit 2) with `polar-report: --option: what is wrong`."""
    with _terminate_as_exit():
        try:
            status = command.main(
                args=list(sys.argv[1:] if argv is None else argv),
                prog_name="polar-report",
                standalone_mode=False,
            )
        except click.MissingParameter as err:
            print(f"polar-report: {err.format_message()}", file=sys.stderr)
            raise SystemExit(2) from None
        except click.BadParameter as err:
            where = err.param.opts[0] if err.param is not None and err.param.opts else ""
            print(f"polar-report: {where}: {err.message}", file=sys.stderr)
            raise SystemExit(2) from None
        except click.ClickException as err:
            print(f"polar-report: {err.format_message()}", file=sys.stderr)
            raise SystemExit(err.exit_code) from None
        except click.exceptions.Exit as done:  # --help
            return int(done.exit_code)
        return int(status) if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
