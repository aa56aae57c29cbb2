"""Domain x policy and domain x attack tables: the two the paper's authors publish beside the
policy x attack surface (10 x 5 cells each, privacy, utility and overall: 300 numbers a run).

Each cell is the arithmetic mean of its samples' scores (a sample's scores reduced over epochs
by their mean first), the same aggregation as the headline and the other breakdowns
(docs/scoring.md). `overall` is the mean of the samples' overall values at the report's weight.
"""

from __future__ import annotations

import pandas as pd

from polar_inspect.axes import DOMAINS
from polar_inspect.scorers.parity import SCORE_KEYS

__all__ = ["CROSS_COLUMNS", "CROSS_TABLES", "cross_breakdown", "cross_markdown"]

#: The tables: (row axis, column axis), each named `<row>_x_<column>`.
CROSS_TABLES: tuple[tuple[str, str], ...] = (("domain", "policy"), ("domain", "attack"))
CROSS_COLUMNS = ["run", "table", "row", "column", "score", "value", "n"]


def _domain_order(value: str) -> tuple[int, str]:
    return (DOMAINS.index(value) if value in DOMAINS else len(DOMAINS), value)


def cross_breakdown(reduced: pd.DataFrame) -> pd.DataFrame:
    """Long table of every run's cross tables (CROSS_COLUMNS; values 0-1).

    `reduced`: one row per run and sample with `domain`, `policy`, `attack` and the scores,
    `overall` already at the report's weight."""
    rows: list[tuple[object, ...]] = []
    scored = reduced.dropna(subset=["privacy"])
    for row_axis, column_axis in CROSS_TABLES:
        name = f"{row_axis}_x_{column_axis}"
        keys = ["run", row_axis, column_axis]
        grouped = scored.groupby(keys, sort=False, observed=True)
        means = grouped[list(SCORE_KEYS)].mean()
        counts = grouped.size()
        for (run, row, column), values in means.iterrows():
            for score in SCORE_KEYS:
                n = int(counts[(run, row, column)])
                rows.append((int(run), name, str(row), str(column), score, float(values[score]), n))
    table = pd.DataFrame(rows, columns=CROSS_COLUMNS)
    order = table["row"].map(_domain_order)
    return (
        table.assign(_order=order)
        .sort_values(["run", "table", "score", "_order", "column"], kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )


def cross_markdown(table: pd.DataFrame, run: int, name: str, score: str) -> str:
    """One run's cross table for one score as a markdown table (x100, one decimal)."""
    part = table[(table["run"] == run) & (table["table"] == name) & (table["score"] == score)]
    if part.empty:
        return ""
    grid = part.pivot(index="row", columns="column", values="value")
    rows_in_order = sorted(grid.index, key=_domain_order)
    columns = sorted(grid.columns)
    header = f"| {name.split('_x_')[0]} | " + " | ".join(columns) + " |"
    lines = [header, "|---|" + "---:|" * len(columns)]
    for row in rows_in_order:
        cells = [
            "" if pd.isna(grid.at[row, c]) else f"{100 * grid.at[row, c]:.1f}" for c in columns
        ]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
