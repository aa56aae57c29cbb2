"""A disk cache of what the report read from a log, keyed by the log's identity and the package's
source (docs/report/README.md#what-the-report-reads)."""

from __future__ import annotations

import hashlib
import os
import pickle
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import IO, Any, TypeVar

import fsspec  # type: ignore[import-untyped]
from fsspec.core import url_to_fs  # type: ignore[import-untyped]

from polar_inspect.data.sources import cache_dir
from polar_inspect.run.code import tree_sha256

T = TypeVar("T")
TAIL_BYTES = 65_536
#: Set to "0" to turn the cache off (reads every log again).
ENV_SWITCH = "POLAR_REPORT_CACHE"
PACKAGE = Path(__file__).resolve().parents[1]
#: The libraries whose versions decide what a log is read into (part of every key).
READ_WITH = ("inspect_ai", "pydantic", "pandas", "numpy")


#: For a remote folder, a filesystem of its own with no cached listing: a report (or a second
#: report in the same process) sees the folder as it is now.
FRESH = {"skip_instance_cache": True, "use_listings_cache": False}


def is_uri(location: str) -> bool:
    """True for a location on a remote filesystem (`s3://...`), False for a local path."""
    return "://" in location and not location.startswith("file://")


@contextmanager
def log_member(path: str, name: str) -> Iterator[IO[bytes] | None]:
    """The member `name` of the `.eval` log (a zip) at `path`, or None: a `.json` log, or a
    `.eval` log without it (one still being written); the last of a repeated member wins."""
    if not path.endswith(".eval"):
        yield None
        return
    options = FRESH if is_uri(path) else {}
    with fsspec.open(path, "rb", **options) as raw, zipfile.ZipFile(raw) as archive:
        if name not in archive.namelist():
            yield None
            return
        with archive.open(name) as member:
            yield member


@cache
def _code_digest() -> str:
    """Digest of every file of the package (code, templates, data such as `eval.yaml`) and of the
    versions of the libraries a log is read with: what a read gives depends on all of them."""
    return tree_sha256([PACKAGE], salt=" ".join(map(version, READ_WITH)).encode())[:16]


def _identity(path: str) -> list[str]:
    """Location, size, last change and tail digest of the log at `path` (raises OSError)."""
    if is_uri(path):
        fs, inner = url_to_fs(path, **FRESH)
        info: dict[str, Any] = fs.info(inner)
        where, size = path, int(info["size"])
        changed = info.get("ETag") or info.get("LastModified") or info.get("mtime")
    else:
        fs, inner = url_to_fs(str(Path(path).resolve()))
        stat = os.stat(inner)
        where, size, changed = inner, stat.st_size, stat.st_mtime_ns
    # a `.eval` log's tail holds its zip directory (every member's CRC); a `.json` log's header
    # is at its start, so all of it is digested
    with fs.open(inner, "rb") as handle:
        handle.seek(max(0, size - TAIL_BYTES) if path.endswith(".eval") else 0)
        digest = hashlib.sha256()
        while chunk := handle.read(1 << 20):  # a `.json` log may be larger than memory allows
            digest.update(chunk)
    return [where, str(size), str(changed), digest.hexdigest()]


def log_key(path: str, kind: str) -> str | None:
    """The cache key of one read (`kind`) of the log at `path`, or None if it has no identity."""
    try:
        parts = [kind, *_identity(path), _code_digest()]
    except (OSError, ValueError):
        return None
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def cached(path: str, kind: str, read: Callable[[str], T]) -> T:
    """`read(path)`, from the cache when this log was read the same way before."""
    key = log_key(path, kind) if os.environ.get(ENV_SWITCH, "1") != "0" else None
    if key is None:
        return read(path)
    entry = cache_dir() / "report" / f"{key}.pkl"
    with suppress(Exception):  # missing, damaged or foreign: read the log instead
        stored = entry.read_bytes()  # the payload's sha256, then the payload (our own pickle)
        if hashlib.sha256(stored[32:]).digest() == stored[:32]:
            return pickle.loads(stored[32:])  # type: ignore[no-any-return]
    value = read(path)
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    partial = entry.with_suffix(f".{os.getpid()}.tmp")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(hashlib.sha256(payload).digest() + payload)
        partial.replace(entry)
    except OSError:  # a cache that cannot be written is skipped, and leaves no partial file
        with suppress(OSError):
            partial.unlink(missing_ok=True)
    return value
