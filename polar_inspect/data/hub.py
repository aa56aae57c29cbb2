"""Files of a Hub dataset repository through the local Hugging Face cache: the cache first (so
`HF_HUB_OFFLINE=1` works), else one quick request, then the download (docs/data.md)."""

from __future__ import annotations

import os
import re
from contextlib import suppress
from pathlib import Path
from typing import Any

from polar_inspect.data.hf_layout import JSON_SUFFIXES, PARQUET_SUFFIX

#: Seconds to wait for the Hugging Face Hub before declaring it unreachable.
HUB_TIMEOUT = 5.0
#: The files of a POLAR-format dataset repository a snapshot fetches (the card and data files).
DATASET_FILES = ("README.md", *(f"*{suffix}" for suffix in (PARQUET_SUFFIX, *JSON_SUFFIXES)))


_OFFLINE = "offline mode (HF_HUB_OFFLINE) is on and it is not in the cache"


class HubUnavailable(Exception):
    """A file or snapshot is neither in the local cache nor downloadable; says why."""


# huggingface_hub reads HF_HUB_OFFLINE, HF_HOME, HF_HUB_CACHE and HF_ENDPOINT once, at import;
# they are read again here on each call so that a setting made after import is honoured too.


def hub_offline() -> bool:
    """True when `HF_HUB_OFFLINE` (or `datasets`' `HF_DATASETS_OFFLINE`) is on."""
    from huggingface_hub import constants

    flags = [os.environ.get(name) for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")]
    if all(flag is None for flag in flags):
        return constants.is_offline_mode()
    return any(flag.strip().upper() in _TRUE for flag in flags if flag is not None)


_TRUE = ("1", "ON", "YES", "TRUE")


def hub_cache() -> str | None:
    """The Hugging Face hub cache folder set by `HF_HUB_CACHE` or `HF_HOME` (None: default)."""
    if os.environ.get("HF_HUB_CACHE"):
        return os.environ["HF_HUB_CACHE"]
    return str(Path(os.environ["HF_HOME"]) / "hub") if os.environ.get("HF_HOME") else None


def _endpoint() -> str | None:
    return os.environ.get("HF_ENDPOINT") or None


def fetch_file(repo_id: str, filename: str, revision: str) -> Path:
    """The local path of `filename` of dataset `repo_id` at `revision`, downloaded once."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url
    from huggingface_hub.errors import LocalEntryNotFoundError

    where: dict[str, Any] = dict(
        repo_id=repo_id,
        filename=filename,
        repo_type="dataset",
        revision=revision,
        cache_dir=hub_cache(),
    )
    with suppress(LocalEntryNotFoundError):
        return Path(hf_hub_download(**where, local_files_only=True))
    if hub_offline():
        raise HubUnavailable(_OFFLINE)
    try:
        # One quick request without retries: hf_hub_download alone retries for ~30 s offline.
        url = hf_hub_url(
            repo_id, filename, repo_type="dataset", revision=revision, endpoint=_endpoint()
        )
        get_hf_file_metadata(url, timeout=HUB_TIMEOUT)
        return Path(hf_hub_download(**where, endpoint=_endpoint(), etag_timeout=HUB_TIMEOUT))
    except Exception as exc:  # any network, HTTP or disk failure means "could not download"
        raise HubUnavailable(f"{type(exc).__name__}: {exc}") from exc


def is_commit(revision: str | None) -> bool:
    """True for a full commit hash (40 hex digits): it names one snapshot forever."""
    return revision is not None and re.fullmatch(r"[0-9a-fA-F]{40}", revision) is not None


def fetch_snapshot(repo_id: str, revision: str | None) -> Path:
    """The local snapshot folder (named by its commit) of dataset `repo_id` at `revision`."""
    from huggingface_hub import HfApi, snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    where: dict[str, Any] = dict(
        repo_id=repo_id,
        repo_type="dataset",
        cache_dir=hub_cache(),
        allow_patterns=list(DATASET_FILES),
        endpoint=_endpoint(),
    )
    if is_commit(revision) or hub_offline():
        try:
            return Path(snapshot_download(**where, revision=revision, local_files_only=True))
        except LocalEntryNotFoundError:
            if hub_offline():
                raise HubUnavailable(_OFFLINE) from None
    try:
        info = HfApi(endpoint=_endpoint()).dataset_info(
            repo_id, revision=revision, timeout=HUB_TIMEOUT
        )
        return Path(snapshot_download(**where, revision=info.sha, etag_timeout=HUB_TIMEOUT))
    except Exception as exc:  # any network, HTTP or disk failure means "could not download"
        raise HubUnavailable(f"{type(exc).__name__}: {exc}") from exc
