"""The leaderboard and the breakdowns sections: each group's ranked table with its setup and
footnotes, ranking and Pareto figures; its surfaces, heatmaps, breakdown tables and per-model
details (`leaderboard.*`, `breakdown.csv`, `surfaces.md`)."""

from __future__ import annotations

import pandas as pd

from polar_inspect.report import tables
from polar_inspect.report.board_notes import leaderboard_notes
from polar_inspect.report.figures import breakdown_figures, leaderboard_figures
from polar_inspect.report.html import render
from polar_inspect.report.markdown import md_text
from polar_inspect.report.paired_section import neighbour_marks, paired_frame
from polar_inspect.report.section import Section, SectionInputs, SectionOutput
from polar_inspect.report.stats import Group
from polar_inspect.scorers.parity import SCORE_KEYS

__all__ = ["BOARD_SECTION", "BREAKDOWN_SECTION", "ranked"]


def ranked(inputs: SectionInputs) -> pd.DataFrame:
    """The summary with its `vs_next` column: is each run distinguishable from the next one
    in its group's ranking (`paired_section.neighbour_marks`)?"""
    marks = neighbour_marks(inputs.once("paired", paired_frame), inputs)
    summary = inputs.summary
    return summary.assign(vs_next=[marks.get(int(r), "") for r in summary["run"]])


def _board(inputs: SectionInputs) -> pd.DataFrame:
    return tables.leaderboard_frame(inputs.once("ranked", ranked), inputs.runs, inputs.weight)


def _board_html(output: SectionOutput, inputs: SectionInputs, group: Group) -> str:
    rows = output.frame[output.frame["group"] == group.name]
    shared, board = tables.leaderboard_view(rows, inputs.weight)
    return render(
        "leaderboard",
        facts=[*tables.setup_facts(group), *shared],
        board=board,
        notes=leaderboard_notes(rows, inputs.weight),
        figures=output.figures.get(group.name, []),
        out=inputs.out,
    )


BOARD_SECTION = Section(
    name="leaderboard",
    title="",
    compute=lambda inputs: inputs.once("board", _board),
    files=lambda frame, inputs: {
        "leaderboard.md": tables.leaderboard_markdown(frame, inputs.groups, inputs.weight),
        "leaderboard.csv": frame,
    },
    figures=leaderboard_figures,
    markdown=lambda frame, inputs: tables.leaderboard_markdown(frame, inputs.groups, inputs.weight),
    group_html=_board_html,
)


def _ranks(inputs: SectionInputs, group: Group) -> dict[str, int]:
    mine = inputs.once("ranked", ranked)
    mine = mine[mine["group"] == group.name]
    return dict(zip(mine["label"], mine["rank"].astype(int), strict=True))


def _surfaces(frame: pd.DataFrame, inputs: SectionInputs) -> str:
    parts = [tables.surface_markdown(frame, g, list(_ranks(inputs, g))) for g in inputs.groups]
    return "# Policy x attack surfaces\n\n" + "\n".join(parts)


def _markdown(frame: pd.DataFrame, inputs: SectionInputs) -> str:
    parts = []
    for group in inputs.groups:
        where = f"Group {group.name}: f" if inputs.many else "F"
        parts.append(f"## {where}igures and breakdowns\n")
        parts += [
            f"![{md_text(f.title)}]({f.path})\n\n{md_text(f.caption)}\n"
            for f in inputs.drawn.get(group.name, [])
        ]
        parts.append(tables.breakdown_markdown(frame, group, _ranks(inputs, group)))
    return "\n".join(parts)


def _model_table(details: pd.DataFrame, model: str) -> tables.TextTable | None:
    """One model's scores by domain, attack and policy (rows) x privacy/utility/overall."""
    mine = details[(details["model"] == model) & (details["axis"] != "cell")]
    if mine.empty:
        return None
    rows, keys = [], []
    for (axis, key), part in mine.groupby(["axis", "key"], sort=False):
        values = part.set_index("score")["value"]
        n = int(part["n"].iloc[0])
        cells = [values.get(s) for s in SCORE_KEYS]
        shown = ("–" if v is None else f"{v:.1f}" for v in cells)
        rows.append([str(axis), tables.key_title(str(axis), str(key)), *shown, str(n)])
        keys.append([str(axis), str(key), *cells, n])
    header = ["Scores by", "Value", "Privacy", "Utility", "Overall", "n"]
    return tables.TextTable(header, rows, keys, numeric=set(header[2:]))


def _models(board: pd.DataFrame, details: pd.DataFrame, output: SectionOutput) -> list[dict]:
    """Each run of a group's board, in rank order: its scores, own figures and table."""
    models = []
    for _, row in board.iterrows():
        model = str(row["model"])
        scores = ", ".join(
            f"{k} {tables.ci_text(row[k], row[f'{k}_ci_low'], row[f'{k}_ci_high'])}"
            for k in SCORE_KEYS
        )
        own = [
            f for f in output.figures.get(str(row["group"]), [])
            if f.kind == "model" and f.model == model
        ]  # fmt: skip
        oracle = row["oracle_reason"] if row.get("oracle") else ""
        table = _model_table(details, model)
        models.append(
            {"rank": row["rank"], "model": model, "scores": scores, "oracle": oracle,
             "figures": own, "table": table}
        )  # fmt: skip
    return models


def _breakdown_html(output: SectionOutput, inputs: SectionInputs, group: Group) -> str:
    board = inputs.once("board", _board)
    board = board[board["group"] == group.name]
    details = output.frame[output.frame["group"] == group.name]
    drawn = output.figures.get(group.name, [])
    return render(
        "breakdowns",
        main=[f for f in drawn if f.kind == "main"],
        heatmaps=[f for f in drawn if f.kind == "breakdown"],
        tables=tables.breakdown_tables(details, _ranks(inputs, group)),
        models=_models(board, details, output),
        out=inputs.out,
    )


BREAKDOWN_SECTION = Section(
    name="breakdowns",
    title="",
    compute=lambda inputs: tables.breakdown_frame(inputs.rows, inputs.once("ranked", ranked)),
    files=lambda frame, inputs: {"surfaces.md": _surfaces(frame, inputs), "breakdown.csv": frame},
    figures=breakdown_figures,
    markdown=_markdown,
    group_html=_breakdown_html,
)
