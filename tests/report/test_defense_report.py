"""polar-report on logs that differ only by defense: table, frontier figure, no duplicates."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from polar_inspect.report import build_report
from polar_inspect.report.defenses import defense_frame, defense_rows
from polar_inspect.report.figures import run_slug
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.sections import DEFENSE_SECTION
from polar_inspect.scorers.parity import SCORE_KEYS
from tests.conftest import make_record
from tests.helpers import run

TASK = "polar_inspect/privacy"


@pytest.fixture(scope="module")
def defense_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """leaky x {none, redact_oracle, guard (scripted)} and refuse x {none}, on 6 samples."""
    root = tmp_path_factory.mktemp("defense_logs")
    data = root / "data.json"
    records = [make_record(i, policy=f"P{1 + i % 5}", turns=["Everything?"]) for i in range(6)]
    pd.Series(records).to_json(data, orient="values")
    logs = root / "logs"
    for model, defense, roles in (
        ("polar/leaky", "none", None),
        ("polar/leaky", "redact_oracle", None),
        ("polar/leaky", "guard", {"guard": "polar/guard"}),
        ("polar/refuse", "none", None),
    ):
        run(TASK, model, logs, model_roles=roles, data=str(data), defense=defense)
    return logs


@pytest.mark.slow
def test_defense_table_and_frontier(defense_logs: Path, tmp_path: Path) -> None:
    result = build_report([defense_logs], tmp_path / "report", jobs=1)
    assert "defenses.md" in result.tables and "defenses.csv" in result.tables
    assert len(result.models) == 4  # runs that differ by defense are not duplicates
    assert not [s for s in result.skipped if s.reason == "duplicate"]
    table = pd.read_csv(tmp_path / "report" / "defenses.csv")
    leaky = table[table["model"] == "polar/leaky"].set_index("defense")
    assert list(leaky.index) == ["none", "guard", "redact_oracle"]
    assert leaky.loc["none", "privacy"] == 0.0
    assert leaky.loc["redact_oracle", "privacy"] == 100.0
    assert leaky.loc["redact_oracle", "delta_privacy"] == 100.0
    assert leaky.loc["redact_oracle", "delta_utility"] == 0.0
    assert bool(leaky.loc["redact_oracle", "oracle"]) is True
    assert leaky.loc["guard", "tokens_per_sample_guard"] > 0
    assert leaky.loc["guard", "tokens_per_sample_trusted"] == pytest.approx(
        leaky.loc["none", "tokens_per_sample_trusted"]
    )
    markdown = (tmp_path / "report" / "defenses.md").read_text(encoding="utf-8")
    assert "redact_oracle (ORACLE)" in markdown
    assert "(+100.0)" in markdown
    frontier = [f for f in result.figures if "defense" in f.path]
    assert [f.path for f in frontier] == ["figures/defense_frontier.png"]
    assert (tmp_path / "report" / frontier[0].path).stat().st_size > 0
    board = pd.read_csv(tmp_path / "report" / "leaderboard.csv", keep_default_na=False)
    assert "polar/leaky + redact_oracle [ORACLE]" in set(board["model"])
    # the scripted guard reads the targets: the run is marked wherever it is named
    guard = board[board["defense"] == "guard"].squeeze()
    assert guard["model"] == "polar/leaky + guard [ORACLE]" and bool(guard["oracle"])
    assert "guard role: polar/guard" in guard["oracle_reason"]
    assert leaky.loc["guard", "oracle"] and "guard (ORACLE)" in markdown
    assert "ORACLE: polar/leaky + guard: guard role: polar/guard" in markdown
    report = (tmp_path / "report" / "leaderboard.md").read_text(encoding="utf-8")
    assert "| polar/leaky + guard [ORACLE] |" in report
    assert {"tokens_per_sample_trusted", "tokens_per_sample_guard"} <= set(board.columns)


@pytest.mark.slow
def test_surface_file_names_say_oracle_once_and_are_unique(
    defense_logs: Path, tmp_path: Path
) -> None:
    result = build_report([defense_logs], tmp_path / "report", jobs=1)
    names = [Path(f.path).name for f in result.figures if Path(f.path).name.startswith("surface_0")]
    assert len(names) == len(set(names)) == 4
    runs = {name.split("_", 2)[2].removesuffix(".png") for name in names}
    assert runs == {
        "polar-leaky",
        "polar-leaky-guard-oracle",  # the guard role ran the scripted polar/guard
        "polar-leaky-redact-oracle",
        "polar-refuse",
    }


def test_an_oracle_whose_name_does_not_say_so_is_marked_in_its_file_name() -> None:
    run = RunHeader.model_construct(
        model="polar/leaky",
        label="polar/leaky + strip [ORACLE]",
        base_label="polar/leaky",
        defense="strip",
        defense_oracle=True,
    )
    assert run_slug(run) == "polar-leaky-strip-oracle"
    plain = RunHeader.model_construct(
        model="openai/gpt-4o", label="openai/gpt-4o", base_label="", defense="none"
    )
    assert run_slug(plain) == "openai-gpt-4o"


class _Tables(HTMLParser):
    """The text of every table cell of a page, as `tables[i][row][cell]`."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_the_html_page_shows_the_defense_table_of_the_markdown(
    defense_logs: Path, tmp_path: Path
) -> None:
    build_report([defense_logs], tmp_path / "report", jobs=1, figures=False)
    table = pd.read_csv(tmp_path / "report" / "defenses.csv")
    [(_, text)] = defense_rows(table)
    markdown = (tmp_path / "report" / "defenses.md").read_text(encoding="utf-8")
    assert "| " + " | ".join(text.rows[0]) + " |" in markdown  # the cells defenses.md shows
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    _, after = page.split("<h3>Defenses</h3>")
    parser = _Tables()
    parser.feed(after)
    assert parser.tables[0] == [text.header, *text.rows]
    assert len(text.rows) == 4
    assert [r[1] for r in text.rows if "ORACLE" in r[1]] == [
        "guard (ORACLE)",
        "redact_oracle (ORACLE)",
    ]


def test_no_defense_table_without_defenses(
    write_records: Callable[..., Path], tmp_path: Path
) -> None:
    data = write_records([make_record(0, turns=["Hi?"])])
    run(TASK, "polar/oracle", tmp_path / "logs", data=str(data))
    result = build_report([tmp_path / "logs"], tmp_path / "report", jobs=1, figures=False)
    assert "defenses.md" not in result.tables
    assert "Defenses" not in (tmp_path / "report" / "index.html").read_text(encoding="utf-8")


def _defense_row(group: str, defense: str, **tokens: float) -> dict[str, object]:
    scores = {f"{k}{s}": 50.0 for k in ("privacy", "utility", "overall") for s in ("", "_low")}
    scores |= {f"{k}_high": 60.0 for k in ("privacy", "utility", "overall")}
    deltas = {f"delta_{k}": 0.0 for k in ("privacy", "utility", "overall")}
    columns = {f"tokens_per_sample_{role}": value for role, value in tokens.items()}
    row = {"group": group, "model": "m", "defense": defense, "oracle": False, "n": 10}
    return row | scores | deltas | columns


def test_a_group_shows_token_columns_only_for_the_roles_its_runs_used() -> None:
    nan = float("nan")
    frame = pd.DataFrame(
        [
            _defense_row("A", "none", trusted=100.0, guard=nan, judge=nan),
            _defense_row("A", "guard", trusted=100.0, guard=40.0, judge=nan),
            _defense_row("B", "none", trusted=90.0, guard=nan, judge=20.0),
            _defense_row("B", "spotlight", trusted=95.0, guard=nan, judge=20.0),
        ]
    )
    tables = dict(defense_rows(frame))
    tokens = {group: [h for h in t.header if h.startswith("Tokens")] for group, t in tables.items()}
    assert tokens == {
        "A": ["Tokens per sample: trusted model", "Tokens per sample: guard"],
        "B": ["Tokens per sample: trusted model", "Tokens per sample: judge"],
    }
    assert tables["A"].rows[1][-2:] == ["100", "40"]


def test_an_oracle_agent_is_marked_on_its_model_and_an_oracle_defense_on_its_defense() -> None:
    """`polar/oracle` reads the targets itself: its model says [ORACLE] (as in the leaderboard's
    labels), not its `none` defense; an oracle defense says (ORACLE) whoever runs it."""

    def header(model: str, defense: str) -> RunHeader:
        oracle = defense == "redact_oracle"
        return RunHeader.model_construct(
            model=model, label=model, base_label=model, identity=model, defense=defense,
            defense_oracle=oracle, usage=[],
        )  # fmt: skip

    runs = [
        header(m, d) for m in ("polar/oracle", "polar/leaky") for d in ("none", "redact_oracle")
    ]
    scores = {f"{k}{s}": 1.0 for k in SCORE_KEYS for s in ("", "_low", "_high")}
    summary = pd.DataFrame([{"run": i, "group": "A", "n": 6, **scores} for i in range(4)])
    frame = defense_frame(summary, runs)
    [(_, table)] = defense_rows(frame)
    assert [row[:2] for row in table.rows] == [
        ["polar/leaky", "none"],
        ["polar/leaky", "redact_oracle (ORACLE)"],
        ["polar/oracle [ORACLE]", "none"],
        ["polar/oracle [ORACLE]", "redact_oracle (ORACLE)"],
    ]
    assert list(frame["oracle"]) == [False, True, True, True]
    markdown = DEFENSE_SECTION.files(frame, None)["defenses.md"]  # type: ignore[arg-type]
    assert "- ORACLE: polar/oracle + none: trusted role: polar/oracle" in markdown
