"""The deck-pairing section of a report: a win-rate heat map with intervals, for any game naming decks per seat.

``deck_facts(run)`` computes the matrix and each deck's win rate once (the summary's
deck sentence reads them too), or None when the run's ``seats`` table names no decks
(``balance.metrics.matchups.has_matchups``); ``matchups_section(facts, run, out)``
draws the section; the heat map is ``balance.charts.plot_matchup_matrix``.
"""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.metrics.matchups import deck_matchups, has_matchups, pairing_first_mover
from balance.report.html import Charts, estimate, note, number, section, table, text


class DeckFacts(NamedTuple):
    """The deck figures of a run: the pairing matrix and each deck over all pairings."""

    matrix: pl.DataFrame  # deck_matchups
    overall: pl.DataFrame  # win_rates by deck: deck, n, wins, rate, lo, hi


def deck_facts(run: Run) -> DeckFacts | None:
    """Return the run's deck figures, or None when it is not a two-seat game naming a deck per seat."""
    if run.n_seats != 2 or not has_matchups(run.seats):
        return None
    matrix = deck_matchups(run.seats)
    return DeckFacts(matrix, m.win_rates(run.seats, by="deck")) if matrix.height else None


def matchups_section(facts: DeckFacts | None, run: Run, out: Charts) -> str | None:
    """Return the deck-pairing section (heat map, cells, deck win rates, first mover by pairing), or None."""
    if facts is None:
        return None
    matrix, overall = facts
    parts = [
        out.add(
            "deck_matchups",
            charts.plot_matchup_matrix(matrix).figure,
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
