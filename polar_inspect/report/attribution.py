"""Attribution per attack: when the first leak happens and how much of what the replies repeat
is only an echo of the attacker.

Read from the strict scorer's per-sample metadata (its scalar keys, kept in the sample
summaries and the header's reduced scores) (logs written before it existed have none and
are listed as such). Per run and attack strategy: samples with a strict leak, the mean and
median first-leak turn over those samples, the echo share (protected values only echoed, over
values echoed or disclosed) and the mean reasoning-leak rate. The echo share makes S5 live and
replayed comparable: a live attacker that is shown the values gets echoes a replay does not.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import md_table

COLUMNS = ["model", "attack", "samples", "leaking_samples", "first_leak_turn_mean",
           "first_leak_turn_median", "echo_share", "reasoning_leak", "unfetched_echo_loss",
           "log"]  # fmt: skip


def attribution_frame(runs: Sequence[RunHeader], samples: pd.DataFrame) -> pd.DataFrame:
    """One row per run and attack strategy (runs without strict scores are left out).

    `samples` is the report's sample frame (`run` = position in `runs`); its strict columns
    come from the sample summaries or the header's reduced scores, never from the messages.
    """
    out: list[dict[str, object]] = []
    strict = samples[samples["strict"].astype(bool)] if "strict" in samples else samples.iloc[:0]
    for index, run in enumerate(runs):
        frame = strict[strict["run"] == index]
        if frame.empty:
            continue
        attacks = frame["attack"].astype(object).where(frame["attack"].notna(), "").astype(str)
        for attack, part in frame.groupby(attacks.to_numpy(), sort=True):
            out.append(_attack_row(run, str(attack), part))
    return pd.DataFrame(out, columns=COLUMNS)


def _attack_row(run: RunHeader, attack: str, part: pd.DataFrame) -> dict[str, object]:
    turns = part["first_leak_turn"].dropna()
    touched = part["leaked_count"].sum() + part["echoed_count"].sum()
    return {
        "model": run.label,
        "attack": attack,
        "samples": len(part),
        "leaking_samples": int(turns.size),
        "first_leak_turn_mean": round(float(turns.mean()), 3) if turns.size else None,
        "first_leak_turn_median": float(turns.median()) if turns.size else None,
        "echo_share": round(float(part["echoed_count"].sum() / touched), 4) if touched else None,
        "reasoning_leak": round(float(part["reasoning_leak"].mean()), 4),
        # mean parity privacy lost to values the agent never fetched and only repeated
        "unfetched_echo_loss": round(float(part["parity_privacy_echo"].mean()), 4),
        "log": run.path,
    }


def attribution_markdown(frame: pd.DataFrame) -> str:
    """The per-attack attribution table as Markdown (or a note when no log has it)."""
    head = "## Leak attribution per attack (strict detector)\n\n"
    if frame.empty:
        return head + "No log carries strict-scorer attribution (logs older than it).\n"
    header = ["Model", "Attack", "Samples", "Leaking", "First leak turn (mean / median)",
              "Echo share", "Reasoning-only leak",
              "Parity privacy lost to unfetched echoes"]  # fmt: skip
    rows = []
    for row in frame.itertuples():
        mean = "-" if row.first_leak_turn_mean is None else f"{row.first_leak_turn_mean:.2f}"
        median = "-" if row.first_leak_turn_median is None else f"{row.first_leak_turn_median:g}"
        echo = "-" if row.echo_share is None else f"{100 * row.echo_share:.1f}%"
        shares = [f"{100 * row.reasoning_leak:.1f}%", f"{100 * row.unfetched_echo_loss:.1f}"]
        counts = [row.model, row.attack, row.samples, row.leaking_samples]
        rows.append([*counts, f"{mean} / {median}", echo, *shares])
    lines = [md_table(header, rows, header[2:])]
    note = (
        "\nEcho share: protected values the replies only repeated after the attacker said "
        "them, over values echoed or disclosed (stated/confirmed). Parity privacy lost to "
        "unfetched echoes (x100 points): with the document behind tools, values the agent never "
        "fetched and only repeated from the attacker, which the paper's matcher counts as "
        "disclosed (docs/scoring.md).\n"
    )
    return head + "\n".join(lines) + "\n" + note
