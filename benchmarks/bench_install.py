"""Install time and venv size as a new user gets them, for the plain install and the extras.

    python3 benchmarks/bench_install.py            # plain and [dev], cold and warm uv cache
    python3 benchmarks/bench_install.py --extras "" report --caches warm
    python3 benchmarks/bench_install.py --extras "" hf --repeats 3   # what [hf] adds

With `--repeats N` the installs are interleaved (plain, [hf], plain, [hf], ...), so that a
change in the machine's load falls on both alike; each row is one install, then a summary gives
the range per install and cache state.

Run it with a Python that has uv (`python3 -m pip install uv`), as the README's install does.

Each measurement clones this repository's committed HEAD into a temporary folder, then times the
README's commands there: `python3 -m uv venv .venv` and
`python3 -m uv pip install --python .venv --compile-bytecode -e ".[extra]"`. A *cold* cache is an
empty `UV_CACHE_DIR` (every wheel is downloaded from PyPI); *warm* repeats the install into a new
venv with the cache the cold run filled (nothing is downloaded). Size is the venv's disk usage
(`du -sh`, MiB). The machine's load average is printed beside each figure: on a shared machine the
times move with it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def disk_usage(folder: Path) -> float:
    """MiB on disk under `folder`, as `du -sh` reports it."""
    out = subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0]) / 1024


def timed_install(checkout: Path, spec: str, cache: Path) -> float:
    """Seconds for the README's venv + install commands in `checkout`, with uv cache `cache`."""
    shutil.rmtree(checkout / ".venv", ignore_errors=True)
    env = {**os.environ, "UV_CACHE_DIR": str(cache)}
    commands = [
        [sys.executable, "-m", "uv", "venv", "--quiet", ".venv"],
        [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--python", ".venv"]
        + ["--compile-bytecode", "-e", spec],
    ]
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, cwd=checkout, env=env, check=True)
    return time.perf_counter() - start


def load() -> str:
    """The 1-minute load average."""
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    """Measure and print one row per install, then the range per extra and cache state."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", nargs="+", default=["", "dev"], help='"" for the plain install')
    parser.add_argument("--caches", nargs="+", default=["cold", "warm"], choices=["cold", "warm"])
    parser.add_argument("--repeats", type=int, default=1, help="rounds, interleaved")
    args = parser.parse_args()
    print(f"{'install':<16} {'uv cache':<9} {'time':>8} {'venv size':>10} {'load':>5}")
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="polar-install-") as tmp:
        checkout = Path(tmp) / "polar_inspect"
        subprocess.run(["git", "clone", "--quiet", str(REPO), str(checkout)], check=True)
        for _ in range(args.repeats):
            for extra in args.extras:
                spec = f".[{extra}]" if extra else "."
                cache = Path(tmp) / f"uv-cache-{extra or 'plain'}"
                shutil.rmtree(cache, ignore_errors=True)
                if "cold" not in args.caches:  # fill the cache first, unmeasured
                    timed_install(checkout, spec, cache)
                for state in args.caches:
                    before = load()
                    seconds = timed_install(checkout, spec, cache)
                    size = disk_usage(checkout / ".venv")
                    label = f"-e {spec!r}" if extra else "-e ."
                    figures.setdefault((label, state), []).append((seconds, size))
                    print(f"{label:<16} {state:<9} {seconds:>7.1f}s {size:>6.0f} MiB {before:>5}")
                shutil.rmtree(cache, ignore_errors=True)
    if args.repeats > 1:
        print("\nsummary (min-max over the rounds)")
        for (label, state), runs in figures.items():
            times, sizes = [t for t, _ in runs], [s for _, s in runs]
            print(
                f"{label:<16} {state:<9} {min(times):>5.1f}-{max(times):.1f} s "
                f"{min(sizes):>6.0f}-{max(sizes):.0f} MiB"
            )


if __name__ == "__main__":
    main()
