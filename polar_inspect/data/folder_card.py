"""A dataset folder read against what it says about itself (docs/data.md): shard names, the
card's sha256 table and `num_examples`, each checked only when the folder states it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

#: A shard name: `<stem>-<index>-of-<count>.<suffix>` (five digits each, or more).
_SHARD = re.compile(r"^(?P<stem>.+)-(?P<index>\d{5,})-of-(?P<count>\d{5,})\.[\w.]+$")
#: One row of the card's integrity table.
_DIGEST_ROW = re.compile(r"^\|\s*`(?P<name>[^`]+)`\s*\|\s*`(?P<sha>[0-9a-f]{64})`\s*\|\s*$")
_FRONT_MATTER = re.compile(r"\A\s*---\s*\n(.*?)\n---\s*(\n|\Z)", re.DOTALL)
#: How many differing names a message shows.
_SHOWN = 3


class CardClaims(BaseModel):
    """What a folder's card states about its data (None / empty: the card does not say)."""

    model_config = ConfigDict(frozen=True)

    #: Data file (relative to the folder) -> sha256, from the integrity table.
    digests: dict[str, str] = {}
    #: Split name -> number of records, from `dataset_info`.
    examples: dict[str, int] = {}


def _front_matter(text: str) -> dict[str, Any]:
    import yaml

    if not (match := _FRONT_MATTER.match(text)):
        return {}
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}  # `datasets` itself refuses such a card
    return data if isinstance(data, dict) else {}


def _split_sizes(info: Any) -> dict[str, int]:
    """Split name -> num_examples of `dataset_info` (its `default` config, else the first)."""
    if isinstance(info, list):
        named = [i for i in info if isinstance(i, dict)]
        info = next((i for i in named if i.get("config_name") == "default"), None) or (
            named[0] if named else None
        )
    splits = info.get("splits") if isinstance(info, dict) else None
    sizes: dict[str, int] = {}
    for split in splits if isinstance(splits, list) else []:
        if isinstance(split, dict) and isinstance(split.get("num_examples"), int):
            sizes[str(split.get("name"))] = split["num_examples"]
    return sizes


def read_card(folder: Path) -> CardClaims:
    """The claims of `folder`'s README.md (none when there is no card)."""
    try:
        text = (folder / "README.md").read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return CardClaims()
    rows = (_DIGEST_ROW.match(line.strip()) for line in text.splitlines())
    return CardClaims(
        digests={row["name"]: row["sha"] for row in rows if row},
        examples=_split_sizes(_front_matter(text).get("dataset_info")),
    )


def _shown(names: Sequence[str]) -> str:
    more = f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else ""
    return ", ".join(names[:_SHOWN]) + more


def shard_name_problem(files: Sequence[str]) -> str | None:
    """Why the shard names of `files` say a shard is missing, or None."""
    groups: dict[str, tuple[set[int], set[int]]] = {}
    for name in files:
        if match := _SHARD.match(Path(name).name):
            indexes, counts = groups.setdefault(
                str(Path(name).parent / match["stem"]), (set(), set())
            )
            indexes.add(int(match["index"]))
            counts.add(int(match["count"]))
    for stem, (indexes, counts) in groups.items():
        if len(counts) > 1:
            return f"the shards of {stem} name different shard counts ({sorted(counts)})"
        (count,) = counts
        if missing := [f"{index:05d}" for index in range(count) if index not in indexes]:
            return (
                f"{count} shards of {stem} are named but {len(indexes)} are there "
                f"(missing: {_shown(missing)})"
            )
    return None


def digest_problem(claims: CardClaims, files: Sequence[str], digests: Sequence[str]) -> str | None:
    """Why the data files differ from the card's integrity table, or None (no table: None)."""
    if not claims.digests:
        return None
    listed = claims.digests
    if missing := [name for name in listed if name not in files]:
        return f"the card lists {_shown(missing)}, not in the folder"
    if unlisted := [name for name in files if name not in listed]:
        return f"{_shown(unlisted)} not in the card's sha256 table"
    changed = [name for name, digest in zip(files, digests, strict=True) if listed[name] != digest]
    if changed:
        return (
            f"{_shown(changed)} differ from the sha256 the card gives (edited since the card "
            "was written? write the folder again, or correct the card's table)"
        )
    return None


def examples_problem(claims: CardClaims, split: str, count: int) -> str | None:
    """Why `count` records differ from the card's `num_examples` for `split`, or None."""
    expected = claims.examples.get(split)
    if expected is None or expected == count:
        return None
    return f"the card says the {split} split has {expected} records, its data files hold {count}"


def folder_problem(folder: Path, files: Sequence[str], digests: Sequence[str]) -> str | None:
    """The first way the folder's files differ from their names or its card, or None."""
    return shard_name_problem(files) or digest_problem(read_card(folder), files, digests)
