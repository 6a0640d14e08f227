"""Charts of one-seat (solitaire) runs: outcomes by group, level progression, how steps end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balance.charts._base import (
    GREY,
    PALETTE,
    _axes,
    _fit_labels,
    _forest,
    _integer_ticks,
    _n_range,
    _num,
    _styled,
    _text,
    palette,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@_styled
def plot_group_means(df: pl.DataFrame, *, metric: str, by: str = "group", ax: Axes | None = None) -> Axes:
    """Plot the mean of ``metric`` per group with 95 % intervals, sorted (``group_outcomes`` rows).

    ``df`` has ``by, counter, n, mean, lo, hi``; rows of other counters are ignored.

    Examples
    --------
    >>> df = pl.DataFrame({"cls": ["a", "b"], "counter": ["kills", "kills"], "n": [10, 12],
    ...     "mean": [2.0, 3.5], "lo": [1.5, 3.0], "hi": [2.5, 4.0]})
    >>> [t.get_text() for t in plot_group_means(df, metric="kills", by="cls").get_yticklabels()]
    ['b', 'a']
    """
    rows = df.filter((pl.col("counter") == metric) & pl.col("mean").is_not_null()).sort("mean", descending=True)
    ax = _axes(ax, rows.height)
    lo = rows["lo"].to_numpy().astype(float)
    hi = rows["hi"].to_numpy().astype(float)
    est = rows["mean"].to_numpy().astype(float)
    lo, hi = np.where(np.isfinite(lo), lo, est), np.where(np.isfinite(hi), hi, est)
    _forest(ax, rows[by].cast(pl.String).to_list(), est, lo, hi, [PALETTE[0]] * rows.height, ref=None)
    name = _text(metric).replace("_", " ")
    ax.set_xlabel(f"{name} (mean per game)")
    ax.set_title(f"Mean {name} by {_text(by).replace('_', ' ')}\n{_n_range(rows['n'])} games per group, 95 % CI")
    return ax


@_styled
def plot_level_progression(df: pl.DataFrame, *, unit: str = "battle", ax: Axes | None = None) -> Axes:
    """Plot ``level_progression``: the first step at each level, mean with 95 % CI and 10–90 % band.

    Examples
    --------
    >>> df = pl.DataFrame({"level": [1, 2], "n": [10, 6], "mean": [1.0, 4.5], "lo": [1.0, 3.9], "hi": [1.0, 5.1],
    ...     "p10": [1.0, 2.0], "p90": [1.0, 7.0]})
    >>> plot_level_progression(df).get_xlabel()
    'level'
    """
    ax = _axes(ax)
    rows = df.filter(pl.col("n") > 0).sort("level")
    x = rows["level"].to_numpy()
    mean = rows["mean"].to_numpy().astype(float)
    lo, hi = (np.where(np.isfinite(v), v, mean) for v in (rows[c].to_numpy().astype(float) for c in ("lo", "hi")))
    ax.fill_between(x, rows["p10"].to_numpy(), rows["p90"].to_numpy(), color=PALETTE[0], alpha=0.15, linewidth=0)
    ax.errorbar(x, mean, yerr=[mean - lo, hi - mean], color=PALETTE[0], marker="o", markersize=4, capsize=3)
    for xi, yi, ni in zip(x, mean, rows["n"].to_list(), strict=True):
        ax.annotate(f"n={_num(ni)}", (xi, yi), textcoords="offset points", xytext=(4, -11), fontsize=7, color=GREY)
    label = _text(unit)
    if len(x):
        ax.set_xlim(float(x.min()) - 0.4, float(x.max()) + 0.8)  # room for the last n label
    ax.xaxis.set_major_locator(_integer_ticks())
    ax.set_xlabel("level")
    ax.set_ylabel(f"first {label} played at the level ({label} number)")
    ax.set_title(
        f"{label.capitalize()}s to reach each level\n"
        f"{_n_range(rows['n'])} games per level; mean, 95 % CI; band: 10–90 % of games"
    )
    return ax


@_styled
def plot_step_outcomes(
    df: pl.DataFrame, *, by: str, values: Sequence[str] | None = None, unit: str = "battle", ax: Axes | None = None
) -> Axes:
    """Plot ``step_outcomes(..., by=by)``: the share of steps ending each way per group, 95 % CIs.

    ``values`` picks the outcome values drawn (default: all but the most common overall,
    e.g. every way of losing a battle when most are won); each gets a colour.

    Examples
    --------
    >>> df = pl.DataFrame({"level": [1, 1, 2, 2], "outcome": ["died", "won", "died", "won"], "count": [1, 9, 3, 7],
    ...     "n": [10] * 4, "rate": [0.1, 0.9, 0.3, 0.7], "lo": [0.02, 0.6, 0.1, 0.4], "hi": [0.4, 0.98, 0.6, 0.9]})
    >>> [t.get_text() for t in plot_step_outcomes(df, by="level").get_yticklabels()]
    ['level 1', 'level 2']
    """
    if values is None:
        totals = df.group_by("outcome").agg(pl.col("count").sum()).sort("count", "outcome", descending=[True, False])
        values = totals["outcome"].to_list()[1:] or totals["outcome"].to_list()
    groups = df[by].unique(maintain_order=True).sort().to_list()
    ax = _axes(ax, len(groups) * max(1, len(values)) // 2 + len(groups))
    colours = palette(values)
    y0 = np.arange(len(groups))[::-1].astype(float)
    step = 0.7 / max(len(values), 1)
    for i, v in enumerate(values):
        part = df.filter(pl.col("outcome") == v)
        rates = {r[by]: r for r in part.iter_rows(named=True)}
        y = y0 + 0.35 - step * (i + 0.5)
        est = np.array([rates[g]["rate"] if g in rates and rates[g]["rate"] is not None else np.nan for g in groups])
        lo = np.array([rates[g]["lo"] if g in rates else np.nan for g in groups], dtype=float)
        hi = np.array([rates[g]["hi"] if g in rates else np.nan for g in groups], dtype=float)
        ax.hlines(y, lo * 100, hi * 100, colors=colours[v], linewidth=1.2)
        ax.scatter(est * 100, y, s=20, color=colours[v], zorder=3, label=_text(v))
    numeric = df.schema[by].is_numeric()
    labels = [f"{_text(by).replace('_', ' ')} {g}" if numeric else _text(g) for g in groups]
    ax.set_yticks(y0, labels)
    _fit_labels(ax, labels)
    ax.set_ylim(-0.7, len(groups) - 0.3)
    ax.grid(axis="y", visible=False)
    if values:
        ax.legend(title="outcome", loc="best")
    label = _text(unit)
    n = df.group_by(by).agg(pl.col("n").first())["n"] if df.height else None
    ax.set_xlabel(f"share of {label}s (%)")
    ax.set_title(f"How {label}s end, by {_text(by).replace('_', ' ')}\n{_n_range(n)} {label}s per group, 95 % CI")
    return ax
