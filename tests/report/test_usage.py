"""Tokens per role and the cost of each run (`polar_inspect/report/usage.py`, `--prices`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log

from polar_inspect.report.cli import main
from polar_inspect.report.usage import (
    Cost,
    ModelPrice,
    PriceFileError,
    RoleUsage,
    cost_lines,
    load_prices,
    role_cost,
    role_usage,
    usage_display,
    usage_frame,
    usage_markdown,
)
from tests.helpers import run
from tests.report.conftest import BuiltReport, ReportLogs


def test_tokens_table_equals_each_logs_usage(set_report: BuiltReport) -> None:
    tokens = pd.read_csv(set_report.out / "tokens.csv")
    board = pd.read_csv(set_report.out / "leaderboard.csv").set_index("model")
    assert set(tokens["role"]) == {"trusted"} and "cost_usd" not in tokens
    for row in tokens.itertuples():
        usage = read_eval_log(board.loc[row.model, "log"], header_only=True).stats.model_usage
        assert row.input_tokens == usage[row.role_model].input_tokens > 0
        assert row.output_tokens == usage[row.role_model].output_tokens
        assert row.model.startswith(row.role_model)  # the run's label names its model
    assert "## Tokens and cost" in (set_report.out / "report.md").read_text(encoding="utf-8")
    assert "Tokens and cost" in (set_report.out / "index.html").read_text(encoding="utf-8")


def test_roles_are_split_from_the_trusted_model(grid_file: Path, tmp_path: Path) -> None:
    log = run(
        "polar_inspect/privacy",
        "polar/oracle",
        tmp_path / "logs",
        model_roles={"attacker": "polar/oracle"},  # same model in two roles
        data=str(grid_file),
        attack="S5",
    )
    usage = {u.role: u for u in role_usage(log)}
    total = log.stats.model_usage["polar/oracle"]
    attacker = log.stats.role_usage["attacker"]
    assert usage["attacker"].model == "polar/oracle"
    assert usage["attacker"].input_tokens == attacker.input_tokens > 0
    assert usage["trusted"].input_tokens == total.input_tokens - attacker.input_tokens > 0
    assert usage["trusted"].output_tokens == total.output_tokens - attacker.output_tokens


def test_an_unbound_defense_role_is_split_from_the_trusted_model(
    grid_file: Path, tmp_path: Path
) -> None:
    """`guard` with no `--model-role` runs on the trusted model: it is not counted twice."""
    log = run(
        "polar_inspect/privacy",
        "polar/leaky",
        tmp_path / "logs",
        data=str(grid_file),
        attack="S1",
        defense="guard",
    )
    usage = {u.role: u for u in role_usage(log)}
    total = log.stats.model_usage["polar/leaky"]
    guard = log.stats.role_usage["guard"]
    assert usage["guard"].model == "polar/leaky"
    assert usage["guard"].total_tokens == guard.total_tokens > 0
    assert usage["trusted"].total_tokens == total.total_tokens - guard.total_tokens > 0
    assert "other" not in usage
    # under --batch the unbound role's calls are the trusted model's, batched with them
    assert log.plan is not None and not usage["guard"].batched
    log.plan.config.batch = True
    assert all(u.batched for u in role_usage(log))


def test_prices_give_the_cost_of_each_run(report_logs: ReportLogs, tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("polar/leaky: {input: 2.0, output: 10.0}\n", encoding="utf-8")
    out = tmp_path / "report"
    code = main(
        [
            str(report_logs.eval_set_dir),
            "--out",
            str(out),
            "--tables-only",
            "--quiet",
            "--prices",
            str(prices),
        ]
    )
    assert code == 0
    tokens = pd.read_csv(out / "tokens.csv", keep_default_na=False).set_index("model")
    leaky = tokens.loc["polar/leaky"]
    expected = (leaky.input_tokens * 2.0 + leaky.output_tokens * 10.0) / 1e6
    assert float(leaky.cost_usd) == pytest.approx(expected)
    oracle = tokens.loc["polar/oracle [ORACLE]"]
    assert oracle.cost_usd == "" and oracle.unpriced_model == "polar/oracle"  # unknown, not 0
    text = (out / "report.md").read_text(encoding="utf-8")
    assert f"- polar/leaky: {expected:.4f} USD" in text
    assert "- polar/oracle [ORACLE]: unknown (no price for polar/oracle)" in text
    [total] = [line for line in text.splitlines() if line.startswith("- All runs: ")]
    assert total.startswith(
        f"- All runs: {expected:.4f} USD + unknown for 3 models without a price"
    )
    assert all(m in total for m in ("polar/oracle", "polar/mixed", "polar/refuse"))
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "unknown for 3 models without a price" in page
    assert ">unknown<" in page  # the unpriced roles' cells
    for shown in (text, page):
        assert "0.0000" not in shown  # no unpriced model is ever costed at zero


def test_a_bad_price_file_names_the_model_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "prices.json"
    bad.write_text('{"openai/gpt-4o": {"input": 2.5, "outptu": 10}}', encoding="utf-8")
    with pytest.raises(PriceFileError, match=r"model 'openai/gpt-4o', field (output|outptu)"):
        load_prices(bad)
    assert (
        load_prices(_write(tmp_path / "ok.json", '{"m": {"input": 1, "output": 2}}'))["m"].output
        == 2
    )


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _usage(role: str, model: str, given: int, taken: int) -> RoleUsage:
    return RoleUsage(
        role=role, model=model, input_tokens=given, output_tokens=taken, total_tokens=given + taken
    )


def test_a_model_without_a_price_costs_unknown_never_zero() -> None:
    prices = {"openai/gpt-4o": ModelPrice(input=2.5, output=10.0)}
    frame = usage_frame(
        ["run A", "run B"],
        [
            [_usage("trusted", "openai/gpt-4o", 1_000_000, 100_000), _usage("guard", "x/y", 10, 5)],
            [_usage("trusted", "x/y", 3, 4), _usage("judge", "x/z", 0, 0)],  # judge never called
        ],
        prices=prices,
    )
    assert frame["cost_usd"].iloc[0] == pytest.approx(3.5)
    assert frame["cost_usd"].isna().tolist() == [False, True, True, False]
    assert frame["cost_usd"].iloc[3] == 0.0  # no token used: nothing to price
    shown = usage_display(frame)
    assert shown["Cost (USD)"].tolist() == ["3.5000", "unknown", "unknown", "0.0000"]
    assert list(shown.columns) == [
        "Run",
        "Role",
        "Model in this role",
        "Input tokens",
        "Cache reads",
        "Cache writes",
        "Output tokens",
        "Total tokens",
        "Batch API",
        "Cost (USD)",
    ]
    assert cost_lines(frame) == [
        "run A: 3.5000 USD + unknown for 1 model without a price (x/y)",
        "run B: unknown (no price for x/y)",
        "All runs: 3.5000 USD + unknown for 1 model without a price (x/y)",
    ]
    markdown = usage_markdown(frame)
    assert "| run B | trusted | x/y | 3 | 0 | 0 | 4 | 7 | no | unknown |" in markdown
    assert "- run B: unknown (no price for x/y)" in markdown


def test_cost_totals_name_every_model_left_out() -> None:
    total = Cost(usd=12.34) + Cost(unpriced=["a/b"]) + Cost(unpriced=["c/d", "a/b"])
    assert total.describe() == "12.3400 USD + unknown for 2 models without a price (a/b, c/d)"
    assert Cost(usd=1.0).describe() == "1.0000 USD"


def test_price_files_of_this_version_keep_loading(tmp_path: Path) -> None:
    """The price file keeps its `{input, output}` format; the model computes the cost."""
    path = _write(tmp_path / "p.yaml", "m/a: {input: 1.0, output: 4.0}\n")
    price = load_prices(path)["m/a"]
    assert price.cost(_usage("trusted", "m/a", 2_000_000, 500_000)) == pytest.approx(4.0)
    with pytest.raises(PriceFileError, match="field input"):
        load_prices(_write(tmp_path / "q.yaml", "m/a: {output: 4.0}\n"))


def test_runs_of_two_groups_with_one_label_are_costed_apart() -> None:
    """The same model in two comparison groups is two runs: never one summed cost."""
    prices = {"m/a": ModelPrice(input=1.0, output=0.0)}
    usage = [[_usage("trusted", "m/a", 1_000_000, 0)], [_usage("trusted", "m/a", 2_000_000, 0)]]
    frame = usage_frame(["m/a", "m/a"], usage, prices=prices, groups=["A", "B"])
    assert cost_lines(frame) == [
        "Group A: m/a: 1.0000 USD",
        "Group B: m/a: 2.0000 USD",
        "All runs: 3.0000 USD",
    ]
    assert list(usage_display(frame).columns)[:2] == ["Group", "Run"]


def test_cache_and_batch_rates_price_their_tokens() -> None:
    usage = RoleUsage(
        role="trusted",
        model="a/m",
        input_tokens=1_000_000,
        cache_read_tokens=2_000_000,
        cache_write_tokens=1_000_000,
        output_tokens=100_000,
        total_tokens=4_100_000,
        batched=True,
    )
    price = ModelPrice(input=3.0, output=15.0, cache_read=0.3, cache_write=3.75, batch=0.5)
    assert price.missing_rates(usage) == []
    # (3 + 2 x 0.3 + 3.75 + 0.1 x 15) x 0.5
    assert role_cost(usage, {"a/m": price}).usd == pytest.approx(4.425)


@pytest.mark.parametrize(
    ("change", "missing"),
    [
        ({"cache_read_tokens": 5}, "cache_read"),
        ({"cache_write_tokens": 5}, "cache_write"),
        ({"batched": True}, "batch"),
    ],
)
def test_tokens_without_a_rate_cost_unknown(change: dict[str, object], missing: str) -> None:
    usage = RoleUsage(role="trusted", model="a/m", input_tokens=10, output_tokens=1).model_copy(
        update=change
    )
    cost = role_cost(usage, {"a/m": ModelPrice(input=1.0, output=1.0)})
    assert cost.unpriced == [f"a/m (no {missing} rate)"]
    assert cost.describe() == f"unknown (no price for a/m (no {missing} rate))"


def test_a_price_sheet_with_notes_and_cache_rates(tmp_path: Path) -> None:
    sheet = _write(
        tmp_path / "prices.json",
        '{"_date": "2026-11-25", "a/m": {"input": 3, "output": 15, "cache_read": 0.3, '
        '"cache_write": 3.75, "batch": 0.5}}',
    )
    assert load_prices(sheet) == {
        "a/m": ModelPrice(input=3, output=15, cache_read=0.3, cache_write=3.75, batch=0.5)
    }
    bad = _write(tmp_path / "bad.json", '{"a/m": {"input": 3, "output": 15, "batch": 2}}')
    with pytest.raises(PriceFileError, match=r"model 'a/m', field batch"):
        load_prices(bad)


def test_each_role_is_billed_at_its_own_cache_lifetime_and_tier() -> None:
    from polar_inspect.report.usage import role_ttl

    assert role_ttl({"cache_ttl": "1h"}, batched=True) == "1h"
    assert role_ttl({}, batched=True) == "5m"  # Inspect never moves a batched call to 1h
    assert role_ttl({}, batched=False) == "auto"  # it may move a sample to 1h after a gap
    price = ModelPrice.model_validate(
        {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": {"5m": 3.75, "1h": 6},
         "batch": 0.5, "flex": 0.5}
    )  # fmt: skip
    usage = RoleUsage(role="trusted", model="a/m", input_tokens=0, cache_write_tokens=1_000_000,
                      batched=True, cache_ttl="1h")  # fmt: skip
    assert role_cost(usage, {"a/m": price}).usd == pytest.approx(3.0)  # 6 x 0.5, not 3.75 x 0.5
    auto = usage.model_copy(update={"batched": False, "cache_ttl": "auto"})
    assert role_cost(auto, {"a/m": price}).unpriced == [
        "a/m (no cache_write (cache_ttl auto) rate)"
    ]
    flex = RoleUsage(role="attacker", model="a/m", input_tokens=1_000_000, service_tier="flex")
    assert role_cost(flex, {"a/m": price}).usd == pytest.approx(1.5)
    priority = flex.model_copy(update={"service_tier": "priority"})
    assert role_cost(priority, {"a/m": price}).unpriced == ["a/m (no service_tier=priority rate)"]
