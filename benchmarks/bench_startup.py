"""Where the seconds before the first model request go: Inspect's own imports, then the rest.

Each measurement is a fresh process, and the repeats alternate between them (a shared machine
is noisy). Per repeat it prints:

- `cli_s`: `import inspect_ai._cli.main`, what the `inspect` command imports before it reads
  its arguments (timed inside the process: interpreter start and exit are not counted);
- `floor_s`: the main imports `inspect eval polar_inspect/privacy --model openai-api/...` makes
  before any sample can send a request, whoever runs it: the CLI, the openai SDK with Inspect's
  OpenAI-compatible provider, Inspect's ACP server module (imported at every eval start, used
  or not) and Inspect's Anthropic provider (imported when the first sample starts, whenever the
  `anthropic` package is installed, whatever the model); `floor_no_anthropic_s` the same
  without the Anthropic provider (timed inside the process);
- `import_s` / `build_s`: this package's share, in a process that has made those imports
  first: importing `polar_inspect`, then building the `privacy` task over the benchmark's slice
  (the data read from its parsed cache, the samples made, the parameters checked);
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
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_slow_provider import StubServer
from bench_vs_bare import POLAR_ARGS, pick_samples, runner_command

from polar_inspect.data.sources import load_source, resolve_source

#: What `inspect eval` with an OpenAI-compatible model imports before its first request.
FLOOR_IMPORTS = (
    "inspect_ai._cli.main",
    "openai",
    "inspect_ai.model._providers.openai_compatible",
    "inspect_ai.agent._acp.server",
    "inspect_ai.model._providers.anthropic",
)


def import_lines(modules: tuple[str, ...]) -> str:
    """Python source importing `modules`, one statement a line."""
    return "\n".join(f"import {name}" for name in modules)


def _child_seconds(code: str) -> list[float]:
    """Run `code` in a fresh Python; return the seconds it printed (one per line)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the measuring process failed:\n{done.stderr}")
    return [float(line) for line in done.stdout.split()]


def timed_imports(modules: tuple[str, ...]) -> float:
    """Seconds to import `modules`, timed inside a fresh process (no interpreter start or exit)."""
    code = (
        f"import time\nstarted = time.perf_counter()\n{import_lines(modules)}\n"
        "print(time.perf_counter() - started)"
    )
    return _child_seconds(code)[0]


def package_share(data: Path) -> tuple[float, float]:
    """Seconds to import polar_inspect, then to build the task, after Inspect's floor imports."""
    code = (
        f"{import_lines(FLOOR_IMPORTS)}\nimport time\nstarted = time.perf_counter()\n"
        "from polar_inspect.tasks import privacy\n"
        "imported = time.perf_counter()\n"
        f"privacy(data={str(data)!r})\n"
        "print(imported - started)\nprint(time.perf_counter() - imported)"
    )
    imported, built = _child_seconds(code)
    return imported, built


def first_request(data: Path, extra: list[str]) -> float:
    """Seconds from starting `inspect eval` to the stub's first request (then it is stopped)."""
    work = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    # The stub records a request as it arrives; it answers at once (the run is stopped anyway).
    with StubServer(delay=0.0) as server:
        env = dict(
            os.environ,
            STUB_API_KEY="local",
            STUB_BASE_URL=f"http://127.0.0.1:{server.port}/v1",
            INSPECT_TRACE_FILE=str(work / "trace.log"),  # not ~/.local/share: it is removed
        )
        runner = argparse.Namespace(concurrency=50, polar_args=POLAR_ARGS)
        command = [*runner_command("polar", runner, data, work), *extra]
        errors = (work / "stderr.txt").open("w+")
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        try:
            while server.first_request is None:
                if process.poll() is not None:
                    errors.seek(0)
                    raise SystemExit(f"inspect eval ended before any request:\n{errors.read()}")
                if time.perf_counter() - started > 120:
                    raise SystemExit("no request within 120 s")
                time.sleep(0.005)
            return server.first_request - started
        finally:
            process.kill()
            process.wait()
            errors.close()
            shutil.rmtree(work, ignore_errors=True)


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
        imported, built = package_share(data)
        row = {
            "cli_s": timed_imports(FLOOR_IMPORTS[:1]),
            "floor_s": timed_imports(FLOOR_IMPORTS),
            "floor_no_anthropic_s": timed_imports(FLOOR_IMPORTS[:-1]),
            "import_s": imported,
            "build_s": built,
            "first_request_s": first_request(data, []),
            "first_request_1_s": first_request(data, ["--limit=1"]),
        }
        rows.append({key: round(value, 2) for key, value in row.items()})
        print(json.dumps(rows[-1]), flush=True)
    medians = {key: round(statistics.median(r[key] for r in rows), 2) for key in rows[0]}
    print(json.dumps({"median": medians, "load_average_end": round(os.getloadavg()[0], 1)}))


if __name__ == "__main__":
    main()
