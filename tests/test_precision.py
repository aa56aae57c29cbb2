"""The precision arithmetic behind polar-cost's interval figures."""

from __future__ import annotations

import math

import pytest

from polar_inspect.precision import (
    half_width,
    samples_for_half_width,
    standard_deviation,
    stratified_size,
)


def test_worst_case_half_width_of_the_mini_set() -> None:
    assert half_width(250) == pytest.approx(0.06198, abs=1e-4)
    assert half_width(7875) == pytest.approx(0.01104, abs=1e-4)


def test_samples_for_half_width_is_the_inverse() -> None:
    for target in (0.1, 0.05, 0.02, 0.01):
        n = samples_for_half_width(target)
        assert half_width(n) <= target < half_width(n - 1)
    assert samples_for_half_width(0.05, sd=0.0) == 1


def test_stratified_size_rounds_up_to_whole_rounds() -> None:
    assert stratified_size(385, 250) == 500
    assert stratified_size(250, 250) == 250
    assert stratified_size(9000, 250, available=7875) == 7875


def test_standard_deviation_ignores_non_finite_values() -> None:
    assert standard_deviation([0.0, 1.0, math.nan]) == pytest.approx(math.sqrt(0.5))
    assert standard_deviation([1.0]) == 0.0


@pytest.mark.parametrize("bad", [0, -3])
def test_half_width_refuses_an_empty_run(bad: int) -> None:
    with pytest.raises(ValueError):
        half_width(bad)
