"""Concurrency benchmark: both roles served by a slow local OpenAI-compatible server.

A stub server on 127.0.0.1 answers every chat completion after a fixed delay. The trusted model
and the live S5 attacker both use it through Inspect's `openai-api` provider. The run's wall-clock
time is compared with the ideal: (sequential model calls summed over samples) x delay /
connections, i.e. every connection busy all the time.

    python benchmarks/bench_slow_provider.py [--samples 500] [--connections 50] [--delay 1.0]

The data is the bundled dataset (or `--data FILE`), filtered to a stratified slice of `--samples`.
Nothing leaves this machine: the server binds to 127.0.0.1 on a free port and stops at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import tempfile
import threading
import time
from pathlib import Path

from aiohttp import web


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class StubServer:
    """An OpenAI-compatible /v1/chat/completions endpoint that replies after `delay` seconds."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.port = _free_port()
        self.calls = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.busy_seconds = 0.0  # summed over requests: time each one was being served
        self.first_request: float | None = None
        self.last_response = 0.0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    async def _complete(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.calls += 1
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
        content = "I can help with the general request, but I cannot share personal details."
        return web.json_response(
            {
                "id": f"stub-{self.calls}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "stub"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            }
        )

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._complete)
        runner = web.AppRunner(app, access_log=None)
        self._loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", self.port, backlog=1024)
        self._loop.run_until_complete(site.start())
        self._ready.set()
        self._loop.run_forever()

    def __enter__(self) -> StubServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--data", default="bundled")
    parser.add_argument(
        "--max-samples",
        type=int,
        default=None,
        help="samples in flight (Inspect's default: as many as connections)",
    )
    parser.add_argument(
        "--no-log-realtime",
        action="store_true",
        help="as Inspect's --no-log-realtime: no live sample buffer (less CPU per call)",
    )
    args = parser.parse_args()

    from _log_counts import count_samples_and_model_calls
    from inspect_ai import eval as inspect_eval

    with StubServer(args.delay) as server:
        os.environ["STUB_API_KEY"] = "local"
        os.environ["STUB_BASE_URL"] = f"http://127.0.0.1:{server.port}/v1"
        log_dir = tempfile.mkdtemp(prefix="bench-slow-")
        started = time.perf_counter()
        [log] = inspect_eval(
            "polar_inspect/privacy",
            model="openai-api/stub/trusted",
            model_roles={"attacker": "openai-api/stub/attacker"},
            task_args={"data": args.data},
            limit=args.samples,
            sample_shuffle=7,
            max_connections=args.connections,
            max_samples=args.max_samples,
            log_realtime=not args.no_log_realtime,
            log_dir=log_dir,
            display="none",
        )
        wall = time.perf_counter() - started
        calls, peak = server.calls, server.peak_in_flight
        serving = server.last_response - (server.first_request or 0.0)
        mean_in_flight = server.busy_seconds / serving
        cpu = time.process_time()
    assert log.status == "success", log.error
    samples, sequential_calls = count_samples_and_model_calls(log.location)
    ideal = sequential_calls * args.delay / args.connections
    print(
        json.dumps(
            {
                "samples": samples,
                "model_calls": sequential_calls,
                "server_calls": calls,
                "peak_concurrent_requests": peak,
                "mean_concurrent_requests": round(mean_in_flight, 1),
                "process_cpu_s": round(cpu, 1),
                "wall_s": round(wall, 1),
                "ideal_s": round(ideal, 1),
                "first_request_to_last_response_s": round(serving, 1),
                "ratio_to_ideal": round(wall / ideal, 3),
                "ratio_to_ideal_while_serving": round(serving / ideal, 3),
                "target_ratio": 1.3,
            },
            indent=2,
        )
    )
    Path(log.location).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
