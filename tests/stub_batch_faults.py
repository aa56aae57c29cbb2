"""The failure side of the providers' batch APIs, injected on the stub (`StubServer.batch_faults`).

Anthropic Message Batches: a result item is `succeeded`, `errored` (here an `overloaded_error`,
a server-side error the client may retry), `canceled` or `expired`; the last two carry no body.
OpenAI Batch API: a request line ends in the output file (HTTP 200), or in the error file as a
per-request server error (`"response": {"status_code": 500, ...}`) or as an expired line in the
documented form (`"response": null, "error": {"code": "batch_expired", ...}`); the batch may show
`validating` and `finalizing`; results may come in any order (`shuffle`). A whole OpenAI batch
may end `expired` (its unfinished requests as expired lines), `cancelled` after `cancelling`
(partial results in the output file only: the unfinished requests have no line, "missing") or
`failed` after validation (`errors.data`, no files). Two result-file faults no provider
documents but Inspect's batcher mishandles (docs/large-runs.md#known-limits): a line carrying the
`custom_id` of the batch's previous line ("duplicate") and a request with no line ("missing").

Items are numbered over the run in the order the stub receives them (the first item of the first
batch is 0): a fault names the item numbers it hits, so a retried request (a new item) succeeds.
OpenAI batches are numbered the same way (`openai_ends`).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Literal

AnthropicFault = Literal["errored", "canceled", "expired"]
OpenAIFault = Literal["server_error", "expired", "duplicate", "missing"]
OpenAIEnd = Literal["completed", "expired", "cancelled", "failed"]
CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ANTHROPIC_MAX_REQUESTS = 100_000
ANTHROPIC_REQUEST_KEYS = {"custom_id", "params"}


@dataclass
class BatchFaults:
    """Which batch items fail, and how (see the module)."""

    anthropic: dict[int, AnthropicFault] = field(default_factory=dict)
    openai: dict[int, OpenAIFault] = field(default_factory=dict)
    openai_ends: dict[int, OpenAIEnd] = field(default_factory=dict)  # by batch number
    shuffle: bool = False  # OpenAI output lines in a seeded random order
    validating: bool = False  # OpenAI batches show `validating` once first
    finalizing: bool = False  # OpenAI batches show `finalizing` once before `completed`
    received: int = 0  # items received so far
    batches: int = 0  # OpenAI batches received so far

    def openai_path(self, polls: int) -> list[str]:
        """The statuses the next OpenAI batch shows, one per check, the last one for good."""
        end = self.openai_ends.get(self.batches, "completed")
        self.batches += 1
        first = ["validating"] if self.validating else []
        if end == "failed":
            return [*first, "failed"]
        closing = {"completed": ["finalizing"] if self.finalizing else [],
                   "cancelled": ["cancelling"], "expired": []}[end]  # fmt: skip
        return [*first, *["in_progress"] * polls, *closing, end]

    def next_fault(self, kind: str) -> str | None:
        """The fault of the next item of a `kind` batch, if any."""
        number = self.received
        self.received += 1
        faults: dict[int, Any] = self.anthropic if kind == "anthropic" else self.openai
        return faults.get(number)


def anthropic_failure(fault: str) -> dict[str, Any]:
    """The `result` of an Anthropic batch item that did not succeed."""
    if fault == "errored":
        error = {"type": "overloaded_error", "message": "Overloaded"}
        return {"type": "errored", "error": {"type": "error", "error": error}}
    return {"type": fault}


def openai_failure(fault: str, number: int, custom_id: str) -> dict[str, Any]:
    """An OpenAI error-file line for a request that did not succeed."""
    line: dict[str, Any] = {"id": f"batch_req_{number}", "custom_id": custom_id}
    if fault == "expired":
        message = "This request could not be executed before the completion window expired."
        return line | {"response": None, "error": {"code": "batch_expired", "message": message}}
    body = {"error": {"message": "The server had an error", "type": "server_error"}}
    return line | {"response": {"status_code": 500, "request_id": "req_stub", "body": body},
                   "error": None}  # fmt: skip


TOKEN_LIMIT = "Enqueued token limit reached for the model in organization."
BATCH_FAILED = {"object": "list", "data": [{"code": "token_limit_exceeded", "line": None,
                                            "param": None, "message": TOKEN_LIMIT}]}  # fmt: skip


def shuffled(lines: list[dict[str, Any]], seed: int = 0) -> list[dict[str, Any]]:
    """The lines in a seeded random order."""
    copy = list(lines)
    random.Random(seed).shuffle(copy)
    return copy


def anthropic_batch_problem(body: Any) -> str | None:
    """Why the Message Batches API refuses this create request with HTTP 400, or None."""
    requests = body.get("requests") if isinstance(body, dict) else None
    if not isinstance(requests, list) or not requests:
        return "requests: at least one request is required"
    if len(requests) > ANTHROPIC_MAX_REQUESTS:
        return f"requests: at most {ANTHROPIC_MAX_REQUESTS} requests per batch"
    seen: set[str] = set()
    for index, item in enumerate(requests):
        where = f"requests.{index}"
        if not isinstance(item, dict) or set(item) - ANTHROPIC_REQUEST_KEYS:
            return f"{where}: Extra inputs are not permitted"
        custom_id = item.get("custom_id")
        if not isinstance(custom_id, str) or not CUSTOM_ID.match(custom_id):
            return f"{where}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'"
        if custom_id in seen:
            return f"{where}.custom_id: duplicate custom_id {custom_id!r}"
        seen.add(custom_id)
        problem = _params_problem(item.get("params"), where)
        if problem is not None:
            return problem
    return None


def _params_problem(params: Any, where: str) -> str | None:
    if not isinstance(params, dict):
        return f"{where}.params: Field required"
    if not isinstance(params.get("model"), str):
        return f"{where}.params.model: Field required"
    tokens = params.get("max_tokens")
    if not isinstance(tokens, int) or tokens < 1:
        return f"{where}.params.max_tokens: Field required (a positive integer)"
    if not isinstance(params.get("messages"), list):
        return f"{where}.params.messages: Field required"
    if params.get("stream"):
        return f"{where}.params.stream: streaming is not supported in message batches"
    return None
