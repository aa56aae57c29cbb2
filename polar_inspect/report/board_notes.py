"""The footnotes under a group's leaderboard (Markdown and page alike): oracle runs,
distinguishable neighbours, sampling caveats, truncated replies, recomputed overall, errored
samples and epochs."""

from __future__ import annotations

import pandas as pd

from polar_inspect.report.inventory import ORACLE_TAG

__all__ = ["leaderboard_notes", "limits_cell", "neighbour_note", "oracle_note"]


def _count(value: object) -> str:
    return "–" if value is None or pd.isna(value) else str(int(value))  # type: ignore[arg-type, call-overload]


def limits_cell(row: pd.Series) -> str:
    """`truncated / empty` sample counts, `–` for logs that did not count them."""
    return f"{_count(row['truncated_samples'])} / {_count(row['empty_reply_samples'])}"


def _caveat_notes(rows: pd.DataFrame) -> list[str]:
    notes = []
    flagged = rows[rows["sampling_caveat"] != ""]
    for caveat, part in flagged.groupby("sampling_caveat", sort=False):
        notes.append(f"† Sampling not as requested for {', '.join(part['model'])}: {caveat}.")
    counted = rows[pd.notna(rows["truncated_samples"])]
    cut = counted[(counted["truncated_samples"] > 0) | (counted["empty_reply_samples"] > 0)]
    if not cut.empty:
        notes.append(
            "Truncated / empty: samples with a trusted reply that hit the output-token limit / "
            "with an empty visible reply (e.g. cut inside <think>). They are scored as they are "
            "(an empty reply leaks nothing): raise --max-tokens, or run with -T truncated=fail. "
            f"Affected: {', '.join(cut['model'])}."
        )
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
    return (
        f"[{ORACLE_TAG}] runs read the scorer's targets: their scores are reference upper "
        f"bounds, not results a deployed model or defense could reach ({why})."
    )


def neighbour_note(rows: pd.DataFrame) -> list[str]:
    """The note saying which neighbours of a ranking are distinguishable (the `vs_next`
    column of the paired comparisons), or none."""
    if "vs_next" not in rows or len(rows) < 2:
        return []
    pairs = [
        f"#{a.rank} {a.model} vs #{b.rank} {b.model}: {a.vs_next}"
        for a, b in zip(rows.itertuples(), rows.iloc[1:].itertuples(), strict=False)
    ]
    return ["Neighbours, paired on the same samples (overall): " + "; ".join(pairs) + "."]


def leaderboard_notes(rows: pd.DataFrame, weight: float) -> list[str]:
    """Footnotes of one group's leaderboard: oracle runs, distinguishable neighbours, sampling
    caveats, truncated replies, recomputed overall, errored samples, epochs."""
    oracle = oracle_note(rows)
    notes = [oracle] if oracle else []
    notes += neighbour_note(rows)
    notes += _caveat_notes(rows)
    recomputed = rows[(rows["log_weight"] - weight).abs() > 1e-12]
    if not recomputed.empty:
        names = ", ".join(
            f"{m} (λ={w:g})"
            for m, w in zip(recomputed["model"], recomputed["log_weight"], strict=True)
        )
        notes.append(
            f"Overall recomputed at λ = {weight:g} from privacy and utility for logs scored "
            f"with another λ: {names}."
        )
    errored = rows[rows["errors"] > 0]
    if not errored.empty:
        names = ", ".join(
            f"{m} ({e})" for m, e in zip(errored["model"], errored["errors"], strict=True)
        )
        notes.append(
            f"Samples that errored are left out of the scores (n counts scored samples): {names}."
        )
    if (rows["epochs"] > 1).any():
        notes.append("Logs with several epochs: each sample's score is its mean over epochs.")
    return notes
