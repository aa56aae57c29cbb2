"""Writing POLAR-format records as a Hugging Face dataset folder (read by `data/hf_folder.py`)."""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from polar_inspect.data.hf_folder import FolderError, file_digest, require_datasets, shards_digest
from polar_inspect.data.hf_layout import DATA_DIR, PARQUET_SUFFIX, SPLIT
from polar_inspect.data.loading import validate_items
from polar_inspect.generate.io import current_umask
from polar_inspect.generate.publish.hf_card import FolderWritten, render_card

#: Shards are cut so that each holds at most this many bytes of records as JSON.
MAX_SHARD_BYTES = 256 * 2**20


def shard_ranges(count: int, total_bytes: int, max_shard_bytes: int) -> list[range]:
    """As few consecutive, about equal ranges as keep each shard near `max_shard_bytes`."""
    shards = max(1, -(-total_bytes // max_shard_bytes))
    per_shard = max(1, -(-count // shards))
    return [range(start, min(start + per_shard, count)) for start in range(0, count, per_shard)]


def check_new_folder(out: Path) -> None:
    """Raise FolderError unless `out` is absent or empty, in a writable parent."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FolderError(f"{out} exists and is not an empty folder; give a new folder")
    parent = out.absolute().parent
    blocking = next((p for p in (parent, *parent.parents) if p.exists()), None)
    if blocking is None or not blocking.is_dir() or not os.access(blocking, os.W_OK | os.X_OK):
        raise FolderError(f"{out}: cannot create a folder there ({blocking} is not writable)")


def write_folder(
    records: Sequence[dict[str, Any]],
    out: Path,
    *,
    provenance: str = "",
    max_shard_bytes: int = MAX_SHARD_BYTES,
    repo_id: str | None = None,
) -> FolderWritten:
    """Write validated `records` as Parquet shards and a card at a new folder `out`
    (docs/generator.md); `repo_id`, when given, goes into the card's commands."""
    require_datasets()
    import datasets
    import pyarrow.parquet as pq

    from polar_inspect.data.parquet_records import table_records
    from polar_inspect.generate.publish.parquet import records_table

    if not records:
        raise FolderError("no records to write")
    check_new_folder(out)
    validated = validate_items([(f"index {i}", r) for i, r in enumerate(records)], "records")
    # One schema for all shards (`datasets` reads a split with the first shard's features),
    # with the `huggingface` schema metadata `datasets` reads its features from.
    table = records_table(records)
    features = datasets.Features.from_arrow_schema(table.schema)  # Arrow's JSON: datasets.Json
    table = table.replace_schema_metadata(features.arrow_schema.metadata)
    ranges = shard_ranges(len(records), table.nbytes, max_shard_bytes)
    shards: dict[str, bytes] = {}
    for number, part in enumerate(ranges):
        buffer = io.BytesIO()
        pq.write_table(table.slice(part.start, len(part)), buffer, row_group_size=100)
        data = buffer.getvalue()
        back, _ = table_records(pq.read_table(io.BytesIO(data)), "written shard")
        # Column types were checked exact when the table was built; this checks the write.
        if back != list(records[part.start : part.stop]):
            raise FolderError("the Parquet shard would not give back the records exactly")
        shards[f"{DATA_DIR}/{SPLIT}-{number:05d}-of-{len(ranges):05d}{PARQUET_SUFFIX}"] = data
    digests = [file_digest(data) for data in shards.values()]
    written = FolderWritten(
        files=list(shards),
        digests=digests,
        sha256=shards_digest(digests),
        bytes=sum(len(data) for data in shards.values()),
    )
    card = render_card(
        validated,
        features=features,
        written=written,
        arrow_bytes=table.nbytes,
        provenance=provenance,
        repo_id=repo_id,
    )
    _move_into_place(out, shards, card)
    return written


def _move_into_place(out: Path, shards: Mapping[str, bytes], card: str) -> None:
    """Write everything into a temporary folder beside `out`, then rename it to `out`."""
    import shutil
    import tempfile

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}."))
    try:
        for name, data in shards.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        (staging / "README.md").write_text(card, encoding="utf-8")
        staging.chmod(0o777 & ~current_umask())
        if out.is_dir():
            out.rmdir()  # empty, checked above
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
