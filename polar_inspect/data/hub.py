"""Files of a dataset repository on the Hugging Face Hub, through the local Hugging Face cache.

One pinned file (the official release) or a snapshot of a repository at a revision (a
POLAR-format dataset published by anyone) is looked up in the cache first, so a copy fetched
once works offline (`HF_HUB_OFFLINE=1`); otherwise it is downloaded after one quick request
that fails at once when the Hub cannot be reached (huggingface_hub alone would retry for about
30 s). Every failure is a `HubUnavailable` whose message says what was tried and why it failed;
the caller adds the ways out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: Seconds to wait for the Hugging Face Hub before declaring it unreachable.
HUB_TIMEOUT = 5.0
#: The files of a POLAR-format dataset repository a snapshot fetches (the card and data files).
DATASET_FILES = (
    "README.md",
    "*.parquet",
    "*.json",
    "*.jsonl",
    "*.json.gz",
    "*.jsonl.gz",
)


class HubUnavailable(Exception):
    """A file or snapshot is neither in the local cache nor downloadable; says why."""


# huggingface_hub reads HF_HUB_OFFLINE, HF_HOME, HF_HUB_CACHE and HF_ENDPOINT once, at import;
# they are read again here on each call so that a setting made after import is honoured too.


def hub_offline() -> bool:
    """True when Hugging Face's offline mode is on (`HF_HUB_OFFLINE`, or `HF_DATASETS_OFFLINE`
    as `datasets` users set it)."""
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
    try:
        return Path(hf_hub_download(**where, local_files_only=True))
    except LocalEntryNotFoundError:
        pass
    if hub_offline():
        raise HubUnavailable("offline mode (HF_HUB_OFFLINE) is on and it is not in the cache")
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
    return (
        revision is not None
        and len(revision) == 40
        and all(char in "0123456789abcdef" for char in revision.lower())
    )


def fetch_snapshot(repo_id: str, revision: str | None) -> Path:
    """The local folder of dataset `repo_id` at `revision` (a commit, branch or tag; None: the
    default branch) holding its card and data files; the folder's name is the commit hash.

    A commit is taken from the cache when it is there. A branch or tag is resolved on the Hub
    (it may have moved since it was cached); offline, the cache's record of it is used.
    """
    from huggingface_hub import HfApi, snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    where: dict[str, Any] = dict(
        repo_id=repo_id,
        repo_type="dataset",
        cache_dir=hub_cache(),
        allow_patterns=list(DATASET_FILES),
    )
    if is_commit(revision) or hub_offline():
        try:
            return Path(snapshot_download(**where, revision=revision, local_files_only=True))
        except LocalEntryNotFoundError:
            if hub_offline():
                raise HubUnavailable(
                    "offline mode (HF_HUB_OFFLINE) is on and it is not in the cache"
                ) from None
    try:
        info = HfApi(endpoint=_endpoint()).dataset_info(
            repo_id, revision=revision, timeout=HUB_TIMEOUT
        )
        return Path(
            snapshot_download(
                **where, revision=info.sha, endpoint=_endpoint(), etag_timeout=HUB_TIMEOUT
            )
        )
    except Exception as exc:  # any network, HTTP or disk failure means "could not download"
        raise HubUnavailable(f"{type(exc).__name__}: {exc}") from exc
