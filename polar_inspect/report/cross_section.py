"""The domain x policy and domain x attack section (`cross_tables.csv`, `report.md`, the page)."""

from __future__ import annotations

import pandas as pd

from polar_inspect.report.cross_tables import (
    CROSS_TABLES,
    cross_breakdown,
    cross_grid,
    cross_markdown,
)
from polar_inspect.report.html import render
from polar_inspect.report.markdown import TEXTS, md_text
from polar_inspect.report.section import Section, SectionInputs, SectionOutput
from polar_inspect.report.tables import Cell, TextTable, key_title, number
from polar_inspect.scorers.parity import SCORE_KEYS

NOTE = TEXTS["cross"]


#: The tables' names, `<row>_x_<column>`.
NAMES = [f"{row}_x_{column}" for row, column in CROSS_TABLES]


def cross_csv_frame(table: pd.DataFrame, inputs: SectionInputs) -> pd.DataFrame:
    """The long table as written: group, model, table, row, column, score, value x100, n."""
    labels = inputs.summary.set_index("run")[["group", "label"]]
    frame = table.join(labels, on="run").rename(columns={"label": "model"})
    frame["value"] = (100 * frame["value"]).round(6)
    return frame[["group", "model", "table", "row", "column", "score", "value", "n"]]


def _ranked(inputs: SectionInputs, table: pd.DataFrame) -> list[tuple[int, str, str, int]]:
    """(run, group, label, rank) of every run with cells, in leaderboard order."""
    present = set(table["run"])
    rows = inputs.summary[inputs.summary["run"].isin(present)]
    return [
        (int(r.run), str(r.group), str(r.label), int(r.rank)) for r in rows.itertuples(index=False)
    ]


def _title(name: str, score: str) -> str:
    row, column = name.split("_x_")
    return f"{score.capitalize()}: {row} x {column} (x100)"


def _markdown(table: pd.DataFrame, inputs: SectionInputs) -> str:
    parts = ["## Domain x policy and domain x attack (x100)\n", md_text(NOTE) + "\n"]
    for run, group, label, _ in _ranked(inputs, table):
        where = f"group {group}: " if inputs.many else ""
        parts.append(f"### {md_text(where + label)}\n")
        for name in NAMES:
            for score in SCORE_KEYS:
                parts += [
                    f"#### {_title(name, score)}",
                    "",
                    cross_markdown(table, run, name, score),
                    "",
                ]
    return "\n".join(parts)


def cross_text_table(table: pd.DataFrame, run: int, name: str, score: str) -> TextTable | None:
    """One run's cross table for one score as shown on the page (None: no cells)."""
    grid = cross_grid(table, run, name, score)
    if grid is None:
        return None
    row_axis, column_axis = name.split("_x_")
    header = [row_axis.capitalize(), *(key_title(column_axis, str(c)) for c in grid.columns)]
    cells: list[list[Cell]] = [
        [str(row), *(number(100 * v) for v in values)]
        for row, values in zip(grid.index, grid.to_numpy(), strict=True)
    ]
    return TextTable(header, cells, header[1:])


def _html(output: SectionOutput, inputs: SectionInputs) -> str:
    if output.frame.empty:
        return ""
    runs = []
    for run, group, label, rank in _ranked(inputs, output.frame):
        shown = [
            (_title(name, score), cross_text_table(output.frame, run, name, score))
            for name in NAMES
            for score in SCORE_KEYS
        ]
        where = f"group {group}, " if inputs.many else ""
        tables = [(title, table) for title, table in shown if table is not None]
        runs.append({"label": label, "where": where, "rank": rank, "tables": tables})
    return render("cross", note=NOTE, runs=runs)


CROSS_SECTION = Section(
    name="cross-tables",
    title="Domain x policy / attack",
    compute=lambda inputs: cross_breakdown(inputs.reduced),
    files=lambda table, inputs: {"cross_tables.csv": cross_csv_frame(table, inputs)},
    markdown=_markdown,
    html=_html,
)
