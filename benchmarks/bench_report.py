"""Time `polar-report` on copies of one full-run log: wall and CPU time, peak memory (RSS and
PSS over its process tree) and time by section, with an empty and a filled read cache
(docs/large-runs.md#polar-report-on-full-runs).

    python benchmarks/bench_report.py [--log FILE] [--work DIR] [--logs 1,8] [--jobs N] [--figures]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log
from shortuuid import uuid

BENCH_DIR = Path(__file__).resolve().parent
MODEL_NAMES = [
    "anthropic/claude-opus-4-7",
    "openai/gpt-5.1",
    "google/gemini-3-pro-preview",
    "together/meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "hf/Qwen/Qwen2.5-7B-Instruct",
    "ollama/mistral-small3.2:24b-instruct-2506-q4_K_M",
    "openrouter/z-ai/glm-5.1",
    "openrouter/z-ai/glm-4.7-flash",
    "vllm/microsoft/Phi-4-mini-instruct",
    "openai/gpt-oss-20b",
]


def base_log(work: Path) -> str:
    """The full bundled run the docs measure, made once (minutes) and cached in `work`."""
    folder = work / "base"
    existing = [i.name for i in list_eval_logs(str(folder))] if folder.exists() else []
    for name in existing:
        if read_eval_log(name, header_only=True).status == "success":
            return name.removeprefix("file://")
    print("running polar/mixed over the bundled data (one-time, several minutes) ...", flush=True)
    started = time.perf_counter()
    os.environ.setdefault("POLAR_CACHE_DIR", str(work / "cache"))
    (log,) = inspect_eval(
        "polar_inspect/privacy",
        model="polar/mixed",
        model_args={"leak_policies": "P5"},
        task_args={"data": "bundled"},
        log_dir=str(folder),
        display="none",
        max_samples=100,
    )
    if log.status != "success":
        raise SystemExit(f"the base eval failed: {log.error}")
    print(f"base log: {len(log.samples or [])} samples in {time.perf_counter() - started:.0f} s")
    return log.location.removeprefix("file://")


def derive_logs(base: str, folder: Path, count: int) -> list[Path]:
    """`count` copies of the base log, each with its own model name and ids in the header."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    header = read_eval_log(base, header_only=True)
    paths = []
    for index in range(count):
        name = MODEL_NAMES[index % len(MODEL_NAMES)]
        if index >= len(MODEL_NAMES):
            name = f"{name}-v{index // len(MODEL_NAMES) + 1}"
        task_id = uuid()
        path = folder / f"{header.eval.created[:19].replace(':', '-')}+00-00_privacy_{task_id}.eval"
        shutil.copyfile(base, path)
        copy = header.model_copy(deep=True)
        copy.eval.model = name
        copy.eval.eval_id, copy.eval.run_id, copy.eval.task_id = uuid(), uuid(), task_id
        write_eval_log(copy, str(path), header_only=True)
        paths.append(path)
    return paths


def watch(child: subprocess.Popen) -> tuple[int, int, float]:
    """Poll a process tree until it ends: peak summed RSS and PSS (bytes; PSS counts a page
    shared by forked workers once), CPU seconds used."""
    root = psutil.Process(child.pid)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # cumulative over every child
    seen: dict[int, float] = {}
    peak = peak_pss = 0
    while child.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        total = pss = 0
        for process in tree:
            try:
                memory = process.memory_full_info()
                total, pss = total + memory.rss, pss + getattr(memory, "pss", memory.rss)
                times = process.cpu_times()
                seen[process.pid] = times.user + times.system
            except psutil.NoSuchProcess:
                continue
        peak, peak_pss = max(peak, total), max(peak_pss, pss)
        time.sleep(0.1)
    child.wait()
    own = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = own.ru_utime + own.ru_stime - before.ru_utime - before.ru_stime
    return peak, peak_pss, max(sum(seen.values()), used)


#: Runs the report in the child process and prints its seconds by step and by section (each
#: section's frame and files, and the frames all sections share) as JSON.
CHILD = """
import dataclasses, json, sys, time
from polar_inspect.report import build
split = {}
def timed(name, function):
    def run(*args):
        started = time.perf_counter()
        try:
            return function(*args)
        finally:
            split[name] = split.get(name, 0.0) + time.perf_counter() - started
    return run
build.SECTIONS = [dataclasses.replace(s, compute=timed(s.name, s.compute),
                  files=timed(s.name + " (files)", s.files)) for s in build.SECTIONS]
for name in ("run_summary", "breakdown", "epoch_means"):
    setattr(build, name, timed("shared: " + name, getattr(build, name)))
jobs = int(sys.argv[3]) if sys.argv[3] != "-" else None
result = build.build_report([sys.argv[1]], sys.argv[2], jobs=jobs, figures=sys.argv[4] == "1")
print(json.dumps({"figures": len(result.figures), "seconds": result.seconds, "sections": split}))
"""


def measure(folder: Path, out: Path, jobs: int | None, figures: bool, cache: Path) -> dict:
    """Run the report over `folder` in a child process: wall, CPU, peak RSS, its sections."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-c", CHILD, str(folder), str(out), str(jobs or "-")]
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    env = {**os.environ, "POLAR_CACHE_DIR": str(cache)}
    child = subprocess.Popen([*command, "1" if figures else "0"], stdout=subprocess.PIPE,
                             text=True, env=env)  # fmt: skip
    peak, pss, cpu = watch(child)
    elapsed = time.perf_counter() - started
    stdout = child.stdout.read() if child.stdout else ""
    if child.returncode != 0:
        raise SystemExit(f"the report failed ({child.returncode})")
    found = json.loads(stdout.strip().splitlines()[-1])
    return {"wall": elapsed, "cpu": cpu, "peak": peak, "pss": pss, "load": load_before, **found}


def show(label: str, count: int, samples: int, size: float, run: dict) -> None:
    """Print one measurement and its time by section."""
    print(
        f"{label}: {count} log(s) x {samples} samples ({size:.0f} MB), {run['figures']} figures: "
        f"{run['wall']:.1f} s wall, {run['cpu']:.1f} s CPU (all processes), peak RSS "
        f"{run['peak'] / 1e6:.0f} MB (PSS {run['pss'] / 1e6:.0f} MB) summed over the report's "
        f"processes; load average "
        f"before: {run['load']:.1f} on {os.cpu_count()} CPUs"
    )
    for name, seconds in sorted(run["seconds"].items(), key=lambda item: -item[1]):
        print(f"    {seconds:7.2f} s  {name}")
    print("  of which, by section (wall):")
    for name, seconds in sorted(run["sections"].items(), key=lambda item: -item[1])[:12]:
        print(f"    {seconds:7.2f} s  {name}")


def main(argv: list[str] | None = None) -> None:
    """Build or reuse the logs, run the report in a child process, print time and memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=BENCH_DIR / "out" / "bench_report")
    parser.add_argument("--logs", default="1,8", help="log counts to measure, e.g. 1,8")
    parser.add_argument("--log", type=Path, default=None, help="an existing full-run log")
    parser.add_argument("--jobs", type=int, default=None, help="polar-report --jobs")
    parser.add_argument("--figures", action="store_true", help="draw the figures too")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    base = str(args.log) if args.log else base_log(args.work)
    header = read_eval_log(base, header_only=True)
    samples = header.results.scores[0].scored_samples if header.results else 0
    for count in (int(c) for c in args.logs.split(",")):
        folder = args.work / f"logs_{count}"
        logs = derive_logs(base, folder, count)
        size = sum(p.stat().st_size for p in logs) / 1e6
        cache = args.work / f"cache_{count}"
        shutil.rmtree(cache, ignore_errors=True)
        out = args.work / f"report_{count}"
        for label in ("cold cache", "warm cache"):  # the second reads what the first cached
            show(label, count, samples, size, measure(folder, out, args.jobs, args.figures, cache))


if __name__ == "__main__":
    main()
