"""What writing a dataset folder produced."""

from __future__ import annotations

from pydantic import BaseModel


class FolderWritten(BaseModel):
    """What `write_folder` wrote: the data files, their digests and the dataset's digest."""

    #: Data files relative to the folder, in order, and the sha256 of each.
    files: list[str]
    digests: list[str]
    #: The digest `-T data=` records for the folder (`shards_digest`).
    sha256: str
    #: Bytes of all data files.
    bytes: int
