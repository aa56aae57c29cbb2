"""Where one more sample's work goes, counted in function calls: this checkout against 1-A.

Timings on this machine drift by a quarter within minutes (`bench_eval_1a_vs_1b.py`), so a
change of a few percent cannot be seen in them. Function calls can: the count is the same from
one run to the next. This script runs the issue-31 command (the zero-latency reference agent on
the bundled set, `--no-score-display`) from each checkout, with its own venv, under a profile
hook that counts every Python and C call. It charges each call to the innermost Inspect step
on the stack that the table below names (the store diffs at span ends, condensing, the log's
depth check...), or else to the innermost `polar_inspect` package, or else to "inspect: other".
It does that at `--limit 1` and at `--limit N`, and prints the calls per extra sample, side by
side, largest difference first. The checkouts' runs go two at a time.

    python benchmarks/call_map_1a_vs_1b.py --baseline ../speed-1a [--limit 301]

Calls are not time: a C call to `json.dumps` counts one, like a Python frame. Read the table
for where the extra work is, and `bench_eval_1a_vs_1b.py` (both checkouts at once) for what it
costs. With 301 samples the whole comparison takes about 8 minutes (the hook slows Python
about 5x, the task build included). Figures for main at f58caec: docs/large-runs.md ("Calls
per sample").
"""

from __future__ import annotations

import argparse
import atexit
import collections
import json
import runpy
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_eval_1a_vs_1b import COMMAND as EVAL_COMMAND  # noqa: E402
from bench_eval_1a_vs_1b import counted_run_problem  # noqa: E402

COMMAND = [*EVAL_COMMAND, "--no-score-display"]
#: Inspect's functions a call is charged to (the innermost one on the stack wins; a function of
#: the same name elsewhere, such as the reference agents' `generate`, is not one of them).
STEPS = {
    "track_store_changes": "inspect: store diff at span ends",
    "json_changes": "inspect: json diffs (store and state)",
    "store_jsonable": "inspect: store to JSON",
    "walk_store_event": "inspect: condense store events",
    "walk_state_event": "inspect: condense state events",
    "walk_model_event": "inspect: condense model events",
    "walk_sample_init_event": "inspect: condense sample_init",
    "condense_sample": "inspect: condense (other)",
    "attachment_refs_from_object": "inspect: attachment refs",
    "exceeds_max_depth": "inspect: log depth check",
    "_min_json_size": "inspect: event size estimate",
    "log_events": "inspect: realtime buffer writes",
    "eval_results": "inspect: metrics (final pass)",
    "_notify_subscribers": "inspect: event subscribers",
    "_event": "inspect: transcript events",
    "log_sample": "inspect: log_sample (other)",
    "generate": "inspect: model generate",
}


def _charge(frame: FrameType | None) -> str:
    ours = None
    while frame is not None:
        code = frame.f_code
        step = STEPS.get(code.co_name)
        if step is not None and "inspect_ai/" in code.co_filename:
            return step if ours is None else f"{step} < {ours}"
        if ours is None and "polar_inspect/" in code.co_filename:
            part = code.co_filename.rsplit("polar_inspect/", 1)[1].split("/")[0]
            ours = "ours: " + part.removesuffix(".py")
        frame = frame.f_back
    return ours or "inspect: other"


def child(out: Path, inspect_bin: str, argv: list[str]) -> None:
    """Run `inspect argv` in this process, counting calls; write the counts to `out`."""
    counts: collections.Counter[str] = collections.Counter()

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            counts[_charge(frame)] += 1

    def write() -> None:
        sys.setprofile(None)
        out.write_text(json.dumps(counts))

    atexit.register(write)
    sys.argv = ["inspect", *argv]
    sys.setprofile(hook)
    threading.setprofile(hook)
    runpy.run_path(inspect_bin, run_name="__main__")


def _run(checkout: Path, limit: int) -> dict[str, int]:
    python, inspect_bin = checkout / ".venv/bin/python", checkout / ".venv/bin/inspect"
    with tempfile.TemporaryDirectory(prefix="call-map-") as work:
        out, log_dir = Path(work) / "counts.json", Path(work) / "logs"
        argv = [*COMMAND, "--limit", str(limit), "--log-dir", str(log_dir)]
        done = subprocess.run(
            [str(python), __file__, "--child", str(out), str(inspect_bin), "--", *argv],
            cwd=checkout,
            capture_output=True,
            text=True,
        )
        missing = None if out.exists() else "no counts written"
        problem = counted_run_problem(log_dir, limit, done.returncode, missing)
        if problem is not None:
            sys.exit(f"{checkout}: the counted run failed: {problem}\n{done.stderr[-2000:]}")
        counts: dict[str, int] = json.loads(out.read_text())
    return counts


def _per_sample(big: dict[str, int], small: dict[str, int], extra: int) -> dict[str, float]:
    return {key: (big.get(key, 0) - small.get(key, 0)) / extra for key in set(big) | set(small)}


def main() -> None:
    """Count both checkouts at `--limit 1` and `--limit N`; print calls per extra sample."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=Path, help="checkout of 76fd57c")
    parser.add_argument("--current", type=Path, default=HERE, help="default: this checkout")
    parser.add_argument("--limit", type=int, default=301, help="samples of the large run")
    args = parser.parse_args()
    if args.limit < 2:
        parser.error("--limit must be 2 or more: the figures are per sample beyond the first")
    checkouts = {"1-A": args.baseline.resolve(), "current": args.current.resolve()}
    jobs = [(name, limit) for name in checkouts for limit in (1, args.limit)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = dict(
            zip(jobs, pool.map(lambda job: _run(checkouts[job[0]], job[1]), jobs), strict=True)
        )
    extra = args.limit - 1
    per = {
        name: _per_sample(counts[name, args.limit], counts[name, 1], extra) for name in checkouts
    }
    totals = {name: sum(values.values()) for name, values in per.items()}
    print(
        f"calls per extra sample ({extra} samples): current {totals['current']:,.0f}, "
        f"1-A {totals['1-A']:,.0f}, x{totals['current'] / totals['1-A']:.3f}"
    )
    keys = set(per["current"]) | set(per["1-A"])
    rows = sorted(keys, key=lambda k: -abs(per["current"].get(k, 0) - per["1-A"].get(k, 0)))
    print(f"{'charged to':58s} {'current':>9s} {'1-A':>9s} {'more':>9s}")
    for key in rows:
        now, then = per["current"].get(key, 0), per["1-A"].get(key, 0)
        if abs(now) >= 0.5 or abs(then) >= 0.5:
            print(f"{key[:58]:58s} {now:9.0f} {then:9.0f} {now - then:9.0f}")


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        child(Path(sys.argv[2]), sys.argv[3], sys.argv[5:])
    else:
        main()
