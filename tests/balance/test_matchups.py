"""The deck-pairing matrix: metrics on known values, the chart, and the report section for any game naming decks."""

import numpy as np
import polars as pl
import pytest

from balance.charts import plot_matchup_matrix
from balance.metrics.games import win_rates
from balance.metrics.matchups import (
    deck_matchups,
    first_mover_from,
    has_matchups,
    matchups_from,
    pairing_counts,
    pairing_first_mover,
)
from balance.report.html import Charts
from balance.report.matchups import deck_facts, matchups_section


def seats_and_games():
    # game 0: a (seat 0) beats b; game 1: b (seat 0) beats a; game 2: a vs a, seat 1 wins; game 3: b vs a, a draw
    seats = pl.DataFrame(
        {
            "game": [0, 0, 1, 1, 2, 2, 3, 3],
            "seat": [0, 1, 0, 1, 0, 1, 0, 1],
            "deck": ["a", "b", "b", "a", "a", "a", "b", "a"],
            "won": [1, 0, 1, 0, 0, 1, 0, 0],
        }
    )
    games = pl.DataFrame({"game": [0, 1, 2, 3], "first_seat": [0, 1, 1, 0], "winner": [0, 0, 1, -1]})
    return seats.lazy(), games.lazy()


def test_matchups_count_each_seat_against_the_other_deck():
    seats, _ = seats_and_games()
    df = deck_matchups(seats)
    rows = {(r["deck"], r["opponent"]): (r["n"], r["wins"]) for r in df.iter_rows(named=True)}
    assert rows == {("a", "b"): (3, 1), ("b", "a"): (3, 1), ("a", "a"): (2, 1)}
    assert ((df["lo"] <= df["rate"]) & (df["rate"] <= df["hi"])).all()


def test_first_mover_by_unordered_pairing_counts_decided_games():
    seats, games = seats_and_games()
    df = pairing_first_mover(seats, games)
    rows = {(r["deck_a"], r["deck_b"]): (r["n_games"], r["n"], r["first_wins"]) for r in df.iter_rows(named=True)}
    # a-b games 0, 1, 3: game 0 first seat 0 won; game 1 first seat 1, seat 0 won; game 3 drawn
    assert rows == {("a", "a"): (1, 1, 1), ("a", "b"): (3, 2, 1)}


def test_first_mover_counts_match_a_game_by_game_count_over_both_seat_orders():
    rng = np.random.default_rng(3)
    n = 400
    deck = rng.choice(["finn", "jake", "bmo", "pb"], size=(n, 2))
    first, winner = rng.integers(0, 2, n), rng.integers(-1, 2, n)
    seats = pl.LazyFrame(
        {
            "game": np.repeat(np.arange(n), 2),
            "seat": np.tile([0, 1], n).astype(np.int8),
            "deck": deck.ravel(),
            "won": (np.repeat(winner, 2) == np.tile([0, 1], n)).astype(np.int8),
        }
    )
    games = pl.LazyFrame({"game": np.arange(n), "first_seat": first, "winner": winner})
    expected: dict[tuple[str, str], list[int]] = {}
    for g in range(n):
        row = expected.setdefault((min(deck[g]), max(deck[g])), [0, 0, 0])
        row[0] += 1
        row[1] += int(winner[g] >= 0)
        row[2] += int(winner[g] == first[g])
    df = pairing_first_mover(seats, games)
    assert df.columns[:5] == ["deck_a", "deck_b", "n_games", "n", "first_wins"]
    assert df.schema["n_games"] == df.schema["first_wins"] == pl.UInt32
    assert [(a, b) for a, b in df.select("deck_a", "deck_b").rows()] == sorted(expected)
    assert {(r[0], r[1]): list(r[2:5]) for r in df.rows()} == expected


def test_deck_facts_come_from_one_join_and_equal_the_direct_scans():
    seats, games = seats_and_games()
    facts = deck_facts(_Run(seats, games))
    assert facts.matrix.equals(deck_matchups(seats))
    assert facts.overall.equals(win_rates(seats, by="deck"))  # each seat in one cell of its deck's row
    assert facts.first.equals(pairing_first_mover(seats, games))


def test_a_game_without_a_games_row_counts_in_the_matrix_but_not_in_the_first_movers():
    seats, games = seats_and_games()
    counts = pairing_counts(seats, games.filter(pl.col("game") != 1))  # game 1: b (seat 0) vs a
    assert matchups_from(counts).equals(deck_matchups(seats))
    rows = {
        (r["deck_a"], r["deck_b"]): (r["n_games"], r["n"], r["first_wins"])
        for r in first_mover_from(counts).rows(named=True)
    }
    assert rows == {("a", "a"): (1, 1, 1), ("a", "b"): (2, 1, 1)}
    only_one = pairing_counts(seats, games.filter(pl.col("game") == 2))  # no a-b game in the games table
    assert first_mover_from(only_one).select("deck_a", "deck_b").rows() == [("a", "a")]


def test_only_text_decks_per_seat_qualify():
    assert has_matchups(pl.LazyFrame({"game": [0], "seat": [0], "deck": ["x"], "won": [0]}))
    assert not has_matchups(pl.LazyFrame({"game": [0], "seat": [0], "deck": [[3, 4]], "won": [0]}))
    assert not has_matchups(pl.LazyFrame({"game": [0], "seat": [0], "won": [0]}))
    assert not has_matchups(None)


def test_the_heat_map_draws_one_annotated_cell_per_pairing():
    seats, _ = seats_and_games()
    ax = plot_matchup_matrix(deck_matchups(seats))
    assert len(ax.texts) == 3  # (b, b) never played: no cell text
    assert "Win rate of the row deck" in ax.get_title(loc="left")
    assert "4 games" in ax.get_title(loc="left")
    assert ax.get_images()


class _Run:
    """A stand-in for ``balance.io.Run`` with the attributes the section reads."""

    def __init__(self, seats, games, n_seats=2):
        self.seats, self.games, self.n_seats = seats, games, n_seats
        self.sums = None  # no stored counts: read from the rows


def section(run, out):
    return matchups_section(deck_facts(run), Charts(out))


def test_the_section_is_generic_and_skips_runs_without_decks(tmp_path):
    seats, games = seats_and_games()
    html = section(_Run(seats, games), tmp_path)
    assert html is not None
    assert 'id="matchups"' in html
    assert "a vs b" in html
    assert (tmp_path / "deck_matchups.png").exists()
    no_decks = seats.drop("deck")
    assert section(_Run(no_decks, games), tmp_path) is None
    assert section(_Run(seats, games, n_seats=1), tmp_path) is None


@pytest.mark.parametrize("name", ["<script>", "a&b"])
def test_deck_names_are_escaped(tmp_path, name):
    seats = pl.LazyFrame({"game": [0, 0], "seat": [0, 1], "deck": [name, "x"], "won": [1, 0]})
    games = pl.LazyFrame({"game": [0], "first_seat": [0], "winner": [0]})
    html = section(_Run(seats, games), tmp_path)
    assert name not in html


def test_the_summary_names_each_deck_and_the_most_one_sided_pairing():
    from balance.report.summary import decks_sentence

    seats, _ = seats_and_games()
    facts = deck_facts(_Run(seats, None))
    assert facts.first is None  # no games table: no first movers
    topic, text = decks_sentence(facts.matrix, facts.overall)
    assert topic == "Decks"
    # a: 5 seat-games, 2 won (games 1 and 2 ... see seats_and_games); b: 3 seat-games, 1 won
    assert text.startswith("Over all pairings a wins 40.0")
    assert "b 33.3" in text
    assert "Most one-sided pairing: a against b, 33.3" in text  # both off-diagonal cells are 1 of 3; the first


def test_a_card_is_judged_against_its_own_decks_median():
    from balance.metrics.matchups import members_from_dim
    from balance.metrics.verdicts import flag_cards

    # deck x wins far more than deck y; card 2 is x's outlier, card 5 y's; card 6 is in both decks
    dim = pl.DataFrame({"card": list(range(7)), "in_x": [1, 1, 1, 0, 0, 0, 1], "in_y": [0, 0, 0, 1, 1, 1, 1]})
    wr = [0.70, 0.71, 0.80, 0.30, 0.31, 0.22, 0.50]
    df = pl.DataFrame({"card": list(range(7)), "w": wr, "w_lo": [w - 0.01 for w in wr], "w_hi": [w + 0.01 for w in wr]})
    members = members_from_dim(dim, ["x", "y"])
    assert members.filter(pl.col("card") == 6)["deck"].to_list() == ["x", "y"]
    flat = flag_cards(df, "w")["verdict"].to_list()
    assert flat == ["too strong"] * 3 + ["too weak"] * 3 + [None]  # the decks, not the cards
    by_deck = flag_cards(df, "w", members=members)
    assert by_deck["verdict"].to_list() == [None, None, "too strong", None, None, "too weak", None]
    ref = by_deck["reference"].to_list()
    assert ref[:3] == pytest.approx([0.705] * 3)  # median of x's cards 0.70, 0.71, 0.80, 0.50
    assert ref[6] == pytest.approx(0.5)  # card 6: median of every card of x and y


def test_a_comparison_pairs_deck_win_rates_by_game_and_seat():
    from balance.report.matchups import compare_decks_section

    seats, _ = seats_and_games()
    flipped = seats.with_columns(
        pl.when(pl.col("game") == 1).then(1 - pl.col("won")).otherwise(pl.col("won")).alias("won")
    )
    html, (topic, sentence) = compare_decks_section(_Run(seats, None), _Run(flipped, None), "A", "B")
    assert topic == "Decks"
    assert 'id="decks"' in html
    assert "a vs b" not in html  # pairings are rows "deck, against", not unordered pairs
    # game 1 flips: b (seat 0) won under A, a (seat 1) won under B; 5 a seat-games, 3 b seat-games
    assert "No deck's win rate differs significantly between A and B" in sentence  # 8 seat-games: wide intervals
    from balance.metrics.matchups import compare_decks

    rows = {
        r["deck"]: (r["n"], r["wins_a"], r["wins_b"]) for r in compare_decks(seats, flipped)[0].iter_rows(named=True)
    }
    assert rows == {"a": (5, 2, 3), "b": (3, 1, 0)}
    other = seats.with_columns(pl.when(pl.col("game") == 0).then(pl.lit("c")).otherwise(pl.col("deck")).alias("deck"))
    n_paired = compare_decks(seats, other)[0]["n"].sum()
    assert n_paired == 6  # game 0 dealt other decks in B: its two seat-games are not paired
