"""A local model server for tests and benchmarks: OpenAI and Anthropic wire formats on 127.0.0.1.

`StubServer` answers `POST /v1/chat/completions` (OpenAI chat completions) and
`POST /v1/messages` (Anthropic messages) in a background thread, so Inspect's real `openai-api`
and `anthropic` providers (and the SDKs under them) talk to it over HTTP. It records every request,
can answer with HTTP errors for a while (`faults`) or for ever (`always_fail`), can delay
every answer (`delay`), and can refuse OpenAI `response_format` types it does not know the way
llama-cpp-python's server does (`response_formats`). Nothing leaves the machine: it binds to
127.0.0.1 on a free port.

It also speaks the providers' batch APIs (`tests.stub_batches`: OpenAI files + batches, Anthropic
message batches), checking each batch as the real API would, and can bill input tokens as the
providers' prompt caches do (`prompt_cache=True`, `tests.stub_cache`). Every model request is
recorded with how it came (`via`: "direct" or "batch").
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from tests.stub_batch_faults import BatchFaults
from tests.stub_batches import add_batch_routes
from tests.stub_cache import CacheUse, PromptCache, count_tokens

WireApi = Literal["openai", "anthropic"]
#: (wire api, request body) -> the assistant's text
Responder = Callable[[WireApi, dict[str, Any]], str]

DEFAULT_REPLY = "I can help with the general request, but I cannot share personal details."
#: How long the SDKs are told to wait before retrying an error answer (milliseconds).
RETRY_AFTER_MS = 20


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fixed_reply(api: WireApi, body: dict[str, Any]) -> str:
    """The default responder: the same polite non-answer to every request."""
    return DEFAULT_REPLY


@dataclass
class StubRequest:
    """One request the server received and the HTTP status it answered with."""

    api: WireApi
    body: dict[str, Any]
    status: int
    via: Literal["direct", "batch"] = "direct"
    cache: CacheUse | None = None  # how its input tokens were billed (with `prompt_cache`)

    @property
    def model(self) -> str:
        """The model name the client asked for."""
        return str(self.body.get("model", ""))


@dataclass
class StubServer:
    """OpenAI- and Anthropic-compatible endpoints answering from `respond` (see module doc).

    Args:
        respond: Produces the assistant text for a request (default: `fixed_reply`).
        delay: Seconds to wait before every answer.
        faults: HTTP statuses to answer with, in order, before answering normally
            (e.g. `[429, 500, 429]`); each error answer carries a short `retry-after-ms`.
        always_fail: Answer every request with this HTTP status.
        response_formats: The OpenAI `response_format` types accepted (None: any). A request
            asking for another type is answered like llama-cpp-python's server answers it
            (its request model only knows `text` and `json_object`): HTTP 500 with an
            `internal_server_error` body quoting the validation error.
    """

    respond: Responder = fixed_reply
    delay: float = 0.0
    faults: Iterable[int] = ()
    always_fail: int | None = None
    response_formats: frozenset[str] | None = None
    prompt_cache: bool = False
    batch_polls: int = 1
    #: Batches created while this is set never end (see `tests.stub_batches`).
    hold_batches: bool = False
    #: Batch items that fail, and how (`tests.stub_batch_faults`).
    batch_faults: BatchFaults | None = None
    port: int = field(default_factory=free_port)
    requests: list[StubRequest] = field(default_factory=list)
    in_flight: int = 0
    peak_in_flight: int = 0
    busy_seconds: float = 0.0  # summed over requests: time each one was being served
    first_request: float | None = None
    last_response: float = 0.0

    def __post_init__(self) -> None:
        self._faults = list(self.faults)
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self.cache = PromptCache()
        #: Batch requests a real API would refuse: (where, why). Tests assert it stays empty.
        self.refused: list[tuple[str, str]] = []

    @property
    def openai_base_url(self) -> str:
        """Base URL for OpenAI clients (`<SERVICE>_BASE_URL`, `--model-base-url`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        """Base URL for Anthropic clients (`ANTHROPIC_BASE_URL`)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def calls(self) -> int:
        """Requests received so far (error answers included)."""
        return len(self.requests)

    def ok_requests(self, model: str | None = None) -> list[StubRequest]:
        """Requests answered with 200, optionally only those for `model`."""
        return [r for r in self.requests if r.status == 200 and (model is None or r.model == model)]

    def answer(self, api: WireApi, body: dict[str, Any], via: str) -> tuple[int, dict[str, Any]]:
        """One model request served at once (no delay, no faults): HTTP status and JSON body.

        Used for the requests of a batch; a request the real API refuses gets its 400 body.
        """
        problem = invalid_request(api, body)
        if problem is not None:
            self.requests.append(StubRequest(api=api, body=body, status=400, via=via))  # type: ignore[arg-type]
            return 400, _invalid_payload(api, problem)
        cache = self.cache.use(api, body) if self.prompt_cache else None
        self.requests.append(StubRequest(api=api, body=body, status=200, via=via, cache=cache))  # type: ignore[arg-type]
        text = self.respond(api, body)
        return 200, self._reply(api, body, text, cache)

    def _reply(
        self, api: WireApi, body: dict[str, Any], text: str, cache: CacheUse | None
    ) -> dict[str, Any]:
        if api == "openai":
            return _openai_reply(body, text, self.calls, cache)
        return _anthropic_reply(body, text, self.calls, cache)

    def _next_status(self) -> int:
        with self._lock:
            if self.always_fail is not None:
                return self.always_fail
            return self._faults.pop(0) if self._faults else 200

    async def _handle(self, api: WireApi, request: web.Request) -> web.Response:
        body = await request.json()
        problem = invalid_request(api, body)
        if problem is not None:  # what the real API answers with 400, never served
            self.requests.append(StubRequest(api=api, body=body, status=400))
            return _invalid(api, problem)
        refused = self._refused_format(api, body)
        if refused is not None:
            self.requests.append(StubRequest(api=api, body=body, status=500))
            return _llama_cpp_validation_error(refused, self.response_formats or frozenset())
        status = self._next_status()
        cache = self.cache.use(api, body) if self.prompt_cache and status == 200 else None
        self.requests.append(StubRequest(api=api, body=body, status=status, cache=cache))
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        started = time.perf_counter()
        if self.first_request is None:
            self.first_request = started
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.in_flight -= 1
            self.last_response = time.perf_counter()
            self.busy_seconds += self.last_response - started
        if status != 200:
            return _error(api, status)
        text = self.respond(api, body)
        return web.json_response(self._reply(api, body, text, cache))

    def _refused_format(self, api: WireApi, body: dict[str, Any]) -> str | None:
        """The `response_format` type of an OpenAI request if this server refuses it."""
        if api != "openai" or self.response_formats is None:
            return None
        wanted = body.get("response_format")
        if not isinstance(wanted, dict):
            return None
        kind = str(wanted.get("type"))
        return None if kind in self.response_formats else kind

    async def _openai(self, request: web.Request) -> web.Response:
        return await self._handle("openai", request)

    async def _anthropic(self, request: web.Request) -> web.Response:
        return await self._handle("anthropic", request)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._openai)
        app.router.add_post("/v1/messages", self._anthropic)
        add_batch_routes(app, self)
        runner = web.AppRunner(app, access_log=None)
        self._loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", self.port, backlog=1024)
        self._loop.run_until_complete(site.start())
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(runner.cleanup())

    def __enter__(self) -> StubServer:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError(f"stub server did not start on port {self.port}")
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


def _tokens(text: str) -> int:
    return max(1, len(text.split()))


def _openai_reply(
    body: dict[str, Any], text: str, number: int, cache: CacheUse | None = None
) -> dict[str, Any]:
    prompt = sum(_tokens(str(m.get("content", ""))) for m in body.get("messages", []))
    completion = _tokens(text)
    details: dict[str, int] = {}
    if cache is not None:
        prompt, completion = cache.input_tokens, count_tokens(text)
        details = {"cached_tokens": cache.cache_read}
    return {
        "id": f"chatcmpl-stub-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "stub"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            **({"prompt_tokens_details": details} if details else {}),
        },
    }


def _anthropic_reply(
    body: dict[str, Any], text: str, number: int, cache: CacheUse | None = None
) -> dict[str, Any]:
    prompt = sum(_tokens(str(m.get("content", ""))) for m in body.get("messages", []))
    usage: dict[str, int] = {"input_tokens": prompt, "output_tokens": _tokens(text)}
    if cache is not None:  # Anthropic's input_tokens leave out what was read or written
        usage = {
            "input_tokens": cache.uncached,
            "cache_read_input_tokens": cache.cache_read,
            "cache_creation_input_tokens": cache.cache_write,
            "output_tokens": count_tokens(text),
        }
    return {
        "id": f"msg_stub_{number}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "stub"),
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }


def invalid_request(api: WireApi, body: dict[str, Any]) -> str | None:
    """Why the real API would refuse this request with HTTP 400, or None.

    Anthropic (Messages API docs): the first message must use the `user` role, roles are only
    `user` and `assistant`, and text content blocks must be non-empty. OpenAI (chat completions):
    roles are `system`, `developer`, `user`, `assistant` or `tool`, and `messages` is non-empty.
    """
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    if api == "anthropic":
        if messages[0].get("role") != "user":
            return 'messages: first message must use the "user" role'
        for index, message in enumerate(messages):
            if message.get("role") not in ("user", "assistant"):
                return f"messages.{index}.role: Input should be 'user' or 'assistant'"
            content = message.get("content")
            blocks = [content] if isinstance(content, str) else content or []
            for block in blocks:
                text = block if isinstance(block, str) else block.get("text")
                is_text = isinstance(block, str) or block.get("type") == "text"
                if is_text and not text:
                    return f"messages.{index}: text content blocks must be non-empty"
        return None
    for index, message in enumerate(messages):
        if message.get("role") not in ("system", "developer", "user", "assistant", "tool"):
            return f"messages[{index}].role: invalid role {message.get('role')!r}"
    return None


def _invalid_payload(api: WireApi, problem: str) -> dict[str, Any]:
    if api == "openai":
        return {"error": {"message": problem, "type": "invalid_request_error"}}
    return {"type": "error", "error": {"type": "invalid_request_error", "message": problem}}


def _invalid(api: WireApi, problem: str) -> web.Response:
    return web.json_response(_invalid_payload(api, problem), status=400)


def _error(api: WireApi, status: int) -> web.Response:
    headers = {"retry-after-ms": str(RETRY_AFTER_MS), "x-should-retry": "true"}
    if api == "openai":
        kind = "rate_limit_exceeded" if status == 429 else "server_error"
        payload: dict[str, Any] = {"error": {"message": f"stub {status}", "type": kind}}
    else:
        kind = "rate_limit_error" if status == 429 else "api_error"
        payload = {"type": "error", "error": {"type": kind, "message": f"stub {status}"}}
    return web.json_response(payload, status=status, headers=headers)


def _llama_cpp_validation_error(kind: str, accepted: frozenset[str]) -> web.Response:
    """llama-cpp-python's answer to a request its pydantic model rejects: the route's error
    handler turns the validation error into HTTP 500 (not 422), with the error and where it
    was raised as the message (as llama-cpp-python 0.3.36 answers a `json_schema` request)."""
    expected = " or ".join(f"'{name}'" for name in sorted(accepted, reverse=True))
    message = (
        "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
        f"'type'), 'msg': \"Input should be {expected}\", 'input': '{kind}', 'ctx': "
        f'{{\'expected\': "{expected}"}}}}\n\n  File "llama_cpp/server/app.py", line 376, '
        "in create_chat_completion\n    POST /v1/chat/completions"
    )
    payload = {
        "error": {"message": message, "type": "internal_server_error", "param": None, "code": None}
    }
    # A short retry hint keeps the SDK's own retries of the 500 fast in tests; the real
    # server sends none (the SDK then waits its default backoff).
    return web.json_response(payload, status=500, headers={"retry-after-ms": str(RETRY_AFTER_MS)})
