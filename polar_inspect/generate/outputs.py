"""Where `polar-generate` writes: every output path checked before anything is built or
written (docs/generator.md lists the refusals); nothing is created while checking."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from polar_inspect.data.sources import bundled_path

#: The repository checkout's bundled dataset and its card (see datasets/README.md).
REPOSITORY_ROOT = Path(__file__).resolve().parents[2]
BUNDLED_DATASET = REPOSITORY_ROOT / "datasets" / "polar_bundled.json.gz"
BUNDLED_CARD = REPOSITORY_ROOT / "datasets" / "README.md"
#: The same paths as the bundled card writes them (relative to the repository root).
BUNDLED_DATASET_ARG = "datasets/polar_bundled.json.gz"
BUNDLED_CARD_ARG = "datasets/README.md"


class OutputPathError(ValueError):
    """An output path cannot or must not be written."""


@dataclass(frozen=True)
class Output:
    """One output the command will write: the option that names it and the path as given."""

    option: str
    path: str
    #: An existing file is expected and kept (the model renderer's resumable work file).
    resumed: bool = False

    @property
    def resolved(self) -> Path:
        """The absolute path, with `~`, `..` and symbolic links resolved."""
        return Path(self.path).expanduser().resolve()

    def label(self) -> str:
        """`--out work/x.json` as the messages name it."""
        return f"{self.option} {self.path}"


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file (resolved paths, or hard links to one existing file)."""
    first, second = Path(a).expanduser().resolve(), Path(b).expanduser().resolve()
    if first == second:
        return True
    try:
        return first.exists() and second.exists() and os.path.samefile(first, second)
    except OSError:
        return False


def check_distinct(outputs: Sequence[Output]) -> None:
    """Refuse two outputs on one file."""
    for index, first in enumerate(outputs):
        for second in outputs[index + 1 :]:
            if same_file(first.path, second.path):
                raise OutputPathError(
                    f"{first.label()} and {second.label()} name the same file ({first.resolved}); "
                    "give each output its own path"
                )


def check_not_existing(outputs: Sequence[Output], overwrite: bool) -> None:
    """Refuse to replace an existing file unless `overwrite` (resumed outputs excepted)."""
    if overwrite:
        return
    for output in outputs:
        if not output.resumed and output.resolved.is_file():  # a folder: check_writable's
            raise OutputPathError(
                f"{output.label()}: the file exists; pass --overwrite to replace it, "
                "or give another path"
            )


def check_writable(output: Output) -> None:
    """Refuse a path that cannot be written, without creating anything there."""
    if (target := output.resolved).is_dir():
        raise OutputPathError(f"{output.label()}: is a folder; give a file name")
    existing = next((p for p in target.parents if p.exists()), None)
    if existing is None or not existing.is_dir():
        blocking = existing or target.parent
        raise OutputPathError(f"{output.label()}: cannot write there ({blocking} is not a folder)")
    try:
        handle, probe = tempfile.mkstemp(dir=existing, prefix=".polar-generate.", suffix=".tmp")
        os.close(handle)
        os.unlink(probe)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise OutputPathError(f"{output.label()}: cannot write there ({reason})") from err


def check_bundled(outputs: Sequence[Output], rebuilds_bundled: bool) -> None:
    """Refuse the bundled dataset or its card as an output unless this run rebuilds it."""
    if rebuilds_bundled:
        return
    protected = {
        "the bundled dataset that -T data=bundled reads": (BUNDLED_DATASET, bundled_path()),
        "the bundled dataset's card": (BUNDLED_CARD,),
    }
    for output in outputs:
        for what, paths in protected.items():
            if any(same_file(output.path, p) for p in paths):
                raise OutputPathError(
                    f"{output.label()}: is {what}; only the bundled build writes it "
                    f"(polar-generate --out {BUNDLED_DATASET_ARG} --card {BUNDLED_CARD_ARG} "
                    "--overwrite, default seed, domains and repetitions); write your dataset "
                    "and its card elsewhere"
                )


def check_outputs(outputs: Sequence[Output], *, overwrite: bool, rebuilds_bundled: bool) -> None:
    """Every check above, in an order that stops at the first problem before any write."""
    check_distinct(outputs)
    check_bundled(outputs, rebuilds_bundled)
    check_not_existing(outputs, overwrite)
    for output in outputs:
        check_writable(output)


def writes_bundled_set(out: str | None, card: str | None) -> bool:
    """Whether `--out` is the repository's bundled dataset and `card` (when given) its card."""
    if out is None or not same_file(out, BUNDLED_DATASET):
        return False
    return card is None or same_file(card, BUNDLED_CARD)
