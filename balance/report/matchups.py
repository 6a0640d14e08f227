"""The deck-pairing section of a report: a win-rate heat map with intervals, for any game naming decks per seat.

``deck_facts(run)`` computes the matrix and each deck's win rate once (the summary's
deck sentence reads them too), or None when the run's ``seats`` table names no decks
(``balance.metrics.matchups.has_matchups``); ``matchups_section(facts, out)``
draws the section; the heat map is ``balance.charts.plot_matchup_matrix``.
"""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.metrics import sources
from balance.metrics.matchups import compare_decks, first_mover_from, has_matchups, matchups_from
from balance.report.html import Cell, Charts, estimate, note, number, pct, points, section, table, text


class DeckFacts(NamedTuple):
    """The deck figures of a run: the pairing matrix, each deck over all pairings, first movers by pairing."""

    matrix: pl.DataFrame  # deck_matchups
    overall: pl.DataFrame  # win rates by deck (summed from the matrix): deck, n, wins, rate, lo, hi
    first: pl.DataFrame | None  # pairing_first_mover; None when the games table has no first_seat


def deck_facts(run: Run) -> DeckFacts | None:
    """Return the run's deck figures, or None when it is not a two-seat game naming a deck per seat.

    One join of the seats (and games) serves the matrix, the decks' win rates (each seat
    is in one cell of its deck's row) and the first movers.
    """
    if run.n_seats != 2 or not has_matchups(run.seats):
        return None
    first_seat = run.games is not None and "first_seat" in run.games.collect_schema().names()
    counts = sources.pairing_counts_of(run, first_seat=first_seat)
    matrix = matchups_from(counts)
    if not matrix.height:
        return None
    return DeckFacts(matrix, m.win_rates_over(matrix, "deck"), first_mover_from(counts) if first_seat else None)


def matchups_section(facts: DeckFacts | None, out: Charts) -> str | None:
    """Return the deck-pairing section (heat map, cells, deck win rates, first mover by pairing), or None."""
    if facts is None:
        return None
    matrix, overall, first = facts
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
    if first is not None:
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


def compare_decks_section(a: Run, b: Run, la: str, lb: str) -> tuple[str, tuple[str, str]] | None:
    """Return the paired deck section of a comparison and its summary sentence, or None without named decks."""
    if a.n_seats != 2 or not (has_matchups(a.seats) and has_matchups(b.seats)):
        return None
    decks, pairs = compare_decks(a.seats, b.seats)
    if decks.height == 0:
        return None

    def rows(df: pl.DataFrame, keys: list[str]) -> list[list[Cell]]:
        return [
            [
                *(text(r[k]) for k in keys),
                number(r["n"]),
                estimate(r["rate_a"], r["lo_a"], r["hi_a"]),
                estimate(r["rate_b"], r["lo_b"], r["hi_b"]),
                points(r["delta"], r["lo"], r["hi"]),
            ]
            for r in df.iter_rows(named=True)
        ]

    heads = ["paired seat-games", f"win rate {la} [95 % CI]", f"win rate {lb} [95 % CI]", "Δ A − B [95 % CI]"]
    caption = (
        "Seat-games paired by game and seat, kept where both runs dealt the same decks; draws count as not won; "
        "t interval. Not corrected for multiple comparisons."
    )
    html = section(
        "decks",
        "Decks (paired)",
        table(["deck", *heads], rows(decks, ["deck"]), caption=caption),
        "<h3>By pairing</h3>",
        table(
            ["deck", "against", *heads],
            rows(pairs.filter(pl.col("deck") != pl.col("opponent")), ["deck", "opponent"]),
            caption=caption
            + " Mirrors are left out: both seats count, so they win half the decided games by construction.",
        ),
    )
    moved = decks.filter(pl.col("significant"))
    if moved.height:
        shifts = ", ".join(
            f"{r['deck']} {r['delta'] * 100:+.1f} pp ({r['lo'] * 100:+.1f} to {r['hi'] * 100:+.1f}; "
            f"{pct(r['rate_a'])} vs {pct(r['rate_b'])})"
            for r in moved.sort("delta").iter_rows(named=True)
        )
        sentence = f"Deck win rates under {la} minus under {lb}, paired: {shifts}"
        still = decks.filter(~pl.col("significant"))["deck"].to_list()
        sentence += f"; no significant change for {', '.join(still)}." if still else "."
    else:
        sentence = f"No deck's win rate differs significantly between {la} and {lb} (paired seat-games, 95 %)."
    return html, ("Decks", sentence)
