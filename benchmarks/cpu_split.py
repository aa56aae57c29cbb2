"""Where an eval process spends its CPU, by owner, from py-spy's collapsed stacks.

Reads the files `bench_vs_bare.py --profile DIR` writes (py-spy `record -f raw`: one line per
distinct stack, `frame;frame;... count`) and prints, per file, the CPU share and milliseconds
per model call of each owner: this package's dialogue solver, its scorers, Inspect, the openai
SDK, the HTTP client, the event loop, pydantic, and the rest. A sample's time goes to the
innermost frame that is not the standard library (standard-library time counts for the code
that called it); idle samples (the event loop waiting in `select`) are left out.

    python benchmarks/cpu_split.py DIR_OR_FILE [...] [--calls 1525] [--rate 200]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

_FRAME = re.compile(r"^(?P<name>.*) \((?P<file>[^():]+)(?::\d+)?\)$")
_IDLE = ("select (selectors.py", "epoll", "poll (selectors.py", "_worker (concurrent")
# py-spy names a frame's file from its package root: "inspect_ai/_eval/task/run.py".
OWNERS = (
    ("polar_inspect: scorers", ("polar_inspect/detectors/", "polar_inspect/scorers/")),
    ("polar_inspect: dialogue and the rest", ("polar_inspect/",)),
    ("inspect_ai", ("inspect_ai/",)),
    ("openai SDK", ("openai/",)),
    ("HTTP client (httpx, httpcore, h11)", ("httpx", "httpcore", "h11/")),
    ("event loop (asyncio under anyio)", ("anyio/",)),
    ("pydantic", ("pydantic/", "pydantic_core/")),
)


def _standard_library(file: str) -> bool:
    top = file.split("/", 1)[0].removesuffix(".py")
    return file.startswith("<") or top in sys.stdlib_module_names


def owner_of(files: list[str]) -> str:
    """The owner of one sample: the innermost frame outside the standard library decides."""
    for file in reversed(files):
        if _standard_library(file):
            continue  # its caller decides
        for owner, markers in OWNERS:
            if any(file.startswith(marker) for marker in markers):
                return owner
        return "other packages"
    return "standard library only (imports, interpreter)"


def split(path: Path) -> tuple[Counter[str], int]:
    """Samples per owner in one collapsed-stack file, and the idle samples left out."""
    owners: Counter[str] = Counter()
    idle = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if any(marker in frames[-1] for marker in _IDLE):
            idle += int(count)
            continue
        files = [m.group("file") for f in frames if (m := _FRAME.match(f))]
        owners[owner_of(files)] += int(count)
    return owners, idle


def main() -> None:
    """Print the CPU split of every profile given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--calls", type=int, default=0, help="model calls in the run (ms/call)")
    parser.add_argument("--rate", type=int, default=200, help="py-spy samples per second")
    args = parser.parse_args()
    files = [p for path in args.paths for p in (sorted(path.glob("*.txt")) or [path])]
    if not files:
        sys.exit("no profile files found")
    for path in files:
        owners, idle = split(path)
        busy = sum(owners.values())
        print(f"{path.name}: {busy / args.rate:.1f} s CPU sampled, {idle / args.rate:.1f} s idle")
        for owner, count in owners.most_common():
            seconds = count / args.rate
            per_call = f"  {1000 * seconds / args.calls:5.2f} ms/call" if args.calls else ""
            print(f"  {owner:<46} {100 * count / busy:5.1f} %  {seconds:6.2f} s{per_call}")


if __name__ == "__main__":
    main()
