"""The stub's batch endpoints refuse what the real batch APIs refuse (so tests can trust them)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import anthropic
import openai
import pytest

from tests.stub_servers import StubServer

MESSAGES = [{"role": "user", "content": "hello"}]


@pytest.fixture
def server() -> Iterator[StubServer]:
    """A stub server with batches that end at the first check."""
    with StubServer(batch_polls=0) as stub:
        yield stub


def _anthropic(server: StubServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=server.anthropic_base_url, api_key="local", max_retries=0)


def _openai(server: StubServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.openai_base_url, api_key="local", max_retries=0)


def _params(**changes: object) -> dict[str, object]:
    return {"model": "m", "max_tokens": 10, "messages": MESSAGES, **changes}


@pytest.mark.parametrize(
    ("requests", "problem"),
    [
        ([{"custom_id": "a", "params": _params()}] * 2, "duplicate custom_id"),
        ([{"custom_id": "a b", "params": _params()}], "String should match pattern"),
        ([{"custom_id": "a", "params": _params(max_tokens=0)}], "max_tokens"),
        ([{"custom_id": "a", "params": _params(stream=True)}], "streaming"),
        ([], "at least one request"),
    ],
)
def test_anthropic_message_batches_refuse_bad_requests(
    server: StubServer, requests: list[dict[str, object]], problem: str
) -> None:
    with pytest.raises(anthropic.BadRequestError, match=problem):
        _anthropic(server).messages.batches.create(requests=requests)  # type: ignore[arg-type]
    assert server.refused and server.requests == []


def test_anthropic_message_batch_answers_every_request(server: StubServer) -> None:
    client = _anthropic(server)
    requests = [
        {"custom_id": "ok", "params": _params()},
        {"custom_id": "bad", "params": _params(messages=[{"role": "assistant", "content": "x"}])},
    ]
    batch = client.messages.batches.create(requests=requests)  # type: ignore[arg-type]
    assert client.messages.batches.retrieve(batch.id).processing_status == "ended"
    results = {r.custom_id: r.result.type for r in client.messages.batches.results(batch.id)}
    assert results == {"ok": "succeeded", "bad": "errored"}  # as the Messages API would answer
    assert [r.via for r in server.requests] == ["batch", "batch"]


def _upload(client: openai.OpenAI, lines: list[dict[str, object]]) -> str:
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    return client.files.create(file=("in.jsonl", io.BytesIO(data)), purpose="batch").id


def _line(custom_id: str, model: str = "m", url: str = "/v1/chat/completions") -> dict[str, object]:
    return {
        "custom_id": custom_id,
        "method": "POST",
        "url": url,
        "body": {"model": model, "messages": MESSAGES},
    }


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ([_line("a"), _line("a")], "invalid_request"),
        ([_line("a"), _line("b", model="other")], "mismatched_model"),
        ([_line("a", url="/v1/embeddings")], "invalid_request"),
    ],
)
def test_openai_batches_with_a_bad_file_fail(
    server: StubServer, lines: list[dict[str, object]], code: str
) -> None:
    client = _openai(server)
    batch = client.batches.create(
        input_file_id=_upload(client, lines),
        endpoint="/v1/chat/completions",
        completion_window="24h",
    )
    assert batch.status == "failed"
    assert batch.errors is not None and code in {e.code for e in batch.errors.data or []}
    assert server.requests == []


def test_openai_batch_needs_the_documented_window(server: StubServer) -> None:
    client = _openai(server)
    with pytest.raises(openai.BadRequestError, match="completion_window"):
        client.batches.create(
            input_file_id=_upload(client, [_line("a")]),
            endpoint="/v1/chat/completions",
            completion_window="1h",  # type: ignore[arg-type]
        )


def test_openai_batch_round_trip(server: StubServer) -> None:
    client = _openai(server)
    batch = client.batches.create(
        input_file_id=_upload(client, [_line("a"), _line("b")]),
        endpoint="/v1/chat/completions",
        completion_window="24h",
    )
    done = client.batches.retrieve(batch.id)
    assert done.status == "completed" and done.output_file_id is not None
    lines = client.files.content(done.output_file_id).text.splitlines()
    answers = {json.loads(line)["custom_id"]: json.loads(line)["response"] for line in lines}
    assert set(answers) == {"a", "b"}
    assert all(a["status_code"] == 200 for a in answers.values())
    assert [r.via for r in server.requests] == ["batch", "batch"]


def test_batches_created_while_held_never_end_and_others_still_do(server: StubServer) -> None:
    anthropic_client, openai_client = _anthropic(server), _openai(server)
    before = anthropic_client.messages.batches.create(
        requests=[{"custom_id": "a", "params": _params()}]  # type: ignore[list-item]
    )
    server.hold_batches = True
    held = anthropic_client.messages.batches.create(
        requests=[{"custom_id": "a", "params": _params()}]  # type: ignore[list-item]
    )
    held_openai = openai_client.batches.create(
        input_file_id=_upload(openai_client, [_line("a")]),
        endpoint="/v1/chat/completions",
        completion_window="24h",
    )
    server.hold_batches = False
    for _ in range(3):
        assert anthropic_client.messages.batches.retrieve(held.id).processing_status != "ended"
        assert openai_client.batches.retrieve(held_openai.id).status == "in_progress"
    assert anthropic_client.messages.batches.retrieve(before.id).processing_status == "ended"
