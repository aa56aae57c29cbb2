"""The report's per-epoch spread and its list of logs (used and skipped), as frames and
Markdown."""

from __future__ import annotations

import pandas as pd

from polar_inspect.report.inventory import Inventory
from polar_inspect.report.markdown import md_bullets, md_table
from polar_inspect.scorers.parity import SCORE_KEYS


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
