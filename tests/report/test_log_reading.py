"""A log's header and sample summaries read member by member from the `.eval` zip give what
Inspect's own readers give, without parsing the reductions or holding every summary."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from polar_inspect.report import inventory, sample_rows
from polar_inspect.report.build import build_report
from polar_inspect.report.read_cache import log_member


def _eval_logs(logs) -> list[Path]:  # noqa: ANN001
    found = sorted(logs.eval_set_dir.glob("*.eval"))
    assert found
    return found


@pytest.mark.parametrize("chunk", [1, 7, 1 << 20])
def test_json_items_decodes_across_chunks(chunk: int) -> None:
    items = [{"a": float("nan"), "b": [1, 2.5]}, {"c": "x, ]"}, {"d": float("inf")}, 3]
    text = " [\n" + ",\n ".join(json.dumps(item) for item in items) + "\n]\n"
    found = list(sample_rows.json_items(io.BytesIO(text.encode()), chunk=chunk))
    assert json.dumps(found) == json.dumps(items)
    assert list(sample_rows.json_items(io.BytesIO(b" [ ] "), chunk=chunk)) == []


@pytest.mark.parametrize(
    "text",
    [
        b"[{}, {",
        b"",
        b"[{}, {}",  # truncated after an item
        b"[{}, {}]garbage",
        b"[{}, {}][{}]",  # two arrays: the second is not dropped silently
        b"[{}, {}],{}]",
        b"[{} {}]",  # a missing comma
        b"[{}, {},]",  # a trailing comma
        b"[,{}]",
    ],
)
@pytest.mark.parametrize("chunk", [1, 4, 1 << 20])
def test_json_items_refuses_what_json_loads_refuses(text: bytes, chunk: int) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        list(sample_rows.json_items(io.BytesIO(text), chunk=chunk))


def test_json_items_refuses_json_that_is_no_array() -> None:
    with pytest.raises(ValueError, match="not a JSON array"):
        list(sample_rows.json_items(io.BytesIO(b' {"a": 1}'), chunk=4))


def test_json_items_reads_a_bom_and_an_item_far_larger_than_a_chunk() -> None:
    items = [{"big": "é" * 50_000}, {"n": 1}]
    text = "\ufeff" + json.dumps(items, ensure_ascii=False)
    assert list(sample_rows.json_items(io.BytesIO(text.encode()), chunk=16)) == items


def test_summary_rows_stream_the_eval_member_like_inspects_reader(
    report_logs, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    for path in _eval_logs(report_logs):
        streamed = sample_rows.summary_rows(str(path))
        with monkeypatch.context() as patch:
            patch.setattr(sample_rows, "SUMMARIES", "no such member")  # Inspect's reader
            pd.testing.assert_frame_equal(streamed, sample_rows.summary_rows(str(path)))
        assert len(streamed) > 10


def test_the_header_alone_classifies_like_the_whole_header(report_logs) -> None:  # noqa: ANN001
    for path in _eval_logs(report_logs):
        whole = read_eval_log(str(path), header_only=True)
        assert whole.reductions  # what the report no longer parses
        expected = inventory.classify(str(path), whole)
        assert inventory.read_header(str(path)) == expected


def test_a_json_log_has_no_member(tmp_path: Path) -> None:
    log = tmp_path / "run.json"
    log.write_text("{}", encoding="utf-8")
    with log_member(str(log), "header.json") as member:
        assert member is None


def test_a_copy_listing_its_samples_in_another_order_is_the_same_run(
    report_logs,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    # A .eval log lists samples as they finished, a .json copy (inspect log convert) by id.
    source = next(report_logs.eval_set_dir.glob("*.eval"))
    log = read_eval_log(str(source))
    assert log.samples and len(log.samples) > 1
    log.samples = list(reversed(log.samples))
    (tmp_path / "logs").mkdir()
    shutil.copy(source, tmp_path / "logs" / source.name)
    write_eval_log(log, str(tmp_path / "logs" / "copy.json"))
    result = build_report([tmp_path / "logs"], tmp_path / "report", figures=False)
    assert len(result.models) == 1, result.skipped
    assert [s.reason for s in result.skipped] == ["duplicate"], result.skipped
