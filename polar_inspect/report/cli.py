"""`polar-report LOG_OR_DIR... --out DIR`: the paper's tables and figures from Inspect logs."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from polar_inspect.report.build import NoUsableLogsError, ReportResult, build_report
from polar_inspect.report.inventory import ReportInputError
from polar_inspect.report.stats import PAPER_WEIGHT
from polar_inspect.report.usage import PriceFileError, load_prices


def _lambdas(text: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",") if part.strip()]
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text}") from err
    if not values or any(not 0.0 <= v <= 1.0 for v in values):
        raise argparse.ArgumentTypeError(f"each lambda must be within [0, 1]: {text}")
    return values


def _weight(text: str) -> float:
    try:
        value = float(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from err
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be within [0, 1]: {text}")
    return value


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from err
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (1 = no worker processes): {text}")
    return value


def parser() -> argparse.ArgumentParser:
    """The command line parser."""
    p = argparse.ArgumentParser(
        prog="polar-report",
        description=(
            "Turn polar_inspect logs (.eval or .json files, log directories, eval-set "
            "directories) into a leaderboard, the paper's figures and an HTML page."
        ),
    )
    p.add_argument("logs", nargs="+", help="log files and/or directories (searched recursively)")
    p.add_argument("--out", required=True, help="folder to write the report to")
    p.add_argument(
        "--weight",
        type=_weight,
        default=PAPER_WEIGHT,
        help="lambda for overall = lambda*privacy + (1-lambda)*utility (default 0.5, the paper's)",
    )
    p.add_argument(
        "--iso-lambdas",
        "--lambdas",
        dest="iso_lambdas",
        type=_lambdas,
        default=None,
        metavar="L1,L2,...",
        help="lambdas of the Pareto plot's iso-score line families, e.g. 0.3,0.5,0.7 "
        "(default: one family, at --weight)",
    )
    p.add_argument(
        "--paper-points",
        action="store_true",
        help="also draw the paper's published points (GLM-5.1, GLM-4.7-Flash) on the Pareto "
        "plot, labelled as published numbers, not runs",
    )
    p.add_argument(
        "--keep",
        choices=["newest", "all"],
        default="newest",
        help="duplicate logs (same model, task and setup): keep the newest (default) or all",
    )
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        help="worker processes for reading logs and drawing (default: CPUs, at most 4; 1 = none)",
    )
    p.add_argument(
        "--tables-only", action="store_true", help="write tables and HTML only, no figures"
    )
    p.add_argument(
        "--prices",
        default=None,
        metavar="FILE",
        help="JSON or YAML mapping model name -> {input, output, optional cache_read, "
        "cache_write} USD per million tokens and an optional batch factor (e.g. 0.5): adds the "
        "cost of each run to the tokens table (a model or a rate without a price: unknown)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _summary(result: ReportResult) -> str:
    lines = [
        f"Read {result.files_seen} files: {len(result.models)} runs used, "
        f"{len(result.skipped)} skipped.",
    ]
    for reason, count in Counter(s.reason for s in result.skipped).most_common():
        lines.append(f"  skipped ({reason}): {count}")
    for skipped in result.skipped:
        lines.append(f"    {skipped.path}: {skipped.reason}: {skipped.detail}")
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
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 1 no usable log, 2 bad input)."""
    with _terminate_as_exit():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    try:
        prices = load_prices(args.prices) if args.prices else None
    except PriceFileError as err:
        print(f"polar-report: {err}", file=sys.stderr)
        return 2
    try:
        result = build_report(
            args.logs,
            args.out,
            weight=args.weight,
            iso_lambdas=args.iso_lambdas,
            paper_points=args.paper_points,
            keep=args.keep,
            jobs=args.jobs,
            figures=not args.tables_only,
            progress=not args.quiet,
            prices=prices,
        )
    except ReportInputError as err:
        print(f"polar-report: {err}", file=sys.stderr)
        return 2
    except NoUsableLogsError as err:
        print(f"polar-report: {err}", file=sys.stderr)
        return 1
    print(_summary(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
