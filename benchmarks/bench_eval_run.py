"""Whole-run benchmark: the full 7,875-sample grid through `inspect eval` with `polar/leaky`.

Prints wall-clock time, CPU time and peak memory of the run, and the cost per generate call
against a bare Inspect task that calls generate once per sample on the same samples (same
model, same dataset, no dialogue, no scorer). Each run happens in its own process so peak
memory is measured per run.

    python benchmarks/bench_eval_run.py [--data FILE] [--limit N]
    python benchmarks/bench_eval_run.py --strict-cost [--repeats N] [--data FILE] [--limit N]

One run alone prints its figures as JSON, e.g. the task with Python's garbage-collection
thresholds, to compare peak memory and time with the default (`--gc-tuning true`):

    python benchmarks/bench_eval_run.py --mode ours --data bundled --gc-tuning false

`--strict-cost` measures what the strict scorer (attribution + strict detector) adds: it runs
the same task with only the parity scorers (`polar_scorer` and `reply_flags`, the task's
scorers before the strict one) and with all of them, alternating, `--repeats` times each, and
prints every run's figures with the load averages around it, then the medians and their ratio.

Without `--data`, the full grid is built once with the project's generator
(`polar-generate`, 10 domains x 5 policies x 5 attacks x forms x 5 repetitions) into
benchmarks/out/.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def _full_grid() -> Path:
    path = OUT / "full_grid.json"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "polar_inspect.generate", "--out", str(path)], check=True
        )
        print(f"built {path} in {time.perf_counter() - started:.1f} s")
    return path


def _usage() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _load() -> str:
    """The 1/5/15-minute load averages, as `uptime` prints them."""
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def _our_task(data: str, scorers: str, gc_tuning: bool = True) -> object:
    """The `privacy` task on `data`; with scorers="parity", without the strict scorer."""
    from inspect_ai import task_with

    from polar_inspect.scorers.flags import reply_flags
    from polar_inspect.scorers.parity import polar_scorer
    from polar_inspect.tasks import privacy

    task = privacy(data=data, gc_tuning=gc_tuning)
    if scorers == "parity":
        task = task_with(task, scorer=[polar_scorer(), reply_flags()])
    return task


def _run(
    mode: str, data: str, limit: int | None, scorers: str = "all", gc_tuning: bool = True
) -> dict[str, float]:
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser
    from inspect_ai.solver import Generate, TaskState, solver

    from polar_inspect.data.samples import records_to_dataset, sample_info
    from polar_inspect.data.sources import load_source, resolve_source
    from polar_inspect.sample_context import write_sample_facts

    log_dir = tempfile.mkdtemp(prefix=f"bench-{mode}-")
    cpu0, _ = _usage()
    started = time.perf_counter()
    task_args: dict[str, str] = {}
    if mode == "ours":
        task: object = _our_task(data, scorers, gc_tuning)
    else:
        records = load_source(resolve_source(data))

        @solver
        def one_generate():
            async def solve(state: TaskState, generate: Generate) -> TaskState:
                meta = state.metadata
                turns = meta["planned_turns"] or ["Hello."]
                state.messages = [
                    ChatMessageSystem(content=meta["texts"]["source_document"]),
                    ChatMessageUser(content=turns[0]),
                ]
                write_sample_facts(str(state.sample_id), sample_info(state))  # the agents read it
                return await generate(state)

            return solve

        task = Task(dataset=records_to_dataset(records, "bare", data), solver=one_generate())
    [log] = inspect_eval(
        task,
        model="polar/leaky",
        task_args=task_args,
        log_dir=log_dir,
        display="none",
        limit=limit,
    )
    wall = time.perf_counter() - started
    cpu1, peak_mb = _usage()
    assert log.status == "success", log.error
    from _log_counts import count_samples_and_model_calls

    samples, calls = count_samples_and_model_calls(log.location)
    return {
        "samples": samples,
        "generate_calls": calls,
        "wall_s": wall,
        "cpu_s": cpu1 - cpu0,
        "peak_rss_mb": peak_mb,
    }


def _in_subprocess(mode: str, data: str, limit: int | None, scorers: str = "all") -> dict:
    """One run in its own process (its own peak memory); its figures."""
    command = [sys.executable, __file__, "--mode", mode, "--data", data, "--scorers", scorers]
    if limit:
        command += ["--limit", str(limit)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _strict_cost(data: str, limit: int | None, repeats: int) -> None:
    """Parity-only and parity+strict runs, alternating; each run's figures, medians, ratio."""
    walls: dict[str, list[float]] = {"parity": [], "all": []}
    labels = {"parity": "parity only", "all": "parity + strict"}
    print(f"data {data}, model polar/leaky, {repeats} repeat(s) each, alternating")
    for repeat in range(1, repeats + 1):
        order = ("parity", "all") if repeat % 2 else ("all", "parity")
        for scorers in order:
            before = _load()
            r = _in_subprocess("ours", data, limit, scorers)
            walls[scorers].append(r["wall_s"])
            print(
                f"run {repeat} {labels[scorers]:16s} samples {r['samples']:5d}  wall "
                f"{r['wall_s']:6.1f} s  cpu {r['cpu_s']:6.1f} s  peak RSS "
                f"{r['peak_rss_mb']:5.0f} MB  ({before} before, {_load()} after)",
                flush=True,
            )
    parity, full = statistics.median(walls["parity"]), statistics.median(walls["all"])
    print(
        f"median wall: parity only {parity:.1f} s, parity + strict {full:.1f} s, "
        f"ratio x{full / parity:.2f} (target: x1.20 or less)"
    )


def main() -> None:
    """Run both modes in subprocesses and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="release-format file (default: build the full grid)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N samples")
    parser.add_argument(
        "--strict-cost",
        action="store_true",
        help="compare the task with and without the strict scorer (alternating runs)",
    )
    parser.add_argument("--repeats", type=int, default=2, help="runs per variant (--strict-cost)")
    parser.add_argument("--mode", choices=["ours", "bare"], help=argparse.SUPPRESS)
    parser.add_argument(
        "--scorers", choices=["all", "parity"], default="all", help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--gc-tuning",
        choices=["true", "false"],
        default="true",
        help="with --mode ours: the task's gc_tuning (peak memory and time with and without)",
    )
    args = parser.parse_args()
    if args.mode:
        gc_tuning = args.gc_tuning == "true"
        print(json.dumps(_run(args.mode, args.data, args.limit, args.scorers, gc_tuning)))
        return
    data = args.data or str(_full_grid())
    if args.strict_cost:
        _strict_cost(data, args.limit, args.repeats)
        return
    results = {mode: _in_subprocess(mode, data, args.limit) for mode in ("ours", "bare")}
    for mode, label in (("ours", "polar_inspect/privacy"), ("bare", "bare one-generate task")):
        r = results[mode]
        print(
            f"{label:24s} samples {r['samples']:5d}  generate calls {r['generate_calls']:6d}  "
            f"wall {r['wall_s']:7.1f} s  cpu {r['cpu_s']:7.1f} s  peak RSS "
            f"{r['peak_rss_mb']:6.0f} MB"
            f"  wall/call {1000 * r['wall_s'] / r['generate_calls']:.2f} ms"
        )
    ours, bare = results["ours"], results["bare"]
    ratio = (ours["wall_s"] / ours["generate_calls"]) / (bare["wall_s"] / bare["generate_calls"])
    cpu_ratio = (ours["cpu_s"] / ours["generate_calls"]) / (bare["cpu_s"] / bare["generate_calls"])
    print(f"cost per generate call, polar vs bare: wall x{ratio:.2f}, cpu x{cpu_ratio:.2f}")
    print("targets: whole run < 600 s, peak < 2048 MB, per-call cost within x1.5 of bare")


if __name__ == "__main__":
    main()
