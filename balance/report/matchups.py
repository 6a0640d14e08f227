"""The deck-pairing section of a report: a win-rate heat map with intervals, for any game naming decks per seat.

``matchups_section(run, out)`` returns the section, or None when the run's ``seats``
table names no decks (``balance.metrics.matchups.has_matchups``); ``plot_matchup_matrix``
draws the matrix (``charts.py`` style: a tidy frame in, an ``Axes`` out).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.axes import Axes

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.metrics.matchups import deck_matchups, deck_order, has_matchups, pairing_first_mover
from balance.report.html import Charts, estimate, note, number, section, table, text


@charts._styled
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
        ax = charts.new_axes(size + 1.2, size)[0]
    grid = np.full((k, k), np.nan)
    where = {d: i for i, d in enumerate(decks)}
    for r in df.iter_rows(named=True):
        i, j = where[r["deck"]], where[r["opponent"]]
        grid[i, j] = r["rate"]
        label = f"{r['rate'] * 100:.1f} %\n[{r['lo'] * 100:.1f}, {r['hi'] * 100:.1f}]\nn {charts._num(r['n'])}"
        ax.text(j, i, label, ha="center", va="center", fontsize=7.5)
    image = ax.imshow(grid, cmap="RdBu", vmin=0.25, vmax=0.75)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="row deck's win rate")
    ax.set_xticks(range(k), [charts._text(d) for d in decks])
    ax.set_yticks(range(k), [charts._text(d) for d in decks])
    ax.set_xlabel("opponent deck (column)")
    ax.set_ylabel("deck (row)")
    ax.grid(visible=False)
    total = int(df["n"].sum()) // 2 if df.height else 0
    ax.set_title(f"Win rate of the row deck against the column deck\n95 % Wilson intervals; {total:,} games")
    return ax


def matchups_section(run: Run, out: Charts) -> str | None:
    """Return the deck-pairing section (heat map, cells, deck win rates, first mover by pairing), or None."""
    if run.n_seats != 2 or not has_matchups(run.seats):
        return None
    matrix = deck_matchups(run.seats)
    if matrix.height == 0:
        return None
    parts = [
        out.add(
            "deck_matchups",
            plot_matchup_matrix(matrix).figure,
            "Deck matchup matrix: win rate of the row deck against the column deck, 95 % intervals",
            "Mirrors (the diagonal) are 50 % less half the draws by construction; see the first mover below.",
        ),
        table(
            ["deck", "against", "seat-games", "wins", "win rate [95 % CI]"],
            [
                [
                    text(r["deck"]),
                    text(r["opponent"]),
                    number(r["n"]),
                    number(r["wins"]),
                    estimate(r["rate"], r["lo"], r["hi"]),
                ]
                for r in matrix.iter_rows(named=True)
            ],
            caption="Draws and timeouts count as not won.",
        ),
    ]
    overall = m.win_rates(run.seats, by="deck")
    parts.append("<h3>Each deck over all pairings</h3>")
    parts.append(
        table(
            ["deck", "seat-games", "wins", "win rate [95 % CI]"],
            [
                [text(r["deck"]), number(r["n"]), number(r["wins"]), estimate(r["rate"], r["lo"], r["hi"])]
                for r in overall.iter_rows(named=True)
            ],
        )
    )
    if "first_seat" in run.games.collect_schema().names():
        first = pairing_first_mover(run.seats, run.games)
        parts.append("<h3>First mover's share of decided games, by pairing</h3>")
        parts.append(
            table(
                ["pairing", "games", "decided", "first mover won", "share [95 % CI]"],
                [
                    [
                        text(f"{r['deck_a']} vs {r['deck_b']}"),
                        number(r["n_games"]),
                        number(r["n"]),
                        number(r["first_wins"]),
                        estimate(r["rate"], r["lo"], r["hi"]),
                    ]
                    for r in first.iter_rows(named=True)
                ],
                caption="A mirror pairing's share is the first-player advantage with deck strength removed.",
            )
        )
    else:
        parts.append(note("The games table has no first_seat column: no first-mover figures by pairing."))
    return section("matchups", "Deck matchups", *parts)
