"""Tables as data frames (x100) and their Markdown rendering."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import pandas as pd

from polar_inspect.axes import ATTACK_LABELS, POLICY_LABELS
from polar_inspect.report.inventory import Inventory, RunHeader
from polar_inspect.report.stats import Group
from polar_inspect.report.usage import role_totals
from polar_inspect.scorers.parity import SCORE_KEYS

CSV_DECIMALS = 6


def _x100(value: float) -> float:
    return round(100 * float(value), CSV_DECIMALS)


def format_args(args: dict[str, object]) -> str:
    """Task arguments other than `data` (a column of its own) as `k=v; k=v`, or `defaults`."""
    shown = {k: v for k, v in args.items() if k != "data"}
    if not shown:
        return "defaults"
    return "; ".join(f"{k}={v}" for k, v in shown.items())


def leaderboard_frame(
    summary: pd.DataFrame, runs: Sequence[RunHeader], weight: float
) -> pd.DataFrame:
    """The leaderboard as CSV columns: group, rank, model, scores x100 with CI bounds, ..."""
    rows = []
    for row in summary.itertuples():
        run = runs[row.run]
        record: dict[str, object] = {"group": row.group, "rank": row.rank, "model": row.label}
        for key in SCORE_KEYS:
            for suffix in ("", "_low", "_high"):
                value = getattr(row, key + suffix)
                name = key + {"": "", "_low": "_ci_low", "_high": "_ci_high"}[suffix]
                record[name] = _x100(value) if value == value else None
        record.update(
            weight=weight,
            log_weight=run.weight,
            n=row.n,
            errors=row.errors,
            epochs=row.epochs,
            s5_attacker=run.s5_attacker,
            prompt=run.prompt,
            sampling=run.sampling,
            sampling_caveat=run.sampling_caveat or "",
            attacker_sampling=run.attacker_sampling or "",
            truncated_samples=run.truncated_samples,
            empty_reply_samples=run.empty_samples,
            data_source=run.data.describe(),
            data_path=run.data.path,
            data_kind=run.data.kind,
            data_sha256=run.data.sha256,
            task=run.task,
            task_args=format_args(run.task_args),
            task_args_json=json.dumps(run.task_args, sort_keys=True, default=str),
            created=run.created.isoformat(),
            log=run.path,
            defense=run.defense,
            defense_oracle=run.defense_oracle,
        )
        n = row.n or math.nan
        totals = sorted(role_totals(run.usage).items())
        record.update({f"tokens_per_sample_{r}": t / n for r, t in totals})
        rows.append(record)
    return pd.DataFrame(rows)


def _with_ci(row: pd.Series, key: str) -> str:
    value, low, high = row[key], row[f"{key}_ci_low"], row[f"{key}_ci_high"]
    if low is None or pd.isna(low):
        return f"{value:.1f}"
    return f"{value:.1f} [{low:.1f}, {high:.1f}]"


def _md_table(header: list[str], lines: list[list[str]]) -> str:
    def escape(cell: str) -> str:
        return str(cell).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(escape(c) for c in line) + " |" for line in lines]
    return "\n".join(out)


def group_heading(group: Group, many: bool) -> str:
    """Markdown heading and setup bullets of one comparison group."""
    title = f"### Group {group.name}" if many else "### Setup"
    return title + "\n\n" + "\n".join(f"- {line}" for line in group.description)


def comparability_note(groups: Sequence[Group]) -> str:
    """A warning when runs fall into several groups that must not be ranked together."""
    if len(groups) <= 1:
        return ""
    return (
        f"> **Not one ranking.** These logs form {len(groups)} groups that differ in data, "
        "sample selection or S5 attacker. Each group is ranked on its own; do not compare "
        "ranks or scores across groups.\n"
    )


def leaderboard_markdown(board: pd.DataFrame, groups: Sequence[Group], weight: float) -> str:
    """The leaderboard, one ranked table per comparison group."""
    parts = [
        f"## Leaderboard (x100; overall at λ = {weight:g}; 95% confidence intervals)\n",
        comparability_note(groups),
    ]
    header = [
        "#",
        "Model",
        "Privacy",
        "Utility",
        f"Overall (λ={weight:g})",
        "n",
        "Errors",
        "S5 attacker",
        "Data",
        "Task args",
        "Truncated / empty",
        "Prompt",
        "Sampling",
    ]
    for group in groups:
        rows = board[board["group"] == group.name]
        lines = [
            [
                str(r["rank"]),
                r["model"] + (" †" if r["sampling_caveat"] else ""),
                _with_ci(r, "privacy"),
                _with_ci(r, "utility"),
                _with_ci(r, "overall"),
                str(r["n"]),
                str(r["errors"]),
                r["s5_attacker"],
                r["data_source"],
                r["task_args"],
                limits_cell(r),
                r["prompt"],
                r["sampling"],
            ]
            for _, r in rows.iterrows()
        ]
        parts += [group_heading(group, len(groups) > 1), "", _md_table(header, lines), ""]
        parts += [note + "\n" for note in leaderboard_notes(rows, weight)]
    return "\n".join(parts)


def _count(value: object) -> str:
    return "–" if value is None or pd.isna(value) else str(int(value))  # type: ignore[arg-type]


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


def leaderboard_notes(rows: pd.DataFrame, weight: float) -> list[str]:
    """Footnotes of one group's leaderboard: sampling caveats, truncated replies, recomputed
    overall, errored samples, epochs."""
    notes = _caveat_notes(rows)
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


def breakdown_frame(rows: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """The breakdowns as CSV columns: group, model, axis, key, score, value x100, n."""
    labels = summary.set_index("run")[["group", "label"]]
    frame = rows.join(labels, on="run")
    frame["value"] = frame["value"].map(lambda v: _x100(v) if v == v else None)
    frame = frame.rename(columns={"label": "model"})
    return frame[["group", "model", "axis", "key", "score", "value", "n"]]


def _key_title(axis: str, key: str) -> str:
    if axis == "attack":
        return f"{key} {ATTACK_LABELS.get(key, '')}".strip()
    if axis == "policy":
        return f"{key} {POLICY_LABELS.get(key, '')}".strip()
    return key


def breakdown_markdown(frame: pd.DataFrame, group: Group, models: list[str]) -> str:
    """Model x key tables for domain, attack and policy, one per score, for one group."""
    parts = []
    data = frame[frame["group"] == group.name]
    for axis in ("domain", "attack", "policy"):
        for score in SCORE_KEYS:
            part = data[(data["axis"] == axis) & (data["score"] == score)]
            if part.empty:
                continue
            keys = list(dict.fromkeys(part["key"]))
            table = part.pivot_table(index="model", columns="key", values="value", aggfunc="first")
            lines = [[m, *(_cell(table, m, k) for k in keys)] for m in models if m in table.index]
            header = ["Model", *(_key_title(axis, k) for k in keys)]
            parts += [
                f"#### {score.capitalize()} by {axis} (x100)",
                "",
                _md_table(header, lines),
                "",
            ]
    return "\n".join(parts)


def _cell(table: pd.DataFrame, model: str, key: str) -> str:
    value = table.at[model, key] if key in table.columns else None
    return "–" if value is None or pd.isna(value) else f"{value:.1f}"


def surface_markdown(frame: pd.DataFrame, group: Group, models: list[str]) -> str:
    """Per model, the 5x5 policy x attack privacy and utility tables ('value (n)')."""
    parts = []
    data = frame[(frame["group"] == group.name) & (frame["axis"] == "cell")]
    attacks = list(ATTACK_LABELS)
    for model in models:
        for score in ("privacy", "utility"):
            part = data[(data["model"] == model) & (data["score"] == score)].set_index("key")
            lines = []
            for policy in POLICY_LABELS:
                cells = []
                for attack in attacks:
                    key = f"{policy}x{attack}"
                    if key in part.index and part.at[key, "value"] is not None:
                        cells.append(f"{part.at[key, 'value']:.1f} ({part.at[key, 'n']})")
                    else:
                        cells.append("–")
                lines.append([f"{policy} {POLICY_LABELS[policy]}", *cells])
            header = ["Policy \\ attack", *(f"{a} {ATTACK_LABELS[a]}" for a in attacks)]
            parts += [f"#### {model}: {score} (x100, n samples)", "", _md_table(header, lines), ""]
    return "\n".join(parts)


def epochs_frame(epochs: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """Per-epoch means x100 with the model and group."""
    if epochs.empty:
        return pd.DataFrame(columns=["group", "model", "epoch", *SCORE_KEYS, "n"])
    labels = summary.set_index("run")[["group", "label"]]
    frame = epochs.join(labels, on="run").rename(columns={"label": "model"})
    for key in SCORE_KEYS:
        frame[key] = frame[key].map(_x100)
    return frame[["group", "model", "epoch", *SCORE_KEYS, "n"]]


def epochs_markdown(frame: pd.DataFrame) -> str:
    """Spread across epochs: per model, min / max / range of each score's epoch means."""
    if frame.empty:
        return ""
    lines = []
    for (group, model), part in frame.groupby(["group", "model"], sort=False):
        cells = [group, model, str(len(part))]
        for key in SCORE_KEYS:
            low, high = part[key].min(), part[key].max()
            cells.append(f"{low:.1f}–{high:.1f} (range {high - low:.1f})")
        lines.append(cells)
    header = ["Group", "Model", "Epochs", *(f"{k.capitalize()} per epoch" for k in SCORE_KEYS)]
    return "## Spread across epochs (x100)\n\n" + _md_table(header, lines) + "\n"


def inventory_frame(inventory: Inventory) -> pd.DataFrame:
    """Every file considered, used or skipped, with the reason."""
    rows = [
        {
            "log": r.path,
            "model": r.label,
            "task": r.task,
            "decision": "used",
            "reason": "",
            "detail": "",
        }
        for r in inventory.runs
    ] + [
        {
            "log": s.path,
            "model": s.model,
            "task": s.task,
            "decision": "skipped",
            "reason": s.reason,
            "detail": s.detail,
        }
        for s in inventory.skipped
    ]
    return pd.DataFrame(rows, columns=["log", "model", "task", "decision", "reason", "detail"])


def inventory_markdown(frame: pd.DataFrame) -> str:
    """Counts per decision and the list of skipped logs."""
    used = int((frame["decision"] == "used").sum())
    skipped = frame[frame["decision"] == "skipped"]
    text = f"## Logs\n\n{len(frame)} files considered: {used} used, {len(skipped)} skipped.\n"
    if not skipped.empty:
        counts = skipped["reason"].value_counts()
        text += (
            "\n" + "\n".join(f"- {reason}: {count}" for reason, count in counts.items()) + "\n\n"
        )
        lines = [[r.log, r.model, r.reason, r.detail] for r in skipped.itertuples()]
        text += _md_table(["Log", "Model", "Reason", "Detail"], lines) + "\n"
    return text
