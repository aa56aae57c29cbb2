"""polar-report reads the least each section needs (header reductions, sample summaries, a
cache), and every number it writes equals the one read from the full samples."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log_samples

from polar_inspect.report import build_report, read_cache, sample_rows, samples

TABLES = ("*.csv", "*.md")


def full_sample_rows(path: str) -> pd.DataFrame:
    """One row per sample and epoch from the full samples (slow; the reference path)."""
    found = read_eval_log_samples(
        path, all_samples_required=False, exclude_fields={"events", "attachments"}
    )
    return sample_rows._frame(
        sample_rows._row(s.id, s.epoch, s.metadata, s.error.message if s.error else "", s.scores)
        for s in found
    )


def _inputs(logs) -> list[Path]:  # noqa: ANN001
    return [logs.eval_set_dir, logs.extra_logs_dir, logs.epochs_dir]


def _written(out: Path) -> dict[str, str]:
    files = [path for pattern in TABLES for path in sorted(out.glob(pattern))]
    return {path.name: path.read_text(encoding="utf-8") for path in files}


def test_every_table_equals_the_full_sample_path(
    report_logs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    fast = tmp_path / "fast"
    build_report(_inputs(report_logs), fast, figures=False, keep="all")
    with monkeypatch.context() as patch:
        # The old way: every run's rows from its full samples.
        patch.setattr(samples, "ROW_READER", full_sample_rows)
        patch.setenv(read_cache.ENV_SWITCH, "0")
        slow = tmp_path / "slow"
        build_report(_inputs(report_logs), slow, figures=False, keep="all", jobs=1)
    fast_files, slow_files = _written(fast), _written(slow)
    assert {"attribution.csv", "leakage_by_turn.csv", "leaderboard.csv"} <= set(fast_files)
    assert fast_files.keys() == slow_files.keys()
    for name, text in fast_files.items():
        assert text == slow_files[name], name
    attribution = fast_files["attribution.csv"]
    assert attribution.count("\n") > 10  # several runs, five attacks each


def test_a_second_report_reads_no_sample_summaries(
    report_logs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    first = tmp_path / "first"
    build_report(_inputs(report_logs), first, figures=False, jobs=1)

    def refuse(path: str) -> object:
        raise AssertionError(f"read again: {path}")

    monkeypatch.setattr(samples, "ROW_READER", refuse)
    second = tmp_path / "second"
    build_report(_inputs(report_logs), second, figures=False, jobs=1)
    assert _written(first) == _written(second)


def test_a_log_rewritten_in_place_misses_the_cache(tmp_path: Path) -> None:
    log = tmp_path / "run.eval"
    log.write_bytes(b"x" * 100_000)
    key = read_cache.log_key(str(log), "rows")
    assert key == read_cache.log_key(str(log), "rows")
    assert key != read_cache.log_key(str(log), "other")
    stat = log.stat()
    os.utime(log, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    touched = read_cache.log_key(str(log), "rows")
    assert touched != key
    with log.open("r+b") as handle:  # same size and time, other content at the end
        handle.seek(99_999)
        handle.write(b"y")
    os.utime(log, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert read_cache.log_key(str(log), "rows") != touched


def test_the_cache_returns_what_was_read_and_can_be_turned_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "run.json"
    log.write_text("{}", encoding="utf-8")
    calls: list[str] = []

    def read(path: str) -> list[str]:
        calls.append(path)
        return [path, "rows"]

    assert read_cache.cached(str(log), "k", read) == [str(log), "rows"]
    assert read_cache.cached(str(log), "k", read) == [str(log), "rows"]
    assert len(calls) == 1
    monkeypatch.setenv(read_cache.ENV_SWITCH, "0")
    read_cache.cached(str(log), "k", read)
    assert len(calls) == 2


def test_a_json_log_changed_at_its_start_misses_the_cache(tmp_path: Path) -> None:
    log = tmp_path / "run.json"  # a `.json` log's header is at its start, far from its tail
    log.write_bytes(b'{"results": 0.64}' + b" " * 100_000)
    stat = log.stat()
    key = read_cache.log_key(str(log), "header")
    log.write_bytes(b'{"results": 0.44}' + b" " * 100_000)  # same size, same time
    os.utime(log, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert read_cache.log_key(str(log), "header") != key


def _one_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    monkeypatch.setenv("POLAR_CACHE_DIR", str(tmp_path / "cache"))
    log = tmp_path / "run.json"
    log.write_text("{}", encoding="utf-8")
    calls: list[str] = []
    read_cache.cached(str(log), "k", lambda path: calls.append(path) or {"privacy": 0.64})
    [entry] = (tmp_path / "cache" / "report").iterdir()
    return entry, calls


@pytest.mark.parametrize("damage", ["float", "bytes", "short", "empty"])
def test_a_damaged_cache_entry_is_read_again_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    entry, calls = _one_entry(tmp_path, monkeypatch)
    stored = entry.read_bytes()
    if damage == "float":  # one number changed, the pickle still loads
        assert struct.pack(">d", 0.64) in stored
        stored = stored.replace(struct.pack(">d", 0.64), struct.pack(">d", 0.44))
    damaged = {"float": stored, "bytes": stored[:40] + b"\xff" * 8 + stored[48:]}
    entry.write_bytes(damaged.get(damage, stored[:10] if damage == "short" else b""))
    log = str(tmp_path / "run.json")
    value = read_cache.cached(log, "k", lambda path: calls.append(path) or {"privacy": 0.64})
    assert value == {"privacy": 0.64} and len(calls) == 2


def test_a_cache_that_cannot_be_written_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry, calls = _one_entry(tmp_path, monkeypatch)
    entry.unlink()
    entry.mkdir()  # the entry's name is taken: the rename fails
    log = str(tmp_path / "run.json")
    assert read_cache.cached(log, "k", lambda path: {"privacy": 0.5}) == {"privacy": 0.5}
    assert sorted(p.name for p in entry.parent.iterdir()) == [entry.name]


def test_the_key_covers_every_package_file_not_only_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "eval.yaml").write_text("version: 1-C\n", encoding="utf-8")
    monkeypatch.setattr(read_cache, "PACKAGE", tmp_path)
    before = read_cache._code_digest.__wrapped__()
    (tmp_path / "eval.yaml").write_text("version: 0-C\n", encoding="utf-8")  # read by the header
    assert read_cache._code_digest.__wrapped__() != before
