"""Deterministic serialisation of generated records: .json, .jsonl or .json.gz.

The canonical form is the JSON array with one record per line (UTF-8, no ASCII escaping,
compact separators, keys in the generator's fixed order). Its sha256 identifies a dataset;
the .gz file wraps exactly these bytes with gzip mtime 0, so it is reproducible for a given
zlib, but the uncompressed digest is the one that holds on every machine.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

FORMATS = (".json", ".jsonl", ".json.gz")


def record_line(record: dict[str, Any]) -> str:
    """One record as a single canonical JSON line."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def canonical_json(records: Sequence[dict[str, Any]]) -> bytes:
    """The canonical bytes: a JSON array, one record per line."""
    if not records:
        return b"[]\n"
    return ("[\n" + ",\n".join(record_line(r) for r in records) + "\n]\n").encode("utf-8")


def jsonl(records: Iterable[dict[str, Any]]) -> bytes:
    """JSON Lines bytes, one record per line."""
    return "".join(record_line(r) + "\n" for r in records).encode("utf-8")


def gzipped(data: bytes) -> bytes:
    """gzip with mtime 0 and no file name, so equal input gives equal output."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def sha256(data: bytes) -> str:
    """Hex sha256."""
    return hashlib.sha256(data).hexdigest()


def output_format(path: str | Path) -> str:
    """`.json`, `.jsonl` or `.json.gz`, from the path's suffix; raises ValueError otherwise."""
    name = str(path).lower()
    for suffix in (".json.gz", ".jsonl", ".json"):
        if name.endswith(suffix):
            return suffix
    raise ValueError(f"--out {path}: unsupported file type; use one of {', '.join(FORMATS)}")


def encode(records: Sequence[dict[str, Any]], fmt: str) -> bytes:
    """The bytes to write for `fmt`."""
    if fmt == ".jsonl":
        return jsonl(records)
    data = canonical_json(records)
    return gzipped(data) if fmt == ".json.gz" else data


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes_atomically(data: bytes, path: str | Path) -> None:
    """Write through a temporary file in the same folder, then rename it over `path`: a
    reader never sees a half-written file, and a failed write leaves the old file intact."""
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        os.chmod(temporary, 0o666 & ~_current_umask())
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
