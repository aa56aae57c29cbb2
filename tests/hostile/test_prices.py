"""Hostile price sheets through `polar-cost` and `polar-report --prices`: one line naming the
file and the entry, never a silent wrong figure (docs/cost.md, "Price sheets")."""

from __future__ import annotations

from pathlib import Path

import pytest

from polar_inspect.cost.cli import main as cost_main
from polar_inspect.report.cli import main as report_main

GOOD = '{"anthropic/m": {"input": 3, "output": 15}}'
HOSTILE = {
    "repeated": (
        '{"anthropic/m": {"input": 3, "output": 15}, "anthropic/m": {"input": 1, "output": 1}}',
        "given twice",
    ),  # fmt: skip
    "bool": ('{"anthropic/m": {"input": true, "output": 15}}', "field input"),
    "nan": ('{"anthropic/m": {"input": NaN, "output": 15}}', "NaN is not a price"),
    "infinity": ('{"anthropic/m": {"input": 3, "output": Infinity}}', "Infinity is not a price"),
    "negative": ('{"anthropic/m": {"input": -3, "output": 15}}', "field input"),
    "string": ('{"anthropic/m": {"input": "3", "output": 15}}', "field input"),
    "factor": ('{"anthropic/m": {"input": 3, "output": 15, "batch": 2}}', "field batch"),
    "unknown key": ('{"anthropic/m": {"input": 3, "output": 15, "cahce_read": 1}}', "cahce_read"),
}


def _sheet(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prices.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_polar_cost_refuses_a_hostile_sheet_in_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = HOSTILE[case]
    sheet = _sheet(tmp_path, text)
    assert cost_main(["--model", "anthropic/m", "--prices", str(sheet), "-T", "data=bundled"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(sheet) in err and message in err


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_polar_report_refuses_a_hostile_sheet_in_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = HOSTILE[case]
    sheet = _sheet(tmp_path, text)
    assert report_main([str(tmp_path), "--out", str(tmp_path / "r"), "--prices", str(sheet)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(sheet) in err and message in err


def test_the_control_sheet_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = _sheet(tmp_path, GOOD)
    args = ["polar_inspect/privacy_mini", "--model", "anthropic/m", "--prices", str(sheet)]
    assert cost_main([*args, "-T", "data=bundled"]) == 0
    out = capsys.readouterr().out
    assert "trusted    anthropic/m" in out and "plain: " in out
    assert "cached: unknown (no caching rules in the sheet)" in out  # not guessed
