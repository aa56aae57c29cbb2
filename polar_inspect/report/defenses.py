"""Defense comparison: each model's runs under different defense stacks against its `none` run
(`defenses.md` / `defenses.csv` and `defense_frontier*.png`; docs/report/README.md, whose
"ORACLE runs" says how oracle agents and oracle defense stacks are marked).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes

from polar_inspect.report.figstyle import (
    FigureFile,
    mark_spread,
    new_figure,
    run_marker,
    save,
    shifted,
    spread_offsets,
    wrap_label,
)
from polar_inspect.report.inventory import ORACLE_TAG, RunHeader
from polar_inspect.report.markdown import TEXTS
from polar_inspect.report.oracles import MARK, agent_is_oracle, defense_is_oracle, oracle_reasons
from polar_inspect.report.stats import Group, scores_x100
from polar_inspect.report.tables import SCORE_TITLES, Cell, TextTable, count, number, score_cells
from polar_inspect.report.usage import tokens_per_sample
from polar_inspect.scorers.parity import SCORE_KEYS

NO_DEFENSE = "none"


def has_defenses(runs: Sequence[RunHeader], group: Group) -> bool:
    """True when the group's runs use more than one defense stack."""
    return len({runs[i].defense for i in group.runs}) > 1


def _run_record(row: Any, run: RunHeader) -> dict[str, object]:
    reasons = oracle_reasons(run)
    model = run.base_label or run.label
    return {
        "group": row.group,
        "model": f"{model} {MARK}" if agent_is_oracle(run) and MARK not in model else model,
        "identity": run.identity,
        "defense": run.defense,
        "oracle": bool(reasons),
        "defense_oracle": defense_is_oracle(run),
        "oracle_reason": "; ".join(reasons),
        "n": row.n,
        **scores_x100(row),
        **tokens_per_sample(run.usage, row.n),
    }


def defense_frame(summary: pd.DataFrame, runs: Sequence[RunHeader]) -> pd.DataFrame:
    """One row per run: scores x100 with CIs and deltas against the model's `none` run."""
    frame = pd.DataFrame([_run_record(row, runs[row.run]) for row in summary.itertuples()])
    if frame.empty:
        return frame
    # With `keep="all"` a model may have several `none` runs: the best-ranked one is the baseline.
    baseline = frame[frame["defense"] == NO_DEFENSE].drop_duplicates(["group", "identity"])
    keys = pd.MultiIndex.from_frame(frame[["group", "identity"]])
    for key in SCORE_KEYS:
        base = baseline.set_index(["group", "identity"])[key].reindex(keys)
        frame[f"delta_{key}"] = frame[key] - base.to_numpy(dtype=float)
    frame["_first"] = frame["defense"] != NO_DEFENSE
    frame = frame.sort_values(["group", "model", "_first", "defense"], kind="stable")
    return frame.drop(columns=["_first", "identity"]).reset_index(drop=True)


DEFENSE_NOTE = TEXTS["defenses"].format(none=NO_DEFENSE, tag=ORACLE_TAG)
ROLE_TITLES = {"trusted": "trusted model", "other": "other models"}


def _used_roles(rows: pd.DataFrame) -> list[str]:
    """The roles that used tokens in some of `rows`, the trusted model first."""
    columns = [c for c in rows if c.startswith("tokens_per_sample_") and rows[c].notna().any()]
    roles = [c.removeprefix("tokens_per_sample_") for c in columns]
    return sorted(roles, key=lambda role: (role != "trusted", role))


def defense_rows(frame: pd.DataFrame) -> list[tuple[str, TextTable]]:
    """The defense table as text (`(group, table)` per group), for Markdown and the page."""
    tables = []
    for group, rows in frame.groupby("group", sort=False):
        roles = _used_roles(rows)
        titles = [f"Tokens per sample: {ROLE_TITLES.get(role, role)}" for role in roles]
        header = ["Model", "Defense", "Privacy", "Utility", "Overall", "n", *titles]
        lines: list[list[Cell]] = []
        for _, row in rows.iterrows():
            oracle = row.get("defense_oracle", row["oracle"])  # older defenses.csv: no column
            defense = f"{row['defense']} ({ORACLE_TAG})" if oracle else row["defense"]
            tokens = [row.get(f"tokens_per_sample_{role}", math.nan) for role in roles]
            scores = score_cells(row, delta=row["defense"] != NO_DEFENSE)
            shown = [str(row["model"]), str(defense), *scores, count(row["n"])]
            lines.append([*shown, *(number(t, "", 0) for t in tokens)])
        tables.append((str(group), TextTable(header, lines, header[2:], SCORE_TITLES)))
    return tables


def oracle_lines(frame: pd.DataFrame) -> list[str]:
    """Why each ORACLE row of the defense table is one (`model + defense: reason`)."""
    marked = frame[frame["oracle"].astype(bool)]
    return [
        f"{str(row['model']).removesuffix(' ' + MARK)} + {row['defense']}: {row['oracle_reason']}"
        for _, row in marked.iterrows()
    ]


MARKERS = "os^Dv<>pPXhHd8"
TOLERANCE = 0.015 * 106
ARROW = {"arrowstyle": "-|>", "alpha": 0.7, "shrinkA": 7, "shrinkB": 7, "mutation_scale": 14}


def _draw_model(
    ax: Axes, frame: pd.DataFrame, model: str, colour: Any, markers: dict[str, str],
    offsets: list[tuple[float, float]],
) -> None:  # fmt: skip
    """One model's points, and an arrow from its `none` point to each defense that moved it."""
    rows = frame[frame["model"] == model]
    base = rows[rows["defense"] == NO_DEFENSE]
    start = base.index[0] if not base.empty else None
    for position, row in rows.iterrows():
        oracle = bool(row["oracle"])
        here = shifted(ax, offsets[frame.index.get_loc(position)])
        ax.plot(row["privacy"], row["utility"], markersize=10, linestyle="none",
                zorder=4 if oracle else 3, transform=here,
                **run_marker(markers[row["defense"]], colour, oracle))  # fmt: skip
        if start is None or row["defense"] == NO_DEFENSE:
            continue
        origin = (frame.at[start, "privacy"], frame.at[start, "utility"])
        if math.hypot(row["privacy"] - origin[0], row["utility"] - origin[1]) > TOLERANCE:
            ax.annotate("", xy=(row["privacy"], row["utility"]), xycoords=here, xytext=origin,
                        textcoords=shifted(ax, offsets[frame.index.get_loc(start)]),
                        arrowprops={**ARROW, "color": colour}, zorder=2)  # fmt: skip


def frontier_figure(frame: pd.DataFrame, out_dir: Path, name: str, heading: str) -> FigureFile:
    """Privacy against utility, one point per model x defense, arrows from each `none`."""
    fig = new_figure(11, 7)
    ax = fig.add_subplot(1, 1, 1)
    defenses = list(dict.fromkeys(frame["defense"]))
    markers = {d: MARKERS[i % len(MARKERS)] for i, d in enumerate(defenses)}
    palette = colormaps["tab10"]
    points = list(zip(frame["privacy"], frame["utility"], strict=True))
    offsets = spread_offsets(points, TOLERANCE, marker_points=10.0)
    for index, model in enumerate(dict.fromkeys(frame["model"])):
        colour = palette(index % palette.N)
        _draw_model(ax, frame, model, colour, markers, offsets)
        ax.plot([], [], color=colour, linewidth=3, label=wrap_label(model, 40))
    for defense, marker in markers.items():
        ax.plot([], [], marker=marker, color="grey", linestyle="none", label=defense)
    if frame["oracle"].astype(bool).any():
        label = f"hollow: {ORACLE_TAG} run (reads the scorer's targets)"
        ax.plot([], [], marker="o", markerfacecolor="white", markeredgecolor="grey",
                markeredgewidth=2.2, linestyle="none", label=label)  # fmt: skip
    if spread := mark_spread(ax, points, offsets):
        label = "shared position of the runs\nspread around it"
        ax.plot([], [], marker="o", markersize=3.5, color="black", linestyle="none", label=label)
    pad = 3.0 + (max((abs(c) for o in offsets for c in o), default=0.0) + 6.0) / 4.0
    ax.set_xlim(-pad, 100 + pad)
    ax.set_ylim(-pad, 100 + pad)
    ax.set_xlabel("Privacy (x100): share of protected values withheld")
    ax.set_ylabel("Utility (x100): share of task values shared")
    ax.grid(alpha=0.3)
    ax.set_title(f"{heading}: defenses (arrows from no defense)", loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False)
    caption = TEXTS["frontier_caption"].format(tag=ORACLE_TAG)
    caption += TEXTS["spread_caption"] if spread else ""
    return save(fig, out_dir, name, f"{heading}: defense frontier", caption)
