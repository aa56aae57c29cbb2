"""The layout of a POLAR-format Hugging Face dataset folder: the names its writer, reader and
card share (`hf_folder.py`, `hf_card.py`)."""

from __future__ import annotations

from pydantic import BaseModel

#: The split a POLAR-format folder holds (a benchmark's records are its test split).
SPLIT = "test"
#: Folder of the data shards, as the Hub lays them out.
DATA_DIR = "data"
#: Name ending of the Parquet shards.
PARQUET_SUFFIX = ".parquet"


class FolderWritten(BaseModel):
    """What `write_folder` wrote: the data files, their digests and the dataset's digest."""

    #: Data files relative to the folder, in order, and the sha256 of each.
    files: list[str]
    digests: list[str]
    #: The digest `-T data=` records for the folder (`shards_digest`).
    sha256: str
    #: Bytes of all data files.
    bytes: int
