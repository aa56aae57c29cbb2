"""The report's sections in the order of `report.md`: a new table or figure is a `Section`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from polar_inspect.report import access, attribution, defenses, figures, usage
from polar_inspect.report.board_section import BOARD_SECTION, BREAKDOWN_SECTION
from polar_inspect.report.cross_section import CROSS_SECTION
from polar_inspect.report.html import frame_table, render
from polar_inspect.report.inventory import ORACLE_TAG, Inventory, RunHeader
from polar_inspect.report.leakage import leakage_curves
from polar_inspect.report.markdown import TEXTS, md_bullets, md_table, render_md
from polar_inspect.report.paired_section import PAIRED_SECTION
from polar_inspect.report.section import Planned, Section, SectionInputs, SectionOutput
from polar_inspect.report.stats import Group
from polar_inspect.report.tables import TextTable
from polar_inspect.scorers.parity import SCORE_KEYS


def _figures(output: SectionOutput, inputs: SectionInputs, group: Group) -> str:
    return render("figures", out=inputs.out, figures=output.figures.get(group.name, []))


def epochs_frame(epochs: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """Per-epoch means x100 with the model and group."""
    labels = summary.set_index("run")[["group", "label"]]
    frame = epochs.join(labels, on="run").rename(columns={"label": "model"})
    for key in SCORE_KEYS:
        frame[key] = frame[key].map(lambda value: round(100 * float(value), 6))
    return frame[["group", "model", "epoch", *SCORE_KEYS, "n"]]


def epochs_markdown(frame: pd.DataFrame) -> str:
    """Spread across epochs: per model, min / max / range of each score's epoch means."""
    lines = []
    for (group, model), part in frame.groupby(["group", "model"], sort=False):
        cells = [group, model, str(len(part))]
        for key in SCORE_KEYS:
            low, high = part[key].min(), part[key].max()
            cells.append(f"{low:.1f}–{high:.1f} (range {high - low:.1f})")
        lines.append(cells)
    header = ["Group", "Model", "Epochs", *(f"{k.capitalize()} per epoch" for k in SCORE_KEYS)]
    return "## Spread across epochs (x100)\n\n" + md_table(header, lines, header[2:]) + "\n"


EPOCHS_SECTION = Section(
    name="epochs",
    compute=lambda inputs: epochs_frame(inputs.epochs, inputs.summary),
    files=lambda frame, inputs: {"epochs.csv": frame},
    figures=figures.epochs_figures,
    markdown=lambda frame, inputs: epochs_markdown(frame),
    group_html=_figures,
)


def _compared(
    name: str,
    frame: Callable[[pd.DataFrame, Sequence[RunHeader]], pd.DataFrame],
    compares: Callable[[Sequence[RunHeader], Group], bool],
    rows: Callable[[pd.DataFrame], list[tuple[str, TextTable]]],
    title: str,
    note: str,
    lines: Callable[[pd.DataFrame], list[str]] = lambda mine: [],
    tag: str = "",
    plan: Callable[[pd.DataFrame, SectionInputs], list[Planned]] = lambda frame, inputs: [],
) -> Section:
    """A table of the groups whose runs differ in defense (or access): per group its table of
    `rows`, the `lines` below it (`tag` first in Markdown) and its figures."""

    def compute(inputs: SectionInputs) -> pd.DataFrame:
        table = frame(inputs.summary, inputs.runs)
        kept = {g.name for g in inputs.groups if compares(inputs.runs, g)}
        return table if table.empty else table[table["group"].isin(kept)]

    def markdown(table: pd.DataFrame) -> str:
        shown = rows(table)
        notes = {group: lines(table[table["group"] == group]) for group, _ in shown}
        return render_md("compared", title=title, note=note, tables=shown, notes=notes, tag=tag)

    def html(output: SectionOutput, inputs: SectionInputs, group: Group) -> str:
        if (mine := output.frame[output.frame["group"] == group.name]).empty:
            return ""
        [(_, shown)] = rows(mine)
        return render(
            "defenses",
            title=title,
            note=note,
            shown=shown,
            lines=lines(mine),
            figures=output.figures.get(group.name, []),
            out=inputs.out,
        )

    return Section(
        name=name,
        compute=compute,
        files=lambda frame, inputs: {f"{name}.md": markdown(frame), f"{name}.csv": frame},
        figures=plan,
        markdown=lambda frame, inputs: "#" + markdown(frame),
        group_html=html,
    )


DEFENSE_SECTION = _compared(
    "defenses", defenses.defense_frame, defenses.has_defenses, defenses.defense_rows, "Defenses",
    defenses.DEFENSE_NOTE, defenses.oracle_lines, f"{ORACLE_TAG}: ", figures.defense_figures,
)  # fmt: skip
ACCESS_SECTION = _compared(
    "access", access.access_frame, access.has_access_modes, access.access_rows,
    access.ACCESS_TITLE, access.ACCESS_NOTE,
)  # fmt: skip


def _usage(inputs: SectionInputs) -> pd.DataFrame:
    order = [int(i) for i in inputs.summary["run"]]
    return usage.usage_frame(
        [inputs.runs[i].label for i in order],
        [inputs.runs[i].usage for i in order],
        prices=inputs.prices,
        groups=list(inputs.summary["group"]),
    )


def _usage_html(output: SectionOutput, inputs: SectionInputs) -> str:
    shown, numeric, lines = usage.usage_view(output.frame)
    return render("tokens", shown=frame_table(shown, numeric), lines=lines, hint=usage.PRICES_HINT)


USAGE_SECTION = Section(
    name="tokens",
    title="Tokens and cost",
    compute=_usage,
    files=lambda frame, inputs: {"tokens.csv": frame},
    markdown=lambda frame, inputs: usage.usage_markdown(frame),
    html=_usage_html,
    always=True,
)


def inventory_frame(inventory: Inventory) -> pd.DataFrame:
    """Every file considered, used or skipped, with the reason."""
    rows = [(r.path, r.label, r.task, "used", "", "") for r in inventory.runs]
    rows += [(s.path, s.model, s.task, "skipped", s.reason, s.detail) for s in inventory.skipped]
    return pd.DataFrame(rows, columns=["log", "model", "task", "decision", "reason", "detail"])


def inventory_markdown(frame: pd.DataFrame) -> str:
    """Counts per decision and the list of skipped logs."""
    used = int((frame["decision"] == "used").sum())
    skipped = frame[frame["decision"] == "skipped"]
    text = f"## Logs\n\n{len(frame)} files considered: {used} used, {len(skipped)} skipped.\n"
    if not skipped.empty:
        counts = skipped["reason"].value_counts()
        text += "\n" + md_bullets([f"{reason}: {count}" for reason, count in counts.items()])
        lines = [[r.log, r.model, r.reason, r.detail] for r in skipped.itertuples()]
        text += "\n\n" + md_table(["Log", "Model", "Reason", "Detail"], lines) + "\n"
    return text


def _skipped_html(output: SectionOutput, inputs: SectionInputs) -> str:
    if (skipped := output.frame[output.frame["decision"] == "skipped"]).empty:
        return ""
    frame = skipped[["log", "model", "task", "reason", "detail"]].rename(columns=str.capitalize)
    return render("skipped", shown=frame_table(frame))


LOGS_SECTION = Section(
    name="skipped",
    title="Skipped logs",
    compute=lambda inputs: inputs.logs,
    files=lambda frame, inputs: {"logs.csv": frame},
    markdown=lambda frame, inputs: inventory_markdown(frame),
    html=_skipped_html,
    always=True,
)


def _attribution_html(output: SectionOutput, inputs: SectionInputs) -> str:
    shown = attribution.attribution_table(output.frame)
    return render("attribution", title=attribution.TITLE, shown=shown, note=TEXTS["attribution"])


ATTRIBUTION_SECTION = Section(
    name="attribution",
    title="Leak attribution",
    compute=lambda inputs: attribution.attribution_frame(
        inputs.runs, inputs.samples, inputs.summary
    ),
    files=lambda frame, inputs: {"attribution.csv": frame},
    markdown=lambda frame, inputs: attribution.attribution_markdown(frame),
    html=_attribution_html,
    always=True,
)


LEAKAGE_SECTION = Section(
    name="leakage",
    compute=lambda inputs: leakage_curves(inputs.runs, inputs.samples, inputs.groups),
    files=lambda frame, inputs: {"leakage_by_turn.csv": frame},
    figures=figures.leakage_figures,
    group_html=_figures,
)

SECTIONS: tuple[Section, ...] = (
    BOARD_SECTION,
    BREAKDOWN_SECTION,
    EPOCHS_SECTION,
    PAIRED_SECTION,
    CROSS_SECTION,
    DEFENSE_SECTION,
    ACCESS_SECTION,
    USAGE_SECTION,
    LOGS_SECTION,
    ATTRIBUTION_SECTION,
    LEAKAGE_SECTION,
)
