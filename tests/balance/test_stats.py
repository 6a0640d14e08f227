"""Interval estimates: edge cases, published values, coverage by simulation."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from balance import stats


def test_wilson_empty_sample_is_uninformative() -> None:
    est, lo, hi = stats.wilson(0, 0)
    assert math.isnan(est)
    assert (lo, hi) == (0.0, 1.0)


def test_wilson_all_failures_and_all_successes_touch_the_bounds() -> None:
    _, lo0, hi0 = stats.wilson(0, 10)
    _, lo1, hi1 = stats.wilson(10, 10)
    assert lo0 == 0.0
    assert hi0 == pytest.approx(0.2775, abs=1e-4)
    assert hi1 == 1.0
    assert lo1 == pytest.approx(0.7225, abs=1e-4)


@given(st.integers(0, 10_000), st.integers(0, 10_000))
@example(0, 0)
@example(0, 1)
@example(1, 1)
def test_wilson_interval_contains_estimate(k: int, extra: int) -> None:
    n = k + extra
    est, lo, hi = stats.wilson(k, n)
    assert 0.0 <= lo <= hi <= 1.0
    if n:
        assert lo <= est <= hi


def test_wilson_is_vectorised_and_matches_the_polars_expressions() -> None:
    k, n = np.array([0, 3, 7, 10, 0]), np.array([10, 10, 10, 10, 0])
    est, lo, hi = stats.wilson(k, n)
    df = pl.DataFrame({"k": k, "n": n}).select(stats.wilson_exprs("k", "n"))
    assert np.allclose(df["lo"].to_numpy(), lo)
    assert np.allclose(df["hi"].to_numpy(), hi)
    assert df["rate"].null_count() == 1
    assert np.allclose(df["rate"].to_numpy()[:4], est[:4])


def test_wilson_coverage_by_simulation_is_near_nominal() -> None:
    rng = np.random.default_rng(20261122)
    p, n, reps = 0.3, 50, 20_000
    k = rng.binomial(n, p, size=reps)
    _, lo, hi = stats.wilson(k, n)
    coverage = np.mean((lo <= p) & (p <= hi))
    assert 0.935 <= coverage <= 0.975  # exact coverage at p=0.3, n=50 is 0.957


def test_clopper_pearson_known_values_and_conservative_coverage() -> None:
    _, lo, hi = stats.clopper_pearson([0, 5, 10], [10, 10, 10])
    assert lo[0] == 0.0
    assert hi[0] == pytest.approx(1 - 0.025 ** (1 / 10), abs=1e-6)
    assert (lo[1], hi[1]) == pytest.approx((0.1871, 0.8129), abs=1e-4)
    assert hi[2] == 1.0
    assert lo[2] == pytest.approx(0.025 ** (1 / 10), abs=1e-6)
    rng = np.random.default_rng(7)
    k = rng.binomial(40, 0.2, size=4000)
    _, lo, hi = stats.clopper_pearson(k, 40)
    assert np.mean((lo <= 0.2) & (hi >= 0.2)) >= 0.95


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2", "lo", "hi"),
    [  # Newcombe (1998), Stat. Med. 17:873-890, Table II, method 10
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926),
        (0, 10, 0, 20, -0.1611, 0.2775),
        (0, 10, 0, 10, -0.2775, 0.2775),
        (10, 10, 0, 20, 0.6791, 1.0000),
        (10, 10, 0, 10, 0.6075, 1.0000),
    ],
)
def test_newcombe_matches_published_values(k1: int, n1: int, k2: int, n2: int, lo: float, hi: float) -> None:
    est, got_lo, got_hi = stats.newcombe(k1, n1, k2, n2)
    assert est == pytest.approx(k1 / n1 - k2 / n2)
    assert (got_lo, got_hi) == pytest.approx((lo, hi), abs=1e-4)


def test_newcombe_with_an_empty_sample_is_uninformative() -> None:
    est, lo, hi = stats.newcombe(3, 10, 0, 0)
    assert math.isnan(est)
    assert (lo, hi) == (-1.0, 1.0)


def test_t_quantile_matches_tables() -> None:
    got = stats.t_quantile([1, 2, 10, 30, 1000, 10**7])
    assert got == pytest.approx([12.7062, 4.3027, 2.2281, 2.0423, 1.9623, 1.96], abs=1e-4)


def test_mean_ci_edge_cases() -> None:
    est, lo, hi = stats.mean_ci([])
    assert math.isnan(est)
    assert (lo, hi) == (-math.inf, math.inf)
    est, lo, hi = stats.mean_ci([4.0])
    assert est == 4.0
    assert (lo, hi) == (-math.inf, math.inf)
    est, lo, hi = stats.mean_ci([2.0, 2.0, 2.0])
    assert est == lo == hi == 2.0


def test_mean_ci_coverage_by_simulation_small_samples() -> None:
    rng = np.random.default_rng(11)
    x = rng.normal(5.0, 2.0, size=(4000, 6))
    _, lo, hi = stats.mean_ci_stats(x.mean(axis=1), x.std(axis=1, ddof=1), 6)
    assert 0.94 <= np.mean((lo <= 5.0) & (hi >= 5.0)) <= 0.96


def test_paired_difference_hand_computed() -> None:
    r = stats.paired_difference([3, 4, 5, 6, np.nan], [1, 3, 3, 4, 0])
    # differences 2, 1, 2, 2: mean 1.75, sd 0.5, t(3) = 3.1824 -> half-width 0.7956
    assert r.n == 4
    assert (r.mean_a, r.mean_b, r.delta) == (4.5, 2.75, 1.75)
    assert (r.lo, r.hi) == pytest.approx((1.75 - 0.7956, 1.75 + 0.7956), abs=1e-4)
    assert 0 < r.p_value < 0.01


def test_p_value_and_significant_flags() -> None:
    assert stats.p_value(stats.Z95, 1.0) == pytest.approx(0.05)
    assert stats.p_value(0.0, 0.0) == 1.0
    assert stats.p_value(1.0, 0.0) == 0.0
    assert stats.significant([0.01, -0.5, -0.2], [0.2, 0.5, -0.01]).tolist() == [True, False, True]


def test_mover_reduces_to_newcombe_for_wilson_intervals() -> None:
    p1, l1, h1 = stats.wilson(56, 70)
    p2, l2, h2 = stats.wilson(48, 80)
    assert np.allclose(stats.mover(p1, l1, h1, p2, l2, h2), stats.newcombe(56, 70, 48, 80))


def test_spearman_matches_scipy_and_the_fisher_interval_by_hand() -> None:
    from scipy import stats as scipy_stats

    x, y = [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5]
    rho, lo, hi = stats.spearman(x, y)
    assert rho == pytest.approx(scipy_stats.spearmanr(x, y).statistic)
    assert rho == pytest.approx(1 - 6 * 6 / (6 * 35))  # 1 - 6 Σd² / (n (n² - 1)), Σd² = 6
    half = 1.959963984540054 * math.sqrt(1.06 / 3)  # Fieller-Hartley-Pearson standard error over n - 3 = 3
    assert (lo, hi) == pytest.approx((math.tanh(math.atanh(rho) - half), math.tanh(math.atanh(rho) + half)))


def test_spearman_uses_ranks_averages_ties_and_drops_nans() -> None:
    rho, _, _ = stats.spearman([1, 10, 100, 1000, np.nan], [1, 2, 3, 4, 7])
    assert rho == pytest.approx(1.0)
    rho, _, _ = stats.spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1])
    assert rho == pytest.approx(-1.0)
    from scipy import stats as scipy_stats

    x, y = [1, 2, 2, 3, 4, 4, 5], [3, 1, 2, 2, 5, 4, 6]
    assert stats.spearman(x, y).estimate == pytest.approx(scipy_stats.spearmanr(x, y).statistic)


def test_spearman_with_too_few_or_constant_values_is_uninformative() -> None:
    est, lo, hi = stats.spearman([1, 2, 3], [1, 3, 2])
    assert est == pytest.approx(0.5)
    assert (lo, hi) == (-1.0, 1.0)  # fewer than 4 pairs: no interval
    est, lo, hi = stats.spearman([1, 1, 1, 1], [1, 2, 3, 4])
    assert math.isnan(est)
    assert (lo, hi) == (-1.0, 1.0)


def test_spearman_interval_covers_the_true_correlation_about_95_percent() -> None:
    rng = np.random.default_rng(11)
    n, reps, r = 40, 2000, 0.6
    cov = [[1, r], [r, 1]]
    # Spearman's rho of a bivariate normal with Pearson r is (6/pi) asin(r/2)
    truth = 6 / math.pi * math.asin(r / 2)
    hits = 0
    for _ in range(reps):
        x, y = rng.multivariate_normal([0, 0], cov, size=n).T
        _, lo, hi = stats.spearman(x, y)
        hits += lo <= truth <= hi
    assert 0.93 <= hits / reps <= 0.975


def test_spearman_brown_steps_a_half_correlation_up_to_the_whole() -> None:
    assert float(stats.spearman_brown(0.8)) == pytest.approx(1.6 / 1.8)
    assert float(stats.spearman_brown(1.0)) == 1.0
    assert float(stats.spearman_brown(0.0)) == 0.0
    assert math.isnan(float(stats.spearman_brown(-1.0)))
