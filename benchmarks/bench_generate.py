"""Time building the full bundled set with the template renderer, and loading it back.

Targets on the project's 2-core machine: build all 7,875 records in under 60 s; load and
validate them in under 3 s. Prints the figures (and the length statistics against the paper).

    python benchmarks/bench_generate.py                  # full set, default seed
    python benchmarks/bench_generate.py --domains legal  # a quicker partial run
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from polar_inspect.generate import DEFAULT_SEED, build_dataset
from polar_inspect.generate.build import default_workers
from polar_inspect.generate.card import PAPER_MEANS, text_words
from polar_inspect.generate.io import canonical_json, gzipped, sha256

OUT = Path(__file__).parent / "out"


def knowledge_load_seconds(repeats: int = 5) -> float:
    """Median time to read and validate every domain's knowledge file (what each worker
    process pays once): the ten `<domain>.json` files through their pydantic models."""
    from polar_inspect.axes import DOMAINS
    from polar_inspect.generate.domains import build_domain_spec, read_knowledge

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for domain in DOMAINS:
            build_domain_spec(domain, read_knowledge(domain))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Build, write, load and validate; print timings, sizes, digests and word counts."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--domains", default=None)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--workers", type=int, default=default_workers())
    args = p.parse_args()

    from polar_inspect.data import PolarRecord, load_records

    print(f"cores: {os.cpu_count()}, workers: {args.workers}")
    print(f"domain knowledge (10 JSON files, validated): {knowledge_load_seconds():.3f} s")
    start = time.perf_counter()
    records, report = build_dataset(
        args.seed, args.domains, args.repetitions, workers=args.workers, validate=False
    )
    built = time.perf_counter() - start
    data = canonical_json(records)
    serialised = time.perf_counter() - start - built
    gz = gzipped(data)
    compressed = time.perf_counter() - start - built - serialised
    OUT.mkdir(exist_ok=True)
    path = OUT / "polar_bench.json.gz"
    path.write_bytes(gz)

    start = time.perf_counter()
    loaded = load_records(path)
    loaded_s = time.perf_counter() - start
    start = time.perf_counter()
    for record in records:
        PolarRecord.model_validate(record)
    validated_s = time.perf_counter() - start

    total = report.total
    print(
        f"records: {len(records)} kept of {total.planned} (repaired {total.repaired}, "
        f"dropped {total.dropped})"
    )
    print(
        f"build (render + checks + repair): {built:6.1f} s  "
        f"({1000 * built / max(len(records), 1):.2f} ms/record)   target < 60 s"
    )
    print(f"serialise JSON: {serialised:6.1f} s   gzip -9: {compressed:5.1f} s")
    print(
        f"load + validate {path.name} (load_records): {loaded_s:5.2f} s for {len(loaded)} "
        f"records   target < 3 s"
    )
    print(f"PolarRecord.model_validate on the built dicts: {validated_s:5.2f} s")
    print(f"size: JSON {len(data) / 1e6:.1f} MB, gz {len(gz) / 1e6:.1f} MB")
    print(f"sha256 JSON {sha256(data)}")
    print(f"sha256 gz   {sha256(gz)}")
    for name, paper in PAPER_MEANS.items():
        counts = [text_words(r, name) for r in records]
        print(
            f"words {name:9s} mean {statistics.fmean(counts):6.1f}  (paper {paper})  "
            f"min {min(counts)} max {max(counts)}"
        )


if __name__ == "__main__":
    main()
