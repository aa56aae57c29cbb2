"""Paired comparisons of two runs on the same sample ids: bootstrap interval, sign-flip test and
Holm-adjusted cells (docs/results.md#paired-comparisons).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from polar_inspect.scorers.parity import SCORE_KEYS

ALPHA = 0.05
BOOTSTRAP_RESAMPLES = 2000
PERMUTATION_RESAMPLES = 4000
EXACT_TEST_LIMIT = 500
EXACT_FLIP_LIMIT = 16  # enumerate all 2^k sign patterns up to k non-zero differences
SEED = 20_260_519  # fixed: the same logs give the same intervals and p-values
_CHUNK_VALUES = 2_000_000  # resampled values held at once (memory bound)

PAIRED_COLUMNS = ["run_a", "run_b", "scope", "score", "n", "mean_a", "mean_b", "difference",
                  "low", "high", "p_value", "distinguishable"]  # fmt: skip


def _chunks(total: int, n: int) -> list[int]:
    size = max(1, _CHUNK_VALUES // max(n, 1))
    return [min(size, total - start) for start in range(0, total, size)]


def bootstrap_interval(differences: np.ndarray) -> tuple[float, float]:
    """The paired bootstrap's 95% percentile interval of the mean difference."""
    if (n := len(differences)) == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(SEED)
    means = []
    for count in _chunks(BOOTSTRAP_RESAMPLES, n):
        picks = rng.integers(0, n, size=(count, n))
        means.append(differences[picks].mean(axis=1))
    low, high = np.percentile(np.concatenate(means), [2.5, 97.5])
    return (float(low), float(high))


def _z_test_p_value(differences: np.ndarray) -> float:
    if (sd := float(np.std(differences, ddof=1))) == 0:
        return 1.0 if float(differences.mean()) == 0 else 0.0
    z = abs(float(differences.mean())) / (sd / math.sqrt(len(differences)))
    return math.erfc(z / math.sqrt(2))


def paired_p_value(differences: np.ndarray) -> float:
    """Two-sided p-value of a zero mean difference: sign flips, or z-test above 500."""
    if len(differences) > EXACT_TEST_LIMIT:
        return _z_test_p_value(differences)
    return sign_flip_p_value(differences)


def sign_flip_p_value(differences: np.ndarray, *, resamples: int = PERMUTATION_RESAMPLES) -> float:
    """Two-sided sign-flip p-value: exact up to EXACT_FLIP_LIMIT non-zero differences."""
    n = len(differences)
    observed = abs(float(differences.mean())) if n else 0.0
    if n == 0 or not np.any(differences):
        return 1.0
    if len(nonzero := differences[differences != 0]) <= EXACT_FLIP_LIMIT:
        return _exact_sign_flip_p_value(nonzero)
    rng = np.random.default_rng(SEED)
    extreme = 0
    for count in _chunks(resamples, n):
        signs = rng.integers(0, 2, size=(count, n), dtype=np.int8) * 2 - 1
        flipped = np.abs((signs * differences).mean(axis=1))
        extreme += int(np.count_nonzero(flipped >= observed - 1e-12))
    return (extreme + 1) / (resamples + 1)


def _exact_sign_flip_p_value(nonzero: np.ndarray) -> float:
    k = len(nonzero)
    patterns = (np.arange(2**k)[:, None] >> np.arange(k)) & 1
    sums = np.abs((patterns * 2 - 1) @ nonzero)
    observed = abs(float(nonzero.sum()))
    return int(np.count_nonzero(sums >= observed - 1e-9)) / 2**k


def holm_adjust(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (same order as given)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def paired_differences(reduced: pd.DataFrame, run_a: int, run_b: int) -> pd.DataFrame | None:
    """Both runs' per-sample scores side by side; None unless on the same sample ids."""
    a = reduced[reduced["run"] == run_a].set_index("id")
    b = reduced[reduced["run"] == run_b].set_index("id")
    if a.empty or set(a.index) != set(b.index):
        return None
    joined = a[[*SCORE_KEYS, "cell"]].add_suffix("_a").join(b[list(SCORE_KEYS)].add_suffix("_b"))
    joined = joined.rename(columns={"cell_a": "cell"})
    return joined.dropna(subset=[f"{k}_{side}" for k in SCORE_KEYS for side in "ab"])


def _row(run_a: int, run_b: int, scope: str, score: str, frame: pd.DataFrame) -> dict[str, object]:
    a = frame[f"{score}_a"].to_numpy(dtype=float)
    b = frame[f"{score}_b"].to_numpy(dtype=float)
    differences = a - b
    low, high = bootstrap_interval(differences)
    return {"run_a": run_a, "run_b": run_b, "scope": scope, "score": score,
            "n": len(differences), "mean_a": float(a.mean()), "mean_b": float(b.mean()),
            "difference": float(differences.mean()), "low": low, "high": high,
            "p_value": paired_p_value(differences)}  # fmt: skip


def compare_pair(reduced: pd.DataFrame, run_a: int, run_b: int) -> pd.DataFrame:
    """Each score's paired difference A - B, over all samples and per cell (PAIRED_COLUMNS)."""
    frame = paired_differences(reduced, run_a, run_b)
    if frame is None or frame.empty:
        return pd.DataFrame(columns=PAIRED_COLUMNS)
    rows = [_row(run_a, run_b, "all", score, frame) for score in SCORE_KEYS]
    cells = sorted(str(c) for c in frame["cell"].dropna().unique())
    for score in SCORE_KEYS:
        cell_rows = [_row(run_a, run_b, c, score, frame[frame["cell"] == c]) for c in cells]
        adjusted = holm_adjust([float(r["p_value"]) for r in cell_rows])  # type: ignore[arg-type]
        for row, p_value in zip(cell_rows, adjusted, strict=True):
            row["p_value"] = p_value
        rows.extend(cell_rows)
    table = pd.DataFrame(rows)
    table["distinguishable"] = table["p_value"] < ALPHA
    return table[PAIRED_COLUMNS]
