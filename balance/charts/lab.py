"""Charts of counterfactual card values, sweeps and tune proposals: ``plot_<thing>(df, ...) -> Axes``.

Like :mod:`balance.charts`: already-aggregated tidy frames in, axes out, nothing computed
beyond sorting and scaling, nothing shown or saved; titles state ``n`` and the interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from balance.charts._base import GREY, PALETTE, new_axes, style

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _label(value: Any) -> str:
    """Return ``value`` as text matplotlib prints literally (no mathtext)."""
    return str(value).replace("$", r"\$")


def _intervals(ax: Axes, y: np.ndarray, est: Any, lo: Any, hi: Any, colours: Sequence[str]) -> None:
    """Draw a point at ``est`` and a bar from ``lo`` to ``hi`` on each row ``y``."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    ax.hlines(y, lo, hi, colors=list(colours), linewidth=1.1)
    ax.scatter(est, y, s=16, c=list(colours), zorder=3)


def plot_value_forest(values: pl.DataFrame, *, axes: Sequence[Axes] | None = None) -> list[Axes]:
    """Plot each card's Δ (sorted) with its paired 95 % interval, and beside it GIH WR and IWD with theirs.

    ``values`` is ``values.parquet`` (:func:`balance.value.values_frame`). Three panels share
    the card axis: Δ win rate of the holder (pp), GIH WR (%) and IWD (pp) from the same
    games. Cards whose Δ interval excludes 0 are coloured.

    Examples
    --------
    >>> v = pl.DataFrame({"name": ["a", "b"], "delta": [0.02, -0.01], "ci_low": [0.01, -0.02],
    ...     "ci_high": [0.03, 0.0], "n_pairs": [100, 120], "gih_wr": [0.5, 0.4], "gih_wr_lo": [0.45, 0.35],
    ...     "gih_wr_hi": [0.55, 0.45], "iwd": [0.1, 0.2], "iwd_lo": [0.0, 0.1], "iwd_hi": [0.2, 0.3]})
    >>> [t.get_text() for t in plot_value_forest(v)[0].get_yticklabels()]
    ['b', 'a']
    """
    rows = values.filter(pl.col("delta").is_not_null()).sort("delta")
    height = max(3.0, 1.4 + 0.16 * rows.height)
    with style():
        if axes is None:
            fig = new_axes(11.0, height, ncols=3)[0].figure
            axes = fig.axes
            fig.subplots_adjust(left=0.17, wspace=0.12)
        y = np.arange(rows.height)
        colours = [
            PALETTE[1] if lo > 0 else PALETTE[0] if hi < 0 else GREY
            for lo, hi in zip(rows["ci_low"], rows["ci_high"], strict=True)
        ]
        panels = [
            ("delta", "ci_low", "ci_high", 100, "Δ win rate of the holder (pp)", 0.0),
            ("gih_wr", "gih_wr_lo", "gih_wr_hi", 100, "GIH WR, same games (%)", 50.0),
            ("iwd", "iwd_lo", "iwd_hi", 100, "IWD, same games (pp)", 0.0),
        ]
        for ax, (col, lo, hi, scale, xlabel, ref) in zip(axes, panels, strict=True):
            if col in rows.columns:
                est = rows[col].fill_null(np.nan).to_numpy() * scale
                low = rows[lo].fill_null(np.nan).to_numpy() * scale
                high = rows[hi].fill_null(np.nan).to_numpy() * scale
                _intervals(ax, y, est, low, high, colours if col == "delta" else [GREY] * rows.height)
            ax.axvline(ref, color=GREY, linewidth=0.8, linestyle="--", zorder=0)
            ax.set_xlabel(xlabel)
            ax.set_ylim(-0.7, rows.height - 0.3)
            ax.grid(axis="y", visible=False)
            ax.set_yticks(y, [_label(n) for n in rows["name"]] if ax is axes[0] else [])
            ax.tick_params(axis="y", labelsize=7)
        n = rows["n_pairs"] if rows.height else pl.Series([0])
        pairs = f"{int(n.min() or 0):,}–{int(n.max() or 0):,}".replace(",", " ")
        axes[0].set_title(f"Δ of {rows.height} cards (paired)\n{pairs} pairs/card, 95 % CI", loc="left", fontsize=9)
        axes[1].set_title("GIH WR (observational)\nWilson 95 % CI", loc="left", fontsize=9)
        axes[2].set_title("IWD (observational)\nNewcombe 95 % CI", loc="left", fontsize=9)
    return list(axes)


def plot_sweep_curve(points: pl.DataFrame, *, metric: str, label: str, ax: Axes | None = None) -> Axes:
    """Plot one metric of a sweep against the swept value, with its 95 % interval as a band.

    ``points`` has ``value, metric, estimate, lo, hi, n`` (:func:`balance.sweep.point_metrics`);
    rows of other metrics are ignored. Rates are drawn in percent.

    Examples
    --------
    >>> p = pl.DataFrame({"value": [1.0, 2.0], "metric": ["x", "x"], "unit": ["rate", "rate"],
    ...     "estimate": [0.4, 0.5], "lo": [0.35, 0.45], "hi": [0.45, 0.55], "n": [100, 100]})
    >>> plot_sweep_curve(p, metric="x", label="swept").get_xlabel()
    'swept'
    """
    rows = points.filter(pl.col("metric") == metric).sort("value")
    with style():
        ax = ax or new_axes(5.5, 3.4)[0]
        rate = rows.height and rows["unit"][0] in ("rate", "pp")
        scale = 100 if rate else 1
        x = rows["value"].to_numpy().astype(float)
        est, lo, hi = (rows[c].fill_null(np.nan).to_numpy().astype(float) * scale for c in ("estimate", "lo", "hi"))
        ax.fill_between(x, lo, hi, color=PALETTE[0], alpha=0.2, linewidth=0)
        ax.plot(x, est, marker="o", markersize=3.5, color=PALETTE[0])
        ax.set_xlabel(_label(label))
        unit = rows["unit"][0] if rows.height else ""
        ax.set_ylabel({"rate": "%", "pp": "pp"}.get(unit, unit))
        n = rows["n"] if rows.height else pl.Series([0])
        title = rows["label"][0] if "label" in rows.columns and rows.height else metric
        count = f"{int(n.min() or 0):,}".replace(",", " ")
        ax.set_title(f"{_label(title)}\nn = {count} per point, 95 % CI", loc="left")
    return ax
