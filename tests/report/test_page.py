"""The report page: a setup block of what all runs share, a leaderboard of what differs,
human column names, readable task arguments, sortable tables, folded per-model sections, and
nothing fetched from the network."""

from __future__ import annotations

import json
import re

import pandas as pd

from polar_inspect.report.html import _cell_html, render_table
from polar_inspect.report.tables import TextTable, arg_text, format_args, leaderboard_view
from polar_inspect.report.usage import USAGE_TITLES
from tests.report.conftest import BuiltReport


def _board(**overrides: list[object]) -> pd.DataFrame:
    """Two leaderboard rows (as `leaderboard_frame` writes them) that differ only as told."""
    base: dict[str, object] = {
        "group": "A",
        "model": "m",
        "sampling_caveat": "",
        "n": 50,
        "errors": 0,
        "truncated_samples": 0,
        "empty_reply_samples": 0,
        "prompt": "default abc",
        "sampling": "temperature=0",
        "task_args_json": json.dumps({"data": "x.json", "attack": "S5"}),
    }
    for key in ("privacy", "utility", "overall"):
        base |= {key: 50.0, f"{key}_ci_low": 40.0, f"{key}_ci_high": 60.0}
    rows = [dict(base, rank=1, model="m1"), dict(base, rank=2, model="m2")]
    for key, values in overrides.items():
        for row, value in zip(rows, values, strict=True):
            row[key] = value
    return pd.DataFrame(rows)


def test_only_differing_facts_become_columns() -> None:
    shared, table = leaderboard_view(_board(prompt=["default abc", "custom mine.txt 123"]), 0.5)
    assert table.header == ["#", "Model", "Privacy", "Utility", "Overall (λ=0.5)", "Trusted prompt"]
    assert [row[-1] for row in table.rows] == ["default abc", "custom mine.txt 123"]
    assert dict(shared) == {
        "Samples scored (n)": "50",
        "Errored samples": "0",
        "Truncated / empty replies": "0 / 0",
        "Sampling": "temperature=0",
        "Task arguments": "attack=S5",
    }
    assert table.rows[0][2] == "50.0 [40.0, 60.0]" and "Privacy" in table.nowrap


def test_a_task_argument_that_differs_is_its_own_column() -> None:
    args = [
        json.dumps({"attack": "S5", "judge": True}),
        json.dumps({"attack": "S5", "judge": False, "turns": [1, 2]}),
    ]
    shared, table = leaderboard_view(_board(task_args_json=args, n=[50, 49]), 0.5)
    assert table.header[5:] == ["Samples scored (n)", "-T judge", "-T turns"]
    assert [row[5:] for row in table.rows] == [["50", "true", "default"], ["49", "false", "1,2"]]
    assert table.keys is not None and table.keys[0][5] == 50  # sorts as a number
    assert dict(shared)["Task arguments"] == "attack=S5"


def test_task_arguments_read_as_they_are_typed() -> None:
    assert arg_text(["spotlight", "guard"]) == "spotlight,guard"
    assert arg_text(True) == "true"
    assert (
        format_args({"defense": ["spotlight", "guard"], "data": "x"}) == "defense=spotlight,guard"
    )


def test_the_page_has_a_setup_block_and_a_short_leaderboard(set_report: BuiltReport) -> None:
    page = (set_report.out / "index.html").read_text(encoding="utf-8")
    setup = re.search(r'<dl class="setup">(.*?)</dl>', page, flags=re.S)
    assert setup is not None
    labels = re.findall(r"<dt>([^<]+)</dt>", setup.group(1))
    for label in ("Data", "S5 attacker", "Sample set", "Samples scored (n)", "Sampling"):
        assert label in labels
    leaderboard = page.split("<h3>Leaderboard</h3>")[1].split("</thead>")[0]
    headers = re.findall(r"<th[^>]*>([^<]+)</th>", leaderboard)
    assert headers == ["#", "Model", "Privacy", "Utility", "Overall (λ=0.5)"]
    assert '<td class="num nowrap" data-sort="64.0">64.0 <span class="ci">' in page


def test_the_page_is_responsive_sortable_folded_and_offline(set_report: BuiltReport) -> None:
    page = (set_report.out / "index.html").read_text(encoding="utf-8")
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page
    assert "max-width: 1150px" in page and ".scroll { overflow-x: auto" in page
    # on a phone: a hint and edge shadows say a table scrolls; figures at twice the width scroll
    assert 'content: "scroll sideways \\2192"' in page and "no-repeat local" in page
    assert "figure { overflow-x: auto; }" in page and "max-width: 200%" in page
    assert page.count('<table class="sortable">') >= 3  # leaderboard, breakdowns, tokens
    assert 'addEventListener("click", sort)' in page
    assert page.count("<details><summary>#") == 4  # one folded section per model
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing from the network
    tokens = page.split("<h2>Tokens and cost</h2>")[1].split("</thead>")[0]
    titles = re.findall(r"<th[^>]*>([^<]+)</th>", tokens)
    assert titles == [t for k, t in USAGE_TITLES.items() if k not in ("group", "cost_usd")]


def test_a_change_against_the_baseline_goes_below_the_score_and_its_ci() -> None:
    assert _cell_html("100.0 [100.0, 100.0] (+50.0)") == (
        '100.0 <span class="ci">[100.0, 100.0]</span> <br><span class="change">(+50.0)</span>'
    )
    assert _cell_html("64.0 [58.0, 70.0]") == '64.0 <span class="ci">[58.0, 70.0]</span>'


def test_a_table_of_ten_domains_is_set_tight_and_breaks_its_names_at_underscores() -> None:
    domains = ["customer_support", "cybersecurity", *(f"d{i}" for i in range(8))]
    wide = render_table(TextTable(["#", "Model", *domains], [["1", "m", *["1.0"] * 10]]))
    assert '<table class="sortable wide">' in wide and ">customer_<wbr>support</th>" in wide
    narrow = render_table(TextTable(["#", "Model", "Privacy"], [["1", "m", "1.0"]]))
    assert '<table class="sortable">' in narrow
