"""Side by side: the same `inspect eval` run on this checkout and on the last 1-A commit.

Each run is the issue-31 command (the zero-latency reference agent `polar/mixed`):

    inspect eval polar_inspect/privacy --model polar/mixed -M leak_policies=P5 -T data=bundled

run from each checkout with that checkout's own `.venv/bin/inspect`, in its own process, the
two checkouts at the same time (below) so that a change in the machine's speed hits both.
Each run's CPU time (user + sys) and peak RSS come from the kernel (`os.wait4`), its wall time
from the clock; per-sample figures subtract a `--limit 1` run of the same checkout (imports,
task build, dataset load), so they are what one more sample costs. On a shared machine, CPU
time is the figure to read: wall time moves with the other processes' load.

The baseline is a second worktree of commit 76fd57c (the last 1-A commit) with its own venv:

    git worktree add ../speed-1a 76fd57c
    cd ../speed-1a && python3 -m uv venv -q .venv \\
        && python3 -m uv pip install -q --python .venv -e ".[dev]"

    python benchmarks/bench_eval_1a_vs_1b.py --baseline ../speed-1a [--limit 1500] [--repeats 3]
        [--one-after-other]

Each repeat runs the checkouts at the same time, each pinned to a core of its own, and swaps
the cores every repeat (with more checkouts than cores, `--one-after-other` is required). This
machine's speed drifts by a quarter within minutes even at load 1.0 (main's CPU per sample in
two 1,500-sample runs of one bench, 2026-11-26 12:40: 53.3, then 41.0 ms), so runs made one
after the other compare the machine as much as the code; run together, both see the same
drift (the `--limit 1` runs too: pinned to a core, a run takes less CPU than one the kernel
moves between cores). `--one-after-other` runs them in turn, as the figures of the first
sessions were made.

Last measured 2026-11-27 16:55-17:29 on main (482f90a), `--limit 0 --repeats 6 --time-metrics`,
load 1.8-3.0: CPU per sample x0.937, x1.021, x0.903, x0.920, x1.087 and x0.997 (printed x0.98);
sixteen pairs since 8e673de: median x0.987, geometric mean x0.991 (docs/large-runs.md).
Before, 2026-11-27 05:14-06:23 on main (96afaa4-684fc1b: start-up cut),
`--limit 0 --repeats 2 --time-metrics` three times, load 1.8-2.4: CPU per sample x0.958,
x1.014, x1.017, x0.996, x0.987 and x1.038 (median x1.005; the benches printed x0.99, x1.01 and
x1.01), the final metric pass 4.5-5.4 / 8.0-9.6 s, peak RSS 1,048-1,059 against 1,093-1,103 MB.
Before, 2026-11-27 00:03-01:21 on main (c8412ba-28ab7cc: read-only metadata that copies
share), `--limit 0 --repeats 2 --time-metrics` three times, load 1.8-2.3: CPU per sample
x0.971, x0.994, x1.004, x1.083, x1.104 and x0.901 (median x0.999; the two cores differ by up to
a tenth, so read a bench's two pairs together), the final metric pass 4.5-5.0 / 8.2-9.5 s, peak
RSS 1,051-1,073 against 1,093-1,102 MB (docs/large-runs.md, "Where it stands").
Before, 2026-11-26 22:14 on main (9039b9a: the record written after the scorers),
`--limit 0 --repeats 2 --time-metrics` (together), load 1.8-1.9: the whole set 36.83 / 34.65 ms
of CPU per sample (x1.063) and 40.60 / 39.42 ms (x1.030), x1.05 for the median, peak RSS 1,078
against 1,106 MB; an experiment with the same change, just before, x0.968 and x1.022 (x0.99).
Before the change, on 2ea75cf (the code of 7cd4608): x1.135 and x1.094 at 21:16 (x1.11; the
final metric pass 10.5 / 8.4 s and 10.0 / 9.0 s), x1.087 and x1.079 at 21:00 (x1.08); at 19:13
on 7cd4608, x1.12 (x1.13 at 13:09 on 8a6c555, x1.11 at 16:47 on bef3c4f; `--limit 1500
--repeats 2` (together) that morning, x1.13 too).
`--time-metrics` adds each run's metric passes (`benchmarks/metric_passes`: Inspect's
`eval_results` timed through a `sitecustomize` on `PYTHONPATH`), the live ones and the final.
Runs one after the other had given x1.30 (whole set) and x1.23 (1,500): see docs/large-runs.md
("1-B against 1-A") for why those overstate it. A commit without a venv of its own can be the
baseline through a `.venv/bin/inspect` wrapper that sets `PYTHONPATH` to its `polar_inspect`
(and `POLAR_BUNDLED_PATH` to a built bundled set).

The runs of a repeat must give the same sample count and the same value for every metric they
share (1-B adds some, e.g. `cut`), read from the logs' headers; a run that does not is reported
as a mismatch, and the script exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
#: `--time-metrics`: the folder whose `sitecustomize` times Inspect's metric passes.
PROBE = Path(__file__).resolve().parent / "metric_passes"
COMMAND = [
    "eval",
    "polar_inspect/privacy",
    "--model",
    "polar/mixed",
    "-M",
    "leak_policies=P5",
    "-T",
    "data=bundled",
    "--display",
    "none",
]


def run_once(checkout: Path, limit: int | None, extra: list[str], probe: bool) -> dict[str, Any]:
    """One `inspect eval` in `checkout` with its own venv: cpu, wall, peak RSS, log header."""
    return _finish(_start(checkout, limit, extra, None, probe))


def _start(
    checkout: Path, limit: int | None, extra: list[str], cpu: int | None, probe: bool
) -> dict[str, Any]:
    """Start one run (pinned to `cpu` if given; its metric passes timed if `probe`);
    `_finish` waits for it."""
    log_dir = tempfile.mkdtemp(prefix=f"bench-{checkout.name}-")
    command = [str(checkout / ".venv" / "bin" / "inspect"), *COMMAND, "--log-dir", log_dir]
    if limit:
        command += ["--limit", str(limit)]
    environment, passes = dict(os.environ), None
    if probe:
        passes = Path(log_dir) / "metric-passes.json"
        path = os.pathsep.join(filter(None, [str(PROBE), environment.get("PYTHONPATH")]))
        environment |= {"PYTHONPATH": path, "POLAR_METRIC_PASSES": str(passes)}
    errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by _finish)
    pin = None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))
    started = time.perf_counter()
    child = subprocess.Popen(
        command + extra,
        cwd=checkout,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        preexec_fn=pin,
    )
    return {
        "checkout": checkout,
        "child": child,
        "errors": errors,
        "log_dir": log_dir,
        "started": started,
        "passes": passes,
    }


def _finish(run: dict[str, Any]) -> dict[str, Any]:
    """Wait for a started run: cpu (user + sys), wall, peak RSS from the kernel, log header."""
    _, status, usage = os.wait4(run["child"].pid, 0)
    return _result(run, status, usage)


def _finish_all(started: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Wait for runs started together, each as it ends, so that each wall time is its own."""
    waiting = {run["child"].pid: name for name, run in started.items()}
    done: dict[str, dict[str, Any]] = {}
    while waiting:
        pid, status, usage = os.wait4(-1, 0)
        name = waiting.pop(pid, None)
        if name is not None:
            done[name] = _result(started[name], status, usage)
    return {name: done[name] for name in started}


def _result(run: dict[str, Any], status: int, usage: Any) -> dict[str, Any]:
    """A run that has ended: its figures from the kernel and its log header."""
    wall = time.perf_counter() - run["started"]
    code = os.waitstatus_to_exitcode(status)
    with run["errors"] as errors:
        errors.seek(0)
        tail = errors.read().decode()[-2000:]
    if code != 0:
        sys.exit(f"{run['checkout']}: inspect eval exited {code}:\n{tail}")
    return {
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": wall,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        **_log_summary(Path(run["log_dir"])),
        **_metric_passes(run["passes"]),
    }


def _metric_passes(path: Path | None) -> dict[str, Any]:
    """With `--time-metrics`: the run's metric passes, the last one (the log's results) apart."""
    if path is None:
        return {}
    if not path.is_file():
        sys.exit(f"{path}: the metric-pass probe wrote nothing (is {PROBE} on PYTHONPATH?)")
    passes = json.loads(path.read_text())
    if not passes:
        sys.exit(f"{path}: the run made no metric pass (its log has no results?)")
    *live, final = passes
    return {
        "live_passes": len(live),
        "live_metrics_s": sum(one["cpu_s"] for one in live),
        "final_metrics_s": final["cpu_s"],
    }


def _log_summary(log_dir: Path) -> dict[str, Any]:
    """The run's sample count and metrics, from its log header."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    [info] = list_eval_logs(str(log_dir))
    log = read_eval_log(info, header_only=True)
    assert log.status == "success", f"{info.name}: {log.status}"
    assert log.results is not None
    metrics = {
        f"{score.name}/{name}": round(metric.value, 9)
        for score in log.results.scores
        for name, metric in score.metrics.items()
    }
    return {"samples": log.results.completed_samples, "metrics": metrics}


def counted_run_problem(
    log_dir: Path, samples: int, returncode: int = 0, missing: str | None = None
) -> str | None:
    """Why a run whose cost is counted cannot be used (its exit status, `missing`: what it did
    not write, no log, not a success, fewer samples scored than asked), or None;
    `call_map_1a_vs_1b` and `instructions_1a_vs_1b` check with it."""
    if returncode != 0:
        return f"exit status {returncode}"
    if missing is not None:
        return missing
    try:
        summary = _log_summary(log_dir)
    except (AssertionError, ValueError) as exc:  # no single log, or its status not success
        return f"its log: {exc or 'not a success'}"
    if summary["samples"] != samples:
        return f"{summary['samples']} samples scored of {samples}"
    return None


def _differences(first: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Sample count and metrics that differ between two runs (1-B adds metrics: `cut`)."""
    found = {
        key: (first["metrics"][key], other["metrics"][key])
        for key in set(first["metrics"]) & set(other["metrics"])
        if first["metrics"][key] != other["metrics"][key]
    }
    if first["samples"] != other["samples"]:
        found["samples"] = (first["samples"], other["samples"])
    return found


def _line(label: str, run: dict[str, Any], startup: dict[str, Any]) -> str:
    extra = max(run["samples"] - startup["samples"], 1)
    per_cpu = 1000 * (run["cpu_s"] - startup["cpu_s"]) / extra
    per_wall = 1000 * (run["wall_s"] - startup["wall_s"]) / extra
    run["cpu_ms_per_sample"], run["wall_ms_per_sample"] = per_cpu, per_wall
    metrics = (
        f"; metrics: {run['live_passes']} live passes {run['live_metrics_s']:.1f} s, final "
        f"{run['final_metrics_s']:.1f} s"
        if "final_metrics_s" in run
        else ""
    )
    return (
        f"{label:8s} samples {run['samples']:5d}  cpu {run['cpu_s']:7.1f} s  wall "
        f"{run['wall_s']:7.1f} s  peak RSS {run['peak_rss_mb']:6.0f} MB  per sample: cpu "
        f"{per_cpu:6.2f} ms, wall {per_wall:6.2f} ms  (load {os.getloadavg()[0]:.1f}){metrics}"
    )


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=Path, help="checkout of 76fd57c")
    parser.add_argument("--current", type=Path, default=HERE, help="default: this checkout")
    parser.add_argument("--limit", type=int, default=1500, help="samples per run (0: all)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per checkout")
    parser.add_argument(
        "--other",
        action="append",
        default=[],
        metavar="LABEL=DIR",
        help="one more checkout (with its .venv) in the rotation, e.g. main=../speed-main",
    )
    parser.add_argument(
        "--one-after-other",
        action="store_true",
        help="run each repeat's checkouts in turn; by default they run at the same time, one "
        "per core (cores swapped every repeat), so a change in the machine's speed hits both",
    )
    parser.add_argument(
        "--time-metrics",
        action="store_true",
        help="also time Inspect's metric passes in each run, live and final (a sitecustomize "
        "on PYTHONPATH: benchmarks/metric_passes)",
    )
    parser.add_argument("extra", nargs="*", help="more `inspect eval` options, after --")
    return parser.parse_args()


def _one_repeat(
    checkouts: dict[str, Path], order: list[str], limit: int | None, args: argparse.Namespace
) -> dict[str, dict[str, Any]]:
    """Each checkout's run: all at once, each on a core of its own (the first in `order` on
    the first core), or in turn with `--one-after-other`."""
    if args.one_after_other:
        return {
            name: run_once(checkouts[name], limit, args.extra, args.time_metrics) for name in order
        }
    cores = sorted(os.sched_getaffinity(0))
    started = {
        name: _start(checkouts[name], limit, args.extra, cores[i % len(cores)], args.time_metrics)
        for i, name in enumerate(order)
    }
    return _finish_all(started)


def _rotate(
    checkouts: dict[str, Path], args: argparse.Namespace, startup: dict[str, dict[str, Any]]
) -> tuple[dict[str, list[dict[str, Any]]], bool]:
    """Every checkout once per repeat, the order reversed every other repeat."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in checkouts}
    mismatch = False
    for repeat in range(args.repeats):
        order = list(checkouts) if repeat % 2 == 0 else list(reversed(checkouts))
        done = _one_repeat(checkouts, order, args.limit or None, args)
        for name in order:
            runs[name].append(done[name])
            print(_line(name, done[name], startup[name]), flush=True)
        first = runs["1-A"][-1]
        for name in checkouts:
            differ = _differences(first, runs[name][-1])
            if differ:
                mismatch = True
                print(f"MISMATCH 1-A vs {name}: {differ}")
    return runs, mismatch


def _report(runs: dict[str, list[dict[str, Any]]]) -> None:
    """Medians per checkout, and each one's ratio to 1-A."""
    keys = ("cpu_ms_per_sample", "wall_ms_per_sample", "cpu_s", "wall_s")
    medians = {
        name: {key: statistics.median(run[key] for run in done) for key in keys}
        for name, done in runs.items()
    }
    for name, figures in medians.items():
        peak = max(run["peak_rss_mb"] for run in runs[name])
        print(
            f"median {name:8s} cpu {figures['cpu_ms_per_sample']:6.2f} ms/sample, wall "
            f"{figures['wall_ms_per_sample']:6.2f} ms/sample, run cpu {figures['cpu_s']:.1f} s, "
            f"wall {figures['wall_s']:.1f} s; peak RSS max {peak:.0f} MB"
        )
    base = medians["1-A"]
    for name, current in medians.items():
        if name == "1-A":
            continue
        print(
            f"ratio {name} / 1-A: cpu per sample x"
            f"{current['cpu_ms_per_sample'] / base['cpu_ms_per_sample']:.2f}, wall per "
            f"sample x{current['wall_ms_per_sample'] / base['wall_ms_per_sample']:.2f}, run "
            f"cpu x{current['cpu_s'] / base['cpu_s']:.2f} (target: x1.00 or less, peak "
            "< 1200 MB)"
        )


def main() -> None:
    """Alternate the checkouts `--repeats` times; per-run figures, medians and ratios."""
    args = _arguments()
    checkouts = {"1-A": args.baseline.resolve(), "current": args.current.resolve()}
    for other in args.other:
        label, _, path = other.partition("=")
        checkouts[label] = Path(path).resolve()
    cores = len(os.sched_getaffinity(0))
    if len(checkouts) > cores and not args.one_after_other:
        sys.exit(
            f"{len(checkouts)} checkouts but {cores} cores: run them in turn with "
            "--one-after-other, or compare fewer at once"
        )
    startup = _one_repeat(checkouts, list(checkouts), 1, args)  # measured as the runs are
    for name, run in startup.items():
        print(f"startup {name}: cpu {run['cpu_s']:.1f} s, wall {run['wall_s']:.1f} s (--limit 1)")
    runs, mismatch = _rotate(checkouts, args, startup)
    _report(runs)
    sys.exit(1 if mismatch else 0)


if __name__ == "__main__":
    main()
