"""Reading POLAR-format data from a Hugging Face dataset folder (a card and data files, found
as `datasets` finds them; docs/data.md): each shard's bytes are read once, hashed and parsed."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from polar_inspect.data.hf_layout import JSON_SUFFIXES, PARQUET_SUFFIX
from polar_inspect.data.loading import (
    RecordError,
    RecordProblem,
    check_across_parts,
    parse_records,
    validate_items,
)
from polar_inspect.data.records import PolarRecord

#: Data file types a folder may hold, by name ending.
_SUFFIXES = (PARQUET_SUFFIX, *JSON_SUFFIXES)
#: How the extra that provides `datasets` is named in messages.
HF_EXTRA = "hf"


class FolderError(ValueError):
    """A folder is not a usable POLAR-format dataset folder; the message says why."""


class DataFiles(BaseModel):
    """The data files of one split of a dataset folder, in the order their records are read."""

    model_config = ConfigDict(frozen=True)

    split: str
    #: Paths relative to the folder, with "/" separators.
    files: tuple[str, ...]


def datasets_missing() -> str | None:
    """A message naming the extra to install when `datasets` is not installed, else None."""
    spec = importlib.util.find_spec("datasets")
    # A folder named datasets/ (this repository has one) is a namespace package: not it.
    if spec is not None and spec.origin not in (None, "namespace"):
        return None
    return (
        f"reading or writing Hugging Face dataset folders needs the [{HF_EXTRA}] extra "
        f"(missing: datasets). Install it with: pip install 'polar_inspect[{HF_EXTRA}]' "
        f"(in a clone: pip install -e '.[{HF_EXTRA}]')"
    )


def require_datasets() -> None:
    """Raise FolderError naming the extra when `datasets` is not installed."""
    if missing := datasets_missing():
        raise FolderError(missing)


def find_data_files(
    folder: Path, split: str | None = None, *, also_inside: Path | None = None
) -> DataFiles:
    """The data files of `folder`'s split (`split`, else its only one), each inside the folder."""
    require_datasets()
    if saved := saved_to_disk(folder):
        raise FolderError(saved)
    import datasets

    try:
        builder = datasets.load_dataset_builder(str(folder))
    except (FileNotFoundError, ValueError) as exc:  # `datasets`' not-found errors included
        raise FolderError(f"{folder} holds no data files `datasets` can read ({exc})") from exc
    found = {str(name): list(files) for name, files in (builder.config.data_files or {}).items()}
    if split is None and len(found) > 1:
        raise FolderError(
            f"{folder} holds the splits {', '.join(found)}; a POLAR-format dataset has one: "
            f"name the split to run after '#' (e.g. {folder}#{next(iter(found))})"
        )
    if split is not None and split not in found:
        raise FolderError(f"{folder} has no split {split!r} (it has {', '.join(found)})")
    chosen = split if split is not None else next(iter(found))
    roots = (folder.resolve(), *([also_inside.resolve()] if also_inside is not None else []))
    files = tuple(_relative(Path(path), folder, roots) for path in found[chosen])
    if unsupported := [name for name in files if not name.lower().endswith(_SUFFIXES)]:
        raise FolderError(
            f"{folder}: {', '.join(unsupported[:3])} cannot hold POLAR-format records; data "
            f"files must end in {', '.join(_SUFFIXES)}"
        )
    return DataFiles(split=chosen, files=files)


def saved_to_disk(folder: Path) -> str | None:
    """Why `folder` is a `datasets` `save_to_disk` folder and how to export it, else None."""
    if (folder / "dataset_dict.json").is_file():
        kind, load = "DatasetDict", f'load_from_disk({str(folder)!r})["test"]'
    elif (folder / "state.json").is_file() and (folder / "dataset_info.json").is_file():
        kind, load = "Dataset", f"load_from_disk({str(folder)!r})"
    else:
        return None
    return (
        f"{folder} was written by `datasets`' save_to_disk ({kind}: Arrow files and state.json), "
        "which is a cache format, not a dataset folder; export it once with "
        f'`from datasets import load_from_disk; {load}.to_json("records.jsonl")` and run '
        "-T data=records.jsonl, or push it with push_to_hub and run -T data=hf:OWNER/NAME@REV"
    )


def _relative(path: Path, folder: Path, roots: Sequence[Path]) -> str:
    """`path` relative to `folder`; FolderError when `..` or a link takes it out of `roots`."""
    base = Path(os.path.normpath(folder.absolute()))
    lexical = Path(os.path.normpath(path if path.is_absolute() else base / path))
    target = path.resolve()
    inside = lexical.is_relative_to(base) and any(target.is_relative_to(r) for r in roots)
    if not inside:
        raise FolderError(
            f"{folder}: data file {path} lies outside the folder (resolved: {target}); a "
            "dataset folder reads only its own files"
        )
    return lexical.relative_to(base).as_posix()


def file_digest(data: bytes) -> str:
    """Hex sha256 of one file's bytes."""
    return hashlib.sha256(data).hexdigest()


def shards_digest(digests: Sequence[str]) -> str:
    """One shard's sha256, or the sha256 of the shards' hex digests, one a line, in order."""
    if len(digests) == 1:
        return digests[0]
    return hashlib.sha256("".join(f"{d}\n" for d in digests).encode("ascii")).hexdigest()


def read_shards(folder: Path, files: Sequence[str], origin: str) -> list[tuple[str, bytes]]:
    """The bytes of each shard in `files` (relative to `folder`), in order; FolderError."""
    shards = []
    for name in files:
        try:
            shards.append((name, (folder / name).read_bytes()))
        except OSError as exc:
            raise FolderError(f"{origin}: cannot read {name} ({exc})") from exc
    return shards


def parse_shards(
    folder: Path, shards: Sequence[tuple[str, bytes]], origin: str
) -> list[PolarRecord]:
    """The validated records of the shards' bytes, in order; RecordError."""
    parts = [(name, parse_shard(data, name, str(folder / name))) for name, data in shards]
    return check_across_parts(parts, origin)


def parse_shard(data: bytes, name: str, origin: str) -> list[PolarRecord]:
    """The validated records of one shard's bytes (Parquet, or JSON / JSONL, maybe gzipped)."""
    if not name.lower().endswith(PARQUET_SUFFIX):
        return parse_records(data, origin)
    import pyarrow as pa
    import pyarrow.parquet as pq

    from polar_inspect.data.parquet_records import ArrowShapeError, table_records

    try:
        rows, repeats = table_records(pq.read_table(pa.BufferReader(data)), origin)
    except (pa.ArrowException, ArrowShapeError, OSError) as exc:
        raise RecordError(origin, [RecordProblem("", "", f"cannot read it ({exc})")]) from exc
    items = [(f"row {row}", raw) for row, raw in enumerate(rows)]
    return validate_items(items, origin, may_repeat_keys=repeats)
