"""The leaderboard and breakdowns sections (`leaderboard.*`, `breakdown.csv`, `surfaces.md`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from polar_inspect.report import tables
from polar_inspect.report.figures import breakdown_figures, leaderboard_figures
from polar_inspect.report.html import render
from polar_inspect.report.inventory import ORACLE_TAG
from polar_inspect.report.markdown import TEXTS, md_text, render_md
from polar_inspect.report.paired_section import neighbour_marks, paired_frame
from polar_inspect.report.section import Section, SectionInputs, SectionOutput
from polar_inspect.report.stats import Group
from polar_inspect.scorers.parity import SCORE_KEYS


def _caveat_notes(rows: pd.DataFrame) -> list[str]:
    notes = []
    flagged = rows[rows["sampling_caveat"] != ""]
    for caveat, part in flagged.groupby("sampling_caveat", sort=False):
        notes.append(f"† Sampling not as requested for {', '.join(part['model'])}: {caveat}.")
    counted = rows[pd.notna(rows["truncated_samples"])]
    cut = counted[(counted["truncated_samples"] > 0) | (counted["empty_reply_samples"] > 0)]
    if not cut.empty:
        notes.append(TEXTS["truncated"].format(models=", ".join(cut["model"])))
    return notes


def oracle_note(rows: pd.DataFrame) -> str | None:
    """The footnote naming each [ORACLE] run of a table and why it is one (None: no oracle)."""
    if "oracle" not in rows or not rows["oracle"].astype(bool).any():
        return None
    marked = rows[rows["oracle"].astype(bool)]
    mark = f" [{ORACLE_TAG}]"
    why = "; ".join(
        f"{m.replace(mark, '')}: {r}"
        for m, r in zip(marked["model"], marked["oracle_reason"], strict=True)
    )
    return TEXTS["oracle"].format(tag=ORACLE_TAG, why=why)


def neighbour_note(rows: pd.DataFrame) -> list[str]:
    """Which neighbours of a ranking are distinguishable (the `vs_next` column), or none."""
    if "vs_next" not in rows or len(rows) < 2:
        return []
    pairs = [
        f"#{a.rank} {a.model} vs #{b.rank} {b.model}: {a.vs_next}"
        for a, b in zip(rows.itertuples(), rows.iloc[1:].itertuples(), strict=False)
    ]
    return ["Neighbours, paired on the same samples (overall): " + "; ".join(pairs) + "."]


def _listed(rows: pd.DataFrame, column: str) -> str:
    """`model (count)` for each run with a count in `column`, joined."""
    part = rows[rows[column] > 0]
    return ", ".join(f"{m} ({n})" for m, n in zip(part["model"], part[column], strict=True))


def leaderboard_notes(rows: pd.DataFrame, weight: float) -> list[str]:
    """Footnotes of one group's leaderboard (oracles, neighbours, caveats, recomputed...)."""
    oracle = oracle_note(rows)
    notes = [oracle] if oracle else []
    notes += neighbour_note(rows)
    notes += _caveat_notes(rows)
    if not (recomputed := rows[(rows["log_weight"] - weight).abs() > 1e-12]).empty:
        names = ", ".join(
            f"{m} (λ={w:g})"
            for m, w in zip(recomputed["model"], recomputed["log_weight"], strict=True)
        )
        notes.append(TEXTS["recomputed"].format(weight=f"{weight:g}", names=names))
    if errored := _listed(rows, "errors"):
        notes.append(TEXTS["errored"].format(names=errored))
    if (rows["epochs"] > 1).any():
        lost = _listed(rows, "errored_epochs")
        notes.append(
            TEXTS["epochs"].format(errored=f" ({TEXTS['errored_epochs']}: {lost})" * bool(lost))
        )
    return notes


NOT_ONE_RANKING = TEXTS["not_one_ranking"]


def _view(board: pd.DataFrame, group: Group, weight: float) -> dict[str, Any]:
    """One group's leaderboard as shown: its setup facts, table of what differs and footnotes."""
    rows = board[board["group"] == group.name]
    shared, table = tables.leaderboard_view(rows, weight)
    return {
        "name": group.name,
        "facts": [*tables.setup_facts(group), *shared],
        "board": table,
        "notes": leaderboard_notes(rows, weight),
    }


def leaderboard_markdown(board: pd.DataFrame, groups: Sequence[Group], weight: float) -> str:
    """The leaderboard: per group its shared facts, a table of what differs, footnotes."""
    warning = NOT_ONE_RANKING.format(count=len(groups)) if len(groups) > 1 else ""
    shown = [_view(board, group, weight) for group in groups]
    return render_md("leaderboard", weight=f"{weight:g}", warning=warning, groups=shown)


def ranked(inputs: SectionInputs) -> pd.DataFrame:
    """The summary with `vs_next`: is each run distinguishable from the next in its group?"""
    marks = neighbour_marks(inputs.once("paired", paired_frame), inputs)
    summary = inputs.summary
    return summary.assign(vs_next=[marks.get(int(r), "") for r in summary["run"]])


def _board(inputs: SectionInputs) -> pd.DataFrame:
    return tables.leaderboard_frame(inputs.once("ranked", ranked), inputs.runs, inputs.weight)


def _board_html(output: SectionOutput, inputs: SectionInputs, group: Group) -> str:
    figures = output.figures.get(group.name, [])
    view = _view(output.frame, group, inputs.weight)
    return render("leaderboard", **view, figures=figures, out=inputs.out)


BOARD_SECTION = Section(
    name="leaderboard",
    compute=lambda inputs: inputs.once("board", _board),
    files=lambda frame, inputs: {
        "leaderboard.md": leaderboard_markdown(frame, inputs.groups, inputs.weight),
        "leaderboard.csv": frame,
    },
    figures=leaderboard_figures,
    markdown=lambda frame, inputs: leaderboard_markdown(frame, inputs.groups, inputs.weight),
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
    rows: list[list[tables.Cell]] = []
    for (axis, key), part in mine.groupby(["axis", "key"], sort=False):
        values = part.set_index("score")["value"]
        scores = [tables.number(values.get(s)) for s in SCORE_KEYS]
        title = tables.key_title(str(axis), str(key))
        rows.append([str(axis), title, *scores, tables.count(part["n"].iloc[0])])
    header = ["Scores by", "Value", "Privacy", "Utility", "Overall", "n"]
    return tables.TextTable(header, rows, header[2:])


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
        models.append(
            {"rank": row["rank"], "model": model, "scores": scores, "oracle": oracle,
             "figures": own, "table": _model_table(details, model)}
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
    compute=lambda inputs: tables.breakdown_frame(inputs.rows, inputs.once("ranked", ranked)),
    files=lambda frame, inputs: {"surfaces.md": _surfaces(frame, inputs), "breakdown.csv": frame},
    figures=breakdown_figures,
    markdown=_markdown,
    group_html=_breakdown_html,
)
