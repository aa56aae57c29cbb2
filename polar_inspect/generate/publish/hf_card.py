"""The dataset card (README.md) of a POLAR-format Hugging Face dataset folder
(docs/generator.md)."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES
from polar_inspect.data.hf_layout import DATA_DIR, PARQUET_SUFFIX, SPLIT
from polar_inspect.data.records import PolarRecord
from polar_inspect.generate.publish.licence import LICENCE, render_template

PRETTY_NAME = "POLAR-format privacy dialogues"


class FolderWritten(BaseModel):
    """What `hf_folder.write_folder` wrote (the card lists it): data files and their digests."""

    #: Data files relative to the folder, in order, and the sha256 of each.
    files: list[str]
    digests: list[str]
    #: The digest `-T data=` records for the folder (`shards_digest`).
    sha256: str
    #: Bytes of all data files.
    bytes: int


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell (no HTML, no column break)."""
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def _size_category(count: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")]
    return next((label for bound, label in bounds if count < bound), "100K<n<1M")


def _type_name(feature: Any) -> str:
    """A feature's type in words: `string`, `JSON text`, `struct`, `list of string`."""
    kind = type(feature).__name__
    if isinstance(feature, dict):
        return "struct"
    if kind == "Value":
        return str(feature.dtype)
    if kind == "Json":
        return "JSON text"
    if kind in ("List", "LargeList", "Sequence"):
        return f"list of {_type_name(feature.feature)}"
    return kind


def _domains(records: Sequence[PolarRecord]) -> list[tuple[str, int, int]]:
    """Per domain (the benchmark's ten in order, then any others): samples, grid cells covered."""
    counts = Counter(r.domain for r in records)
    order = [d for d in DOMAINS if d in counts] + sorted(set(counts) - set(DOMAINS))
    cells = {d: len({(r.policy, r.attack) for r in records if r.domain == d}) for d in order}
    return [(domain, counts[domain], cells[domain]) for domain in order]


def card_data(
    records: Sequence[PolarRecord], features: Any, download_size: int, arrow_bytes: int
) -> Any:
    """The card's YAML front matter as huggingface_hub's DatasetCardData."""
    from datasets import DatasetInfo, SplitDict, SplitInfo
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCardData

    data = DatasetCardData(
        license=LICENCE,
        pretty_name=PRETTY_NAME,
        tags=["privacy", "contextual-integrity", "benchmark", "dialogue", "polar-bench"],
        task_categories=["text-generation"],
        size_categories=[_size_category(len(records))],
    )
    pattern = f"{DATA_DIR}/{SPLIT}-*{PARQUET_SUFFIX}"
    MetadataConfigs(
        {"default": {"data_files": [{"split": SPLIT, "path": pattern}]}}
    ).to_dataset_card_data(data)
    splits = SplitDict()
    splits.add(SplitInfo(name=SPLIT, num_bytes=arrow_bytes, num_examples=len(records)))
    info = DatasetInfo(
        features=features, splits=splits, download_size=download_size, dataset_size=arrow_bytes
    )
    DatasetInfosDict({"default": info}).to_dataset_card_data(data)
    return data


def render_card(
    records: Sequence[PolarRecord],
    *,
    features: Any,
    written: FolderWritten,
    arrow_bytes: int,
    provenance: str = "",
    repo_id: str | None = None,
) -> str:
    """The whole README.md (deterministic); `repo_id`, when known, goes into the commands."""
    data = card_data(records, features, written.bytes, arrow_bytes)
    grid = Counter((r.policy, r.attack) for r in records)
    body = render_template(
        "hf_card.txt",
        pretty_name=PRETTY_NAME,
        records=len(records),
        repo=repo_id or "<owner>/<name>",
        repo_id=repo_id,
        split=SPLIT,
        sha256=written.sha256,
        shards=list(zip(written.files, written.digests, strict=True)),
        provenance=provenance,
        grid=grid,
        grid_totals={p: sum(grid[(p, s)] for s in ATTACK_TYPES) for p in POLICY_TYPES},
        domains=_domains(records),
        columns=[(name, _type_name(features[name])) for name in features],
        cell=_cell,
    )
    return f"---\n{data.to_yaml()}\n---\n\n" + body
