"""The layout of a POLAR-format Hugging Face dataset folder: the names its writer, reader and
card share (`data/hf_folder.py`, `generate/publish/`)."""

from __future__ import annotations

#: The split a POLAR-format folder holds (a benchmark's records are its test split).
SPLIT = "test"
#: Folder of the data shards, as the Hub lays them out.
DATA_DIR = "data"
#: Name ending of the Parquet shards.
PARQUET_SUFFIX = ".parquet"
#: Name endings of a JSON / JSONL records file (a local file, or a folder's data file).
JSON_SUFFIXES = (".json", ".jsonl", ".json.gz", ".jsonl.gz")
