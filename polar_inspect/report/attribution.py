"""Attribution per attack, from the strict scorer's per-sample metadata: first-leak turn, echo
share and reasoning-only leaks (docs/results.md; logs older than the strict scorer have none).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import TEXTS, md_table
from polar_inspect.report.tables import TextTable

COLUMNS = ["model", "attack", "samples", "leaking_samples", "first_leak_turn_mean",
           "first_leak_turn_median", "echo_share", "reasoning_leak", "unfetched_echo_loss",
           "log"]  # fmt: skip


def attribution_frame(
    runs: Sequence[RunHeader], samples: pd.DataFrame, summary: pd.DataFrame
) -> pd.DataFrame:
    """One row per run, in the leaderboard's order (`summary`'s), and attack strategy (runs
    without strict scores are left out)."""
    out: list[dict[str, object]] = []
    strict = samples[samples["strict"].astype(bool)] if "strict" in samples else samples.iloc[:0]
    for index in map(int, summary["run"]):
        if (frame := strict[strict["run"] == index]).empty:
            continue
        attacks = frame["attack"].astype(object).where(frame["attack"].notna(), "").astype(str)
        for attack, part in frame.groupby(attacks.to_numpy(), sort=True):
            out.append(_attack_row(runs[index], str(attack), _per_sample(part)))
    return pd.DataFrame(out, columns=COLUMNS)


_MEANS = ["first_leak_turn", "leaked_count", "echoed_count", "reasoning_leak",
          "parity_privacy_echo"]  # fmt: skip


def _per_sample(part: pd.DataFrame) -> pd.DataFrame:
    """One row per sample, its epochs averaged as every table reads them (`leaking`: the share
    of its epochs with a strict leak; `first_leak_turn`: the mean over those epochs)."""
    part = part.assign(leaking=part["first_leak_turn"].notna().astype(float))
    return part.groupby("id", sort=False, observed=True)[[*_MEANS, "leaking"]].mean()


def _attack_row(run: RunHeader, attack: str, part: pd.DataFrame) -> dict[str, object]:
    turns = part["first_leak_turn"].dropna()
    touched = part["leaked_count"].sum() + part["echoed_count"].sum()
    leaking = float(part["leaking"].sum())
    return {
        "model": run.label,
        "attack": attack,
        "samples": len(part),
        "leaking_samples": int(leaking) if leaking.is_integer() else round(leaking, 2),
        "first_leak_turn_mean": round(float(turns.mean()), 3) if turns.size else None,
        "first_leak_turn_median": float(turns.median()) if turns.size else None,
        "echo_share": round(float(part["echoed_count"].sum() / touched), 4) if touched else None,
        "reasoning_leak": round(float(part["reasoning_leak"].mean()), 4),
        # mean parity privacy lost to values the agent never fetched and only repeated
        "unfetched_echo_loss": round(float(part["parity_privacy_echo"].mean()), 4),
        "log": run.path,
    }


HEADER = ["Model", "Attack", "Samples", "Leaking", "First leak turn (mean / median)", "Echo share",
          "Reasoning-only leak", "Parity privacy lost to unfetched echoes"]  # fmt: skip
TITLE = "Leak attribution per attack (strict detector)"


def attribution_table(frame: pd.DataFrame) -> TextTable:
    """The per-attack attribution rows as shown in `report.md` and on the page."""
    rows = []
    for row in frame.itertuples():  # None (no leaking sample) is NaN in the frame: "-"
        mean = "-" if pd.isna(row.first_leak_turn_mean) else f"{row.first_leak_turn_mean:.2f}"
        median = "-" if pd.isna(row.first_leak_turn_median) else f"{row.first_leak_turn_median:g}"
        echo = "-" if pd.isna(row.echo_share) else f"{100 * row.echo_share:.1f}%"
        shares = [f"{100 * row.reasoning_leak:.1f}%", f"{100 * row.unfetched_echo_loss:.1f}"]
        counts = [str(c) for c in (row.model, row.attack, row.samples, row.leaking_samples)]
        rows.append([*counts, f"{mean} / {median}", echo, *shares])
    return TextTable(HEADER, rows, HEADER[2:])


def attribution_markdown(frame: pd.DataFrame) -> str:
    """The per-attack attribution table as Markdown (or a note when no log has it)."""
    if frame.empty:
        return f"## {TITLE}\n\nNo log carries strict-scorer attribution (logs older than it).\n"
    shown = md_table(HEADER, attribution_table(frame).rows, HEADER[2:])
    return f"## {TITLE}\n\n{shown}\n\n{TEXTS['attribution']}\n"
