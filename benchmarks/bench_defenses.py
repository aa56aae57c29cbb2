"""Overhead of each defense: model calls and tokens per sample, by role, on the reference agents.

Runs `privacy` once per built-in defense (and `none`) with `polar/leaky` as the trusted model,
the scripted `polar/guard` on the `guard` role and `polar/minimizer` on the `minimizer` role,
on a slice of the bundled data, and prints per sample: calls and tokens of each role (from the
samples' `usage_by_role`), all model calls in the log, the scores, and wall time per run.
Reference agents count words as tokens, so token figures show the relative size of prompts
and replies, not a provider's bill.

    python benchmarks/bench_defenses.py [--domain finance] [--policy P4] [--attack S3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _log_counts import count_samples_and_model_calls  # noqa: E402

from polar_inspect.defenses import NO_DEFENSE, available_defenses  # noqa: E402

#: Every registered defense (built-ins and installed plug-ins), after the undefended baseline.
DEFENSES = (NO_DEFENSE, *available_defenses())
ROLES = ("trusted", *sorted({r for d in available_defenses().values() for r in d.roles}))


def _row(defense: str, args: argparse.Namespace, log_dir: str) -> str:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log_samples

    from polar_inspect.tasks import privacy

    task = privacy(
        data="bundled", domain=args.domain, policy=args.policy, attack=args.attack, defense=defense
    )
    started = time.perf_counter()
    (log,) = inspect_eval(
        task,
        model="polar/leaky",
        model_roles={"guard": "polar/guard", "minimizer": "polar/minimizer"},
        log_dir=log_dir,
        display="none",
    )
    seconds = time.perf_counter() - started
    totals = {role: [0, 0] for role in ROLES}
    for sample in read_eval_log_samples(log.location):
        for role, usage in sample.metadata.get("usage_by_role", {}).items():
            totals[role][0] += usage["calls"]
            totals[role][1] += usage["total_tokens"]
    samples, calls = count_samples_and_model_calls(log.location)
    means = {s.name: s.metrics["mean"].value for s in log.results.scores}
    cells = [f"{defense:<16}", f"{samples:>4}", f"{calls / samples:>6.2f}"]
    for role in ROLES:
        cells.append(f"{totals[role][0] / samples:>5.2f} {totals[role][1] / samples:>8.0f}")
    cells += [f"{means['privacy']:.2f}/{means['utility']:.2f}", f"{seconds:>6.1f}"]
    return " | ".join(cells)


def main() -> None:
    """Run every defense and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="finance")
    parser.add_argument("--policy", default="P4")
    parser.add_argument("--attack", default="S3")
    args = parser.parse_args()
    print(f"bundled data, domain={args.domain} policy={args.policy} attack={args.attack}")
    role_heads = " | ".join(f"{role:>14}" for role in ROLES)
    print(f"{'':<16} | {'':>4} | {'all':>6} | {role_heads} |")
    sub = " | ".join(f"{'calls':>5} {'tokens':>8}" for _ in ROLES)
    print(f"{'defense':<16} | {'n':>4} | {'calls':>6} | {sub} | P/U       | wall s")
    print("(per sample; 'calls' = all model calls in the log; tokens = words, reference agents)")
    with tempfile.TemporaryDirectory() as log_dir:
        for defense in DEFENSES:
            print(_row(defense, args, log_dir), flush=True)


if __name__ == "__main__":
    main()
