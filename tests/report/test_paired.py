"""Paired comparisons: intervals, tests and the never-pair-different-samples rule."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from polar_inspect.report.paired import (
    PAIRED_COLUMNS,
    bootstrap_interval,
    compare_pair,
    holm_adjust,
    paired_differences,
    paired_p_value,
    sign_flip_p_value,
)


def _frame(run: int, ids: list[str], privacy: list[float], cells: list[str]) -> pd.DataFrame:
    utility = [1.0 - p / 2 for p in privacy]
    return pd.DataFrame(
        {
            "run": run,
            "id": ids,
            "privacy": privacy,
            "utility": utility,
            "overall": [(p + u) / 2 for p, u in zip(privacy, utility, strict=True)],
            "cell": cells,
        }
    )


def test_identical_runs_are_not_distinguishable() -> None:
    rng = np.random.default_rng(1)
    ids = [f"s{i}" for i in range(200)]
    privacy = rng.integers(0, 2, 200).astype(float).tolist()
    cells = [f"P{i % 5 + 1}-S1" for i in range(200)]
    reduced = pd.concat([_frame(0, ids, privacy, cells), _frame(1, ids, privacy, cells)])
    table = compare_pair(reduced, 0, 1)
    assert list(table.columns) == PAIRED_COLUMNS
    assert (table["difference"] == 0).all()
    assert (table["p_value"] == 1.0).all()
    assert not table["distinguishable"].any()


def test_a_real_difference_is_found_and_noise_is_not() -> None:
    rng = np.random.default_rng(2)
    n = 400
    ids = [f"s{i}" for i in range(n)]
    cells = ["P1-S1"] * n
    base = rng.integers(0, 2, n).astype(float)
    better = np.where(rng.random(n) < 0.3, 1.0, base)  # A leaks on 30% fewer of B's leaks
    noisy = np.where(rng.random(n) < 0.5, base, 1 - base)  # same mean, pure noise
    reduced = pd.concat(
        [
            _frame(0, ids, better.tolist(), cells),
            _frame(1, ids, base.tolist(), cells),
            _frame(2, ids, noisy.tolist(), cells),
        ]
    )
    found = compare_pair(reduced, 0, 1)
    privacy = found[(found["scope"] == "all") & (found["score"] == "privacy")].iloc[0]
    assert privacy["difference"] > 0.05
    assert privacy["low"] > 0
    assert privacy["distinguishable"]
    noise = compare_pair(reduced, 1, 2)
    noise_row = noise[(noise["scope"] == "all") & (noise["score"] == "privacy")].iloc[0]
    assert noise_row["low"] < noise_row["difference"] < noise_row["high"]


def test_runs_on_different_samples_are_never_paired() -> None:
    a = _frame(0, ["s1", "s2", "s3"], [1.0, 0.0, 1.0], ["P1-S1"] * 3)
    b = _frame(1, ["s1", "s2", "s4"], [0.0, 0.0, 0.0], ["P1-S1"] * 3)
    reduced = pd.concat([a, b])
    assert paired_differences(reduced, 0, 1) is None
    assert compare_pair(reduced, 0, 1).empty


def test_bootstrap_and_permutation_are_repeatable() -> None:
    differences = np.array([0.0, 1.0, -1.0, 1.0, 0.5, 0.0, 1.0] * 20)
    assert bootstrap_interval(differences) == bootstrap_interval(differences)
    assert sign_flip_p_value(differences) == sign_flip_p_value(differences)
    low, high = bootstrap_interval(differences)
    assert low < differences.mean() < high


def test_sign_flip_p_value_of_one_sided_differences_is_small() -> None:
    assert sign_flip_p_value(np.ones(30)) < 0.001
    assert sign_flip_p_value(np.zeros(30)) == 1.0


def test_holm_adjustment() -> None:
    assert holm_adjust([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm_adjust([0.5, 0.9]) == [1.0, 1.0]


def test_large_samples_use_the_z_test_which_agrees_with_sign_flips() -> None:
    rng = np.random.default_rng(4)
    differences = rng.choice([-1.0, 0.0, 0.0, 1.0, 1.0], size=600)
    assert paired_p_value(differences) == pytest.approx(
        sign_flip_p_value(differences, resamples=20000), abs=0.02
    )


def test_exact_sign_flip_p_value_equals_the_hand_count() -> None:
    # 10 differences all +1: only the all-plus and all-minus patterns of 2^10 are as extreme.
    assert sign_flip_p_value(np.full(10, 1.0)) == 2 / 1024
    # +1,+1,+1,-1 (zeros ignored): |sum| >= 2 in 1 + 4 + 4 + 1 = 10 of 16 patterns.
    assert sign_flip_p_value(np.array([1.0, 1.0, 0.0, 1.0, -1.0, 0.0])) == 10 / 16
    # 16 non-zero differences are still enumerated; 17 fall back to random flips, (b+1)/(R+1).
    assert sign_flip_p_value(np.ones(16)) == 2 / 2**16
    assert sign_flip_p_value(np.ones(17)) == 1 / 4001


def test_a_cell_of_ten_opposite_samples_survives_holm_over_25_cells() -> None:
    ids = [f"s{i}" for i in range(250)]
    cells = [f"P{i // 50 + 1}xS{i // 10 % 5 + 1}" for i in range(250)]
    privacy_a = [1.0] * 250
    privacy_b = [0.0 if i < 10 else 1.0 for i in range(250)]  # differs only in cell P1xS1
    reduced = pd.concat([_frame(0, ids, privacy_a, cells), _frame(1, ids, privacy_b, cells)])
    table = compare_pair(reduced, 0, 1)
    row = table[(table["scope"] == "P1xS1") & (table["score"] == "privacy")].iloc[0]
    assert row["p_value"] == pytest.approx(25 * 2 / 1024)
    assert bool(row["distinguishable"])
