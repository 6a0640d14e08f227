"""Charts of paired comparisons between two runs: headline differences and differences by group."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balance.charts._base import (
    GREY,
    PALETTE,
    _axes,
    _forest,
    _n_range,
    _num,
    _styled,
    _text,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@_styled
def plot_comparison(
    df: pl.DataFrame, *, label_a: str = "A", label_b: str = "B", relative: bool = False, ax: Axes | None = None
) -> Axes:
    """Plot ``compare_runs`` rows as a forest plot of paired differences A − B with 95 % CIs.

    Rates are drawn in percentage points; pass rows of one unit per axes, or rows of
    several units with ``relative=True``: each Δ and interval is then drawn as a percentage
    of B's mean (rows where B's mean is 0 are left out).

    Examples
    --------
    >>> df = pl.DataFrame({"label": ["Mean kills", "Mean xp"], "unit": ["kills", "xp"], "n": [9, 9],
    ...     "value_a": [2.0, 30.0], "value_b": [1.6, 30.0], "delta": [0.4, 0.0], "lo": [0.2, -3.0],
    ...     "hi": [0.6, 3.0], "significant": [True, False]})
    >>> ax = plot_comparison(df, relative=True)
    >>> [round(float(x), 1) for x in ax.collections[-1].get_offsets()[:, 0]]
    [25.0, 0.0]
    """
    if relative:
        df = df.filter(pl.col("value_b").is_not_null() & (pl.col("value_b") != 0))
    ax = _axes(ax, df.height)
    if relative:
        scale = 100.0 / np.abs(df["value_b"].to_numpy().astype(float))
    else:
        scale = np.where(df["unit"].to_numpy() == "rate", 100.0, 1.0)
    colours = [PALETTE[1] if s else GREY for s in df["significant"].to_list()]
    _forest(
        ax,
        df["label"].to_list(),
        df["delta"].to_numpy() * scale,
        df["lo"].to_numpy() * scale,
        df["hi"].to_numpy() * scale,
        colours,
        ref=0.0,
    )
    units = {"rate": "percentage points"}
    if relative:
        ax.set_xlabel(f"{_text(label_a)} − {_text(label_b)} as % of {_text(label_b)} (orange = significant)")
    else:
        kinds = sorted({units.get(u, u) for u in df["unit"].to_list()})
        ax.set_xlabel(f"{_text(label_a)} − {_text(label_b)} ({', '.join(kinds)}; orange = significant)")
    ax.set_title(f"Paired difference\nn = {_num(df['n'].max() or 0)} games, 95 % CI")
    return ax


@_styled
def plot_group_deltas(
    df: pl.DataFrame, *, metric: str, label_a: str = "A", label_b: str = "B", ax: Axes | None = None
) -> Axes:
    """Plot ``compare_groups`` rows of one metric: paired Δ = A − B per group with 95 % CIs, sorted.

    Examples
    --------
    >>> df = pl.DataFrame({"column": ["cls"] * 2, "group": ["a", "b"], "metric": ["kills"] * 2, "n": [50, 50],
    ...     "delta": [0.5, -0.2], "lo": [0.1, -0.6], "hi": [0.9, 0.2], "significant": [True, False]})
    >>> [t.get_text() for t in plot_group_deltas(df, metric="kills").get_yticklabels()]
    ['a', 'b']
    """
    rows = df.filter((pl.col("metric") == metric) & pl.col("delta").is_not_null()).sort("delta", descending=True)
    ax = _axes(ax, rows.height)
    est = rows["delta"].to_numpy().astype(float)
    lo, hi = (np.where(np.isfinite(v), v, est) for v in (rows[c].to_numpy().astype(float) for c in ("lo", "hi")))
    colours = [PALETTE[1] if s else GREY for s in rows["significant"].to_list()]
    _forest(ax, rows["group"].to_list(), est, lo, hi, colours, ref=0.0)
    name = _text(metric).replace("_", " ")
    column = _text(rows["column"][0]).replace("_", " ") if rows.height else "group"
    ax.set_xlabel(f"{name} per game: {_text(label_a)} − {_text(label_b)} (orange = significant)")
    ax.set_title(f"Paired difference in {name} by {column}\n{_n_range(rows['n'])} paired games per group, 95 % CI")
    return ax
