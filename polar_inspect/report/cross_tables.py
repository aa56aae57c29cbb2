"""Domain x policy and domain x attack tables: each cell the mean of its samples' scores (each
reduced over epochs first), overall at the report's weight (docs/results.md).
"""

from __future__ import annotations

import pandas as pd

from polar_inspect.axes import DOMAINS
from polar_inspect.report.markdown import md_table
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


def cross_grid(table: pd.DataFrame, run: int, name: str, score: str) -> pd.DataFrame | None:
    """One run's cross table for one score: domains (in order) x columns, values 0-1."""
    part = table[(table["run"] == run) & (table["table"] == name) & (table["score"] == score)]
    if part.empty:
        return None
    grid = part.pivot(index="row", columns="column", values="value")
    return grid.loc[sorted(grid.index, key=_domain_order), sorted(grid.columns)]


def cross_markdown(table: pd.DataFrame, run: int, name: str, score: str) -> str:
    """One run's cross table for one score as a markdown table (x100, one decimal)."""
    grid = cross_grid(table, run, name, score)
    if grid is None:
        return ""
    rows = [
        [row, *("" if pd.isna(v) else f"{100 * v:.1f}" for v in values)]
        for row, values in zip(grid.index, grid.to_numpy(), strict=True)
    ]
    return md_table([name.split("_x_")[0], *grid.columns], rows, list(grid.columns))
