"""Uploading a written dataset folder to the Hugging Face Hub (`polar-generate --push`)."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel

from polar_inspect.data.hf_folder import require_datasets
from polar_inspect.data.hub import hub_offline
from polar_inspect.data.sources import REPO_ID


class PushError(ValueError):
    """The upload failed; the message says why in one line."""


class Pushed(BaseModel):
    """Where a folder was uploaded: the repository, the commit, and the `-T data=` to run it."""

    repo_id: str
    revision: str
    url: str

    @property
    def data_argument(self) -> str:
        """The task parameter that runs exactly these files."""
        return f"hf:{self.repo_id}@{self.revision}"


def check_repo_id(repo_id: str) -> None:
    """ValueError naming the form unless `repo_id` reads as OWNER/NAME."""
    if not REPO_ID.fullmatch(repo_id):
        raise ValueError(f"--push {repo_id!r}: give the dataset repository as OWNER/NAME")


def push_folder(folder: Path, repo_id: str) -> Pushed:
    """Create the dataset repository `repo_id` if needed and upload `folder` in one commit
    (PushError: one line)."""
    require_datasets()
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, LocalTokenNotFoundError

    if hub_offline():
        raise PushError(f"--push {repo_id}: HF_HUB_OFFLINE is set; unset it to upload")
    api = HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=False, exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo_id,
            repo_type="dataset",
            folder_path=str(folder),
            commit_message=f"Upload {folder.name} (polar-generate)",
        )
    except LocalTokenNotFoundError:
        raise PushError(
            f"--push {repo_id}: no Hugging Face token; run `hf auth login` or set HF_TOKEN "
            "to a token with write access"
        ) from None
    except (HfHubHTTPError, OSError, ValueError) as exc:
        reason = " ".join(str(exc).split())
        raise PushError(f"--push {repo_id}: the upload failed ({reason})") from None
    return Pushed(repo_id=repo_id, revision=commit.oid, url=commit.commit_url)
