"""One row per scored sample: everything every section of the report reads about a sample.

A row holds the sample's id and epoch, its four axes (domain, policy, attack, cell), the polar
scorer's three scores, its error text, its leakage curve (`leaked_by_turn` / `protected_count`
of the polar scorer's metadata) and the strict scorer's attribution (first leak turn, values
leaked and echoed, reasoning-only leak rate). All of these are scalars or short lists, which
Inspect keeps in a sample's summary (it drops score-metadata keys over 1 KB, such as the
strict scorer's per-value `protected` / `allowed` verdicts, which no section reads).

The same extraction serves three sources, so that they cannot disagree: the sample summaries
(`summary_rows`, a few seconds for a full run), the header's per-sample reduced scores
(`reduction_rows`, single-epoch logs) and the full samples without events (`full_sample_rows`,
the slow reference path the parity test compares the other two against).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log_sample_summaries, read_eval_log_samples

from polar_inspect.scorers.parity import SCORE_KEYS

#: Sample metadata the report breaks scores down by.
AXES = ("domain", "policy", "attack", "cell")
#: The strict scorer's name in a log's scores.
STRICT_SCORER = "polar_strict_scorer"
#: Per-sample columns beside the scores: the leakage curve and the strict attribution.
DETAIL_COLUMNS = [
    "curve",
    "strict",
    "first_leak_turn",
    "leaked_count",
    "echoed_count",
    "reasoning_leak",
    "parity_privacy_echo",
]
ROW_COLUMNS = ["id", "epoch", *AXES, *SCORE_KEYS, "error", *DETAIL_COLUMNS]


class ScoreLike(Protocol):
    """A score as a summary, a full sample or a header reduction carries it."""

    @property
    def value(self) -> Any:
        """The score's value (a dict for the polar scorers)."""

    @property
    def metadata(self) -> dict[str, Any] | None:
        """The score's metadata."""


def fractions(metadata: Mapping[str, Any] | None) -> list[float] | None:
    """Leaked share by turn from a score's metadata, or None when it carries no curve."""
    meta = metadata or {}
    by_turn, total = meta.get("leaked_by_turn"), meta.get("protected_count")
    if isinstance(by_turn, list) and isinstance(total, int) and total > 0:
        return [float(count) / total for count in by_turn]
    return None


def _score_values(scores: Mapping[str, ScoreLike]) -> dict[str, float | None]:
    """The polar scorer's privacy / utility / overall (the first score whose dict has them)."""
    found: dict[str, float | None] = {}
    for key in SCORE_KEYS:
        found[key] = None
        for score in scores.values():
            if isinstance(score.value, dict) and key in score.value:
                found[key] = float(score.value[key])
                break
    return found


def _curve(scores: Mapping[str, ScoreLike]) -> list[float] | None:
    for score in scores.values():
        curve = fractions(score.metadata)
        if curve is not None:
            return curve
    return None


def _strict(scores: Mapping[str, ScoreLike]) -> dict[str, Any]:
    """The strict scorer's attribution (`strict` False when the sample has none)."""
    score = scores.get(STRICT_SCORER)
    if score is None or not score.metadata:
        return {"strict": False, "first_leak_turn": math.nan, "leaked_count": 0,
                "echoed_count": 0, "reasoning_leak": 0.0,
                "parity_privacy_echo": 0.0}  # fmt: skip
    meta, value = score.metadata, score.value
    turn = meta.get("first_leak_turn")
    leak = value.get("reasoning_leak", 0.0) if isinstance(value, dict) else 0.0
    return {
        "strict": True,
        "first_leak_turn": math.nan if turn is None else float(turn),
        "leaked_count": meta.get("leaked_count", 0),
        "echoed_count": meta.get("echoed_count", 0),
        "reasoning_leak": float(leak),
        # the part of the parity privacy loss that is unfetched echoes (docs/scoring.md)
        "parity_privacy_echo": float(meta.get("parity_privacy_echo", 0.0)),
    }


def score_row(scores: Mapping[str, ScoreLike]) -> dict[str, Any]:
    """The score columns of a row: the three scores, the curve and the strict attribution."""
    return {**_score_values(scores), "curve": _curve(scores), **_strict(scores)}


def _axes(metadata: Mapping[str, Any] | None) -> dict[str, str | None]:
    meta = metadata or {}
    return {axis: None if meta.get(axis) is None else str(meta[axis]) for axis in AXES}


def _frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(list(rows), columns=ROW_COLUMNS)
    for key in SCORE_KEYS:
        frame[key] = pd.to_numeric(frame[key], errors="coerce").astype(float)
    frame["first_leak_turn"] = frame["first_leak_turn"].astype(float)
    frame["reasoning_leak"] = frame["reasoning_leak"].astype(float)
    frame["parity_privacy_echo"] = frame["parity_privacy_echo"].astype(float)
    frame["strict"] = frame["strict"].astype(bool)
    return frame


def summary_rows(path: str) -> pd.DataFrame:
    """One row per sample and epoch from the log's sample summaries."""
    summaries = read_eval_log_sample_summaries(path)
    return _frame(
        {
            "id": str(s.id),
            "epoch": int(s.epoch),
            **_axes(s.metadata),
            "error": s.error or "",
            **score_row(s.scores or {}),
        }
        for s in summaries
    )


def full_sample_rows(path: str) -> pd.DataFrame:
    """One row per sample and epoch from the full samples (slow; the reference path)."""
    samples = read_eval_log_samples(
        path, all_samples_required=False, exclude_fields={"events", "attachments"}
    )
    return _frame(
        {
            "id": str(s.id),
            "epoch": int(s.epoch),
            **_axes(s.metadata),
            "error": s.error.message if s.error is not None else "",
            **score_row(s.scores or {}),
        }
        for s in samples
    )


def _has_scores(samples: list[Any]) -> bool:
    """True when every reduced sample carries the three polar scores."""
    return bool(samples) and all(
        isinstance(s.value, dict) and all(k in s.value for k in SCORE_KEYS) for s in samples
    )


def reduction_rows(log: EvalLog) -> pd.DataFrame | None:
    """The header's per-sample reduced scores as rows (no axes, epoch 1, no error), or None
    when no reduction carries the three scores for every sample.

    A curve is kept only when the reductions give one for every sample: a log written before
    curves were recorded has none.
    """
    reductions = log.reductions or []
    by_scorer = {r.scorer: {str(s.sample_id): s for s in r.samples} for r in reductions}
    for reduction in reductions:
        samples = reduction.samples
        if not _has_scores(samples):
            continue
        rows = []
        for sample in samples:
            sample_id = str(sample.sample_id)
            scores = {name: found[sample_id] for name, found in by_scorer.items()
                      if sample_id in found}  # fmt: skip
            rows.append({"id": sample_id, "epoch": 1, "error": "", **score_row(scores)})
        frame = _frame(rows)
        if frame["curve"].isna().any():
            frame["curve"] = None
        return frame.drop(columns=list(AXES))
    return None
