"""The dataset card (README.md) of a POLAR-format Hugging Face dataset folder.

The YAML front matter (licence, `configs`, `dataset_info`) is written with the classes
`datasets` itself uses when it pushes a dataset.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from polar_inspect.axes import ATTACK_LABELS, ATTACK_TYPES, DOMAINS, POLICY_LABELS, POLICY_TYPES
from polar_inspect.data.hf_layout import DATA_DIR, PARQUET_SUFFIX, SPLIT
from polar_inspect.data.records import PolarRecord
from polar_inspect.generate.publish.licence import LICENCE, licence_statement
from polar_inspect.generate.publish.written import FolderWritten

#: What each top-level field of a record holds (fields the eval reads first).
FIELD_MEANINGS: dict[str, str] = {
    "sample_id": "unique id of the record (the sample id in Inspect logs)",
    "domain": "application domain (the benchmark's ten, or a domain of your own)",
    "metadata": "grid position and form: `privacy_level` (P1-P5, or 1-5), `privacy_type`, "
    "`attack_strength` (S1-S5, or 1-5), `attack_type`, `task_type`, `document_form`, ...",
    "generated_texts": "the texts of the dialogue: `source_document_text`, "
    "`privacy_policy_text`, `task_instruction_text`, `attacker_prompt_text` (the planned "
    "attacker turns, a JSON array of strings)",
    "scoring_targets": "`allowed_values` (finding them in replies is task success) and "
    "`do_not_disclose_values` (finding one is a leak)",
    "attack_setup": "the strategy again and `attack_spec`: `turns` (the turn budget) and "
    "`attacker_goal`",
    "hidden_target": "gold view: field names of withheld and allowed values and value maps "
    "(field names for the adaptive attacker and the strict scorer; not scored)",
    "source_document_inputs": "what the document was generated from (not read by the eval)",
    "prompts": "the prompts the texts were generated with (not read by the eval)",
    "generation_meta": "how the record was generated (not read by the eval)",
}
PRETTY_NAME = "POLAR-format privacy dialogues"


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


def schema_table(features: Any) -> list[str]:
    """Markdown rows: each column, its type and what it holds."""
    rows = ["| column | type | holds |", "|---|---|---|"]
    for name in features:
        kind = _type_name(features[name])
        meaning = FIELD_MEANINGS.get(name, "a field of your own (kept as it is, not read)")
        rows.append(f"| `{_cell(name)}` | {kind} | {meaning} |")
    return rows


def grid_table(records: Sequence[PolarRecord]) -> list[str]:
    """Markdown: samples per policy level (rows) x attack strategy (columns)."""
    cells = Counter((r.policy, r.attack) for r in records)
    head = " | ".join(f"{code} {ATTACK_LABELS[code]}" for code in ATTACK_TYPES)
    rows = [f"| policy \\ attack | {head} | total |", "|---|" + "---:|" * (len(ATTACK_TYPES) + 1)]
    for policy in POLICY_TYPES:
        counts = [cells[(policy, attack)] for attack in ATTACK_TYPES]
        row = " | ".join(str(n) for n in counts)
        rows.append(f"| {policy} {POLICY_LABELS[policy]} | {row} | {sum(counts)} |")
    return rows


def domain_table(records: Sequence[PolarRecord]) -> list[str]:
    """Markdown: samples per domain (the benchmark's ten in order, then any others)."""
    counts = Counter(r.domain for r in records)
    order = [d for d in DOMAINS if d in counts] + sorted(set(counts) - set(DOMAINS))
    rows = ["| domain | samples | grid cells covered |", "|---|---:|---:|"]
    for domain in order:
        covered = len({(r.policy, r.attack) for r in records if r.domain == domain})
        rows.append(f"| {_cell(domain)} | {counts[domain]} | {covered} of 25 |")
    return rows


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
        features=features,
        splits=splits,
        download_size=download_size,
        dataset_size=arrow_bytes,
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
    shards = zip(written.files, written.digests, strict=True)
    template = Path(__file__).parent.parent / "templates" / "hf_card.txt"
    body = template.read_text(encoding="utf-8").format(
        pretty_name=PRETTY_NAME,
        records=len(records),
        repo=repo_id or "<owner>/<name>",
        where=(
            f"`<commit>` is the commit `polar-generate --push {repo_id}` printed"
            if repo_id
            else "`<owner>/<name>` is the dataset repository this folder is pushed to "
            "(`polar-generate --format hf --push OWNER/NAME` fills it in here and uploads it) "
            "and `<commit>` the commit it printed"
        ),
        split=SPLIT,
        sha256=written.sha256,
        digest_rule=(
            "the sha256 of its one data file."
            if len(written.files) == 1
            else "the sha256 of the data files' sha256 digests in order, one per line."
        ),
        shards="\n".join(f"| `{name}` | `{digest}` |" for name, digest in shards),
        provenance=f"## Provenance\n\n{provenance}\n\n" if provenance else "",
        grid="\n".join(grid_table(records)),
        domains="\n".join(domain_table(records)),
        schema="\n".join(schema_table(features)),
        licence=licence_statement(),
    )
    return f"---\n{data.to_yaml()}\n---\n\n" + body
