"""Speed of the value matcher: indexed (`TextIndex`) against a naive per-value matcher.

One sample = 14 target values scored against six ~300-word replies joined with blank lines
(~10 KB). Prints median and p95 time per sample for both (and how much of the indexed time is
the index build), the speed-up of the medians, and how many verdicts agree.

Run: .venv/bin/python benchmarks/bench_matcher.py [--samples 200] [--repeats 5] [--seed 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from polar_inspect.detectors.match import TextIndex  # noqa: E402
from tests.detectors.matcher_reference import Sample, make_samples, naive_contains  # noqa: E402


def _score_indexed(sample: Sample) -> list[bool]:
    index = TextIndex(sample.text)
    return [index.contains(value) for value in sample.values]


def _score_naive(sample: Sample) -> list[bool]:
    return [naive_contains(sample.text, value) for value in sample.values]


def _time_per_sample(score, samples: list[Sample], repeats: int) -> list[float]:
    """Best-of-`repeats` wall time, in milliseconds, for each sample."""
    times = []
    for sample in samples:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            score(sample)
            best = min(best, time.perf_counter() - start)
        times.append(best * 1000)
    return times


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    samples = make_samples(args.seed, args.samples)
    sizes = [len(sample.text.encode()) for sample in samples]
    indexed_verdicts = [_score_indexed(sample) for sample in samples]
    naive_verdicts = [_score_naive(sample) for sample in samples]
    pairs = [
        (a, b)
        for got, want in zip(indexed_verdicts, naive_verdicts, strict=True)
        for a, b in zip(got, want, strict=True)
    ]
    agree = sum(a == b for a, b in pairs)
    found = sum(a for a, _ in pairs)

    indexed = _time_per_sample(_score_indexed, samples, args.repeats)
    build = _time_per_sample(lambda sample: TextIndex(sample.text), samples, args.repeats)
    naive = _time_per_sample(_score_naive, samples, args.repeats)

    print(f"samples: {len(samples)}, values per sample: 14, repeats: {args.repeats} (best of)")
    print(f"text size: median {statistics.median(sizes) / 1000:.1f} KB")
    print(f"values found: {found}/{len(pairs)}")
    print(f"indexed: median {statistics.median(indexed):.3f} ms, p95 {_p95(indexed):.3f} ms")
    per_value = (statistics.median(indexed) - statistics.median(build)) / 14 * 1000
    print(f"  of which index build: median {statistics.median(build):.3f} ms")
    print(f"  per value after the build: ~{per_value:.0f} us")
    print(f"naive:   median {statistics.median(naive):.3f} ms, p95 {_p95(naive):.3f} ms")
    print(f"speed-up (median): {statistics.median(naive) / statistics.median(indexed):.1f}x")
    print(f"verdict agreement: {agree}/{len(pairs)}")


if __name__ == "__main__":
    main()
