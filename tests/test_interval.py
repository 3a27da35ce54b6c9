"""The Wilson score interval: published values and the properties an interval must have."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pinochle_cli.estimate.interval import samples_for_half_width, wilson_half_width, wilson_interval

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table II, method 3 (Wilson).
PUBLISHED = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("x", "n", "lo", "hi"), PUBLISHED)
def test_published_values(x: int, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(x, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_no_trials_is_the_whole_range() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("x", "n"), [(-1, 10), (11, 10)])
def test_impossible_counts_are_refused(x: int, n: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(x, n)


@given(st.integers(1, 5000), st.data())
def test_interval_contains_the_estimate_and_is_symmetric(n: int, data: st.DataObject) -> None:
    x = data.draw(st.integers(0, n))
    lo, hi = wilson_interval(x, n)
    assert 0.0 <= lo <= x / n <= hi <= 1.0
    assert lo < hi
    lo2, hi2 = wilson_interval(n - x, n)
    assert (lo, hi) == pytest.approx((1 - hi2, 1 - lo2), abs=1e-12)


@given(st.integers(1, 1000), st.integers(0, 10))
def test_more_trials_narrow_the_interval(n: int, tenths: int) -> None:
    x = n * tenths // 10
    assert wilson_half_width(4 * x, 4 * n) < wilson_half_width(x, n)


@pytest.mark.parametrize("p", [0.05, 0.3, 0.5, 0.9])
@pytest.mark.parametrize("h", [0.01, 0.03])
def test_samples_for_half_width_reach_it(p: float, h: float) -> None:
    n = samples_for_half_width(p, h)
    assert wilson_half_width(round(p * n), n) <= h
    assert wilson_half_width(round(p * (n - 1)), n - 1) > h  # the fewest such trials


@pytest.mark.parametrize("h", [1e-5, 1e-16, 1e-100, 1e-300, 5e-324])
@pytest.mark.parametrize("p", [0.0, 0.5, 0.999999, 1.0])
def test_any_positive_half_width_is_answered_within_the_limit(p: float, h: float) -> None:
    n = samples_for_half_width(p, h, limit=200_000)
    assert 1 <= n <= 200_000
    assert 1 <= samples_for_half_width(p, h) <= 2**53


def test_a_huge_count_of_trials_has_an_interval() -> None:
    lo, hi = wilson_interval(10**200, 10**200)
    assert lo == pytest.approx(1.0) and hi == 1.0


@pytest.mark.parametrize("h", [0.0, -1.0, float("nan")])
def test_a_half_width_that_is_not_positive_is_refused(h: float) -> None:
    with pytest.raises(ValueError):
        samples_for_half_width(0.5, h)
