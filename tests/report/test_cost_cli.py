"""`polar-cost`: the estimate before a run, against what a stub measured in a real run."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from polar_inspect.report.cost_cli import _selected, main
from polar_inspect.report.cost_estimate import Assumptions, TokenCount, add_dialogue, estimate
from tests.conftest import DOCUMENT, make_record
from tests.helpers import point_providers
from tests.stub_cache import count_tokens
from tests.stub_servers import StubServer

REPLY = "I can help with the appointment, but some details must stay private. " * 6
SHEET = {"_date": "2026-11-25", "anthropic/m": {"input": 3, "output": 15, "cache_read": 0.3,
                                                "cache_write": 6, "batch": 0.5}}  # fmt: skip


def _sheet(tmp_path: Path, sheet: dict[str, Any] = SHEET) -> Path:
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(sheet))
    return path


def test_anthropic_rules_read_the_previous_request_and_write_the_rest() -> None:
    count = TokenCount()
    add_dialogue(count, [1500, 1800, 2100], 0, "anthropic", reply=100)
    assert count.cache_read_tokens == 1500 + 1800
    assert count.cache_write_tokens == 1500 + 300 + 300
    one_round = TokenCount()
    add_dialogue(one_round, [5000], 0, "anthropic", reply=100)  # sent without breakpoints
    assert one_round.cache_read_tokens == one_round.cache_write_tokens == 0


def test_openai_rules_read_in_steps_and_write_nothing() -> None:
    count = TokenCount()
    add_dialogue(count, [1500, 1800], 0, "openai", reply=100)
    assert count.cache_read_tokens == 1024 + 3 * 128 and count.cache_write_tokens == 0


def test_a_model_without_a_price_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--model", "openai/x", "--prices", str(_sheet(tmp_path))]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no price for model 'openai/x'" in err


def test_a_bad_task_parameter_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--model", "anthropic/m", "--prices", str(_sheet(tmp_path)), "-T", "atack=S5"]
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "atack" in err


def test_prints_plain_cached_and_batch_dollars(
    tmp_path: Path, write_records: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_records([make_record(i, attack="S3") for i in range(2)])
    args = ["--model", "anthropic/m", "--prices", str(_sheet(tmp_path)), "-T", f"data={data}"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "2 samples, 6 trusted-model calls" in out
    for label in ("plain", "cached", "batch + cached"):
        assert f"  {label} " in out


@pytest.mark.slow
def test_the_estimate_is_within_10_percent_of_a_measured_stub_run(
    tmp_path: Path, write_records: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    filler = " Visit notes follow." * 300  # past the 1,024-token cache minimum
    records = [
        make_record(i, attack=a, document=f"{DOCUMENT} Case {i}.{filler}")
        for i, a in enumerate(["S1", "S2", "S3", "S4"])
    ]
    data = write_records(records)
    with StubServer(respond=lambda api, body: REPLY, prompt_cache=True) as server:
        point_providers(monkeypatch, server, openai=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [log] = inspect_eval(
                "polar_inspect/privacy",
                model=get_model("anthropic/m", memoize=False),
                task_args={"data": str(data)},
                log_dir=str(tmp_path / "logs"),
                display="none",
            )
        assert log.status == "success", log.error
        served = [r.cache for r in server.ok_requests() if r.cache is not None]
    setup, infos = _selected({"data": str(data)})
    assumed = Assumptions(reply_tokens=count_tokens(REPLY))
    estimated = estimate(setup, infos, "anthropic", assumed)
    measured = {
        "calls": len(served),
        "input": sum(c.input_tokens for c in served),
        "read": sum(c.cache_read for c in served),
        "written": sum(c.cache_write for c in served),
    }
    predicted = {
        "calls": estimated.calls,
        "input": estimated.input_tokens,
        "read": estimated.cache_read_tokens,
        "written": estimated.cache_write_tokens,
    }
    print(f"measured {measured}\nestimated {predicted}")
    assert measured["calls"] == predicted["calls"]
    for kind in ("input", "read", "written"):
        assert predicted[kind] == pytest.approx(measured[kind], rel=0.10), kind
