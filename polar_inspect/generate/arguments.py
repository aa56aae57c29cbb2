"""`polar-generate`'s inputs checked as a whole, before anything is built or written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from polar_inspect.axes import DOMAINS, parse_domains
from polar_inspect.errors import UserInputError
from polar_inspect.generate.build import DEFAULT_SEED
from polar_inspect.generate.card import CardSubject
from polar_inspect.generate.domains import domain_spec
from polar_inspect.generate.io import output_format
from polar_inspect.generate.outputs import Output, check_outputs, writes_bundled_set
from polar_inspect.generate.symbolic import FULL_REPETITIONS

if TYPE_CHECKING:
    from inspect_ai.model import Model

DEFAULT_MAX_CONNECTIONS = 8
DEFAULT_REPAIR_ROUNDS = 3
#: Options that only the model renderer reads, and the one only the template renderer reads.
MODEL_OPTIONS = ("model", "work", "prompts", "max_connections", "repair_rounds")
TEMPLATE_OPTIONS = ("workers",)
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


@dataclass
class Options:
    """`polar-generate`'s options as the command line gives them (see `generate.cli`)."""

    seed: int
    domains: str | None
    repetitions: int
    renderer: Literal["template", "model"]
    model: str | None
    out: str | None
    format: Literal["file", "hf"]
    push: str | None
    card: str | None
    overwrite: bool
    check_sha256: str | None
    workers: int | None
    work: str | None
    max_connections: int | None
    repair_rounds: int | None
    prompts: str | None
    #: the Inspect model of --model, set by `check_arguments`
    model_object: Model | None = None


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def work_path(args: Options) -> str:
    """The model renderer's work file: `--work`, else `<out>.work.jsonl`."""
    return args.work if args.work else str(args.out) + ".work.jsonl"


def builds_bundled_settings(args: Options, domains: list[str]) -> bool:
    """Whether the options build the bundled set (datasets/README.md)."""
    return (
        args.seed == DEFAULT_SEED
        and domains == list(DOMAINS)
        and args.repetitions == FULL_REPETITIONS
        and args.renderer == "template"
    )


def _check_selection(args: Options) -> list[str]:
    if args.domains is not None and not any(part.strip() for part in args.domains.split(",")):
        raise UserInputError(
            f"--domains {args.domains!r} names no domain: give comma-separated domains "
            "(e.g. medical,finance), or leave --domains out for all ten"
        )
    domains = parse_domains(args.domains)
    for domain in domains:
        domain_spec(domain)  # its knowledge file is valid
    if args.repetitions < 1:
        raise UserInputError(f"--repetitions must be at least 1, got {args.repetitions}")
    return domains


def _check_renderer_options(args: Options) -> None:
    """Refuse options the chosen renderer would ignore; fill in the model renderer's defaults."""
    ignored = TEMPLATE_OPTIONS if args.renderer == "model" else MODEL_OPTIONS
    other = "template" if args.renderer == "model" else "model"
    for dest in ignored:
        if getattr(args, dest) is not None:
            raise UserInputError(
                f"{_flag(dest)} is an option of --renderer {other}, which this run does not "
                f"use: add --renderer {other} or leave {_flag(dest)} out"
            )
    if args.renderer != "model":
        return
    if not args.model:
        raise UserInputError("--renderer model needs --model (an Inspect model name)")
    if args.work is None and args.out is None:
        raise UserInputError("--renderer model needs --out or --work (the file a run resumes from)")
    if args.prompts:
        from polar_inspect.generate.model_prompts import check_prompt_dir

        check_prompt_dir(Path(args.prompts).expanduser())
    if args.max_connections is None:
        args.max_connections = DEFAULT_MAX_CONNECTIONS
    if args.repair_rounds is None:
        args.repair_rounds = DEFAULT_REPAIR_ROUNDS


def _model_object(name: str) -> Model:
    """The Inspect model for `--model`, or one line saying why there is none."""
    from inspect_ai.model import get_model

    try:
        return get_model(name)
    except Exception as exc:  # unknown provider, missing API key or package: the user's to fix
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserInputError(f"--model {name}: {message}") from None


def _check_paths_and_digest(args: Options) -> None:
    """No path option given empty; --check-sha256 is 64 hex digits."""
    for dest in ("out", "card", "work", "prompts"):
        if (value := getattr(args, dest)) is not None and not value.strip():
            raise UserInputError(f"{_flag(dest)} is empty: give a path")
    if args.check_sha256 is not None and not _SHA256.fullmatch(args.check_sha256.strip()):
        raise UserInputError(
            f"--check-sha256 {args.check_sha256!r} is not a sha256: give 64 hex digits "
            "(the card's 'sha256 of the JSON (uncompressed)')"
        )


def check_arguments(args: Options) -> list[str]:
    """Check every input, one-line ValueError for the user; returns the selected domains and
    sets `args.model_object` and the model renderer's defaults."""
    _check_paths_and_digest(args)
    domains = _check_selection(args)
    if args.card and not args.out:
        raise UserInputError("--card describes the --out file: give --out too")
    hf_folder = args.format == "hf"
    if hf_folder and args.card:
        raise UserInputError(
            "--format hf writes its own card (README.md in the folder): drop --card"
        )
    if args.out and not hf_folder:
        output_format(args.out)
    _check_renderer_options(args)
    # an hf folder is checked by the folder writer (a new folder, the [hf] extra)
    outputs = [Output("--out", args.out)] if args.out and not hf_folder else []
    if args.card:
        outputs.append(Output("--card", args.card))
    if args.renderer == "model":
        outputs.append(Output("--work", work_path(args), resumed=True))
    check_outputs(
        outputs,
        overwrite=args.overwrite,
        rebuilds_bundled=builds_bundled_settings(args, domains)
        and writes_bundled_set(args.out, None),
    )
    args.model_object = (
        _model_object(args.model) if args.renderer == "model" and args.model else None
    )
    return domains


def card_subject(args: Options, domains: list[str]) -> CardSubject:
    """What the card of this run (`--out` and `--card`, both given) describes."""
    bundled = builds_bundled_settings(args, domains) and writes_bundled_set(args.out, args.card)
    work = work_path(args) if args.renderer == "model" else None
    return CardSubject.model_validate(
        {**vars(args), "domains": domains, "work": work, "bundled": bundled}
    )
