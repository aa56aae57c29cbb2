"""A dataset folder's files against their shard names and its card (data/folder_card.py)."""

from __future__ import annotations

from pathlib import Path

from polar_inspect.data.folder_card import (
    CardClaims,
    digest_problem,
    examples_problem,
    read_card,
    shard_name_problem,
)

A, B = "a" * 64, "b" * 64


def test_shard_names_must_be_complete_and_agree() -> None:
    full = [f"data/test-{i:05d}-of-00003.parquet" for i in range(3)]
    assert shard_name_problem(full) is None
    assert shard_name_problem(["data/test.jsonl", "data/other.json"]) is None
    problem = shard_name_problem([full[0], full[2]])
    assert problem == "3 shards of data/test are named but 2 are there (missing: 00001)"
    mixed = [*full[:2], "data/test-00002-of-00004.parquet"]
    assert "different shard counts ([3, 4])" in (shard_name_problem(mixed) or "")


def test_the_cards_digest_table_must_name_exactly_the_files() -> None:
    claims = CardClaims(digests={"data/x.parquet": A, "data/y.parquet": B})
    assert digest_problem(claims, ["data/x.parquet", "data/y.parquet"], [A, B]) is None
    assert "lists data/y.parquet, not in the folder" in (
        digest_problem(claims, ["data/x.parquet"], [A]) or ""
    )
    extra = digest_problem(claims, ["data/x.parquet", "data/y.parquet", "data/z.parquet"], [A] * 3)
    assert extra == "data/z.parquet not in the card's sha256 table"
    assert "data/y.parquet differ" in (
        digest_problem(claims, ["data/x.parquet", "data/y.parquet"], [A, A]) or ""
    )
    assert digest_problem(CardClaims(), ["data/anything.json"], [A]) is None


def test_example_counts_are_compared_per_split() -> None:
    claims = CardClaims(examples={"test": 10})
    assert examples_problem(claims, "test", 10) is None
    assert examples_problem(claims, "train", 3) is None  # the card does not say
    assert examples_problem(claims, "test", 8) == (
        "the card says the test split has 10 records, its data files hold 8"
    )


def test_the_card_is_read_from_front_matter_and_table(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(
        "---\ndataset_info:\n- config_name: other\n  splits:\n  - name: test\n    num_examples: 1\n"
        "- config_name: default\n  splits:\n  - name: test\n    num_examples: 7\n"
        "    num_bytes: 12\n---\n\n| data file | sha256 |\n|---|---|\n"
        f"| `data/x.parquet` | `{A}` |\n",
        encoding="utf-8",
    )
    assert read_card(tmp_path) == CardClaims(digests={"data/x.parquet": A}, examples={"test": 7})
    assert read_card(tmp_path / "missing") == CardClaims()
    (tmp_path / "README.md").write_text("---\n: [unclosed\n---\nno table\n", encoding="utf-8")
    assert read_card(tmp_path) == CardClaims()
