"""Instructions per sample, this checkout against 1-A: a cost figure that does not drift.

This machine's speed drifts by a quarter within minutes, so CPU times resolve a change of 10 %
at best (`bench_eval_1a_vs_1b.py`, both checkouts at once). The number of machine instructions
a run executes does not drift: valgrind counts them (callgrind's `Ir`) the same to within 0.5 %
from one run to the next (`PYTHONHASHSEED=0`). This script runs the issue-31 command (the
zero-latency reference agent on the bundled set) from each checkout with its own venv under
valgrind, at `--limit 1` and at `--limit N`, two runs at a time, and prints each checkout's
`--limit 1` run (start-up and one sample), its instructions per extra sample, their ratio, and
the whole set's total projected from them (7,875 samples).

    python benchmarks/instructions_1a_vs_1b.py --baseline ../speed-1a [--limit 101]

The counted samples are named with `--sample-id`: every (7,875 / N)th record of the bundled
set in id order, the same ones for both checkouts and a mix of its domains, policies and
attacks (the first N records are one domain and one policy; `--sample-shuffle` would pick
different samples in each checkout, whose datasets are in different orders). The `--limit 1`
run is the first of them. `--no-score-display` is added: Inspect's live metric passes are timed
(one after ten times its own duration), so their count changes from run to run; they take the
same share of both checkouts' time. Valgrind runs the interpreter about 35x slower: at
`--limit 101` the four runs take about 18 minutes on 2 cores. Instructions are not time either
(a cache miss costs more than an addition, and a whole run's heap grows to 1.1 GB): the count
resolves changes to the work a sample does, and whole runs both at once
(`bench_eval_1a_vs_1b.py --limit 0`) say what the run costs; on 2026-11-26 the first gave
x1.058-1.065, the second x1.08-1.12, and x1.001 and x0.99-1.05 once the record was written
after the scorers. Figures: docs/large-runs.md ("Instructions per sample").
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_eval_1a_vs_1b import COMMAND as EVAL_COMMAND  # noqa: E402
from bench_eval_1a_vs_1b import counted_run_problem  # noqa: E402

COMMAND = [*EVAL_COMMAND, "--no-score-display"]
WHOLE_SET = 7875  # samples of the bundled set (`-T data=bundled`)
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_LIST_IDS = (
    "import json; from polar_inspect.data.sources import load_source, resolve_source; "
    "print(json.dumps([r.sample_id for r in load_source(resolve_source('bundled'))]))"
)


def spread_ids(checkout: Path, count: int) -> list[str]:
    """`count` sample ids spread evenly over the bundled set (in id order), read by `checkout`."""
    listed = subprocess.run(
        [str(checkout / ".venv/bin/python"), "-c", _LIST_IDS],
        cwd=checkout,
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        sys.exit(f"{checkout}: could not list the bundled set's ids:\n{listed.stderr[-2000:]}")
    ids = sorted(json.loads(listed.stdout))
    return [ids[index * len(ids) // count] for index in range(count)]


def instructions(checkout: Path, ids: list[str], valgrind: str) -> int:
    """The instructions one `inspect eval --sample-id ...` of `checkout` executes (its main
    process); exits with the reason if the run failed or scored fewer samples."""
    python, inspect_bin = checkout / ".venv/bin/python", checkout / ".venv/bin/inspect"
    limit = len(ids)
    with tempfile.TemporaryDirectory(prefix="instructions-") as work:
        argv = [*COMMAND, "--sample-id", ",".join(ids), "--log-dir", str(Path(work) / "logs")]
        done = subprocess.run(
            [valgrind, "--tool=callgrind", f"--callgrind-out-file={Path(work) / 'callgrind.out'}"]
            + [str(python), str(inspect_bin), *argv],
            cwd=checkout,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        found = _COLLECTED.search(done.stderr)
        missing = "no instruction count" if found is None else None
        problem = counted_run_problem(Path(work) / "logs", limit, done.returncode, missing)
    if problem is not None or found is None:
        message = f"{checkout}: the counted run ({limit} samples) failed: {problem}"
        print(f"{message}\n{done.stderr[-2000:]}", file=sys.stderr, flush=True)
        sys.exit(message)
    return int(found.group(1))


def main() -> None:
    """Count both checkouts at `--limit 1` and `--limit N`; print instructions per sample."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=Path, help="checkout of 76fd57c")
    parser.add_argument("--current", type=Path, default=HERE, help="default: this checkout")
    parser.add_argument("--limit", type=int, default=101, help="samples of the large run")
    parser.add_argument("--valgrind", default="valgrind", help="the valgrind program")
    args = parser.parse_args()
    if args.limit < 2:
        parser.error("--limit must be 2 or more: the figures are per sample beyond the first")
    if shutil.which(args.valgrind) is None:
        parser.error(f"{args.valgrind} not found: install valgrind (Debian: apt install valgrind)")
    checkouts = {"1-A": args.baseline.resolve(), "current": args.current.resolve()}
    for name, checkout in checkouts.items():
        if not (checkout / ".venv/bin/inspect").exists():
            parser.error(f"{name}: {checkout}/.venv/bin/inspect not found: install its venv")
    ids = spread_ids(checkouts["current"], args.limit)
    if ids != spread_ids(checkouts["1-A"], args.limit):
        sys.exit("the two checkouts' bundled sets differ: build both from the same data")
    jobs = [(name, limit) for name in checkouts for limit in (args.limit, 1)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        counted = pool.map(
            lambda job: instructions(checkouts[job[0]], ids[: job[1]], args.valgrind), jobs
        )
        counts = dict(zip(jobs, counted, strict=True))
    extra = args.limit - 1
    rows = {}
    for name in checkouts:
        start, per = counts[name, 1], (counts[name, args.limit] - counts[name, 1]) / extra
        rows[name] = (start, per, start + (WHOLE_SET - 1) * per)
    print(f"{'checkout':10s} {'--limit 1':>16s} {'per extra sample':>18s} {'whole set':>18s}")
    for name, (start, per, whole) in rows.items():
        print(f"{name:10s} {start:16,.0f} {per:18,.0f} {whole:18,.0f}")
    (start_a, per_a, whole_a), (start_b, per_b, whole_b) = rows["1-A"], rows["current"]
    print(
        f"current / 1-A: per sample x{per_b / per_a:.3f}, --limit 1 x{start_b / start_a:.3f}, "
        f"whole set x{whole_b / whole_a:.3f} ({extra} extra samples counted)"
    )


if __name__ == "__main__":
    main()
