"""The parsed-records cache of `sources.load_source`, keyed by the source's sha256 and checked
before use (docs/data.md): a changed or damaged cache is rebuilt, never used."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import tempfile
import time
from pathlib import Path

from polar_inspect.data.loading import RecordError, parse_records
from polar_inspect.data.records import RECORD_LIST, PolarRecord

logger = logging.getLogger("polar_inspect.data.sources")

#: Record fields the eval never reads; `load_source` drops them to save memory and cache space.
PROVENANCE_FIELDS: tuple[str, ...] = ("prompts", "generation_meta", "source_document_inputs")
#: Bump when the cache's content changes in a way the record schema does not show.
CACHE_FORMAT = "2"
#: Another version's cache of the same data is removed once unused this long.
STALE_AFTER_S = 7 * 24 * 3600


@functools.cache
def cache_version() -> str:
    """Changes whenever the record schema, the dropped fields or CACHE_FORMAT change."""
    schema = json.dumps(PolarRecord.model_json_schema(), sort_keys=True)
    material = "|".join((CACHE_FORMAT, ",".join(PROVENANCE_FIELDS), schema))
    return hashlib.sha256(material.encode()).hexdigest()[:16]


def without_provenance(records: list[PolarRecord]) -> list[PolarRecord]:
    """The records with the fields the eval never reads set to None."""
    dropped = dict.fromkeys(PROVENANCE_FIELDS)
    return [record.model_copy(update=dropped) for record in records]


def read_cache(target: Path, source_sha256: str) -> list[PolarRecord] | None:
    """The cached records if written for `source_sha256` and unchanged since, else None."""
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _ignored(f"Ignoring unreadable records cache {target}: {exc}")
    header, _, payload = data.partition(b"\n")
    try:
        recorded = json.loads(header)
        written_for, content = recorded["source_sha256"], recorded["records_sha256"]
    except (ValueError, TypeError, KeyError) as exc:
        return _ignored(f"Ignoring damaged records cache {target} (no valid header: {exc})")
    if written_for != source_sha256:
        return _ignored(
            f"Ignoring records cache {target}: it was written for data with sha256 "
            f"{written_for}, not {source_sha256}; rebuilding it"
        )
    if hashlib.sha256(payload).hexdigest() != content:
        return _ignored(
            f"Ignoring records cache {target}: it was changed after it was written (its records "
            "no longer have the sha256 it recorded); rebuilding it from the data"
        )
    try:
        records = parse_records(payload, str(target))
    except RecordError as exc:
        return _ignored(f"Ignoring damaged records cache {target}: {str(exc).splitlines()[0]}")
    with contextlib.suppress(OSError):
        os.utime(target)  # in use: not stale for another install of another version
    return records


def _ignored(warning: str) -> list[PolarRecord] | None:
    """Warn why the cache is not used; None, as `read_cache` returns then."""
    logger.warning("%s", warning)
    return None


def write_cache(target: Path, records: list[PolarRecord], source_sha256: str) -> None:
    """Write atomically a header line (both sha256s), then the records; a failure only warns."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        payload = RECORD_LIST.dump_json(records)
        header = {
            "cache_format": CACHE_FORMAT,
            "source_sha256": source_sha256,
            "records_sha256": hashlib.sha256(payload).hexdigest(),
        }
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(json.dumps(header).encode() + b"\n")
                out.write(payload)
            os.replace(temporary, target)
        finally:
            Path(temporary).unlink(missing_ok=True)
        for stale in target.parent.glob(f"{source_sha256}-*.json"):
            if stale != target and time.time() - stale.stat().st_mtime > STALE_AFTER_S:
                stale.unlink(missing_ok=True)
    except (OSError, ValueError) as exc:
        logger.warning("Could not write the records cache %s: %s", target, exc)
