"""The same dialogues priced through polar_inspect (batch + cache) and a bare authors-like runner.

Both play a seeded slice of the bundled data (trusted model + live S5 attacker) against one
local stub (`tests.stub_servers.StubServer`) that answers with fixed-length replies and bills
input tokens as the providers' prompt caches do (`tests.stub_cache`, tokens = chars / 4):

- `polar`: `inspect eval polar_inspect/privacy` through Inspect's real `anthropic` and `openai`
  providers with `--batch` for both roles (Anthropic with `cache_ttl=1h`: batch rounds outlive
  the 5-minute cache); every request reaches the stub through the batch APIs;
- `bare`: `benchmarks/bare_runner.py`'s `play` (blocking OpenAI-SDK calls, no batch, no cache
  breakpoints), as the authors' runner: its OpenAI-style client sends no `cache_control`, so on
  an Anthropic model nothing is cached; on an OpenAI model automatic prefix caching serves it
  as it serves polar_inspect.

Every request the stub captured is priced by the sheets' rules (`--prices`, default the dated
sheets in `polar_inspect/cost/sheets/`): uncached input, cache reads, cache writes at the run's
lifetime (1 hour on Anthropic), output, and the batch factor for batched calls, whose reads
count only where the sheet says batched requests are cached (not for gpt-4.1). The OpenAI run
is priced on gpt-4.1's rules and on gpt-5's (a GPT-5-family sheet; also as flex: the same
requests unbatched at the flex factor, cached). It prints each runner's dollars, the ratio,
and the arithmetic.

    python benchmarks/bench_cost_vs_authors.py [--per-attack 16] [--prices FILE ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the repository: tests.*
sys.path.insert(0, str(HERE))

from bare_runner import play  # noqa: E402
from bench_prefix_cache import ATTACKER, TRUSTED, fixed_replies, write_slice  # noqa: E402
from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import BatchConfig, GenerateConfig, get_model  # noqa: E402
from openai import OpenAI  # noqa: E402

from polar_inspect.cost.cli import SHEETS  # noqa: E402
from polar_inspect.cost.sheet import CacheTtl, ModelPrice, load_prices  # noqa: E402
from polar_inspect.data.sources import load_source, resolve_source  # noqa: E402
from tests.stub_cache import count_tokens  # noqa: E402
from tests.stub_servers import StubServer, WireApi  # noqa: E402

QUICK_BATCHES = BatchConfig(size=200, send_delay=0.3, tick=0.1)
#: The sheet models each wire format's runs are priced as.
SHEET_MODELS: dict[WireApi, tuple[str, ...]] = {
    "anthropic": ("anthropic/claude-sonnet-4-5",),
    "openai": ("openai/gpt-4.1", "openai/gpt-5"),
}
#: polar_inspect's cache lifetime per wire format (`-M cache_ttl=1h` on Anthropic).
TTL: dict[WireApi, CacheTtl] = {"anthropic": "1h", "openai": "5m"}
TARGETS = {"anthropic/claude-sonnet-4-5": 0.43, "openai/gpt-5": 0.53}


@dataclass
class Bill:
    """Tokens by kind and their dollars."""

    calls: int = 0
    uncached: int = 0
    read: int = 0
    written: int = 0
    output: int = 0
    usd: float = 0.0

    def line(self) -> str:
        """One printed line."""
        return (
            f"{self.calls:>6} calls  input {self.uncached:>10,} + read {self.read:>10,} + "
            f"written {self.written:>9,}  output {self.output:>9,}  {self.usd:>9.4f} USD"
        )


def bill(
    server: StubServer,
    price: ModelPrice,
    batched: bool,
    cache: bool,
    ttl: CacheTtl = "5m",
    factor: float | None = None,
) -> Bill:
    """Price every request the stub answered (`cache=False`: as if nothing were cached;
    batched requests read and write nothing where the sheet says batches are not cached;
    `factor`: a tier's factor on every rate, e.g. flex)."""
    total = Bill()
    cached = cache and (not batched or bool(price.batch_cached))
    if factor is None:
        factor = (price.batch or 1.0) if batched else 1.0
    write_rate = price.write_rate(ttl) or 0.0
    for request in server.ok_requests():
        assert request.cache is not None, "the stub bills caching (prompt_cache=True)"
        use = request.cache
        read = use.cache_read if cached else 0
        written = use.cache_write if cached else 0
        uncached = use.input_tokens - read - written
        output = count_tokens(fixed_replies(request.api, request.body))
        usd = uncached * price.input + output * price.output
        usd += read * (price.cache_read or 0.0) + written * write_rate
        total.calls += 1
        total.uncached += uncached
        total.read += read
        total.written += written
        total.output += output
        total.usd += usd * factor / 1e6
    return total


def _point(server: StubServer) -> None:
    os.environ.update(
        OPENAI_API_KEY="local",
        OPENAI_BASE_URL=server.openai_base_url,
        ANTHROPIC_API_KEY="local",
        ANTHROPIC_BASE_URL=server.anthropic_base_url,
    )
    os.environ.pop("ANTHROPIC_AUTH_TOKEN", None)


def run_polar(api: WireApi, data: Path, log_dir: Path) -> StubServer:
    """polar_inspect with --batch for both roles; the stub that served it."""
    args: dict[str, Any] = {"responses_api": False} if api == "openai" else {"cache_ttl": "1h"}
    batched = GenerateConfig(batch=QUICK_BATCHES)
    with StubServer(respond=fixed_replies, prompt_cache=True, batch_polls=1) as server:
        _point(server)
        attacker = get_model(f"{api}/{ATTACKER}", config=batched, memoize=False, **args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (log,) = inspect_eval(
                "polar_inspect/privacy",
                model=get_model(f"{api}/{TRUSTED}", memoize=False, **args),
                model_roles={"attacker": attacker},
                task_args={"data": str(data)},
                batch=QUICK_BATCHES,
                log_dir=str(log_dir),
                display="none",
                max_samples=500,
            )
        if log.status != "success" or server.refused:
            raise SystemExit(f"polar on {api}: {log.error or server.refused[:3]}")
        if {r.via for r in server.ok_requests()} != {"batch"}:
            raise SystemExit(f"polar on {api}: some requests did not go by batch")
    return server


def run_bare(data: Path, workers: int) -> StubServer:
    """The bare runner's blocking calls (OpenAI wire format); the stub that served them."""
    records = load_source(resolve_source(str(data)))
    with StubServer(respond=fixed_replies, prompt_cache=True) as server:
        client = OpenAI(base_url=server.openai_base_url, api_key="local", max_retries=0)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda r: play(client, r, TRUSTED, ATTACKER), records))
    return server


def _compare(
    api: WireApi, model: str, polar: StubServer, bare: StubServer, price: ModelPrice
) -> None:
    ttl = TTL[api]
    ours = bill(polar, price, batched=True, cache=True, ttl=ttl)
    plain = bill(polar, price, batched=False, cache=False)
    # the authors' client sends no breakpoints: nothing is cached on Anthropic
    theirs = bill(bare, price, batched=False, cache=api == "openai")
    # polar_inspect's own requests billed as the bare runner is billed
    same = bill(polar, price, batched=False, cache=api == "openai")
    ratio = ours.usd / theirs.usd
    target = TARGETS.get(model)
    verdict = (
        f"target <= {target:.0%}: {'met' if ratio <= target else 'NOT met'}"
        if target
        else "no target"
    )
    print(f"\n{api} priced as {model} (cache writes {ttl})")
    print(f"  polar_inspect, batch + cache : {ours.line()}")
    print(f"  polar_inspect, plain         : {plain.line()}")
    print(f"  bare runner (authors-like)   : {theirs.line()}")
    print(f"  polar requests, billed bare  : {same.line()}")
    print(
        f"  ratio polar/bare = {ratio:.1%} ({verdict}); same prompts billed as the bare runner "
        f"is: {ours.usd / same.usd:.1%}; polar batch+cache / polar plain = "
        f"{ours.usd / plain.usd:.1%}"
    )
    if price.flex is not None:
        flex = bill(polar, price, batched=False, cache=True, ttl=ttl, factor=price.flex)
        print(f"  polar_inspect, flex + cache  : {flex.line()}  ratio {flex.usd / theirs.usd:.1%}")
    given = ours.uncached + ours.read + ours.written
    taken = theirs.uncached + theirs.read + theirs.written
    output_share = plain.output * price.output / 1e6 / plain.usd
    print(
        f"  input tokens polar/bare = {given / taken:.2f} (polar's templates are longer); "
        f"output is {output_share:.0%} of the plain bill and no cache serves it"
    )


def main() -> int:
    """Print both runners' bills and their ratio on Anthropic and OpenAI prices."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-attack", type=int, default=16, help="samples per attack (x 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument(
        "--prices", nargs="*", default=sorted(str(p) for p in SHEETS.glob("*.json"))
    )
    args = parser.parse_args()
    sheet = load_prices(*args.prices)
    with tempfile.TemporaryDirectory() as folder:
        data = write_slice(args.per_attack, args.seed, Path(folder))
        samples = len(data.read_text().splitlines())
        print(f"{samples} samples of the bundled data; price sheets {', '.join(args.prices)}")
        bare = run_bare(data, args.workers)
        for api in ("anthropic", "openai"):
            polar = run_polar(api, data, Path(folder) / "logs")  # type: ignore[arg-type]
            for model in SHEET_MODELS[api]:  # type: ignore[index]
                _compare(api, model, polar, bare, sheet[model])  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
