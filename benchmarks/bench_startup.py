"""Where the seconds before the first model request go: Inspect's own imports, then the rest.

Each measurement is a fresh process, and the repeats alternate between them (a shared machine
is noisy). Per repeat it prints:

- `cli_s`: `import inspect_ai._cli.main`, what the `inspect` command imports before it reads
  its arguments;
- `floor_s`: everything `inspect eval polar_inspect/privacy --model openai-api/...` must import
  before any sample can make a request, whoever runs it: the CLI, the openai SDK with Inspect's
  OpenAI-compatible provider, Inspect's ACP server module (imported at every eval start, used
  or not) and Inspect's Anthropic provider (imported when the first sample starts, whenever the
  `anthropic` package is installed, whatever the model);
- `package_s`: this package's share, in a process that has done those imports first: importing
  `polar_inspect` and building the `privacy` task over the benchmark's slice (the data read
  from its parsed cache, the samples made, the parameters checked);
- `first_request_s` / `first_request_1_s`: from starting `inspect eval` (the command
  `bench_vs_bare.py` runs, against a local stub) to the stub receiving the first request, with
  all `--samples` samples and with `--limit 1`. The difference is what Inspect does per sample
  before the first request leaves: every admitted sample starts (its state, transcript and
  summary) before the event loop gets back to the first one's socket.

    python benchmarks/bench_startup.py [--samples 400] [--repeats 3] [--data bundled]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_slow_provider import StubServer
from bench_vs_bare import pick_samples

from polar_inspect.data.sources import load_source, resolve_source

#: What `inspect eval` with an OpenAI-compatible model imports before its first request.
FLOOR_IMPORTS = (
    "inspect_ai._cli.main",
    "openai",
    "inspect_ai.model._providers.openai_compatible",
    "inspect_ai.agent._acp.server",
    "inspect_ai.model._providers.anthropic",
)


def timed_python(code: str) -> float:
    """Wall seconds of `python -c code` in a fresh process (interpreter start included)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - started


def package_share(data: Path) -> float:
    """Seconds to import polar_inspect and build the task, after Inspect's floor imports."""
    imports = "; ".join(f"import {name}" for name in FLOOR_IMPORTS)
    code = (
        f"{imports}\nimport time\nstarted = time.perf_counter()\n"
        "from polar_inspect.tasks import privacy\n"
        f"privacy(data={str(data)!r})\n"
        "print(time.perf_counter() - started)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def first_request(data: Path, extra: list[str]) -> float:
    """Seconds from starting `inspect eval` to the stub's first request (then it is stopped)."""
    inspect = str(Path(sys.executable).with_name("inspect"))
    with StubServer(delay=60.0) as server:
        env = dict(
            os.environ,
            STUB_API_KEY="local",
            STUB_BASE_URL=f"http://127.0.0.1:{server.port}/v1",
        )
        command = [
            inspect,
            "eval",
            "polar_inspect/privacy",
            "--model=openai-api/stub/trusted",
            "--model-role=attacker=openai-api/stub/attacker",
            "-T",
            f"data={data}",
            "-T",
            "max_in_flight=50",
            "--max-connections=50",
            "--max-samples=500",
            "--no-log-realtime",
            "--no-log-model-api",
            "--no-score-display",
            "--ctl-server=false",
            "--display=none",
            f"--log-dir={tempfile.mkdtemp(prefix='bench-startup-')}",
            *extra,
        ]
        started = time.perf_counter()
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        try:
            while server.first_request is None:
                if process.poll() is not None:
                    errors = process.stderr.read() if process.stderr else ""
                    raise SystemExit(f"inspect eval ended before any request:\n{errors}")
                if time.perf_counter() - started > 120:
                    raise SystemExit("no request within 120 s")
                time.sleep(0.005)
            return server.first_request - started
        finally:
            process.kill()
            process.wait()


def main() -> None:
    """Alternate the measurements for `--repeats` rounds; print each round and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--data", default="bundled")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    # The stub is stopped with requests pending; asyncio's notes on them are noise.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    logging.getLogger("aiohttp").setLevel(logging.CRITICAL)

    records = pick_samples(load_source(resolve_source(args.data)), args.samples, args.seed)
    data = Path(tempfile.mkdtemp(prefix="bench-startup-data-")) / "slice.jsonl"
    data.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in records))
    load_source(resolve_source(str(data)))  # write the parsed cache, as a second run would find it
    print(
        f"{len(records)} samples; load average {os.getloadavg()[0]:.1f}; "
        f"python {sys.version.split()[0]}",
        flush=True,
    )
    rows = []
    for _ in range(args.repeats):
        row = {
            "cli_s": timed_python("import inspect_ai._cli.main"),
            "floor_s": timed_python("; ".join(f"import {name}" for name in FLOOR_IMPORTS)),
            "package_s": package_share(data),
            "first_request_s": first_request(data, []),
            "first_request_1_s": first_request(data, ["--limit=1"]),
        }
        rows.append({key: round(value, 2) for key, value in row.items()})
        print(json.dumps(rows[-1]), flush=True)
    medians = {key: round(statistics.median(r[key] for r in rows), 2) for key in rows[0]}
    print(json.dumps({"median": medians, "load_average_end": round(os.getloadavg()[0], 1)}))


if __name__ == "__main__":
    main()
