"""Access-mode comparison: the same model as a bare model call and as an agent reaching the
document through tools (`access.md` / `access.csv`; docs/agents.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import TEXTS
from polar_inspect.report.oracles import marked_name
from polar_inspect.report.stats import Group, scores_x100
from polar_inspect.report.tables import SCORE_TITLES, Cell, TextTable, count, number, score_cells
from polar_inspect.scorers.agent_channel import AGENT_KEYS
from polar_inspect.scorers.parity import SCORE_KEYS

NO_AGENT = "none"
PAPER_ACCESS = "prompt"
ACCESS_ORDER = {"prompt": 0, "tool": 1, "fields": 2}
ACCESS_TITLE = "Trusted agent and document access"
ACCESS_NOTE = TEXTS["access"]


def setup_key(run: RunHeader) -> tuple[str, str]:
    """How the trusted party was set up: (agent, access mode)."""
    return run.trusted_agent, run.document_access


def has_access_modes(runs: Sequence[RunHeader], group: Group) -> bool:
    """True when the group's runs differ in agent or document access."""
    return len({setup_key(runs[i]) for i in group.runs}) > 1


def _baseline(frame: pd.DataFrame, row: pd.Series) -> pd.Series | None:
    same = frame[
        (frame["group"] == row["group"])
        & (frame["identity"] == row["identity"])
        & (frame["defense"] == row["defense"])
        & (frame["access"] == PAPER_ACCESS)
    ]
    for agent in (NO_AGENT, row["agent"]):
        if not (found := same[same["agent"] == agent]).empty:
            return found.iloc[0]
    return None


def _run_record(row: Any, run: RunHeader) -> dict[str, object]:
    return {
        "group": row.group,
        "model": marked_name(run, run.plain_label or run.base_label or run.label),
        "identity": run.identity,
        "defense": run.defense,
        "agent": run.trusted_agent,
        "access": run.document_access,
        "n": row.n,
        **scores_x100(row),
        **{key: 100 * run.metrics.get(key, {}).get("mean", math.nan) for key in AGENT_KEYS},
    }


def _add_deltas(frame: pd.DataFrame) -> None:
    bases = [_baseline(frame, row) for _, row in frame.iterrows()]
    for key in SCORE_KEYS:
        frame[f"delta_{key}"] = [
            row[key] - base[key] if base is not None and base.name != index else math.nan
            for (index, row), base in zip(frame.iterrows(), bases, strict=True)
        ]


def access_frame(summary: pd.DataFrame, runs: Sequence[RunHeader]) -> pd.DataFrame:
    """One row per run: setup, scores x100 with CIs, deltas against its baseline, agent means."""
    frame = pd.DataFrame([_run_record(row, runs[row.run]) for row in summary.itertuples()])
    if frame.empty:
        return frame
    _add_deltas(frame)
    frame["_paper"] = [
        0 if (a, m) == (NO_AGENT, PAPER_ACCESS) else 1
        for a, m in zip(frame["agent"], frame["access"], strict=True)
    ]
    frame["_access"] = frame["access"].map(lambda mode: ACCESS_ORDER.get(mode, len(ACCESS_ORDER)))
    frame = frame.sort_values(["group", "model", "defense", "_paper", "agent", "_access"])
    return frame.drop(columns=["_paper", "_access", "identity"]).reset_index(drop=True)


def access_rows(frame: pd.DataFrame) -> list[tuple[str, TextTable]]:
    """The access table as text: `(group, table)` per comparison group."""
    header = ["Model", "Defense", "Agent", "Access", "Privacy", "Utility", "Overall",
              "Fetched protected", "Internal leak", "n"]  # fmt: skip
    tables = []
    for group, rows in frame.groupby("group", sort=False):
        lines: list[list[Cell]] = []
        for _, row in rows.iterrows():
            setup = [str(row[c]) for c in ("model", "defense", "agent", "access")]
            channel = [number(row[c], "") for c in ("fetch_protected", "internal_leak")]
            lines.append([*setup, *score_cells(row), *channel, count(row["n"])])
        tables.append((str(group), TextTable(header, lines, header[4:], SCORE_TITLES)))
    return tables
