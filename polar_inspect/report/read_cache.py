"""A disk cache of what the report read from a log, keyed by the log's identity.

The key is the log's resolved path, size, modification time and the sha256 of its last 64 KB
(a `.eval` file's zip directory and header; the whole tail of a `.json` log), plus a digest
of the source of the modules that extract the rows: a log rewritten in place, or a report
whose reading code changed, misses the cache and is read again. Entries live under
`$POLAR_CACHE_DIR/report` (default `~/.cache/polar_inspect/report`); a cache that cannot be
read or written is skipped, never fatal, so the report's numbers never depend on it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from polar_inspect.data.sources import cache_dir

T = TypeVar("T")
TAIL_BYTES = 65_536
#: Set to "0" to turn the cache off (reads every log again).
ENV_SWITCH = "POLAR_REPORT_CACHE"


@cache
def _code_digest() -> str:
    """Digest of the source of the modules whose output is cached."""
    digest = hashlib.sha256()
    for name in ("sample_rows", "samples", "read_cache"):
        # located, not imported: `samples` imports this module
        spec = importlib.util.find_spec(f"polar_inspect.report.{name}")
        digest.update(Path(str(spec.origin if spec else name)).read_bytes())
    return digest.hexdigest()[:16]


def log_key(path: str, kind: str) -> str | None:
    """The cache key of one read (`kind`) of the log at `path`, or None if it has no identity."""
    try:
        resolved = Path(path).resolve()
        stat = resolved.stat()
        with resolved.open("rb") as handle:
            handle.seek(max(0, stat.st_size - TAIL_BYTES))
            tail = hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None
    parts = [kind, str(resolved), str(stat.st_size), str(stat.st_mtime_ns), tail, _code_digest()]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def _folder() -> Path:
    return cache_dir() / "report"


def cached(path: str, kind: str, read: Callable[[str], T]) -> T:
    """`read(path)`, from the cache when this log was read the same way before."""
    key = log_key(path, kind) if os.environ.get(ENV_SWITCH, "1") != "0" else None
    if key is None:
        return read(path)
    entry = _folder() / f"{key}.pkl"
    try:
        with entry.open("rb") as handle:
            return pickle.load(handle)  # our own files, named by the sha256 of their key
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    value = read(path)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial = entry.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        partial.replace(entry)
    except OSError:
        pass
    return value
