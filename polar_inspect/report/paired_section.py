"""The paired comparisons section (`paired.csv`) and the leaderboard's "vs next" mark."""

from __future__ import annotations

import pandas as pd

from polar_inspect.report.html import render
from polar_inspect.report.markdown import TEXTS, md_text
from polar_inspect.report.paired import PAIRED_COLUMNS, compare_pair
from polar_inspect.report.section import Section, SectionInputs, SectionOutput
from polar_inspect.report.tables import Cell, TextTable, count

NOTE = TEXTS["paired"]
NOT_PAIRED = "not paired (different samples)"
HEADER = ["Group", "A", "B", "n", "Score", "A − B [95% CI]", "p", "Distinguishable", "Cells"]


def _neighbours(inputs: SectionInputs) -> list[tuple[str, int, int]]:
    """(group, run A, run B) for every two runs adjacent in a group's ranking."""
    pairs = []
    for group in inputs.groups:
        order = [int(r) for r in inputs.summary.loc[inputs.summary["group"] == group.name, "run"]]
        pairs += [(group.name, a, b) for a, b in zip(order, order[1:], strict=False)]
    return pairs


def paired_frame(inputs: SectionInputs) -> pd.DataFrame:
    """`paired.compare_pair` of every neighbour pair on the same samples, with group."""
    parts = [
        compare_pair(inputs.reduced, a, b).assign(group=name) for name, a, b in _neighbours(inputs)
    ]
    parts = [part for part in parts if not part.empty]
    if not parts:
        return pd.DataFrame(columns=["group", *PAIRED_COLUMNS])
    return pd.concat(parts, ignore_index=True)[["group", *PAIRED_COLUMNS]]


def p_text(p_value: float) -> str:
    """A p-value as shown: three decimals, `<0.001` below."""
    return "<0.001" if p_value < 0.001 else f"{p_value:.3f}"


def _csv(frame: pd.DataFrame, inputs: SectionInputs) -> dict[str, pd.DataFrame]:
    labels = inputs.summary.set_index("run")["label"]
    table = frame.assign(model_a=frame["run_a"].map(labels), model_b=frame["run_b"].map(labels))
    for column in ("mean_a", "mean_b", "difference", "low", "high"):
        table[column] = (100 * table[column]).round(6)
    return {"paired.csv": table[["group", "model_a", "model_b", *PAIRED_COLUMNS[2:]]]}


def _cells_text(frame: pd.DataFrame, row: pd.Series) -> str:
    cells = frame[
        (frame["run_a"] == row["run_a"])
        & (frame["run_b"] == row["run_b"])
        & (frame["score"] == row["score"])
        & (frame["scope"] != "all")
    ]
    return f"{int(cells['distinguishable'].sum())} of {len(cells)}"


def paired_view(frame: pd.DataFrame, inputs: SectionInputs) -> TextTable:
    """The overall-scope rows of the paired comparisons as shown."""
    labels = inputs.summary.set_index("run")["label"]
    overall = frame[frame["scope"] == "all"]
    rows: list[list[Cell]] = []
    for _, r in overall.iterrows():
        interval = f"{100 * r['difference']:+.1f} [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
        verdict = "yes" if r["distinguishable"] else "no"
        pair: list[Cell] = [str(r["group"]), str(labels[r["run_a"]]), str(labels[r["run_b"]])]
        shown: list[Cell] = [
            count(r["n"]),
            str(r["score"]),
            (interval, 100 * float(r["difference"])),
        ]
        p_value = (p_text(r["p_value"]), float(r["p_value"]))
        rows.append([*pair, *shown, p_value, verdict, _cells_text(frame, r)])
    return TextTable(HEADER, rows, numeric={"n", "A − B [95% CI]", "p"}, nowrap={"A − B [95% CI]"})


def _markdown(frame: pd.DataFrame, inputs: SectionInputs) -> str:
    table = paired_view(frame, inputs).markdown()
    return f"## Paired comparisons (neighbours in the ranking)\n\n{md_text(NOTE)}\n\n{table}\n"


def _html(output: SectionOutput, inputs: SectionInputs) -> str:
    return render("paired", note=NOTE, shown=paired_view(output.frame, inputs))


def neighbour_marks(frame: pd.DataFrame, inputs: SectionInputs) -> dict[int, str]:
    """Per run with a next run in its ranking: distinguishable on overall, with p."""
    overall = frame[(frame["scope"] == "all") & (frame["score"] == "overall")]
    found = {(int(r.run_a), int(r.run_b)): r for r in overall.itertuples(index=False)}
    marks = {}
    for _, a, b in _neighbours(inputs):
        if (row := found.get((a, b))) is None:
            marks[a] = NOT_PAIRED
            continue
        verdict = "distinguishable" if row.distinguishable else "not distinguishable"
        p_value = p_text(float(row.p_value))
        marks[a] = f"{verdict} (p{'' if p_value.startswith('<') else '='}{p_value})"
    return marks


PAIRED_SECTION = Section(
    name="paired",
    title="Paired comparisons",
    compute=lambda inputs: inputs.once("paired", paired_frame),
    files=_csv,
    markdown=_markdown,
    html=_html,
)
