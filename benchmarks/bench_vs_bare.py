"""polar_inspect against a bare thread-pool runner, side by side on one slow local provider.

Both play the same sample dialogues (trusted model + live S5 attacker) against one
OpenAI-compatible stub on 127.0.0.1 that answers every request after `--delay` seconds:

- `bare`: `benchmarks/bare_runner.py`, `--concurrency` threads with blocking openai SDK calls;
- `polar`: `inspect eval polar_inspect/privacy` with the large-run settings of docs/large-runs.md
  (`--polar-args`), both roles capped together at `--concurrency` requests in flight
  (`--max-connections N -T max_in_flight=N`);
- `polar-defaults` (optional): Inspect's defaults with `--max-connections N` (one pool per role);
- `polar-gc-default` (optional): `polar` with Python's garbage-collection thresholds
  (`-T gc_tuning=false`), to measure what the task's default GC tuning saves.

Each runner is a subprocess started by this script, so start-up counts. The runs alternate
(bare, polar, bare, polar, ...) because a shared machine is noisy. Per run it prints the wall
time, the ideal (model calls x delay / concurrency), their ratio, the peak and mean requests in
flight (the mean over the stub's busy window, first request to last response), the time from
the command's start to its first request, and the CPU seconds of the runner (children included).

    python benchmarks/bench_vs_bare.py [--samples 400] [--concurrency 50] [--delay 1.0]
        [--repeats 3] [--runners bare,polar] [--data bundled]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_slow_provider import StubServer

from polar_inspect.data.records import PolarRecord
from polar_inspect.data.sources import load_source, resolve_source

HERE = Path(__file__).resolve().parent
#: The large-run options of docs/large-runs.md, which the `polar` runner adds to `inspect eval`.
POLAR_ARGS = (
    "--max-samples=500 --no-log-realtime --no-log-model-api --no-score-display --ctl-server=false"
)


def pick_samples(records: list[PolarRecord], count: int, seed: int) -> list[PolarRecord]:
    """A seeded random slice of `count` records (every attack strategy, S5 included)."""
    chosen = random.Random(seed).sample(records, min(count, len(records)))
    return sorted(chosen, key=lambda r: r.sample_id)


def model_calls(record: PolarRecord) -> int:
    """Model calls one dialogue makes against a stub that never answers <STOP>."""
    rounds = min(len(record.planned_turns()), record.turn_budget())
    return rounds * (2 if record.attack == "S5" else 1)


def runner_command(name: str, args: argparse.Namespace, data: Path, work: Path) -> list[str]:
    """The command line of one runner (`name=OPTIONS`: polar with these `inspect eval` options)."""
    n = str(args.concurrency)
    if name == "bare":
        return [
            sys.executable,
            str(HERE / "bare_runner.py"),
            f"--data={data}",
            f"--base-url={os.environ['STUB_BASE_URL']}",
            f"--workers={n}",
            f"--out={work / 'bare.json'}",
        ]
    inspect = str(Path(sys.executable).with_name("inspect"))
    common = [
        inspect,
        "eval",
        "polar_inspect/privacy",
        "--model=openai-api/stub/trusted",
        "--model-role=attacker=openai-api/stub/attacker",
        "-T",
        f"data={data}",
        f"--max-connections={n}",
        f"--log-dir={work / 'logs'}",
        "--display=none",
    ]
    if name == "polar":
        return [*common, "-T", f"max_in_flight={n}", *args.polar_args.split()]
    if name == "polar-defaults":
        return common
    if name == "polar-gc-default":
        return [
            *common,
            "-T",
            f"max_in_flight={n}",
            "-T",
            "gc_tuning=false",
            *args.polar_args.split(),
        ]
    if "=" in name:  # the polar runner with other `inspect eval` options
        return [*common, "-T", f"max_in_flight={n}", *name.split("=", 1)[1].split()]
    raise SystemExit(
        f"unknown runner {name!r}: use bare, polar, polar-defaults or polar-gc-default"
    )


def run_once(name: str, args: argparse.Namespace, data: Path, expected_calls: int) -> dict:
    """Run one runner against a fresh stub; return its figures."""
    work = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
    with StubServer(delay=args.delay) as server:
        os.environ["STUB_API_KEY"] = "local"
        os.environ["STUB_BASE_URL"] = f"http://127.0.0.1:{server.port}/v1"
        command = runner_command(name, args, data, work)
        if args.profile and name != "bare":
            target = Path(args.profile) / f"{name}-{time.strftime('%H%M%S')}.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            beside = Path(sys.executable).with_name("py-spy")
            py_spy = str(beside) if beside.exists() else shutil.which("py-spy")
            if py_spy is None:
                raise SystemExit("--profile needs py-spy: pip install py-spy")
            command = [
                py_spy,
                "record",
                "-r",
                "200",
                "-f",
                "raw",
                "-o",
                str(target),
                "--",
            ] + command
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        calls, peak, first = server.calls, server.peak_in_flight, server.first_request
        busy = server.last_response - (first or started)
        mean_in_flight = server.busy_seconds / busy if busy > 0 else 0.0
    if done.returncode != 0:
        raise SystemExit(f"{name} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    if name != "bare":
        _check_log(work / "logs", args.samples)
    if calls != expected_calls:
        print(f"warning: {name} made {calls} calls, expected {expected_calls}", file=sys.stderr)
    ideal = expected_calls * args.delay / args.concurrency
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "runner": name,
        "wall_s": round(wall, 1),
        "ideal_s": round(ideal, 1),
        "ratio": round(wall / ideal, 3),
        "calls": calls,
        "peak_in_flight": peak,
        "mean_in_flight": round(mean_in_flight, 1),
        "first_request_s": round((first or started) - started, 2),
        "serving_s": round(busy, 1),  # first request to last response
        "cpu_s": round(cpu, 1),
        "cpu_ms_per_call": round(1000 * cpu / max(calls, 1), 1),
    }


def _check_log(log_dir: Path, samples: int) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    [info] = list_eval_logs(str(log_dir))
    log = read_eval_log(info, header_only=True)
    if log.status != "success" or log.results is None:
        raise SystemExit(f"the eval did not succeed: {log.status} {log.error}")
    if log.results.completed_samples != samples:
        raise SystemExit(f"the log has {log.results.completed_samples} samples, not {samples}")


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Median (and range) per runner, and polar's wall time over bare's per repeat."""
    out: dict[str, Any] = {}
    for name in dict.fromkeys(r["runner"] for r in rows):
        mine = [r for r in rows if r["runner"] == name]
        out[name] = {
            key: statistics.median(r[key] for r in mine)
            for key in ("wall_s", "ratio", "peak_in_flight", "mean_in_flight", "first_request_s")
            + ("serving_s", "cpu_s", "cpu_ms_per_call")
        }
        out[name]["wall_range_s"] = [min(r["wall_s"] for r in mine), max(r["wall_s"] for r in mine)]
    bare = [r["wall_s"] for r in rows if r["runner"] == "bare"]
    polar = [r["wall_s"] for r in rows if r["runner"] == "polar"]
    if bare and polar:
        pairs = zip(polar, bare, strict=True)
        out["polar_over_bare_per_repeat"] = [round(p / b, 3) for p, b in pairs]
    return out


def main() -> None:
    """Run the runners in alternation and print every run and a summary as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--runners",
        default="bare,polar",
        help="comma-separated: bare, polar, polar-defaults, polar-gc-default, or NAME=OPTIONS: "
        "polar (capped at --concurrency) with these `inspect eval` options instead of --polar-args",
    )
    parser.add_argument("--data", default="bundled")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--polar-args",
        default=POLAR_ARGS,
        help="extra `inspect eval` options of the polar runner",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="record the polar runs with py-spy (collapsed stacks in DIR, summarised by "
        "benchmarks/cpu_split.py; CPU figures then include py-spy's own)",
    )
    args = parser.parse_args()
    # The stub stops with idle keep-alive handlers pending; asyncio's notes on them are noise.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    records = pick_samples(load_source(resolve_source(args.data)), args.samples, args.seed)
    args.samples = len(records)
    expected = sum(model_calls(r) for r in records)
    # Both runners read the same slice as a data file (its parsed cache is written here first).
    data = Path(tempfile.mkdtemp(prefix="bench-data-")) / "slice.jsonl"
    data.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in records))
    load_source(resolve_source(str(data)))
    s5 = sum(r.attack == "S5" for r in records)
    load = os.getloadavg()[0]
    print(
        f"{len(records)} samples ({s5} S5, live attacker), {expected} model calls, "
        f"delay {args.delay} s, concurrency {args.concurrency}, "
        f"ideal {expected * args.delay / args.concurrency:.1f} s; load average {load:.1f}",
        flush=True,
    )
    rows = []
    for _ in range(args.repeats):
        for name in args.runners.split(","):
            row = run_once(name, args, data, expected)
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = {"summary": summarise(rows), "load_average_end": os.getloadavg()[0]}
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
