"""Write the report's Markdown and CSV files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from polar_inspect.report import access, defenses, log_tables, tables
from polar_inspect.report.figstyle import FigureFile
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import md_text
from polar_inspect.report.section import SectionOutput
from polar_inspect.report.stats import Group
from polar_inspect.report.usage import usage_markdown


def write_tables(
    out: Path,
    runs: Sequence[RunHeader],
    groups: Sequence[Group],
    summary: pd.DataFrame,
    rows: pd.DataFrame,
    epochs: pd.DataFrame,
    logs: pd.DataFrame,
    weight: float,
    figures: dict[str, list[FigureFile]],
    usage: pd.DataFrame,
    defense_table: pd.DataFrame | None = None,
    access_table: pd.DataFrame | None = None,
    sections: Sequence[SectionOutput] = (),
) -> list[str]:
    """Write leaderboard, breakdown, surface, epoch, defense, access, token and log tables;
        return file names. The defense table (`defenses.md`, `defenses.csv`) and the access table
        (`access.md`, `access.csv`) are written when they have rows. `sections`, already written
    (`report.sections`), add their Markdown to `report.md` after the epochs."""
    board = tables.leaderboard_frame(summary, runs, weight)
    board.to_csv(out / "leaderboard.csv", index=False)
    board_md = tables.leaderboard_markdown(board, groups, weight)
    (out / "leaderboard.md").write_text(board_md, encoding="utf-8")
    details = tables.breakdown_frame(rows, summary)
    details.to_csv(out / "breakdown.csv", index=False)
    written = ["leaderboard.md", "leaderboard.csv", "breakdown.csv", "logs.csv"]
    report = ["# POLAR-Bench report\n", board_md]
    surfaces = []
    for group in groups:
        mine = summary[summary["group"] == group.name]
        models = list(mine["label"])
        ranks = dict(zip(mine["label"], mine["rank"].astype(int), strict=True))
        if len(groups) > 1:
            report.append(f"## Group {group.name}: figures and breakdowns\n")
        else:
            report.append("## Figures and breakdowns\n")
        report += [
            f"![{md_text(f.title)}]({f.path})\n\n{md_text(f.caption)}\n"
            for f in figures[group.name]
        ]
        report.append(tables.breakdown_markdown(details, group, ranks))
        surfaces.append(tables.surface_markdown(details, group, models))
    epoch_table = log_tables.epochs_frame(epochs, summary)
    if not epoch_table.empty:
        epoch_table.to_csv(out / "epochs.csv", index=False)
        written.append("epochs.csv")
        report.append(log_tables.epochs_markdown(epoch_table))
    report += [section.markdown for section in sections if section.markdown]
    if defense_table is not None and not defense_table.empty:
        defense_table.to_csv(out / "defenses.csv", index=False)
        defense_md = defenses.defense_markdown(defense_table)
        (out / "defenses.md").write_text(defense_md, encoding="utf-8")
        written += ["defenses.md", "defenses.csv"]
        report.append("#" + defense_md)
    if access_table is not None and not access_table.empty:
        access_table.to_csv(out / "access.csv", index=False)
        access_md = access.access_markdown(access_table)
        (out / "access.md").write_text(access_md, encoding="utf-8")
        written += ["access.md", "access.csv"]
        report.append("#" + access_md)
    usage.to_csv(out / "tokens.csv", index=False)
    written.append("tokens.csv")
    report.append(usage_markdown(usage))
    report.append(log_tables.inventory_markdown(logs))
    (out / "surfaces.md").write_text(
        "# Policy x attack surfaces\n\n" + "\n".join(surfaces), encoding="utf-8"
    )
    (out / "report.md").write_text("\n".join(report), encoding="utf-8")
    written[2:2] = ["report.md", "surfaces.md"]
    return written
