"""Chart of deck pairings: the win-rate matrix of named decks with its intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balance.charts._base import _num, _styled, _text, new_axes
from balance.metrics.matchups import deck_order

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@_styled
def plot_matchup_matrix(df: pl.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Plot ``deck_matchups`` as a heat map: each cell the row deck's win rate against the column deck.

    Cells show the rate, its 95 % Wilson interval and ``n`` (seat-games); colour runs from
    25 % (red) through 50 % (white) to 75 % (blue) and beyond, clipped.

    Examples
    --------
    >>> df = pl.DataFrame({"deck": ["a", "a", "b", "b"], "opponent": ["a", "b", "a", "b"],
    ...     "n": [10, 20, 20, 10], "wins": [5, 12, 8, 5], "rate": [0.5, 0.6, 0.4, 0.5],
    ...     "lo": [0.2, 0.4, 0.2, 0.2], "hi": [0.8, 0.8, 0.6, 0.8]})
    >>> len(plot_matchup_matrix(df).texts)
    4
    """
    decks = deck_order(df)
    k = len(decks)
    if ax is None:
        size = 1.6 + 1.25 * k
        ax = new_axes(size + 1.2, size)[0]
        ax.figure.subplots_adjust(right=1 - 1.1 / (size + 1.2))  # room for the colour bar, its ticks and label
    grid = np.full((k, k), np.nan)
    where = {d: i for i, d in enumerate(decks)}
    for r in df.iter_rows(named=True):
        i, j = where[r["deck"]], where[r["opponent"]]
        grid[i, j] = r["rate"]
        label = f"{r['rate'] * 100:.1f} %\n[{r['lo'] * 100:.1f}, {r['hi'] * 100:.1f}]\nn {_num(r['n'])}"
        dark = abs(r["rate"] - 0.5) > 0.15  # the colour map's saturated ends: white text stays readable
        ax.text(j, i, label, ha="center", va="center", fontsize=7.5, color="white" if dark else "black")
    image = ax.imshow(grid, cmap="RdBu", vmin=0.25, vmax=0.75)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="row deck's win rate")
    ax.set_xticks(range(k), [_text(d) for d in decks])
    ax.set_yticks(range(k), [_text(d) for d in decks])
    ax.set_xlabel("opponent deck (column)")
    ax.set_ylabel("deck (row)")
    ax.grid(visible=False)
    total = int(df["n"].sum()) // 2 if df.height else 0
    ax.set_title(f"Win rate of the row deck against the column deck\n95 % Wilson intervals; {total:,} games")
    return ax
