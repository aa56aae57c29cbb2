"""`polar-generate`: build a POLAR-Bench-style dataset offline and check it.

\b
Examples:
  polar-generate --out datasets/polar_bundled.json.gz --card datasets/README.md --overwrite
  polar-generate --domains medical --repetitions 1 --out work/medical.jsonl
  polar-generate --check-sha256 <hex>            # rebuild and compare (CI)
  polar-generate --renderer model --model openai/gpt-4o-mini --out work/model.jsonl
  polar-generate --format hf --out work/polar_hf   # a Hugging Face dataset folder
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from polar_inspect.axes import parse_domains
from polar_inspect.extras import help_option
from polar_inspect.generate.arguments import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_REPAIR_ROUNDS,
    Options,
    card_subject,
    check_arguments,
    work_path,
)
from polar_inspect.generate.assemble import GENERATOR_VERSION
from polar_inspect.generate.build import DEFAULT_SEED, build_dataset
from polar_inspect.generate.card import render_card
from polar_inspect.generate.io import (
    canonical_json,
    encode,
    gzipped,
    output_format,
    sha256,
    write_bytes_atomically,
)
from polar_inspect.generate.report import BuildReport
from polar_inspect.generate.symbolic import grid


@click.command("polar-generate", help=__doc__, context_settings={"help_option_names": []})
@help_option
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="the seed "
              "(default: the bundled set's); same seed and version, same bytes")  # fmt: skip
@click.option("--domains", default=None, help="comma-separated domains (default: all ten)")
@click.option("--repetitions", type=int, default=5, show_default=True, help="repetitions per cell")
@click.option("--renderer", type=click.Choice(["template", "model"]), default="template",
              show_default=True, help="template (offline) or model "
              "(an Inspect model, --model, writes the text)")  # fmt: skip
@click.option("--model", default=None, help="Inspect model for --renderer model")
@click.option("--out", help="output file: .json, .jsonl or .json.gz (--format hf: a new folder)")
@click.option("--format", type=click.Choice(["file", "hf"]), default="file", help="file: the "
              "format --out's suffix names (default); hf: a Hugging Face dataset folder, Parquet "
              "shards and a card README.md (needs the [hf] extra)")  # fmt: skip
@click.option("--push", default=None, metavar="OWNER/NAME", help="with --format hf: upload the "
              "folder to this Hugging Face dataset repository (created if needed; token: "
              "HF_TOKEN or `hf auth login`) and print the commit to run")  # fmt: skip
@click.option("--card", default=None, help="also write the card of the --out file (README.md) here")
@click.option("--overwrite", is_flag=True, help="replace an existing --out or --card file")
@click.option("--check-sha256", metavar="HEX",
              help="rebuild and compare with this sha256 (of the JSON or .json.gz)")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1),
              help="worker processes of the template renderer (default: cores, max 4)")  # fmt: skip
@click.option("--work", help="model renderer: resumable work file (default: <out>.work.jsonl)")
@click.option("--max-connections", type=click.IntRange(min=1), help=f"model renderer: "
              f"concurrent model calls (default {DEFAULT_MAX_CONNECTIONS})")  # fmt: skip
@click.option("--repair-rounds", type=click.IntRange(min=0),
              help=f"model renderer: repair rounds (default {DEFAULT_REPAIR_ROUNDS})")  # fmt: skip
@click.option("--prompts", help="model renderer: folder with your own prompt templates (*.txt)")
@click.pass_context
def command(ctx: click.Context, **options: Any) -> int:
    """Build a POLAR-Bench-style dataset (records in the release format)."""
    return _run(Options(**options), ctx.obj)


def _render(args: Options, console: Console) -> tuple[list[dict], BuildReport]:
    """Every cell rendered by the chosen renderer, under a progress bar."""
    total = len(grid(parse_domains(args.domains), args.repetitions))
    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress("[progress.description]{task.description}", *columns, console=console) as bar:
        name = args.model if args.renderer == "model" else "template"
        task = bar.add_task(f"rendering ({name})", total=total)
        if args.renderer != "model":
            return build_dataset(
                args.seed,
                args.domains,
                args.repetitions,
                workers=args.workers,
                progress=lambda n: bar.advance(task, n),
            )
        from polar_inspect.generate.model_renderer import build_with_model

        return build_with_model(
            args.model_object or str(args.model),
            seed=args.seed,
            domains=args.domains,
            repetitions=args.repetitions,
            work_file=Path(work_path(args)),
            repair_rounds=args.repair_rounds,
            max_connections=args.max_connections,
            prompt_dir=Path(args.prompts) if args.prompts else None,
            progress=lambda n: bar.advance(task, n),
        )


def _check_hf_output(args: Options) -> None:
    """`--format hf` and `--push`: a new --out folder, the [hf] extra, OWNER/NAME."""
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
    if missing := datasets_missing():
        raise ValueError(f"--format hf: {missing}")
    check_new_folder(Path(args.out).expanduser())


def _write_hf(
    args: Options, records: list[dict], digest: str, console: Console, argv: list[str], out: str
) -> int:
    """Write the dataset folder and, with --push, upload it; returns an exit code."""
    from polar_inspect.generate.publish.hf_folder import write_folder
    from polar_inspect.generate.publish.hub import PushError, push_folder

    command = shlex.join(["polar-generate", *argv])
    provenance = (
        f"Built by this project's generator ({GENERATOR_VERSION}, renderer "
        f"{args.renderer}, seed {args.seed}) with `{command}`; the records as one JSON "
        f"array (`polar-generate ... --out FILE.json`) have sha256 `{digest}`."
    )
    written = write_folder(
        records, Path(out).expanduser(), provenance=provenance, repo_id=args.push
    )
    console.print(
        f"wrote {out} ({len(written.files)} Parquet shard(s) and README.md; "
        f"-T data={out} records sha256 {written.sha256})",
        markup=False,
        soft_wrap=True,
    )
    if args.push is None:
        return 0
    try:
        pushed = push_folder(Path(out).expanduser(), args.push)
    except PushError as exc:
        print(f"polar-generate: {exc} (the folder is written: {out})", file=sys.stderr)
        return 1
    console.print(
        f"pushed to {pushed.url}\nrun it with: -T data={pushed.data_argument}",
        markup=False,
        soft_wrap=True,
    )
    return 0


def _build(args: Options, console: Console) -> tuple[list[dict], BuildReport] | int:
    """The records and the report, or an exit code when the model renderer stopped."""
    if args.renderer != "model":
        return _render(args, console)
    from polar_inspect.generate.model_renderer import WorkFileError

    try:
        return _render(args, console)
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
    args: Options,
    records: list[dict],
    report: BuildReport,
    data: bytes,
    domains: list[str],
    console: Console,
    out: str,
) -> None:
    """Write --out in the format its suffix names, and --card when asked."""
    fmt = output_format(out)
    payload = encode(records, fmt) if fmt != ".json" else data
    write_bytes_atomically(payload, out)
    console.print(f"wrote {out} ({len(payload):,} bytes, sha256 {sha256(payload)})")
    if args.card:
        text = render_card(records, report, data, payload, card_subject(args, domains))
        write_bytes_atomically(text.encode("utf-8"), args.card)
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
    """Entry point; returns the exit status (a malformed option: one line, exit 2)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        status = command.main(args, "polar-generate", standalone_mode=False, obj=args)
    except click.BadParameter as err:
        where = err.param.opts[0] if err.param is not None and err.param.opts else ""
        print(f"polar-generate: {where}: {err.message} (see --help)", file=sys.stderr)
        return 2
    except click.ClickException as err:
        print(f"polar-generate: {err.format_message()} (see --help)", file=sys.stderr)
        return 2
    return int(status)


def _run(args: Options, argv: list[str]) -> int:
    """Check the options, build, write and check the digest; returns the exit status."""
    console = Console(stderr=True)
    try:
        domains = check_arguments(args)
        _check_hf_output(args)
    except ValueError as exc:  # UserInputError, SelectionError, OutputPathError, KnowledgeFileError
        print(f"polar-generate: {exc}", file=sys.stderr)  # plain: a path may hold [markup]
        return 2
    started = time.perf_counter()
    if isinstance(built := _build(args, console), int):
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
        code = _write_hf(args, records, digest, console, argv, args.out)
    elif args.out:
        _write_file(args, records, report, data, domains, console, args.out)
    elif not args.check_sha256:
        console.print("nothing written (no --out)")
    if code == 0 and args.check_sha256:
        code = _check_digest(args.check_sha256, data, console)
    return code


if __name__ == "__main__":
    sys.exit(main())
