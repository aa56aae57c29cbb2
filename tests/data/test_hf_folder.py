"""POLAR-format data the Hugging Face way: dataset folders (Parquet shards and a card), read by
`datasets` and by `-T data=`, locally and from a (local) Hub cache by name and revision."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from polar_inspect.data import (
    DataSource,
    DataSourceError,
    PolarRecord,
    RecordError,
    RecordProblem,
    load_source,
    resolve_source,
)
from polar_inspect.data.hf_folder import FolderError, datasets_missing, find_data_files
from polar_inspect.data.json_text import loads_tracking_repeats
from polar_inspect.generate.publish.hf_folder import shard_ranges, write_folder
from tests.data.conftest import make_record, write_jsonl

COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPO = "team/polar-set"


def odd_records() -> list[dict[str, Any]]:
    """Valid records whose fields vary in shape from one record to the next."""
    return [
        make_record(1),
        make_record(
            2,
            "travel",
            attack_setup=...,
            hidden_target="withheld: name",  # a text where others hold an object
            release_note=None,  # an explicit null
            **{
                "scoring_targets.allowed_values": ["cough", 3, 637.3456789012345, [41, "x7"]],
                "metadata.privacy_level": 3,
                "metadata.privacy_type": "conditional_constraints",
            },
        ),
        make_record(3, "hr_Intake", generation_meta=[1, {"a": None}], prompts=...),
    ]


def _exact(records: list[dict[str, Any]]) -> str:
    """The records as JSON text, top-level keys sorted: equal texts, equal records and types."""
    return json.dumps([{key: record[key] for key in sorted(record)} for record in records])


def _records(folder: Path) -> list[PolarRecord]:
    return load_source(resolve_source(str(folder)), use_cache=False)


def _only_problem(folder: Path) -> RecordProblem:
    """The one problem loading `folder` reports."""
    with pytest.raises(RecordError) as caught:
        _records(folder)
    (problem,) = caught.value.problems
    return problem


def _one_shard(out: Path, records: list[dict[str, Any]]) -> tuple[Path, pa.Table]:
    """Write `records` as a one-shard folder at `out`: the shard's path and its table."""
    write_folder(records, out)
    shard = out / find_data_files(out).files[0]
    return shard, pq.read_table(shard)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    out = tmp_path / "polar_hf"
    write_folder(odd_records(), out, max_shard_bytes=1)  # one record per shard
    return out


def test_records_go_through_a_folder_unchanged(folder: Path) -> None:
    from polar_inspect.data.hf_folder import parse_shards, read_shards

    files = find_data_files(folder).files
    assert files == tuple(f"data/test-{i:05d}-of-00003.parquet" for i in range(3))
    raw = []
    for name in files:
        table = pq.read_table(folder / name)
        from polar_inspect.data.parquet_records import table_records

        raw += table_records(table, name)[0]
    # Exact: types and nested key order kept (the top level follows the columns' order).
    assert _exact(raw) == _exact(odd_records())
    records = parse_shards(folder, read_shards(folder, files, str(folder)), str(folder))
    assert records == [PolarRecord.model_validate(r) for r in odd_records()]


def test_datasets_reads_the_folder(folder: Path) -> None:
    import datasets

    loaded = datasets.load_dataset(str(folder), split="test")
    assert loaded.num_rows == 3
    assert loaded[0]["sample_id"] == "medical_000001"
    assert loaded[1]["hidden_target"] == "withheld: name"


def test_the_card_declares_configs_features_grid_and_licence(folder: Path) -> None:
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(folder / "README.md")
    assert card.data.license == "mit"
    assert card.data.configs == [
        {"config_name": "default", "data_files": [{"split": "test", "path": "data/test-*.parquet"}]}
    ]
    features = {f["name"] for f in card.data.dataset_info["features"]}
    assert {"sample_id", "scoring_targets", "generated_texts"} <= features
    (split,) = card.data.dataset_info["splits"]
    assert (split["name"], split["num_examples"]) == ("test", 3) and split["num_bytes"] > 0
    shards = sum(p.stat().st_size for p in (folder / "data").iterdir())
    assert card.data.dataset_info["download_size"] == shards
    text = card.text
    assert "| P1 Explicit | 0 | 2 | 0 | 0 | 0 | 2 |" in text  # policy x attack grid
    assert "| P3 Conditional | 0 | 1 | 0 | 0 | 0 | 1 |" in text
    assert "| hr_Intake | 1 | 1 of 25 |" in text and "| travel | 1 | 1 of 25 |" in text
    assert "## Licence" in text and "| `generated_texts` | struct |" in text
    assert "| `scoring_targets` | JSON text |" in text  # numbers among the texts: exact as JSON


def test_a_folder_is_a_data_source_with_the_documented_digest(folder: Path) -> None:
    source = resolve_source(str(folder))
    digests = [hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in source.files]
    expected = hashlib.sha256("".join(f"{d}\n" for d in digests).encode()).hexdigest()
    assert source == DataSource(
        kind="folder",
        path=str(folder.resolve()),
        sha256=expected,
        split="test",
        files=tuple(f"data/test-{i:05d}-of-00003.parquet" for i in range(3)),
    )
    assert [r.sample_id for r in load_source(source)] == [
        "medical_000001",
        "travel_000002",
        "hr_Intake_000003",
    ]


def test_one_shard_is_named_by_its_own_sha256(tmp_path: Path) -> None:
    out = tmp_path / "one"
    written = write_folder([make_record(1)], out)
    (name,) = written.files
    assert written.sha256 == hashlib.sha256((out / name).read_bytes()).hexdigest()
    assert resolve_source(str(out)).sha256 == written.sha256


def test_a_changed_shard_after_resolving_is_refused(folder: Path) -> None:
    source = resolve_source(str(folder))
    write_folder([make_record(9)], folder.with_name("other"))
    (other,) = (folder.with_name("other") / "data").iterdir()
    (folder / source.files[1]).write_bytes(other.read_bytes())
    with pytest.raises(DataSourceError, match="changed while it was being loaded"):
        load_source(source)


def test_the_writer_refuses_an_existing_folder_and_invalid_records(
    folder: Path, tmp_path: Path
) -> None:
    with pytest.raises(FolderError, match="not an empty folder"):
        write_folder([make_record(1)], folder)
    bad = make_record(2, **{"attack_setup.attack_spec.turns": 0})
    with pytest.raises(RecordError, match="index 1.*turns: must be a positive whole number"):
        write_folder([make_record(1), bad], tmp_path / "new")
    assert not (tmp_path / "new").exists()


def test_shards_hold_consecutive_records_of_about_the_size() -> None:
    assert shard_ranges(5, 40, 10) == [range(0, 2), range(2, 4), range(4, 5)]
    assert shard_ranges(5, 40, 1) == [range(i, i + 1) for i in range(5)]
    assert shard_ranges(2, 10, 100) == [range(0, 2)]


# --- what a folder must hold ------------------------------------------------------------------


def _parquet(path: Path, table: pa.Table) -> None:
    """Write a shard; in a written folder, its row of the card's sha256 table too (as a user
    who edits a shard must: a stale table refuses the folder)."""
    old = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    card = path.parent.parent / "README.md"
    if old is not None and card.is_file():
        new = hashlib.sha256(path.read_bytes()).hexdigest()
        card.write_text(card.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _json_column(texts: list[str | None]) -> pa.Array:
    return pa.ExtensionArray.from_storage(pa.json_(), pa.array(texts, pa.string()))


def test_a_rule_broken_in_a_shard_names_the_shard_row_and_field(tmp_path: Path) -> None:
    out = tmp_path / "bad"
    shard, table = _one_shard(out, [make_record(1), make_record(2)])
    targets = table.column("scoring_targets").to_pylist()
    targets[1]["allowed_values"] = ["Lena Frei"]  # also protected
    table = table.set_column(
        table.schema.get_field_index("scoring_targets"), "scoring_targets", pa.array(targets)
    )
    _parquet(shard, table)
    with pytest.raises(RecordError) as caught:
        _records(out)
    (problem,) = caught.value.problems
    assert caught.value.path == str(shard.resolve())
    assert problem.record == "record 'medical_000002' (row 1)"
    assert problem.field == "scoring_targets.do_not_disclose_values"


def test_a_key_repeated_inside_a_json_column_is_refused(tmp_path: Path) -> None:
    shard, table = _one_shard(tmp_path / "dup", [make_record(1)])
    text = '{"withheld_fields": ["name"], "withheld_fields": []}'
    assert loads_tracking_repeats(text)  # valid JSON, but the key repeats
    column = table.schema.get_field_index("hidden_target")
    _parquet(shard, table.set_column(column, "hidden_target", _json_column([text])))
    problem = _only_problem(tmp_path / "dup")
    assert problem.field == "hidden_target.withheld_fields"
    assert "appears 2 times" in problem.message


def test_a_column_without_an_exact_json_form_is_refused(tmp_path: Path) -> None:
    shard, table = _one_shard(tmp_path / "odd", [make_record(1)])
    _parquet(shard, table.append_column("seen", pa.array([1.5], pa.float32())))
    problem = _only_problem(tmp_path / "odd")
    assert "column 'seen': Arrow type float has no exact JSON form" in problem.message


def test_the_same_sample_id_in_two_shards_names_both(tmp_path: Path) -> None:
    out = tmp_path / "twice"
    write_folder([make_record(1), make_record(2), make_record(1, "travel")], out, max_shard_bytes=1)
    first = pq.read_table(out / "data/test-00000-of-00003.parquet")
    _parquet(out / "data/test-00002-of-00003.parquet", first)
    problem = _only_problem(out)
    assert problem.record == "record 'medical_000001' (index 0 of data/test-00002-of-00003.parquet)"
    assert "index 0 of data/test-00000-of-00003.parquet" in problem.message


def test_a_folder_of_jsonl_files_is_read_like_parquet(tmp_path: Path) -> None:
    out = tmp_path / "lines"
    (out / "data").mkdir(parents=True)
    write_jsonl(out / "data" / "test.jsonl", [make_record(1), make_record(2, "legal")])
    source = resolve_source(str(out))
    assert source.files == ("data/test.jsonl",)
    assert [r.sample_id for r in load_source(source)] == ["medical_000001", "legal_000002"]


def test_a_folder_with_several_splits_needs_one_named(tmp_path: Path) -> None:
    out = tmp_path / "splits"
    (out / "data").mkdir(parents=True)
    write_jsonl(out / "data" / "train.jsonl", [make_record(1)])
    write_jsonl(out / "data" / "test.jsonl", [make_record(2)])
    with pytest.raises(DataSourceError, match="holds the splits .*name the split"):
        resolve_source(str(out))
    source = resolve_source(f"{out}#train")
    assert (source.split, source.files) == ("train", ("data/train.jsonl",))
    with pytest.raises(DataSourceError, match="has no split 'dev'"):
        resolve_source(f"{out}#dev")


def test_without_datasets_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "datasets" else real(name, *a)
    )
    message = datasets_missing()
    assert message is not None and "[hf] extra" in message and "pip install" in message
    with pytest.raises(DataSourceError, match=r"\[hf\] extra"):
        resolve_source(f"hf:{REPO}@{COMMIT}")


# --- a dataset on the Hub, by name and revision (a local Hub cache, offline) -------------------


def fill_hub_snapshot(
    hub: Path, repo_id: str, commit: str, folder: Path, ref: str = "main"
) -> Path:
    """Lay `folder`'s files out as huggingface_hub caches a dataset repository's snapshot."""
    repo = hub / f"datasets--{repo_id.replace('/', '--')}"
    snapshot = repo / "snapshots" / commit
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        content = path.read_bytes()
        blob = repo / "blobs" / hashlib.sha256(content).hexdigest()
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(content)
        pointer = snapshot / path.relative_to(folder)
        pointer.parent.mkdir(parents=True, exist_ok=True)
        depth = len(pointer.relative_to(repo).parts) - 1
        pointer.symlink_to(Path(*[".."] * depth) / "blobs" / blob.name)
    (repo / "refs").mkdir(exist_ok=True)
    (repo / "refs" / ref).write_text(commit)
    return snapshot


@pytest.fixture
def on_hub(folder: Path, tmp_path: Path) -> Path:
    return fill_hub_snapshot(tmp_path / "hf_home" / "hub", REPO, COMMIT, folder)


@pytest.mark.parametrize("spec", [f"hf:{REPO}@{COMMIT}", f"hf:{REPO}", f"hf:{REPO}@main"])
def test_a_hub_dataset_runs_by_name_and_revision_offline(
    on_hub: Path, folder: Path, spec: str
) -> None:
    source = resolve_source(spec)
    assert (source.kind, source.repo_id, source.revision) == ("hub", REPO, COMMIT)
    assert source.path == str(on_hub.resolve())
    assert source.sha256 == resolve_source(str(folder)).sha256  # the same bytes
    records = load_source(source)
    assert [r.sample_id for r in records] == [r["sample_id"] for r in odd_records()]


def test_datasets_offline_flag_is_honoured_too(
    on_hub: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    assert resolve_source(f"hf:{REPO}@main").revision == COMMIT  # no request to the Hub


def test_a_hub_dataset_not_in_the_cache_offline_says_the_ways_out(on_hub: Path) -> None:
    with pytest.raises(DataSourceError, match="Could not get the Hugging Face dataset") as caught:
        resolve_source(f"hf:{REPO}@{'f' * 40}")
    message = str(caught.value)
    assert "HF_HUB_OFFLINE" in message and "-T data=/path/to/folder" in message
    with pytest.raises(DataSourceError, match="not in the cache"):
        resolve_source("hf:team/other-set")


@pytest.mark.parametrize("spec", ["hf:", "hf:team", "hf:team/set@", "hf:team/set#", "hf:/x/y"])
def test_a_malformed_hub_name_is_a_clear_error(spec: str) -> None:
    with pytest.raises(DataSourceError, match="hf:OWNER/NAME@REVISION"):
        resolve_source(spec)


@pytest.mark.slow
def test_an_eval_runs_on_a_hub_dataset_and_logs_its_identity(on_hub: Path, tmp_path: Path) -> None:
    from tests.helpers import run

    log = run("polar_inspect/privacy", "polar/oracle", tmp_path / "logs", data=f"hf:{REPO}@main")
    assert log.samples is not None and len(log.samples) == 3
    meta = log.eval.metadata["data_source"]
    assert (meta["kind"], meta["repo_id"], meta["revision"]) == ("hub", REPO, COMMIT)
    assert meta["sha256"] == resolve_source(f"hf:{REPO}@{COMMIT}").sha256
