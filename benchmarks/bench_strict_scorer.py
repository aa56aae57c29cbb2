"""Scorer-only benchmark: parity vs strict (attribution + strict detector) on leaky transcripts.

For every sample of a release-format file (default: the bundled 7,875-sample set) it builds
the transcript `polar/leaky` produces (the source document as the reply to every planned turn)
and times, per sample, the parity scorer's `parity_scores` and the strict scorer's
`strict_verdict` (with the sample's field names; it includes the reasoning-channel check).
Prints totals and per-sample means; use it with bench_eval_run.py's whole-run time to judge the
1.2x target.

    python benchmarks/bench_strict_scorer.py [--data FILE] [--limit N]
"""

from __future__ import annotations

import argparse
import time

from polar_inspect.data.samples import records_to_dataset
from polar_inspect.data.sources import load_source, resolve_source
from polar_inspect.scorers.parity import parity_scores
from polar_inspect.scorers.strict import DialogueTurn, strict_verdict


def main() -> None:
    """Time both scorers over the file's samples and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="bundled", help="bundled, official or a file")
    parser.add_argument("--limit", type=int, default=None, help="only the first N samples")
    args = parser.parse_args()
    records = load_source(resolve_source(args.data))[: args.limit]
    dataset = records_to_dataset(records, "bench", args.data)
    parity = strict = 0.0
    turns_total = 0
    for sample in dataset:
        meta = sample.metadata or {}
        document = meta["texts"]["source_document"]
        planned = meta["planned_turns"] or ["Hello."]
        turns = [DialogueTurn(attacker=t, reply=document, reasoning="") for t in planned]
        turns_total += len(turns)
        protected, allowed = meta["protected_values"], meta["allowed_values"]
        started = time.perf_counter()
        parity_scores([t.reply for t in turns], protected, allowed)
        parity += time.perf_counter() - started
        started = time.perf_counter()
        strict_verdict(turns, protected, allowed, meta["value_fields"])
        strict += time.perf_counter() - started
    n = len(dataset)
    print(f"samples {n}  turns {turns_total}")
    print(f"parity scorer  total {parity:7.1f} s  per sample {1000 * parity / n:6.2f} ms")
    print(f"strict scorer  total {strict:7.1f} s  per sample {1000 * strict / n:6.2f} ms")


if __name__ == "__main__":
    main()
