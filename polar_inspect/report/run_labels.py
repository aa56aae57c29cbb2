"""Which logs are the same experiment (equal run identities), and what each shown run is called:
labels that say what sets runs apart, and never show a secret (docs/results.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from polar_inspect.redaction import redact_text
from polar_inspect.report.inventory import (
    CUT_TAG,
    NO_ATTACK_TAG,
    Inventory,
    KeepPolicy,
    RunHeader,
    SkippedLog,
)
from polar_inspect.scorers.strict import ATTACKED_FLOOR

RowsKey = Callable[[RunHeader], str]  # a digest of a run's sample rows (asked of tied copies)


def resolve_duplicates(inventory: Inventory, keep: KeepPolicy, rows_key: RowsKey) -> Inventory:
    """Keep one run per run identity (or all, relabelled, with `keep="all"`)."""
    by_identity: dict[str, list[RunHeader]] = {}
    for run in inventory.runs:
        by_identity.setdefault(run.run_digest or run.path, []).append(run)
    runs: list[RunHeader] = []
    skipped = list(inventory.skipped)
    for group in by_identity.values():
        group.sort(key=lambda r: (r.complete, r.created, r.path), reverse=True)
        kept, dropped = _one_identity(group, keep, rows_key)
        runs.extend(kept)
        skipped.extend(dropped)
    order = {run.path: i for i, run in enumerate(inventory.runs)}
    runs.sort(key=lambda r: order[r.path])
    return Inventory(runs=label_runs(runs), skipped=skipped, files_seen=inventory.files_seen)


def _one_identity(
    group: list[RunHeader], keep: KeepPolicy, rows_key: RowsKey
) -> tuple[list[RunHeader], list[SkippedLog]]:
    """The runs kept of one identity's group (best first), and those skipped as duplicates."""
    if len(group) == 1:
        return group, []
    if keep == "all":
        stamp = "%Y-%m-%d %H:%M:%S"
        return [
            r.model_copy(update={"label": f"{r.label} @ {r.created:{stamp}}"}) for r in group
        ], []
    kept = group[0]
    tied = [r for r in group[1:] if (r.complete, r.created) == (kept.complete, kept.created)]
    if any(r.metrics != kept.metrics or rows_key(r) != rows_key(kept) for r in tied):
        names = ", ".join(sorted(Path(r.path).name for r in [kept, *tied]))
        detail = f"the same run identity and start as {names}, with other scores: keep one"
        return [], [_skipped(r, "conflicting duplicates", detail) for r in group]
    return [kept], [_skipped(old, "duplicate", _why_dropped(old, kept)) for old in group[1:]]


def _why_dropped(old: RunHeader, kept: RunHeader) -> str:
    newer = old.created < kept.created
    what = "the complete " if old.complete != kept.complete else "the newer " if newer else ""
    return f"the same run identity as {what}{Path(kept.path).name}"


def _skipped(run: RunHeader, reason: str, detail: str) -> SkippedLog:
    return SkippedLog(path=run.path, reason=reason, detail=detail, model=run.model, task=run.task)


def label_runs(runs: list[RunHeader]) -> list[RunHeader]:
    """Make every shown run's label unique and telling (prompt, identity parts, marks)."""
    prompts: dict[tuple[str, str], set[str]] = {}
    for run in runs:
        prompts.setdefault((run.label, run.group_key), set()).add(run.prompt_key)
    labelled = [
        run.model_copy(update={"label": f"{run.label} [prompt {run.prompt}]"})
        if len(prompts[(run.label, run.group_key)]) > 1
        else run
        for run in runs
    ]
    by_label: dict[tuple[str, str], list[int]] = {}  # labels are keys within a group
    for index, run in enumerate(labelled):
        by_label.setdefault((run.label, run.group_key), []).append(index)
    for members in by_label.values():
        if len(members) < 2:
            continue
        tags = _distinguishing_tags([labelled[i] for i in members])
        for index, tag in zip(members, tags, strict=True):
            run = labelled[index]
            labelled[index] = run.model_copy(update={"label": f"{run.label} [{tag}]"})
    return [_redacted(_marked(run)) for run in labelled]


def _redacted(run: RunHeader) -> RunHeader:
    """No secret in a label (a base URL's password, a key among model arguments)."""
    shown = {
        name: redact_text(getattr(run, name)) for name in ("label", "base_label", "plain_label")
    }
    return run.model_copy(update=shown)


def _marked(run: RunHeader) -> RunHeader:
    """Say in the label when a limit cut dialogues or the attacker mostly made no attack."""
    label = run.label
    if run.cut_samples:
        label += f" [{CUT_TAG}: {run.cut_samples} dialogues cut by a limit]"
    if run.attacked is not None and run.attacked < ATTACKED_FLOOR:
        label += f" [{NO_ATTACK_TAG}: {run.attacked:.0%} of samples met a real attack]"
    return run if label == run.label else run.model_copy(update={"label": label})


def _distinguishing_tags(runs: list[RunHeader]) -> list[str]:
    """One tag per run sharing a label: telling identity parts, else the file name."""
    parts = [r.run_identity.parts() if r.run_identity else {"log": Path(r.path).name} for r in runs]
    chosen = _fewest_telling_parts(parts)
    tags = ["; ".join(f"{n}: {p.get(n, '(none)')}" for n in chosen) for p in parts]
    if len(set(tags)) < len(runs):
        tags = [f"{tag}; {Path(run.path).name}" if tag else Path(run.path).name
                for tag, run in zip(tags, runs, strict=True)]  # fmt: skip
    return tags


def _fewest_telling_parts(parts: list[dict[str, str]]) -> list[str]:
    """Greedily, the identity parts that tell the most of `parts` apart, while one helps."""
    varying = sorted({n for p in parts for n in p if len({q.get(n) for q in parts}) > 1})

    def distinct(names: list[str]) -> int:
        return len({tuple(p.get(n, "(none)") for n in names) for p in parts})

    chosen: list[str] = []
    while distinct(chosen) < len(parts) and varying:
        best = max(varying, key=lambda name: (distinct([*chosen, name]), -varying.index(name)))
        if distinct([*chosen, best]) == distinct(chosen):
            break
        chosen.append(best)
        varying.remove(best)
    return chosen
