"""`polar-cost`: what a run will cost, before it starts (see `cost_estimate` and docs/cost.md).

    polar-cost --model anthropic/claude-sonnet-4-5 --prices prices.json -T data=bundled
    polar-cost --model openai/gpt-4.1 --prices prices.json -T attack=S5 -T defense=guard

`-T name=value` takes the task's parameters (data, domain, policy, attack, defense, attacker,
max_turns, ...), validated as `inspect eval -T` validates them. It prints the trusted model's
calls, input, cached and output tokens, and dollars for a plain run, a run with prompt caching,
and a batched run with caching.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import yaml

from polar_inspect.data.samples import SampleInfo
from polar_inspect.errors import UserInputError
from polar_inspect.report.cost_estimate import (
    Assumptions,
    TokenCount,
    cache_rules_for,
    estimate,
)
from polar_inspect.report.prices import ModelPrice, PriceFileError, load_prices


class _Billed:
    """A `TokenCount` seen as a price applies to it (`prices.PricedUsage`)."""

    def __init__(self, count: TokenCount, cached: bool, batched: bool) -> None:
        read = count.cache_read_tokens if cached else 0
        written = count.cache_write_tokens if cached else 0
        self.input_tokens = count.input_tokens - read - written
        self.cache_read_tokens = read
        self.cache_write_tokens = written
        self.output_tokens = count.output_tokens
        self.batched = batched


def _task_args(pairs: Sequence[str]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UserInputError(f"-T {pair}: expected name=value (e.g. -T attack=S5)")
        parsed = yaml.safe_load(value) if value else value
        args[name.strip()] = value if parsed is None else parsed
    return args


def _selected(task_args: dict[str, Any]) -> tuple[Any, list[SampleInfo]]:
    from polar_inspect.run.config import PolarConfig
    from polar_inspect.run.setup import RunSetup
    from polar_inspect.tasks import privacy

    task = privacy(**task_args)
    setup = RunSetup.prepare(PolarConfig.from_task_args(task_args))
    infos = [SampleInfo.model_validate(sample.metadata) for sample in task.dataset]
    return setup, infos


def _dollars(count: TokenCount, price: ModelPrice, cached: bool, batched: bool) -> str:
    usage = _Billed(count, cached, batched)
    missing = price.missing_rates(usage)  # type: ignore[arg-type]
    if missing:
        return f"unknown (no {', '.join(missing)} rate)"
    return f"{price.cost(usage):,.2f} USD"  # type: ignore[arg-type]


def report(model: str, count: TokenCount, price: ModelPrice, rules: str) -> list[str]:
    """The printed lines: tokens, then dollars for plain, cached and batch+cached runs."""
    lines = [
        f"{model}: {count.samples:,} samples, {count.calls:,} trusted-model calls "
        f"(+ {count.other_role_calls:,} attacker and defense-role calls, not priced here)",
        f"  input {count.input_tokens:,} tokens, of which a cache would read "
        f"{count.cache_read_tokens:,} and write {count.cache_write_tokens:,} "
        f"({rules} caching rules); output {count.output_tokens:,}",
    ]
    for label, cached, batched in (
        ("plain", False, False),
        ("cached", True, False),
        ("batch + cached", True, True),
    ):
        lines.append(f"  {label:<15} {_dollars(count, price, cached, batched)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the estimate; a user error is one line on stderr and exit status 1."""
    parser = argparse.ArgumentParser(prog="polar-cost", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="the trusted model, provider/name")
    parser.add_argument("--prices", required=True, metavar="FILE", help="a price sheet")
    parser.add_argument("-T", dest="task_args", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--reply-tokens",
        type=int,
        default=Assumptions.reply_tokens,
        help="tokens in each trusted reply (default %(default)s)",
    )
    parser.add_argument(
        "--attacker-tokens",
        type=int,
        default=Assumptions.attacker_tokens,
        help="tokens in a live attacker message with no planned text (default %(default)s)",
    )
    args = parser.parse_args(argv)
    try:
        try:
            prices = load_prices(args.prices)
        except PriceFileError as err:
            raise UserInputError(str(err)) from None
        price = prices.get(args.model)
        if price is None:
            raise UserInputError(
                f"{args.prices}: no price for model {args.model!r}; add an entry "
                f"{{input, output, cache_read, cache_write, batch}} for it"
            )
        setup, infos = _selected(_task_args(args.task_args))
        rules = cache_rules_for(args.model)
        assume = Assumptions(reply_tokens=args.reply_tokens, attacker_tokens=args.attacker_tokens)
        count = estimate(setup, infos, rules, assume)
    except UserInputError as err:
        print(f"polar-cost: {err}", file=sys.stderr)
        return 1
    print("\n".join(report(args.model, count, price, rules)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
