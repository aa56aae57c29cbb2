"""Where release records come from (the `-T data=` values, docs/data.md): `resolve_source`
hashes the source's bytes, `load_source` parses those same bytes (checked), or the cache."""

from __future__ import annotations

import hashlib
import os
import re
import textwrap
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from polar_inspect.data import hf_folder
from polar_inspect.data.folder_card import examples_problem, folder_problem, read_card
from polar_inspect.data.hf_layout import JSON_SUFFIXES
from polar_inspect.data.hub import HubUnavailable, fetch_file, fetch_snapshot
from polar_inspect.data.loading import parse_records, read_file
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.records_cache import (
    cache_version,
    read_cache,
    without_provenance,
    write_cache,
)
from polar_inspect.errors import UserInputError

DataKind = Literal["official", "bundled", "path", "folder", "hub"]

#: The prefix of a Hub dataset in `data`.
HUB_PREFIX = "hf:"

_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_REPO_ROOT = _PACKAGE_ROOT.parent
_BUNDLED_RELATIVE = Path("datasets") / "polar_bundled.json.gz"
#: OWNER/NAME as the Hub spells a repository id.
REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")


class OfficialRelease(BaseModel):
    """The pinned public release on the Hugging Face Hub (`Qiaoyuan/POLAR-Bench`)."""

    model_config = ConfigDict(frozen=True)

    repo_id: str = "Qiaoyuan/POLAR-Bench"
    filename: str = "data/privacy_benchmark_rendered_repaired.json"
    revision: str = "2fe6a18ac50ab86c64b2e5935031901ca35a2d18"
    sha256: str = "b1db0274228b1346df47d0a42bb75f9536ded1a6d750bb2720f43612c7abb266"


OFFICIAL_RELEASE = OfficialRelease()


class DataSource(BaseModel):
    """A resolved data source: its kind, where its bytes are, and their sha256."""

    model_config = ConfigDict(frozen=True)

    kind: DataKind
    #: The file, or the folder the `files` are in (for `hub`: its snapshot in the HF cache).
    path: str
    sha256: str
    #: The Hub commit (`official`, `hub`).
    revision: str | None = None
    #: The Hub dataset repository (`official`, `hub`).
    repo_id: str | None = None
    #: The split read, and its data files relative to `path`, in order (`folder`, `hub`).
    split: str | None = None
    files: tuple[str, ...] = ()


class DataSourceError(UserInputError):
    """The `data` parameter cannot be turned into usable data."""


def resolve_source(
    data: str = "official", *, official: OfficialRelease = OFFICIAL_RELEASE
) -> DataSource:
    """Resolve `data` to a `DataSource` (`official`: pinned, sha256-checked); DataSourceError."""
    choice = data.strip()
    if choice.lower() == "official":
        return _official(official)
    if choice.lower() == "bundled":
        if not (path := bundled_path()).is_file():
            raise DataSourceError(_bundled_missing(path))
        return DataSource(kind="bundled", path=str(path.resolve()), sha256=_sha256(path))
    if choice.lower().startswith(HUB_PREFIX):
        return _hub(choice)
    folder, split = _folder_and_split(choice)
    if folder is not None:
        return _folder(choice, folder, split)
    path = _local_file(choice)
    return DataSource(kind="path", path=str(path), sha256=_sha256(path))


def load_source(source: DataSource, *, use_cache: bool = True) -> list[PolarRecord]:
    """The validated records of a resolved source (from the checked cache when `use_cache`)."""
    target = cache_dir() / "records" / f"{source.sha256}-{cache_version()}.json"
    cached = read_cache(target, source.sha256) if use_cache else None
    records = cached if cached is not None else without_provenance(_parse_source(source))
    if cached is None and use_cache:
        write_cache(target, records, source.sha256)
    if source.kind in ("folder", "hub") and source.split is not None:
        problem = examples_problem(read_card(Path(source.path)), source.split, len(records))
        if problem:
            raise DataSourceError(f"{source.path}: {problem}; refusing a partial folder")
    return records


def bundled_path() -> Path:
    """The bundled dataset: `$POLAR_BUNDLED_PATH`, else a wheel's copy, else the checkout's."""
    if override := os.environ.get("POLAR_BUNDLED_PATH"):
        return Path(override).expanduser()
    packaged = _PACKAGE_ROOT / "datasets" / _BUNDLED_RELATIVE.name
    return packaged if packaged.is_file() else _REPO_ROOT / _BUNDLED_RELATIVE


def cache_dir() -> Path:
    """The parsed-records cache: `$POLAR_CACHE_DIR`, else `~/.cache/polar_inspect` (XDG aware)."""
    if configured := os.environ.get("POLAR_CACHE_DIR"):
        return Path(configured).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "polar_inspect"


def _local_file(data: str) -> Path:
    path = Path(data).expanduser()
    if not data or not path.exists():
        raise DataSourceError(
            f"data={data!r} is neither 'official', 'bundled' nor an existing file or folder, "
            f"nor hf:OWNER/NAME[@REVISION] (looked for {path.absolute()})."
        )
    if not path.is_file():
        raise DataSourceError(f"data={data!r}: {path.absolute()} is not a file.")
    if not path.name.lower().endswith(JSON_SUFFIXES):
        raise DataSourceError(
            f"data={data!r}: expected a .json (array of records) or .jsonl file (optionally "
            f".gz-compressed), got {path.name}."
        )
    return path.resolve()


def _bundled_missing(path: Path) -> str:
    if os.environ.get("POLAR_BUNDLED_PATH"):
        return f"POLAR_BUNDLED_PATH points at {path}, which does not exist."
    return (
        f"The bundled dataset is not built: {path} does not exist. Build it from the "
        f"repository root with `polar-generate --out {_BUNDLED_RELATIVE.as_posix()}`, or set "
        "POLAR_BUNDLED_PATH to a built copy."
    )


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


# --- Reading a resolved source -------------------------------------------------------------------


def _parse_source(source: DataSource) -> list[PolarRecord]:
    """The validated records of the bytes `source.sha256` names (read once, hashed, parsed)."""
    if source.kind in ("folder", "hub"):
        folder = Path(source.path)
        try:
            shards = hf_folder.read_shards(folder, source.files, source.path)
        except hf_folder.FolderError as exc:
            raise DataSourceError(str(exc)) from exc
        _check_unchanged(
            source, hf_folder.shards_digest([hf_folder.file_digest(d) for _, d in shards])
        )
        return hf_folder.parse_shards(folder, shards, source.path)
    data = read_file(source.path)
    _check_unchanged(source, hashlib.sha256(data).hexdigest())
    return parse_records(data, source.path)


def _check_unchanged(source: DataSource, digest: str) -> None:
    if digest != source.sha256:
        raise DataSourceError(
            f"{source.path} changed while it was being loaded (sha256 {digest}, resolved as "
            f"{source.sha256}); wait until nothing writes to it and run again."
        )


# --- The official release ----------------------------------------------------------------------


def _official(release: OfficialRelease) -> DataSource:
    try:
        path = fetch_file(release.repo_id, release.filename, release.revision)
    except HubUnavailable as exc:
        raise DataSourceError(
            ways_out(
                f"Could not download the official POLAR-Bench data ({release.repo_id}, "
                f"{release.filename} at revision {release.revision}): {exc}.",
                "use the bundled offline dataset: -T data=bundled",
                _COPY_CACHE.format(what="this file"),
                "use a local copy of the file: -T data=/path/to/file.json",
            )
        ) from exc
    if (digest := _sha256(path)) != release.sha256:
        raise DataSourceError(
            f"The official POLAR-Bench file at {path} has sha256 {digest}, but the pinned "
            f"release ({release.repo_id}@{release.revision}) has sha256 {release.sha256}. "
            "The cached copy is damaged or not the release: delete it and run again, or use "
            "-T data=bundled or -T data=/path/to/file.json."
        )
    return DataSource(
        kind="official",
        path=str(path),
        sha256=digest,
        revision=release.revision,
        repo_id=release.repo_id,
    )


_COPY_CACHE = (
    "copy a Hugging Face cache that holds {what} to this machine, point HF_HOME (or "
    "HF_HUB_CACHE) at it and set HF_HUB_OFFLINE=1"
)


def ways_out(problem: str, *ways: str, width: int = 80) -> str:
    """`problem` and a "Ways out:" list, wrapped at word boundaries to `width` columns."""
    lines = [*_wrap(problem, width, ""), "Ways out:"]
    for way in ways:
        lines += _wrap(way, width, "  - ", "    ")
    return "\n".join(lines)


def _wrap(text: str, width: int, first: str, rest: str = "") -> list[str]:
    # "-T data=..." is kept on one line: a no-break space while wrapping
    wrapper = textwrap.TextWrapper(
        width, first, rest, break_long_words=False, break_on_hyphens=False
    )
    return [line.replace("\u00a0", " ") for line in wrapper.wrap(text.replace("-T ", "-T\u00a0"))]


# --- Dataset folders and datasets on the Hub ----------------------------------------------------


def _folder_and_split(data: str) -> tuple[Path | None, str | None]:
    """(folder, split) when `data` names a folder, optionally followed by `#SPLIT`."""
    if (path := Path(data).expanduser()).is_dir():
        return path, None
    base, mark, split = data.rpartition("#")
    if mark and split and Path(base).expanduser().is_dir():
        return Path(base).expanduser(), split
    return None, None


def _folder(data: str, folder: Path, split: str | None, blobs: Path | None = None) -> DataSource:
    """A dataset folder: its data files (as `datasets` finds them) and their digest."""
    try:
        found = hf_folder.find_data_files(folder, split, also_inside=blobs)
        shards = hf_folder.read_shards(folder, found.files, str(folder))
    except hf_folder.FolderError as exc:
        raise DataSourceError(f"data={data!r}: {exc}") from exc
    digests = [hf_folder.file_digest(content) for _, content in shards]
    if problem := folder_problem(folder, found.files, digests):
        raise DataSourceError(f"data={data!r}: {folder}: {problem}; refusing a partial folder")
    return DataSource(
        kind="folder",
        path=str(folder.resolve()),
        sha256=hf_folder.shards_digest(digests),
        split=found.split,
        files=found.files,
    )


def _hub(data: str) -> DataSource:
    """`hf:OWNER/NAME[@REVISION][#SPLIT]`: the dataset's snapshot in the Hugging Face cache."""
    spec, _, split = data[len(HUB_PREFIX) :].partition("#")
    repo_id, _, revision = spec.partition("@")
    if spec.endswith("@") or data.endswith("#") or not REPO_ID.fullmatch(repo_id):
        raise DataSourceError(
            f"data={data!r}: a Hub dataset is written hf:OWNER/NAME, hf:OWNER/NAME@REVISION "
            "(a commit, branch or tag) or either of those followed by #SPLIT."
        )
    if missing := hf_folder.datasets_missing():
        raise DataSourceError(f"data={data!r}: {missing}")
    try:
        folder = fetch_snapshot(repo_id, revision or None)
    except HubUnavailable as exc:
        at = f" at revision {revision}" if revision else ""
        raise DataSourceError(
            ways_out(
                f"Could not get the Hugging Face dataset {repo_id}{at}: {exc}.",
                "run once with the network, so that it is cached (then HF_HUB_OFFLINE=1 works)",
                _COPY_CACHE.format(what="it"),
                "download the dataset folder and use it directly: -T data=/path/to/folder",
            )
        ) from exc
    # A Hub snapshot's files point into the cache's `blobs/` beside `snapshots/`.
    source = _folder(data, folder, split or None, folder.parent.parent / "blobs")
    return source.model_copy(update={"kind": "hub", "revision": folder.name, "repo_id": repo_id})
