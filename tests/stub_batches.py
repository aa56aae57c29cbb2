"""The providers' batch APIs on the stub server, with the checks the real APIs make.

OpenAI Batch API (files + batches):

- `POST /v1/files` (multipart, `purpose=batch`, a JSONL file) -> a file object;
- `POST /v1/batches` (`input_file_id`, `endpoint`, `completion_window="24h"`) -> a batch in
  `validating`; the file is checked then: every line a JSON object with a unique string
  `custom_id`, `method` "POST", `url` equal to the batch's `endpoint`, a `body` naming a
  `model`, one model for the whole file, no streaming, at most 50,000 lines. A file that
  breaks a rule makes the batch `failed` with one error per broken line (`errors.data`);
- `GET /v1/batches/{id}`: `in_progress` for `batch_polls` checks, then `completed` with an
  `output_file_id` (and an `error_file_id` when some requests were refused), or the path of
  statuses `server.batch_faults` gives it (`validating`, `finalizing`, `cancelling`, and an end
  `expired`, `cancelled` or `failed`); a batch created
  while `server.hold_batches` is set stays `in_progress` for ever (a batch the provider is
  still working on when the client dies);
- `GET /v1/files/{id}/content`: the result JSONL, one line per request
  (`{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`).

Anthropic Message Batches API:

- `POST /v1/messages/batches` (`{"requests": [{"custom_id", "params"}]}`): 400 unless there are
  1-100,000 requests, each `custom_id` matches `^[a-zA-Z0-9_-]{1,64}$` and is unique, and each
  `params` has `model`, a positive `max_tokens`, `messages` and no `stream: true`; otherwise a
  `message_batch` in progress;
- `GET /v1/messages/batches/{id}`: `in_progress` for `batch_polls` checks, then `ended` with a
  `results_url` (never, for a batch created while `server.hold_batches` is set);
- `GET /v1/messages/batches/{id}/results`: JSONL of `{"custom_id", "result": {"type":
  "succeeded", "message"} | {"type": "errored", "error"}}` (a request the Messages API refuses
  is `errored` with an `invalid_request_error`).

Failures the providers document (errored, canceled and expired items, per-request server errors,
expired lines, `finalizing`, shuffled results) are injected with `server.batch_faults`
(`tests.stub_batch_faults`).

Every request served in a batch is recorded on the server with `via="batch"`; every refusal is
added to `server.refused`, which tests keep empty.
"""

from __future__ import annotations

import datetime
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.stub_batch_faults import (
    BATCH_FAILED,
    anthropic_batch_problem,
    anthropic_failure,
    openai_failure,
    shuffled,
)

if TYPE_CHECKING:
    from tests.stub_servers import StubServer

OPENAI_ENDPOINTS = ("/v1/responses", "/v1/chat/completions", "/v1/embeddings", "/v1/completions")
#: The one endpoint whose batches this stub answers (it has no Responses API).
SERVED_ENDPOINT = "/v1/chat/completions"
OPENAI_MAX_LINES = 50_000


@dataclass
class StubBatch:
    """One batch: its wire object, its results (JSONL lines) and how often it was checked."""

    kind: str  # "openai" or "anthropic"
    info: dict[str, Any]
    results: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    checks: int = 0
    held: bool = False  # created while the server held new batches: it never ends
    path: list[str] = field(default_factory=list)  # OpenAI: the status shown at each check

    def ended(self) -> bool:
        """Whether the batch has ended (its results can be fetched)."""
        return (
            self.info.get("status") == "completed" or self.info.get("processing_status") == "ended"
        )


@dataclass
class BatchBook:
    """Uploaded files and created batches of one server."""

    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    batches: dict[str, StubBatch] = field(default_factory=dict)

    def next_id(self, prefix: str) -> str:
        """A fresh identifier."""
        return f"{prefix}{len(self.files) + len(self.batches) + 1:06d}"


def _openai_error(status: int, message: str, param: str | None = None) -> web.Response:
    payload = {"error": {"message": message, "type": "invalid_request_error", "param": param}}
    return web.json_response(payload, status=status)


def _anthropic_error(status: int, message: str) -> web.Response:
    payload = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    return web.json_response(payload, status=status)


def _line_problems(lines: list[str], endpoint: str) -> list[dict[str, Any]]:
    """Why an OpenAI batch input file is refused, one error per broken line."""
    problems: list[dict[str, Any]] = []
    seen: set[str] = set()
    models: set[str] = set()
    if len(lines) > OPENAI_MAX_LINES:
        return [{"code": "too_many_requests", "message": "more than 50,000 requests", "line": None}]
    for number, line in enumerate(lines, start=1):

        def refuse(message: str, param: str | None = None, at: int = number) -> None:
            problems.append(
                {"code": "invalid_request", "message": message, "param": param, "line": at}
            )

        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            refuse("line is not valid JSON")
            continue
        if not isinstance(entry, dict):
            refuse("line is not a JSON object")
            continue
        custom_id = entry.get("custom_id")
        if not isinstance(custom_id, str) or not custom_id:
            refuse("custom_id must be a non-empty string", "custom_id")
        elif custom_id in seen:
            refuse(f"duplicate custom_id {custom_id!r}", "custom_id")
        else:
            seen.add(custom_id)
        if entry.get("method") != "POST":
            refuse("method must be POST", "method")
        if entry.get("url") != endpoint:
            refuse(f"url {entry.get('url')!r} does not match the batch endpoint {endpoint}", "url")
        body = entry.get("body")
        if not isinstance(body, dict) or not isinstance(body.get("model"), str):
            refuse("body must be an object naming a model", "body.model")
            continue
        if body.get("stream"):
            refuse("streaming is not supported in batches", "body.stream")
        models.add(body["model"])
    if len(models) > 1:
        problems.append(
            {
                "code": "mismatched_model",
                "message": f"one model per file, got {sorted(models)}",
                "param": "body.model",
                "line": None,
            }
        )
    return problems


def _serve_openai_line(server: StubServer, batch: StubBatch, entry: dict[str, Any]) -> None:
    """The result line of one request (or none, for a `missing` fault)."""
    number = len(batch.results) + len(batch.errors)
    fault = server.batch_faults.next_fault("openai") if server.batch_faults else None
    if fault in ("expired", "server_error"):
        batch.errors.append(openai_failure(str(fault), number, entry["custom_id"]))
        return
    if fault == "missing":
        return
    status, reply = server.answer("openai", entry["body"], via="batch")
    lines = batch.results + batch.errors
    custom_id = lines[-1]["custom_id"] if fault == "duplicate" and lines else entry["custom_id"]
    result = {
        "id": f"batch_req_{number}",
        "custom_id": custom_id,
        "response": {"status_code": status, "request_id": "req_stub", "body": reply},
        "error": None,
    }
    (batch.results if status == 200 else batch.errors).append(result)
    if status != 200:
        server.refused.append(("batch request", json.dumps(reply)))


def _end_openai(book: BatchBook, batch: StubBatch, server: StubServer) -> None:
    """An ended batch: its counts and its output and error files."""
    if server.batch_faults and server.batch_faults.shuffle:
        batch.results = shuffled(batch.results)
    counts = {
        "total": batch.info["request_counts"]["total"],
        "completed": len(batch.results),
        "failed": len(batch.errors),
    }
    batch.info.update(request_counts=counts, completed_at=int(time.time()))
    for key, lines in (("output_file_id", batch.results), ("error_file_id", batch.errors)):
        if lines:
            file_id = book.next_id("file-")
            content = "".join(json.dumps(line) + "\n" for line in lines).encode()
            book.files[file_id] = {"info": {"purpose": "batch_output"}, "content": content}
            batch.info[key] = file_id


def add_batch_routes(app: web.Application, server: StubServer) -> None:
    """Serve the OpenAI and Anthropic batch endpoints from `server` (see the module doc)."""
    book = BatchBook()
    server.batch_book = book  # type: ignore[attr-defined]

    async def upload(request: web.Request) -> web.Response:
        form = await request.post()
        purpose = form.get("purpose")
        upload = form.get("file")
        if purpose != "batch":
            server.refused.append(("files", f"purpose {purpose!r}"))
            return _openai_error(400, "purpose must be 'batch' for batch input files", "purpose")
        if upload is None or not hasattr(upload, "file"):
            server.refused.append(("files", "no file"))
            return _openai_error(400, "a file is required", "file")
        data = upload.file.read()
        file_id = book.next_id("file-")
        book.files[file_id] = {
            "info": {
                "id": file_id,
                "object": "file",
                "bytes": len(data),
                "created_at": int(time.time()),
                "filename": upload.filename,
                "purpose": "batch",
                "status": "processed",
            },
            "content": data,
        }
        return web.json_response(book.files[file_id]["info"])

    async def create_openai(request: web.Request) -> web.Response:
        body = await request.json()
        file = book.files.get(str(body.get("input_file_id")))
        endpoint = body.get("endpoint")
        for ok, why, param in (
            (
                file is not None and file["info"]["purpose"] == "batch",
                "unknown input_file_id",
                "input_file_id",
            ),
            (endpoint in OPENAI_ENDPOINTS, f"unsupported endpoint {endpoint!r}", "endpoint"),
            (
                body.get("completion_window") == "24h",
                "completion_window must be '24h'",
                "completion_window",
            ),
            (
                endpoint == SERVED_ENDPOINT,
                f"this stub serves {SERVED_ENDPOINT} batches only",
                "endpoint",
            ),
        ):
            if not ok:
                server.refused.append(("batches", why))
                return _openai_error(400, why, param)
        assert file is not None
        lines = [line for line in file["content"].decode().splitlines() if line.strip()]
        problems = _line_problems(lines, str(endpoint))
        batch_id = book.next_id("batch_")
        batch = StubBatch(
            kind="openai",
            held=server.hold_batches,
            info={
                "id": batch_id,
                "object": "batch",
                "endpoint": endpoint,
                "errors": None,
                "input_file_id": body["input_file_id"],
                "completion_window": "24h",
                "status": "validating",
                "output_file_id": None,
                "error_file_id": None,
                "created_at": int(time.time()),
                "metadata": body.get("metadata"),
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            },
        )
        book.batches[batch_id] = batch
        if problems:
            server.refused += [("batch file", str(p)) for p in problems]
            batch.info.update(status="failed", errors={"object": "list", "data": problems})
            return web.json_response(batch.info)
        faults = server.batch_faults
        batch.path = faults.openai_path(server.batch_polls) if faults else []
        for line in lines if batch.path[-1:] != ["failed"] else []:  # a failed batch runs none
            _serve_openai_line(server, batch, json.loads(line))
        return web.json_response(batch.info)

    async def retrieve_openai(request: web.Request) -> web.Response:
        batch = book.batches.get(request.match_info["batch_id"])
        if batch is None or batch.kind != "openai":
            return _openai_error(404, "no such batch")
        if batch.info["status"] == "failed" and not batch.path:
            return web.json_response(batch.info)
        batch.checks += 1
        path = batch.path or ["in_progress"] * server.batch_polls + ["completed"]
        status = "in_progress" if batch.held else path[min(batch.checks, len(path)) - 1]
        if status == batch.info["status"]:
            return web.json_response(batch.info)
        batch.info["status"] = status
        if status == "failed":
            batch.info.update(errors=BATCH_FAILED, request_counts=None)
        elif status in ("completed", "expired", "cancelled"):
            _end_openai(book, batch, server)
        return web.json_response(batch.info)

    async def file_content(request: web.Request) -> web.Response:
        file = book.files.get(request.match_info["file_id"])
        if file is None:
            return _openai_error(404, "no such file")
        return web.Response(body=file["content"], content_type="application/octet-stream")

    async def create_anthropic(request: web.Request) -> web.Response:
        if not request.headers.get("anthropic-version"):
            server.refused.append(("message batches", "no anthropic-version header"))
            return _anthropic_error(400, "anthropic-version: header is required")
        body = await request.json()
        problem = anthropic_batch_problem(body)
        if problem is not None:
            server.refused.append(("message batches", problem))
            return _anthropic_error(400, problem)
        batch_id = book.next_id("msgbatch_")
        now = datetime.datetime.now(datetime.UTC)
        batch = StubBatch(
            kind="anthropic",
            held=server.hold_batches,
            info={
                "id": batch_id,
                "type": "message_batch",
                "processing_status": "in_progress",
                "request_counts": {
                    "processing": len(body["requests"]),
                    "succeeded": 0,
                    "errored": 0,
                    "canceled": 0,
                    "expired": 0,
                },
                "ended_at": None,
                "created_at": now.isoformat(),
                "expires_at": (now + datetime.timedelta(hours=24)).isoformat(),
                "archived_at": None,
                "cancel_initiated_at": None,
                "results_url": None,
            },
        )
        book.batches[batch_id] = batch
        for item in body["requests"]:
            fault = server.batch_faults.next_fault("anthropic") if server.batch_faults else None
            if fault is not None:  # never served: no usage, no reply
                batch.results.append(
                    {"custom_id": item["custom_id"], "result": anthropic_failure(fault)}
                )
                continue
            status, reply = server.answer("anthropic", item["params"], via="batch")
            if status == 200:
                result: dict[str, Any] = {"type": "succeeded", "message": reply}
            else:
                server.refused.append(("message batch request", json.dumps(reply)))
                result = {"type": "errored", "error": reply}
            batch.results.append({"custom_id": item["custom_id"], "result": result})
        return web.json_response(batch.info)

    async def retrieve_anthropic(request: web.Request) -> web.Response:
        batch = book.batches.get(request.match_info["batch_id"])
        if batch is None or batch.kind != "anthropic":
            return _anthropic_error(404, "no such message batch")
        batch.checks += 1
        ends = not batch.held and batch.checks > server.batch_polls
        if ends and batch.info["processing_status"] != "ended":
            kinds = [r["result"]["type"] for r in batch.results]
            batch.info.update(
                processing_status="ended",
                ended_at=datetime.datetime.now(datetime.UTC).isoformat(),
                results_url=f"{server.anthropic_base_url}/v1/messages/batches/{batch.info['id']}/results",
                request_counts={"processing": 0}
                | {k: kinds.count(k) for k in ("succeeded", "errored", "canceled", "expired")},
            )
        return web.json_response(batch.info)

    async def results_anthropic(request: web.Request) -> web.Response:
        batch = book.batches.get(request.match_info["batch_id"])
        if batch is None or batch.info["processing_status"] != "ended":
            return _anthropic_error(404, "results are available once the batch has ended")
        content = "".join(json.dumps(line) + "\n" for line in batch.results).encode()
        return web.Response(body=content, content_type="application/binary")

    app.router.add_post("/v1/files", upload)
    app.router.add_get("/v1/files/{file_id}/content", file_content)
    app.router.add_post("/v1/batches", create_openai)
    app.router.add_get("/v1/batches/{batch_id}", retrieve_openai)
    app.router.add_post("/v1/messages/batches", create_anthropic)
    app.router.add_get("/v1/messages/batches/{batch_id}", retrieve_anthropic)
    app.router.add_get("/v1/messages/batches/{batch_id}/results", results_anthropic)
