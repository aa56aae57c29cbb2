"""What a batched run does with each documented failure of a batch item (`tests.stub_batch_faults`).

Every case runs `privacy` with `--batch` against the stub, with replies that name their
dialogue ("Reply for case N."), and checks that each sample's replies are its own.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import BatchConfig, ChatMessageAssistant, get_model

from polar_inspect import batch_guard
from tests.conftest import DOCUMENT, make_record
from tests.helpers import point_providers
from tests.stub_batch_faults import BatchFaults
from tests.stub_servers import StubServer, WireApi

QUICK_BATCHES = BatchConfig(size=50, send_delay=0.2, tick=0.1)
MODELS: dict[WireApi, tuple[str, dict[str, Any]]] = {
    "openai": ("openai/trusted-model", {"responses_api": False}),
    "anthropic": ("anthropic/trusted-model", {}),
}
CASE = re.compile(r"Case (\d+)\.")


def _own_case(api: WireApi, body: dict[str, Any]) -> str:
    """A reply naming the case of the dialogue it answers (from the system prompt)."""
    found = CASE.search(str(body.get("system")) + str(body.get("messages", [])[:1]))
    return f"Reply for case {found.group(1) if found else '?'}."


def _run(api: WireApi, faults: BatchFaults, data: Path, log_dir: Path, mp: Any) -> EvalLog:
    model, args = MODELS[api]
    with StubServer(respond=_own_case, batch_polls=1, batch_faults=faults) as server:
        point_providers(mp, server)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [log] = inspect_eval(
                "polar_inspect/privacy",
                model=get_model(model, memoize=False, **args),
                task_args={"data": str(data)},
                batch=QUICK_BATCHES,
                log_dir=str(log_dir),
                display="none",
                max_retries=3,
            )
    return log


def _crossed(log: EvalLog) -> list[str]:
    """Replies that name another dialogue's case."""
    wrong = []
    for sample in log.samples or []:
        own = CASE.search(str(sample.messages[0].content))
        expected = f"Reply for case {own.group(1)}." if own is not None else None
        for message in sample.messages:
            if isinstance(message, ChatMessageAssistant) and message.text != expected:
                wrong.append(f"{sample.id}: {message.text}")
    return wrong


@pytest.fixture
def data(write_records: Callable[..., Path]) -> Path:
    records = [make_record(i, attack=a, document=f"{DOCUMENT} Case {i}.")
               for i, a in enumerate(["S1", "S2", "S3", "S4"])]  # fmt: skip
    return write_records(records)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("api", "faults"),
    [
        ("anthropic", BatchFaults(anthropic={0: "errored", 1: "canceled", 2: "expired"})),
        ("openai", BatchFaults(shuffle=True, validating=True, finalizing=True)),
    ],
    ids=["anthropic-errored-canceled-expired", "openai-validating-finalizing-shuffled"],
)
def test_failed_items_are_retried_and_every_reply_lands_in_its_own_dialogue(
    api: WireApi, faults: BatchFaults, data: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    log = _run(api, faults, data, tmp_path / "logs", monkeypatch)
    assert log.status == "success", log.error
    assert len(log.samples or []) == 4 and all(s.scores for s in log.samples or [])
    assert _crossed(log) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "faults",
    [
        BatchFaults(openai={0: "server_error"}),
        BatchFaults(openai={0: "expired"}),
        BatchFaults(openai_ends={0: "expired"}, openai={2: "expired", 3: "expired"}),
    ],
    ids=["openai-5xx-line", "openai-expired-line", "openai-batch-expired"],
)
def test_an_openai_error_line_fails_the_run_in_inspects_batcher(
    faults: BatchFaults, data: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    """Known limit (docs/large-runs.md#known-limits): Inspect's OpenAI batcher cannot read a
    documented error line (a per-request 5xx, an expired request): the whole batch fails,
    the run ends in error, nothing is scored with a wrong reply."""
    log = _run("openai", faults, data, tmp_path / "logs", monkeypatch)
    assert log.status == "error" and log.error is not None
    print(log.error.message.splitlines()[0])
    assert _crossed(log) == []


@pytest.mark.slow
def test_an_openai_batch_that_fails_fails_its_requests(
    data: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    """A batch `failed` after validation (`errors.data`, no files): Inspect fails every request
    of the batch with the error, the run ends in `error` (nothing was served or billed)."""
    log = _run(
        "openai", BatchFaults(openai_ends={0: "failed"}), data, tmp_path / "logs", monkeypatch
    )
    assert log.status == "error" and log.error is not None
    assert "Batch rejected" in log.error.message or "token_limit" in log.error.message
    assert _crossed(log) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "faults",
    [
        BatchFaults(openai={1: "missing"}),
        BatchFaults(openai={1: "duplicate"}),
        BatchFaults(openai_ends={0: "cancelled"}, openai={2: "missing", 3: "missing"}),
    ],
    ids=["openai-missing-line", "openai-repeated-custom-id", "openai-batch-cancelled"],
)
def test_a_request_without_a_result_line_fails_the_run_at_the_deadline(
    faults: BatchFaults, data: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    """Known limit (docs/large-runs.md#known-limits): Inspect's batcher never answers a request
    whose result line is missing (a repeated `custom_id` also hands its reply to another
    dialogue). `polar_inspect.batch_guard` fails the call at its deadline (49 h; 10 s here,
    monkeypatched), so the run ends in `error`, never in success, and does not hang."""
    monkeypatch.setattr(batch_guard, "DEADLINE_SECONDS", 10.0)
    log = _run("openai", faults, data, tmp_path / "logs", monkeypatch)
    assert log.status == "error" and log.error is not None
    assert "LostBatchResult('no answer to a model call after" in log.error.message
    print(_crossed(log))
