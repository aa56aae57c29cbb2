"""Cost of playing the trusted party as an agent: model calls, tool calls, tokens and wall time
per sample for each `-T document_access`, on the reference tool agents.

Runs `privacy` on a slice of the bundled data with `polar/fetch-needed` and `polar/fetch-all`
through `-T trusted_agent=react` in each access mode, after the paper's single model call with
`polar/oracle` (the same replies as `fetch-needed`) as the baseline, and prints per sample:
trusted-role calls and tokens, tool calls, the scores and the share of protected values fetched,
and wall time per run. Reference agents count words as tokens.

    python benchmarks/bench_agent_access.py [--domain finance] [--policy P4] [--attack S3]
"""

from __future__ import annotations

import argparse
import tempfile
import time

SETUPS = (
    ("polar/oracle", None, "prompt"),
    *((model, "react", access) for model in ("polar/fetch-needed", "polar/fetch-all")
      for access in ("prompt", "tool", "fields")),
)  # fmt: skip


def _row(model: str, agent: str | None, access: str, args: argparse.Namespace, logs: str) -> str:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log_samples

    from polar_inspect.dialogue.state import read_sample_record
    from polar_inspect.tasks import privacy

    task = privacy(data="bundled", domain=args.domain, policy=args.policy, attack=args.attack,
                   trusted_agent=agent, document_access=access)  # fmt: skip
    started = time.perf_counter()
    (log,) = inspect_eval(task, model=model, log_dir=logs, display="none")
    seconds = time.perf_counter() - started
    samples = calls = tokens = tools = 0
    for sample in read_eval_log_samples(log.location):
        record = read_sample_record(sample.store, sample.metadata)
        trusted = record.usage.role("trusted")
        samples += 1
        calls += trusted.calls if trusted else 0
        tokens += trusted.total_tokens if trusted else 0
        tools += sum(len(turn.tool_calls) for turn in record.agent.turns)
    means = {s.name: s.metrics["mean"].value for s in log.results.scores}
    fetched = means.get("fetched_protected")
    cells = [
        f"{model:<18}", f"{agent or 'none':<5}", f"{access:<6}", f"{samples:>4}",
        f"{calls / samples:>6.2f}", f"{tokens / samples:>7.0f}", f"{tools / samples:>6.2f}",
        f"{means['privacy']:.2f}/{means['utility']:.2f}",
        "  -  " if fetched is None else f"{fetched:.2f} ", f"{seconds:>6.1f}",
    ]  # fmt: skip
    return " | ".join(cells)


def main() -> None:
    """Run every setup and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="finance")
    parser.add_argument("--policy", default="P4")
    parser.add_argument("--attack", default="S3")
    args = parser.parse_args()
    print(f"bundled data, domain={args.domain} policy={args.policy} attack={args.attack}")
    print(f"{'model':<18} | agent | access |    n |  calls |  tokens |  tools | P/U       | "
          "fetch | wall s")  # fmt: skip
    print("(per sample, trusted role; tokens = words, reference agents)")
    with tempfile.TemporaryDirectory() as logs:
        for model, agent, access in SETUPS:
            print(_row(model, agent, access, args, logs), flush=True)


if __name__ == "__main__":
    main()
