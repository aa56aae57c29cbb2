"""Price sheets are read as strictly as records (`polar_inspect/cost/sheet.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polar_inspect.cost.cli import SHEETS
from polar_inspect.cost.sheet import RULES, ModelPrice, PriceFileError, load_prices

ENTRY = {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": {"5m": 3.75, "1h": 6}}


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a/m": {"input": 1, "output": 2}, "a/m": {"input": 1, "output": 3}}', "given twice"),
        ('{"a/m": {"input": true, "output": 2}}', "field input"),
        ('{"a/m": {"input": "1", "output": 2}}', "field input"),
        ('{"a/m": {"input": NaN, "output": 2}}', "NaN is not a price"),
        ('{"a/m": {"input": Infinity, "output": 2}}', "Infinity is not a price"),
        ('{"a/m": {"input": -1, "output": 2}}', "field input"),
        ('{"a/m": {"input": 1, "output": 2, "cache_write": {"10m": 1}}}', "cache_write"),
        ('{"a/m": {"input": 1, "output": 2, "flex": 0}}', "field flex"),
        ('{"a/m": {"input": 1, "output": 2, "batch_cached": 1}}', "field batch_cached"),
        ('{"a/m": {"input": 1, "output": 2, "cache": {"mode": "lru"}}}', "field cache.mode"),
        (
            '{"a/m": {"input": 1, "output": 2, "sources": {"inptu": {"url": "u", "date": "d"}}}}',
            "names no rule",
        ),  # fmt: skip
    ],
)
def test_a_bad_sheet_is_one_line_naming_the_file_and_entry(
    tmp_path: Path, text: str, message: str
) -> None:
    sheet = _write(tmp_path / "prices.json", text)
    with pytest.raises(PriceFileError) as caught:
        load_prices(sheet)
    assert str(sheet) in str(caught.value) and message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_yaml_sheets_refuse_repeated_models_and_infinite_rates(tmp_path: Path) -> None:
    twice = _write(tmp_path / "p.yaml", "a/m: {input: 1, output: 2}\na/m: {input: 1, output: 3}\n")
    with pytest.raises(PriceFileError, match="given twice"):
        load_prices(twice)
    with pytest.raises(PriceFileError, match="field input"):
        load_prices(_write(tmp_path / "q.yaml", "a/m: {input: .inf, output: 2}\n"))
    # YAML 1.1 reads 010 as 8, 0x10 as 16 and 1:30 as 90: a rate is a decimal number or refused
    for odd in ("010", "0x10", "1:30", "1:30.5"):
        with pytest.raises(PriceFileError, match=f"'{odd}' is not a decimal number"):
            load_prices(_write(tmp_path / "o.yaml", f"a/m: {{input: 1, output: {odd}}}\n"))
    plain = _write(
        tmp_path / "d.yaml", "a/m: {input: 0.15, output: 12, batch: .5, cache_read: 1_000}\n"
    )
    assert load_prices(plain)["a/m"].model_dump(
        include={"input", "output", "batch", "cache_read"}
    ) == {
        "input": 0.15,
        "output": 12.0,
        "batch": 0.5,
        "cache_read": 1000.0,
    }


def test_a_model_in_two_sheets_is_refused(tmp_path: Path) -> None:
    one = _write(tmp_path / "one.json", json.dumps({"a/m": ENTRY}))
    two = _write(tmp_path / "two.json", json.dumps({"a/m": ENTRY}))
    with pytest.raises(PriceFileError, match=r"'a/m' is also in .*one.json"):
        load_prices(one, two)


def test_write_rates_per_lifetime() -> None:
    price = ModelPrice.model_validate(ENTRY)
    assert price.write_rate("5m") == 3.75 and price.write_rate("1h") == 6
    assert price.write_rate("auto") is None  # either may apply: not guessed
    bare = ModelPrice.model_validate({"input": 3, "output": 15, "cache_write": 3.75})
    assert bare.write_rate("5m") == 3.75 and bare.write_rate("1h") is None


def test_the_packaged_sheets_give_every_rule_a_source() -> None:
    sheets = sorted(SHEETS.glob("*.json"))
    assert {s.stem for s in sheets} == {"anthropic", "openai", "together"}
    prices = load_prices(*sheets)
    for model, price in prices.items():
        given = {rule for rule in RULES if getattr(price, rule) is not None}
        # Together's cache and batch rules are not known: those settings print unknown
        full = not model.startswith("together/")
        assert {"input", "output"} | ({"cache_read", "cache", "batch", "batch_cached"} if full
                                      else set()) <= given  # fmt: skip
        for rule in given:
            source = price.sources.get(rule, price.source)  # where the rule comes from
            assert source is not None and source.url.startswith("https://"), (model, rule)
            assert source.date.startswith("2026-11-25"), (model, rule)


def test_the_packaged_sheets_state_the_documented_rules() -> None:
    prices = load_prices(*sorted(SHEETS.glob("*.json")))
    minimum = {m: p.cache.min_tokens for m, p in prices.items() if p.cache is not None}
    assert minimum["anthropic/claude-opus-4-5"] == minimum["anthropic/claude-haiku-4-5"] == 4096
    assert minimum["anthropic/claude-sonnet-4-5"] == minimum["openai/gpt-4.1"] == 1024
    assert prices["openai/gpt-4.1"].batch_cached is False  # pre-GPT-5: batches not cached
    assert prices["openai/gpt-5"].batch_cached is True and prices["openai/gpt-5"].flex == 0.5
    assert prices["openai/gpt-4.1"].flex is None and prices["openai/gpt-4.1"].cache_write is None
    for mini in ("openai/gpt-4.1-mini", "openai/gpt-4o-mini"):  # the README's, docs' models
        assert prices[mini].batch_cached is False and prices[mini].flex is None
    assert prices["openai/gpt-4o-mini"].input == 0.15 and prices["openai/gpt-4.1-mini"].input == 0.4
    assert "UNVERIFIED" in str(prices["together/meta-llama/Llama-3.3-70B-Instruct-Turbo"].source)
