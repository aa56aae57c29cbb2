"""Deterministic serialisation of generated records: .json, .jsonl or .json.gz (the canonical
JSON and its sha256: docs/generator.md)."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
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
        return "".join(record_line(r) + "\n" for r in records).encode("utf-8")
    data = canonical_json(records)
    return gzipped(data) if fmt == ".json.gz" else data


def current_umask() -> int:
    """The process's umask (read without changing it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes_atomically(data: bytes, path: str | Path) -> None:
    """Write through a temporary file in the same folder, then rename it over `path`."""
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        os.chmod(temporary, 0o666 & ~current_umask())
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
