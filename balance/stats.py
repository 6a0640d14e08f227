"""Interval estimates and tests for proportions and means, vectorised over numpy arrays.

Every function takes scalars, numpy arrays or polars Series (converted with
``np.asarray``) and returns an :class:`Interval` ``(estimate, lo, hi)`` of float arrays.
An estimate with no data (``n = 0``) is NaN with the uninformative interval: ``[0, 1]``
for a proportion, ``[-1, 1]`` for a difference of proportions and ``[-inf, inf]`` for a
mean. ``wilson_exprs`` gives the Wilson interval as polars expressions for lazy queries
(there the estimate is null instead of NaN).

References: Wilson (1927); Clopper & Pearson (1934); Newcombe (1998), *Interval
estimation for the difference between independent proportions*, Stat. Med. 17, method
10; Zou & Donner (2008) for the MOVER generalisation used by :func:`mover`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np
import polars as pl
from scipy import special  # the distribution functions alone: scipy.stats costs ~1 s to import

LEVEL = 0.95
Z95 = 1.959963984540054  # two-sided 95 % standard normal critical value


class Interval(NamedTuple):
    """An estimate with its two-sided confidence interval (float arrays)."""

    estimate: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


class PairedDifference(NamedTuple):
    """Mean of paired differences ``a - b``, its interval and two-sided p-value."""

    n: int
    mean_a: float
    mean_b: float
    delta: float
    lo: float
    hi: float
    p_value: float


def _f(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def z_quantile(level: float = LEVEL) -> float:
    """Return the two-sided standard normal critical value for ``level``.

    Examples
    --------
    >>> round(z_quantile(0.95), 4)
    1.96
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return Z95 if level == LEVEL else NormalDist().inv_cdf(0.5 + level / 2)


# -- distributions (scipy) --------------------------------------------------------------
def betainc(a: Any, b: Any, x: Any) -> np.ndarray:
    """Return the regularised incomplete beta function ``I_x(a, b)`` (vectorised).

    Examples
    --------
    >>> float(betainc(2.0, 3.0, 0.4).round(4))
    0.5248
    """
    return np.asarray(special.betainc(_f(a), _f(b), np.clip(_f(x), 0.0, 1.0)), dtype=np.float64)


def t_quantile(df: Any, level: float = LEVEL) -> np.ndarray:
    """Return the two-sided Student-t critical value with ``df`` degrees of freedom (NaN where ``df < 1``).

    Examples
    --------
    >>> [round(float(t_quantile(d)), 3) for d in (1, 10, 10**6)]
    [12.706, 2.228, 1.96]
    """
    df = _f(df)
    with np.errstate(invalid="ignore"):
        out = special.stdtrit(np.where(df >= 1, df, np.nan), 0.5 + level / 2)
    return np.asarray(out, dtype=np.float64)


def p_value(estimate: Any, se: Any, *, df: Any = None) -> np.ndarray:
    """Return the two-sided p-value of ``estimate / se`` (normal, or Student-t with ``df``).

    Examples
    --------
    >>> float(p_value(1.959963984540054, 1.0).round(4))
    0.05
    """
    estimate, se, v = np.broadcast_arrays(_f(estimate), _f(se), _f(np.nan if df is None else df))
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.abs(estimate / se)
    stat = np.where(se == 0, np.where(estimate == 0, 0.0, np.inf), stat)
    if df is None:
        out = 2 * special.ndtr(-stat)
    else:
        with np.errstate(invalid="ignore"):
            out = 2 * special.stdtr(np.where(v >= 1, v, np.nan), -stat)
        out = np.where(np.isinf(stat), 0.0, out)
    return np.asarray(np.where(np.isnan(stat), np.nan, out), dtype=np.float64)


def significant(lo: Any, hi: Any, *, null: float = 0.0) -> np.ndarray:
    """Return True where the interval ``[lo, hi]`` excludes ``null`` (two-sided test).

    Examples
    --------
    >>> significant([0.1, -0.2], [0.3, 0.1]).tolist()
    [True, False]
    """
    lo, hi = _f(lo), _f(hi)
    return (lo > null) | (hi < null)


# -- proportions ------------------------------------------------------------------------
def wilson(k: Any, n: Any, *, level: float = LEVEL) -> Interval:
    """Return the Wilson score interval for ``k`` successes in ``n`` trials.

    ``n = 0`` gives estimate NaN and ``[0, 1]``; ``k = 0`` gives ``lo = 0`` and ``k = n``
    gives ``hi = 1`` exactly.

    Examples
    --------
    >>> est, lo, hi = wilson([0, 5, 10, 0], [10, 10, 10, 0])
    >>> [round(float(x), 4) for x in lo], [round(float(x), 4) for x in hi]
    ([0.0, 0.2366, 0.7225, 0.0], [0.2775, 0.7634, 1.0, 1.0])
    """
    k, n = np.broadcast_arrays(_f(k), _f(n))
    z = z_quantile(level)
    safe = np.where(n > 0, n, 1.0)
    p = k / safe
    denom = 1 + z * z / safe
    centre = (p + z * z / (2 * safe)) / denom
    half = z * np.sqrt(np.maximum(p * (1 - p) / safe + z * z / (4 * safe * safe), 0.0)) / denom
    empty = n <= 0
    lo = np.where(empty | (k <= 0), 0.0, np.minimum(np.clip(centre - half, 0, 1), p))
    hi = np.where(empty | (k >= n), 1.0, np.maximum(np.clip(centre + half, 0, 1), p))
    return Interval(np.where(empty, np.nan, p), lo, hi)


def wilson_exprs(
    k: pl.Expr | str, n: pl.Expr | str, *, names: Sequence[str] = ("rate", "lo", "hi"), level: float = LEVEL
) -> list[pl.Expr]:
    """Return polars expressions for the Wilson estimate and interval (null rate if n = 0).

    Examples
    --------
    >>> df = pl.DataFrame({"k": [5, 0], "n": [10, 0]})
    >>> df.select(e.round(4) for e in wilson_exprs("k", "n")).rows()
    [(0.5, 0.2366, 0.7634), (None, 0.0, 1.0)]
    """
    k = pl.col(k) if isinstance(k, str) else k
    n = pl.col(n) if isinstance(n, str) else n
    kf, nf = k.cast(pl.Float64), n.cast(pl.Float64)
    z = z_quantile(level)
    p = kf / nf
    denom = 1 + z * z / nf
    centre = (p + z * z / (2 * nf)) / denom
    half = z * (p * (1 - p) / nf + z * z / (4 * nf * nf)).clip(lower_bound=0).sqrt() / denom
    rate, lo_name, hi_name = names
    return [
        pl.when(n > 0).then(p).alias(rate),
        pl.when((n <= 0) | (k <= 0))
        .then(0.0)
        .otherwise(pl.min_horizontal((centre - half).clip(0, 1), p))
        .alias(lo_name),
        pl.when((n <= 0) | (k >= n))
        .then(1.0)
        .otherwise(pl.max_horizontal((centre + half).clip(0, 1), p))
        .alias(hi_name),
    ]


def clopper_pearson(k: Any, n: Any, *, level: float = LEVEL) -> Interval:
    """Return the exact (Clopper-Pearson) interval for ``k`` successes in ``n`` trials.

    Conservative: coverage is at least ``level`` for every true proportion.

    Examples
    --------
    >>> est, lo, hi = clopper_pearson([0, 5], [10, 10])
    >>> [round(float(x), 4) for x in lo], [round(float(x), 4) for x in hi]
    ([0.0, 0.1871], [0.3085, 0.8129])
    """
    k, n = np.broadcast_arrays(_f(k), _f(n))
    alpha = 1 - level
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where((k > 0) & (n > 0), special.betaincinv(k, n - k + 1, alpha / 2), 0.0)
        hi = np.where((k < n) & (n > 0), special.betaincinv(k + 1, n - k, 1 - alpha / 2), 1.0)
    est = np.where(n > 0, k / np.where(n > 0, n, 1.0), np.nan)
    return Interval(est, lo, hi)


def mover(est1: Any, lo1: Any, hi1: Any, est2: Any, lo2: Any, hi2: Any) -> Interval:
    """Return ``est1 - est2`` with the MOVER interval built from two independent intervals.

    With Wilson intervals for two proportions this is Newcombe's hybrid score interval.

    Examples
    --------
    >>> [round(float(x), 2) for x in mover(0.6, 0.5, 0.7, 0.5, 0.4, 0.6)]
    [0.1, -0.04, 0.24]
    """
    e1, l1, h1, e2, l2, h2 = np.broadcast_arrays(*(_f(x) for x in (est1, lo1, hi1, est2, lo2, hi2)))
    delta = e1 - e2
    lo = delta - np.sqrt((e1 - l1) ** 2 + (h2 - e2) ** 2)
    hi = delta + np.sqrt((h1 - e1) ** 2 + (e2 - l2) ** 2)
    return Interval(delta, lo, hi)


def newcombe(k1: Any, n1: Any, k2: Any, n2: Any, *, level: float = LEVEL) -> Interval:
    """Return ``p1 - p2`` with Newcombe's hybrid score interval (independent samples).

    An empty sample gives estimate NaN and ``[-1, 1]``.

    Examples
    --------
    Newcombe (1998), Table II, example (a): 56/70 versus 48/80.

    >>> [round(float(x), 4) for x in newcombe(56, 70, 48, 80)]
    [0.2, 0.0524, 0.3339]
    """
    p1, l1, h1 = wilson(k1, n1, level=level)
    p2, l2, h2 = wilson(k2, n2, level=level)
    empty = np.isnan(p1) | np.isnan(p2)
    d, lo, hi = mover(np.nan_to_num(p1), l1, h1, np.nan_to_num(p2), l2, h2)
    return Interval(
        np.where(empty, np.nan, d), np.where(empty, -1.0, np.maximum(lo, -1)), np.where(empty, 1.0, np.minimum(hi, 1))
    )


# -- means ------------------------------------------------------------------------------
def mean_ci_stats(mean: Any, sd: Any, n: Any, *, level: float = LEVEL) -> Interval:
    """Return the t interval of a mean from its summary statistics (vectorised).

    ``n < 2`` leaves the interval unbounded (``-inf, inf``); ``n = 0`` makes the
    estimate NaN.

    Examples
    --------
    >>> [round(float(x), 3) for x in mean_ci_stats(10.0, 2.0, 100)]
    [10.0, 9.603, 10.397]
    """
    mean, sd, n = np.broadcast_arrays(_f(mean), _f(sd), _f(n))
    crit = t_quantile(np.maximum(n - 1, 0), level)
    ok = (n >= 2) & np.isfinite(sd)
    half = np.where(ok, crit * np.where(ok, sd, 0.0) / np.sqrt(np.where(ok, n, 1.0)), np.inf)
    est = np.where(n > 0, mean, np.nan)
    return Interval(est, np.where(n > 0, est - half, -np.inf), np.where(n > 0, est + half, np.inf))


def mean_ci(values: Any, *, level: float = LEVEL) -> Interval:
    """Return the mean of ``values`` (NaNs dropped) with its t interval (scalars in arrays).

    Examples
    --------
    >>> [round(float(x), 3) for x in mean_ci([1, 2, 3, 4])]
    [2.5, 0.446, 4.554]
    """
    x = _f(values).ravel()
    x = x[~np.isnan(x)]
    n = x.size
    mean = x.mean() if n else np.nan
    sd = x.std(ddof=1) if n >= 2 else np.nan
    return mean_ci_stats(mean, sd, n, level=level)


def paired_difference(a: Any, b: Any, *, level: float = LEVEL) -> PairedDifference:
    """Return the mean of ``a - b`` over pairs with a t interval and two-sided p-value.

    Pairs where either value is NaN are dropped.

    Examples
    --------
    >>> r = paired_difference([3, 4, 5, 6], [1, 3, 3, 4])
    >>> r.n, r.delta, round(r.lo, 3), round(r.hi, 3)
    (4, 1.75, 0.954, 2.546)
    """
    a, b = _f(a).ravel(), _f(b).ravel()
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    n = int(a.size)
    diff = a - b
    est, lo, hi = (float(v) for v in mean_ci(diff, level=level))
    sd = float(diff.std(ddof=1)) if n >= 2 else math.nan
    p = float(p_value(est, sd / math.sqrt(n), df=n - 1)) if n >= 2 else math.nan
    mean_a = float(a.mean()) if n else math.nan
    mean_b = float(b.mean()) if n else math.nan
    return PairedDifference(n, mean_a, mean_b, est, lo, hi, p)


# -- rank correlation -------------------------------------------------------------------
def spearman(x: Any, y: Any, *, level: float = LEVEL) -> Interval:
    """Return Spearman's rank correlation of ``x`` and ``y`` with a Fisher-z interval.

    Pairs where either value is NaN are dropped; ties get their average rank. The interval
    transforms with ``z = atanh(rho)`` and standard error ``sqrt(1.06 / (n - 3))``
    (Fieller, Hartley & Pearson 1957), so it needs ``n >= 4`` pairs: fewer give
    ``[-1, 1]``, and fewer than 2 (or a constant column) a NaN estimate. The interval
    speaks of the cards as a sample; the noise in each card's own estimate is not in it.

    Examples
    --------
    >>> [round(float(v), 3) for v in spearman([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5])]
    [0.829, 0.019, 0.982]
    """
    x, y = _f(x).ravel(), _f(y).ravel()
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    n = int(x.size)
    if n < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return Interval(np.float64(np.nan), np.float64(-1.0), np.float64(1.0))
    rx, ry = (pl.Series(v).rank("average").to_numpy() for v in (x, y))
    rho = float(np.corrcoef(rx, ry)[0, 1])
    if n < 4:
        return Interval(np.float64(rho), np.float64(-1.0), np.float64(1.0))
    z, half = math.atanh(min(max(rho, -0.999999), 0.999999)), z_quantile(level) * math.sqrt(1.06 / (n - 3))
    return Interval(np.float64(rho), np.float64(math.tanh(z - half)), np.float64(math.tanh(z + half)))


def spearman_brown(r: Any) -> np.ndarray:
    """Return the reliability of a whole from the correlation ``r`` of its two halves: ``2r / (1 + r)``.

    Examples
    --------
    >>> float(spearman_brown(0.8).round(4))
    0.8889
    """
    r = _f(r)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(r > -1, 2 * r / (1 + r), np.nan)
