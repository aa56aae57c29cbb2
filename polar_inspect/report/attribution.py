"""Attribution per attack: when the first leak happens and how much of what the replies repeat
is only an echo of the attacker.

Read from the strict scorer's per-sample metadata (logs written before it existed have none and
are listed as such). Per run and attack strategy: samples with a strict leak, the mean and
median first-leak turn over those samples, the echo share (protected values only echoed, over
values echoed or disclosed) and the mean reasoning-leak rate. The echo share makes S5 live and
replayed comparable: a live attacker that is shown the values gets echoes a replay does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from inspect_ai.log import read_eval_log_samples

from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import md_table

STRICT_SCORER = "polar_strict_scorer"
COLUMNS = [
    "model",
    "attack",
    "samples",
    "leaking_samples",
    "first_leak_turn_mean",
    "first_leak_turn_median",
    "echo_share",
    "reasoning_leak",
    "log",
]


def _rows(run: RunHeader) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for sample in read_eval_log_samples(run.path, all_samples_required=False):
        score = (sample.scores or {}).get(STRICT_SCORER)
        if score is None or not score.metadata:
            continue
        meta = score.metadata
        rows.append(
            {
                "attack": (sample.metadata or {}).get("attack", ""),
                "first_leak_turn": meta.get("first_leak_turn"),
                "leaked": meta.get("leaked_count", 0),
                "echoed": meta.get("echoed_count", 0),
                "reasoning_leak": (score.value or {}).get("reasoning_leak", 0.0)
                if isinstance(score.value, dict)
                else 0.0,
            }
        )
    return rows


def attribution_frame(runs: Sequence[RunHeader]) -> pd.DataFrame:
    """One row per run and attack strategy (runs without strict scores are left out)."""
    out: list[dict[str, object]] = []
    for run in runs:
        frame = pd.DataFrame(_rows(run))
        if frame.empty:
            continue
        for attack, part in frame.groupby("attack", sort=True):
            turns = part["first_leak_turn"].dropna()
            touched = part["leaked"].sum() + part["echoed"].sum()
            out.append(
                {
                    "model": run.label,
                    "attack": attack,
                    "samples": len(part),
                    "leaking_samples": int(turns.size),
                    "first_leak_turn_mean": round(float(turns.mean()), 3) if turns.size else None,
                    "first_leak_turn_median": float(turns.median()) if turns.size else None,
                    "echo_share": round(float(part["echoed"].sum() / touched), 4)
                    if touched
                    else None,
                    "reasoning_leak": round(float(part["reasoning_leak"].mean()), 4),
                    "log": run.path,
                }
            )
    return pd.DataFrame(out, columns=COLUMNS)


def attribution_markdown(frame: pd.DataFrame) -> str:
    """The per-attack attribution table as Markdown (or a note when no log has it)."""
    head = "## Leak attribution per attack (strict detector)\n\n"
    if frame.empty:
        return head + "No log carries strict-scorer attribution (logs older than it).\n"
    header = [
        "Model",
        "Attack",
        "Samples",
        "Leaking",
        "First leak turn (mean / median)",
        "Echo share",
        "Reasoning-only leak",
    ]
    rows = []
    for row in frame.itertuples():
        mean = "-" if row.first_leak_turn_mean is None else f"{row.first_leak_turn_mean:.2f}"
        median = "-" if row.first_leak_turn_median is None else f"{row.first_leak_turn_median:g}"
        echo = "-" if row.echo_share is None else f"{100 * row.echo_share:.1f}%"
        rows.append(
            [
                row.model,
                row.attack,
                row.samples,
                row.leaking_samples,
                f"{mean} / {median}",
                echo,
                f"{100 * row.reasoning_leak:.1f}%",
            ]
        )
    lines = [md_table(header, rows, header[2:])]
    note = (
        "\nEcho share: protected values the replies only repeated after the attacker said "
        "them, over values echoed or disclosed (stated/confirmed).\n"
    )
    return head + "\n".join(lines) + "\n" + note


def write_attribution(out: Path, runs: Sequence[RunHeader]) -> list[str]:
    """Write attribution.csv and append its table to report.md; return the file names."""
    frame = attribution_frame(runs)
    frame.to_csv(out / "attribution.csv", index=False)
    report = out / "report.md"
    if report.exists():
        with report.open("a", encoding="utf-8") as handle:
            handle.write("\n" + attribution_markdown(frame))
    return ["attribution.csv"]
