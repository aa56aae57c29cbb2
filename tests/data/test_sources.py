"""resolve_source / load_source: the three kinds of source, their errors, and the parsed cache."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import time
from pathlib import Path

import huggingface_hub.constants
import pytest

import polar_inspect
from polar_inspect.data import (
    OFFICIAL_RELEASE,
    DataSource,
    DataSourceError,
    OfficialRelease,
    RecordError,
    bundled_path,
    load_records,
    load_source,
    parse_records,
    record_to_sample,
    resolve_source,
)
from polar_inspect.data import sources as sources_module
from tests.data.conftest import (
    FILENAME,
    REVISION,
    fill_hf_cache,
    make_record,
    write_json,
    write_jsonl,
)

WAYS_OUT = ("-T data=bundled", "HF_HUB_OFFLINE=1", "-T data=/path/to/file.json")


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    """A small valid release file: three records, one without attack_setup, one with extras."""
    records = [
        make_record(1),
        make_record(2, "travel", attack_setup=..., release_note="kept"),
        make_record(
            3,
            "legal",
            **{
                "metadata.privacy_level": "P4",
                "metadata.privacy_type": "compositional_constraints",
            },
        ),
    ]
    return write_json(tmp_path / "release.json", records)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cache_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "polar_cache").glob("records/*.json"))


# --- path -------------------------------------------------------------------------------------


def test_a_path_resolves_to_itself_with_its_hash(data_file: Path, tmp_path: Path) -> None:
    source = resolve_source(str(data_file))
    assert source == DataSource(kind="path", path=str(data_file), sha256=_sha256(data_file))
    lines = write_jsonl(tmp_path / "release.jsonl", [make_record(1)])
    assert resolve_source(str(lines)).sha256 == _sha256(lines)


@pytest.mark.parametrize(
    "name, complaint",
    [("absent.json", "nor an existing file or folder"),
     ("records.csv", "expected a .json"),
     ("folder.json", "holds no data files")],
)  # fmt: skip
def test_a_bad_path_is_a_clear_error(tmp_path: Path, name: str, complaint: str) -> None:
    (tmp_path / "records.csv").write_text("sample_id,domain\n")
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(DataSourceError, match="data=") as caught:
        resolve_source(str(tmp_path / name))
    assert complaint in str(caught.value) and name in str(caught.value)


# --- bundled ----------------------------------------------------------------------------------


def test_bundled_defaults_to_the_repo_datasets_folder() -> None:
    repo_root = Path(polar_inspect.__file__).resolve().parents[1]
    assert bundled_path() == repo_root / "datasets" / "polar_bundled.json.gz"


def test_bundled_honours_the_override(data_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLAR_BUNDLED_PATH", str(data_file))
    source = resolve_source("bundled")
    assert (source.kind, source.path, source.sha256) == (
        "bundled",
        str(data_file),
        _sha256(data_file),
    )
    assert [r.sample_id for r in load_source(source)] == [
        "medical_000001",
        "travel_000002",
        "legal_000003",
    ]


def test_an_unbuilt_bundled_set_says_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources_module, "_REPO_ROOT", tmp_path)
    with pytest.raises(DataSourceError, match="not built") as caught:
        resolve_source("bundled")
    assert "polar-generate --out datasets/polar_bundled.json" in str(caught.value)
    assert str(tmp_path / "datasets" / "polar_bundled.json") in str(caught.value)


def test_a_missing_override_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLAR_BUNDLED_PATH", str(tmp_path / "nowhere.json"))
    with pytest.raises(DataSourceError, match="POLAR_BUNDLED_PATH points at .*nowhere.json"):
        resolve_source("bundled")


# --- official ---------------------------------------------------------------------------------


def test_official_offline_with_an_empty_cache_fails_at_once_with_ways_out() -> None:
    started = time.monotonic()
    with pytest.raises(DataSourceError, match="Could not download") as caught:
        resolve_source("official")
    assert time.monotonic() - started < 2
    assert all(way in str(caught.value) for way in WAYS_OUT)


def test_ways_out_wrap_at_80_columns_between_words() -> None:
    with pytest.raises(DataSourceError) as caught:
        resolve_source("official")
    message = str(caught.value)
    lines = message.splitlines()
    assert len(lines) > 4 and all(len(line) <= 80 for line in lines), message
    assert any(line.startswith("    ") for line in lines)  # a way wrapped onto a second line
    for way in WAYS_OUT:  # each kept whole on one line
        assert any(way in line for line in lines), way


def test_ways_out_never_splits_a_word() -> None:
    long_way = "word " * 30 + "-T data=/a/very/long/path/that/must/stay/whole.json"
    text = sources_module.ways_out("a-problem " * 20, long_way, width=40)
    lines = text.splitlines()
    assert all(len(line) <= 40 for line in lines if "/" not in line)
    words = " ".join(line.strip().removeprefix("- ") for line in lines).split()
    assert words == ("a-problem " * 20 + "Ways out: " + long_way).split()


def test_official_unreachable_hub_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:  # a local port nobody listens on: connection refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)  # read at import
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    started = time.monotonic()
    with pytest.raises(DataSourceError, match="Could not download") as caught:
        resolve_source("official")
    assert time.monotonic() - started < 5
    assert "Connect" in str(caught.value)
    assert all(way in str(caught.value) for way in WAYS_OUT)


def test_official_from_a_prefilled_cache(data_file: Path, tmp_path: Path) -> None:
    pointer = fill_hf_cache(tmp_path / "hf_home" / "hub", data_file.read_bytes())
    release = OfficialRelease(sha256=_sha256(data_file))
    source = resolve_source("official", official=release)
    assert source == DataSource(
        kind="official",
        path=str(pointer),
        sha256=release.sha256,
        revision=REVISION,
        repo_id=release.repo_id,
    )
    assert source.path.endswith(FILENAME)
    assert len(load_source(source)) == 3


def test_official_with_the_wrong_bytes_names_both_hashes(data_file: Path, tmp_path: Path) -> None:
    pointer = fill_hf_cache(tmp_path / "hf_home" / "hub", data_file.read_bytes())
    with pytest.raises(DataSourceError, match="sha256") as caught:
        resolve_source("official")  # the pinned release hash, not the fixture's
    message = str(caught.value)
    assert _sha256(data_file) in message and OFFICIAL_RELEASE.sha256 in message
    assert str(pointer) in message


# --- load_source and its cache ----------------------------------------------------------------


def test_cached_and_fresh_loads_are_equivalent_for_the_eval(
    data_file: Path, tmp_path: Path
) -> None:
    source = resolve_source(str(data_file))
    cold = load_source(source)
    assert len(_cache_files(tmp_path)) == 1
    cached = load_source(source)
    assert cached == cold
    full = load_records(data_file)
    for fast, complete in zip(cached, full, strict=True):
        assert fast.prompts is fast.generation_meta is fast.source_document_inputs is None
        assert fast.model_extra == complete.model_extra
        assert fast.hidden_target == complete.hidden_target
        a, b = record_to_sample(fast), record_to_sample(complete)
        assert (a.id, a.input, a.target, a.metadata) == (b.id, b.input, b.target, b.metadata)


def _cached_payload(cache: Path) -> bytes:
    """The records part of a cache file (after its header line)."""
    return cache.read_bytes().partition(b"\n")[2]


def test_the_second_load_reads_the_cache(data_file: Path, tmp_path: Path) -> None:
    source = resolve_source(str(data_file))
    expected = load_source(source)
    data_file.unlink()  # the second load does not read the data again
    assert load_source(source) == expected


def test_another_versions_cache_is_kept_until_unused_for_a_week(
    data_file: Path, tmp_path: Path
) -> None:
    """Two installs of different versions side by side keep each other's cache (they would
    otherwise delete it at every run and never read one); one unused for a week goes."""
    source = resolve_source(str(data_file))
    load_source(source)
    (cache,) = _cache_files(tmp_path)
    recent = cache.with_name(f"{source.sha256}-0000000000000000.json")
    old = cache.with_name(f"{source.sha256}-1111111111111111.json")
    for other in (recent, old):
        other.write_bytes(cache.read_bytes())
    week_ago = time.time() - 8 * 24 * 3600
    os.utime(old, (week_ago, week_ago))
    cache.unlink()
    load_source(source)  # writes this version's cache again
    assert sorted(_cache_files(tmp_path)) == sorted([cache, recent])


def test_an_edited_cache_is_rebuilt_never_used(
    data_file: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    source = resolve_source(str(data_file))
    expected = load_source(source)
    (cache,) = _cache_files(tmp_path)
    header, _, payload = cache.read_bytes().partition(b"\n")
    edited = json.loads(payload)
    edited[0]["generated_texts"]["task_instruction_text"] = "Served from the cache."
    cache.write_bytes(header + b"\n" + json.dumps(edited).encode())
    with caplog.at_level(logging.WARNING):
        reloaded = load_source(source)
    assert reloaded == expected
    assert "changed after it was written" in caplog.text and str(cache) in caplog.text
    assert b"Served from the cache." not in cache.read_bytes()  # rebuilt


def test_a_cache_written_for_other_data_is_rebuilt(
    data_file: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    other = write_json(tmp_path / "other.json", [make_record(9, "travel")])
    other_source, source = resolve_source(str(other)), resolve_source(str(data_file))
    load_source(other_source)
    load_source(source)
    other_cache, cache = (
        next(p for p in _cache_files(tmp_path) if p.name.startswith(s.sha256))
        for s in (other_source, source)
    )
    other_cache.replace(cache)  # a consistent cache file, but of other data
    with caplog.at_level(logging.WARNING):
        reloaded = load_source(source)
    assert [r.sample_id for r in reloaded] == ["medical_000001", "travel_000002", "legal_000003"]
    assert f"written for data with sha256 {other_source.sha256}" in caplog.text


def test_data_changed_after_it_was_resolved_is_refused(data_file: Path) -> None:
    source = resolve_source(str(data_file))
    write_json(data_file, [make_record(7)])
    with pytest.raises(DataSourceError, match="changed while it was being loaded"):
        load_source(source)


@pytest.mark.parametrize("damage", [b"", b'[{"sample_id": ', b"[1, 2, 3]", b"\x00\xff"])
def test_a_damaged_cache_is_ignored_and_rebuilt(
    data_file: Path, tmp_path: Path, damage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    source = resolve_source(str(data_file))
    expected = load_source(source)
    (cache,) = _cache_files(tmp_path)
    cache.write_bytes(damage)
    with caplog.at_level(logging.WARNING):
        assert load_source(source) == expected
    assert "damaged records cache" in caplog.text
    assert parse_records(_cached_payload(cache), "cache") == expected  # rewritten whole


def test_an_unwritable_cache_only_costs_speed(
    data_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("")
    monkeypatch.setenv("POLAR_CACHE_DIR", str(blocker))
    with caplog.at_level(logging.WARNING):
        records = load_source(resolve_source(str(data_file)))
    assert len(records) == 3
    assert "Could not write the records cache" in caplog.text


def test_an_invalid_file_raises_and_caches_nothing(tmp_path: Path) -> None:
    path = write_json(tmp_path / "bad.json", [make_record(1, scoring_targets=...)])
    with pytest.raises(RecordError, match="scoring_targets: required field is missing"):
        load_source(resolve_source(str(path)))
    assert _cache_files(tmp_path) == []
