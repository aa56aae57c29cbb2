"""The domain x policy and domain x attack section (`cross_tables.csv`, `report.md`, the page):
each cell the mean of its samples' scores (each reduced over epochs first), overall at the
report's weight (docs/results.md)."""

from __future__ import annotations

import pandas as pd

from polar_inspect.axes import DOMAINS
from polar_inspect.report.html import render
from polar_inspect.report.markdown import TEXTS, md_table, md_text
from polar_inspect.report.section import Section, SectionInputs, SectionOutput
from polar_inspect.report.tables import Cell, TextTable, key_title, number
from polar_inspect.scorers.parity import SCORE_KEYS

#: The tables: (row axis, column axis), each named `<row>_x_<column>`.
CROSS_TABLES: tuple[tuple[str, str], ...] = (("domain", "policy"), ("domain", "attack"))
CROSS_COLUMNS = ["run", "table", "row", "column", "score", "value", "n"]


def _domain_order(value: str) -> tuple[int, str]:
    return (DOMAINS.index(value) if value in DOMAINS else len(DOMAINS), value)


def cross_breakdown(reduced: pd.DataFrame) -> pd.DataFrame:
    """Every run's cross tables from the per-sample frame (CROSS_COLUMNS; values 0-1)."""
    rows: list[tuple[object, ...]] = []
    scored = reduced.dropna(subset=["privacy"])
    for row_axis, column_axis in CROSS_TABLES:
        name = f"{row_axis}_x_{column_axis}"
        grouped = scored.groupby(["run", row_axis, column_axis], sort=False, observed=True)
        means = grouped[list(SCORE_KEYS)].mean()
        counts = grouped.size()
        for (run, row, column), values in means.iterrows():
            for score in SCORE_KEYS:
                n = int(counts[(run, row, column)])
                rows.append((int(run), name, str(row), str(column), score, float(values[score]), n))
    table = pd.DataFrame(rows, columns=CROSS_COLUMNS)
    return (
        table.assign(_order=table["row"].map(_domain_order))
        .sort_values(["run", "table", "score", "_order", "column"], kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )


def cross_grid(table: pd.DataFrame, run: int, name: str, score: str) -> pd.DataFrame | None:
    """One run's cross table for one score: domains (in order) x columns, values 0-1."""
    part = table[(table["run"] == run) & (table["table"] == name) & (table["score"] == score)]
    if part.empty:
        return None
    grid = part.pivot(index="row", columns="column", values="value")
    return grid.loc[sorted(grid.index, key=_domain_order), sorted(grid.columns)]


def cross_markdown(table: pd.DataFrame, run: int, name: str, score: str) -> str:
    """One run's cross table for one score as a markdown table (x100, one decimal)."""
    if (grid := cross_grid(table, run, name, score)) is None:
        return ""
    rows = [
        [row, *("" if pd.isna(v) else f"{100 * v:.1f}" for v in values)]
        for row, values in zip(grid.index, grid.to_numpy(), strict=True)
    ]
    return md_table([name.split("_x_")[0], *grid.columns], rows, list(grid.columns))


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
    rows = inputs.summary[inputs.summary["run"].isin(set(table["run"]))]
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
                title = _title(name, score)
                parts += [f"#### {title}", "", cross_markdown(table, run, name, score), ""]
    return "\n".join(parts)


def cross_text_table(table: pd.DataFrame, run: int, name: str, score: str) -> TextTable | None:
    """One run's cross table for one score as shown on the page (None: no cells)."""
    if (grid := cross_grid(table, run, name, score)) is None:
        return None
    row_axis, column_axis = name.split("_x_")
    header = [row_axis.capitalize(), *(key_title(column_axis, str(c)) for c in grid.columns)]
    cells: list[list[Cell]] = [
        [str(row), *(number(100 * v) for v in values)]
        for row, values in zip(grid.index, grid.to_numpy(), strict=True)
    ]
    return TextTable(header, cells, header[1:])


def _html(output: SectionOutput, inputs: SectionInputs) -> str:
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
