"""`polar-generate`: build a POLAR-Bench-style dataset offline and check it.

Examples:
  polar-generate --out datasets/polar_bundled.json.gz --card datasets/README.md --overwrite
  polar-generate --domains medical --repetitions 1 --out work/medical.jsonl
  polar-generate --check-sha256 <hex>            # rebuild and compare (CI)
  polar-generate --renderer model --model openai/gpt-4o-mini --out work/model.jsonl
  polar-generate --format hf --out work/polar_hf   # a Hugging Face dataset folder
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from polar_inspect.axes import SelectionError, parse_domains
from polar_inspect.generate.arguments import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_REPAIR_ROUNDS,
    UsageError,
    card_subject,
    check_arguments,
    work_path,
)
from polar_inspect.generate.assemble import GENERATOR_VERSION
from polar_inspect.generate.build import DEFAULT_SEED, build_dataset, default_workers
from polar_inspect.generate.card import write_card
from polar_inspect.generate.domains import KnowledgeFileError
from polar_inspect.generate.io import (
    canonical_json,
    encode,
    gzipped,
    output_format,
    sha256,
    write_bytes_atomically,
    write_hf_folder,
)
from polar_inspect.generate.outputs import OutputPathError
from polar_inspect.generate.report import BuildReport
from polar_inspect.generate.symbolic import grid


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= `minimum` (so 0 or -2 workers is refused, not read
    as the default)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from err
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print `polar-generate: <message> (see --help)` and exit 2."""
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = _OneLineParser(
        prog="polar-generate",
        description="Build a POLAR-Bench-style dataset (records in the release format).",
    )
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    p.add_argument("--domains", default=None, help="comma-separated domains (default: all ten)")
    p.add_argument("--repetitions", type=int, default=5, help="repetitions per cell (default 5)")
    p.add_argument("--renderer", choices=("template", "model"), default="template")
    p.add_argument("--model", default=None, help="Inspect model for --renderer model")
    p.add_argument(
        "--out",
        default=None,
        help="output file: .json, .jsonl or .json.gz (with --format hf: a new folder)",
    )
    p.add_argument(
        "--format",
        choices=("file", "hf"),
        default="file",
        help="file: the format --out's suffix names (default); hf: a Hugging Face dataset "
        "folder, Parquet shards and a card README.md (needs the [hf] extra)",
    )
    p.add_argument(
        "--push",
        default=None,
        metavar="OWNER/NAME",
        help="with --format hf: upload the folder to this Hugging Face dataset repository "
        "(created if needed; token: HF_TOKEN or `hf auth login`) and print the commit to run",
    )
    p.add_argument(
        "--card",
        default=None,
        help="also write the card of the --out file (README.md) here",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an existing --out or --card file (refused without it)",
    )
    p.add_argument(
        "--check-sha256",
        dest="check_sha256",
        default=None,
        metavar="HEX",
        help="rebuild and compare with this sha256 (of the JSON or of the .json.gz)",
    )
    p.add_argument(
        "--workers",
        type=_at_least(1),
        default=None,
        help="worker processes for the template renderer (default: cores, max 4)",
    )
    p.add_argument(
        "--work",
        default=None,
        help="model renderer: resumable work file (default: <out>.work.jsonl)",
    )
    p.add_argument(
        "--max-connections",
        type=_at_least(1),
        default=None,
        help=f"model renderer: concurrent model calls (default {DEFAULT_MAX_CONNECTIONS})",
    )
    p.add_argument(
        "--repair-rounds",
        type=_at_least(0),
        default=None,
        help=f"model renderer: repair rounds (default {DEFAULT_REPAIR_ROUNDS})",
    )
    p.add_argument(
        "--prompts",
        default=None,
        help="model renderer: folder with your own prompt templates (*.txt)",
    )
    return p


def _progress(console: Console) -> Progress:
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


def _template(args: argparse.Namespace, console: Console) -> tuple[list[dict], BuildReport]:
    total = len(grid(parse_domains(args.domains), args.repetitions))
    with _progress(console) as bar:
        task = bar.add_task("rendering (template)", total=total)
        return build_dataset(
            args.seed,
            args.domains,
            args.repetitions,
            workers=args.workers or default_workers(),
            progress=lambda n: bar.advance(task, n),
        )


def _model(args: argparse.Namespace, console: Console) -> tuple[list[dict], BuildReport]:
    from polar_inspect.generate.model_renderer import build_with_model

    total = len(grid(parse_domains(args.domains), args.repetitions))
    with _progress(console) as bar:
        task = bar.add_task(f"rendering ({args.model})", total=total)
        return build_with_model(
            args.model_object,
            seed=args.seed,
            domains=args.domains,
            repetitions=args.repetitions,
            work_file=Path(work_path(args)),
            repair_rounds=args.repair_rounds,
            max_connections=args.max_connections,
            prompt_dir=Path(args.prompts) if args.prompts else None,
            progress=lambda n: bar.advance(task, n),
        )


def _check_hf_output(args: argparse.Namespace) -> None:
    """`--format hf`: a new folder for --out, the [hf] extra and a well-formed --push
    (--card is refused earlier); `--push` needs `--format hf`."""
    from polar_inspect.data.hf_folder import datasets_missing
    from polar_inspect.generate.publish.hf_folder import check_new_folder
    from polar_inspect.generate.publish.hub import check_repo_id

    if args.push is not None:
        if args.format != "hf":
            raise ValueError("--push uploads a dataset folder: give --format hf --out FOLDER too")
        check_repo_id(args.push)
    if args.format != "hf":
        return
    if not args.out:
        raise ValueError("--format hf needs --out (a new folder)")
    missing = datasets_missing()
    if missing:
        raise ValueError(f"--format hf: {missing}")
    out = Path(args.out).expanduser()
    check_new_folder(out)


def _write_hf(
    args: argparse.Namespace,
    records: list[dict],
    digest: str,
    console: Console,
    argv: Sequence[str] | None,
) -> int:
    """Write the dataset folder and, with --push, upload it; returns an exit code."""
    from polar_inspect.generate.publish.hub import PushError, push_folder

    command = shlex.join(["polar-generate", *(sys.argv[1:] if argv is None else argv)])
    provenance = (
        f"Built by this project's generator ({GENERATOR_VERSION}, renderer "
        f"{args.renderer}, seed {args.seed}) with `{command}`; the records as one JSON "
        f"array (`polar-generate ... --out FILE.json`) have sha256 `{digest}`."
    )
    written = write_hf_folder(records, args.out, provenance, repo_id=args.push)
    console.print(
        f"wrote {args.out} ({len(written.files)} Parquet shard(s) and README.md; "
        f"-T data={args.out} records sha256 {written.sha256})",
        markup=False,
        soft_wrap=True,
    )
    if args.push is None:
        return 0
    try:
        pushed = push_folder(Path(args.out).expanduser(), args.push)
    except PushError as exc:
        print(f"polar-generate: {exc} (the folder is written: {args.out})", file=sys.stderr)
        return 1
    console.print(
        f"pushed to {pushed.url}\nrun it with: -T data={pushed.data_argument}",
        markup=False,
        soft_wrap=True,
    )
    return 0


def _build(args: argparse.Namespace, console: Console) -> tuple[list[dict], BuildReport] | int:
    """The records and the report, or an exit code when the model renderer stopped."""
    if args.renderer != "model":
        return _template(args, console)
    from polar_inspect.generate.model_renderer import WorkFileError

    try:
        return _model(args, console)
    except WorkFileError as exc:
        print(f"polar-generate: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a provider's error: one line, and how to resume
        print(
            f"polar-generate: the model renderer stopped ({type(exc).__name__}: {exc}); "
            f"finished cells are kept in {work_path(args)}: run the same command to resume",
            file=sys.stderr,
        )
        return 1


def _write_file(
    args: argparse.Namespace,
    records: list[dict],
    report: BuildReport,
    data: bytes,
    domains: list[str],
    console: Console,
) -> None:
    """Write --out in the format its suffix names, and --card when asked."""
    fmt = output_format(args.out)
    payload = encode(records, fmt) if fmt != ".json" else data
    write_bytes_atomically(payload, args.out)
    console.print(f"wrote {args.out} ({len(payload):,} bytes, sha256 {sha256(payload)})")
    if args.card:
        write_card(records, report, data, payload, card_subject(args, domains))
        console.print(f"wrote {args.card}")


def _check_digest(expected_hex: str, data: bytes, console: Console) -> int:
    """Compare `--check-sha256` with the rebuilt JSON (or its .json.gz); an exit code."""
    expected = expected_hex.strip().lower()
    digest, gz_digest = sha256(data), sha256(gzipped(data))
    if expected not in (digest, gz_digest):
        console.print(
            f"[red]sha256 mismatch: expected {expected}, rebuilt JSON {digest} "
            f"(.json.gz {gz_digest}); the build is not reproducible here.[/red]"
        )
        return 1
    kind = "JSON" if expected == digest else ".json.gz"
    console.print(f"[green]sha256 matches the rebuilt {kind}: {expected}[/green]")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = parser().parse_args(argv)
    console = Console(stderr=True)
    try:
        domains = check_arguments(args)
        _check_hf_output(args)
    except (UsageError, SelectionError, OutputPathError, KnowledgeFileError, ValueError) as exc:
        print(f"polar-generate: {exc}", file=sys.stderr)  # plain: a path may hold [markup]
        return 2
    started = time.perf_counter()
    built = _build(args, console)
    if isinstance(built, int):
        return built
    records, report = built
    seconds = time.perf_counter() - started
    console.print(report.table())
    for line in report.summary_lines():
        console.print(line)
    data = canonical_json(records)
    digest = sha256(data)
    console.print(
        f"{len(records)} records in {seconds:.1f} s; generator {GENERATOR_VERSION}, "
        f"seed {args.seed}; sha256 (JSON) {digest}"
    )
    code = 0
    if args.out and args.format == "hf":
        code = _write_hf(args, records, digest, console, argv)
    elif args.out:
        _write_file(args, records, report, data, domains, console)
    elif not args.check_sha256:
        console.print("nothing written (no --out)")
    if code == 0 and args.check_sha256:
        code = _check_digest(args.check_sha256, data, console)
    return code


if __name__ == "__main__":
    sys.exit(main())
