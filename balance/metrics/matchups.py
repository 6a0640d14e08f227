"""Deck pairings: how each named deck fares against each other deck, for any two-seat game.

A run qualifies when its ``seats`` table has a text ``deck`` column (the deck each seat
played, e.g. Card Wars' starter decks) and ``won``. The matrix counts seat-games: row
deck ``a`` against column deck ``b`` is every seat that played ``a`` in a game whose other
seat played ``b``. Off the diagonal each game counts once in ``(a, b)`` and once in
``(b, a)``; a mirror ``(a, a)`` counts both seats of each game, so its rate is
``(1 - draw share) / 2`` by construction and the informative mirror figure is the first
mover's share (:func:`pairing_first_mover`).
"""

from __future__ import annotations

import polars as pl

from balance.metrics._common import columns, with_mean_ci, with_wilson


def has_matchups(seats: pl.LazyFrame | pl.DataFrame | None) -> bool:
    """Return whether ``seats`` names a deck per seat (a text ``deck`` column) and has ``won``.

    Examples
    --------
    >>> has_matchups(pl.LazyFrame({"game": [0], "seat": [0], "deck": ["finn"], "won": [1]}))
    True
    >>> has_matchups(pl.LazyFrame({"game": [0], "seat": [0], "deck": [[1, 2]], "won": [1]}))
    False
    """
    if seats is None:
        return False
    schema = seats.collect_schema() if isinstance(seats, pl.LazyFrame) else seats.schema
    return "won" in schema and schema.get("deck") in (pl.String, pl.Categorical)


def _games(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Return one row per game: ``game, deck_0, won_0, deck_1, won_1`` (seat 0 joined to seat 1).

    Decks are categorical while grouped (a join of 1 M seat-0 rows to 1 M seat-1 rows on an
    integer key: about half the work of joining every seat to every other seat of its game).
    """
    lf = seats.lazy().select("game", "seat", pl.col("deck").cast(pl.Categorical), "won")

    def one(seat: int) -> pl.LazyFrame:
        return lf.filter(pl.col("seat") == seat).select(
            "game", pl.col("deck").alias(f"deck_{seat}"), pl.col("won").alias(f"won_{seat}")
        )

    return one(0).join(one(1), on="game")


def pairing_counts(seats: pl.LazyFrame, games: pl.LazyFrame | None = None) -> pl.DataFrame:
    """Return the counts of each ordered deck pairing from one join: what the matchup matrix and first movers sum.

    Columns: ``deck_0, deck_1`` (seat 0's deck first, text), ``n_games``, ``wins_0``,
    ``wins_1`` (seats with ``won == 1``) and, with ``games`` (``first_seat``, ``winner``), the
    games it has a row for (``n_first``), decided (``n``) and won by the first mover
    (``first_wins``). Unsorted: :func:`matchups_from` and :func:`first_mover_from` sort.
    """
    joined = _games(seats)
    won = [(pl.col(f"won_{s}") == 1).sum().alias(f"wins_{s}") for s in (0, 1)]
    first: list[pl.Expr] = []
    if games is not None:
        marked = games.lazy().select("game", "first_seat", "winner", pl.lit(True).alias("in_games"))
        joined = joined.join(marked, on="game", how="left")  # every seat counts in the matrix, as without games
        first = [
            pl.col("in_games").sum().alias("n_first"),
            (pl.col("winner") >= 0).sum().alias("n"),
            (pl.col("winner") == pl.col("first_seat")).sum().alias("first_wins"),
        ]
    return (
        joined.group_by("deck_0", "deck_1")  # ordered pairings, categorical: the rows stay unnamed
        .agg(pl.len().alias("n_games"), *won, *first)
        .with_columns(pl.col("deck_0", "deck_1").cast(pl.String))
        .collect()
    )


def matchups_from(counts: pl.DataFrame) -> pl.DataFrame:
    """Return :func:`deck_matchups` from :func:`pairing_counts` (each game once as seat 0's deck, once as seat 1's)."""
    both = pl.concat(
        [
            counts.select(deck="deck_0", opponent="deck_1", n="n_games", wins="wins_0"),
            counts.select(deck="deck_1", opponent="deck_0", n="n_games", wins="wins_1"),
        ]
    )
    out = both.group_by("deck", "opponent").agg(pl.col("n", "wins").sum()).sort("deck", "opponent")
    return with_wilson(out, "wins", "n")


def first_mover_from(counts: pl.DataFrame) -> pl.DataFrame:
    """Return :func:`pairing_first_mover` from :func:`pairing_counts` made with the games."""
    out = (
        counts.select(
            deck_a=pl.min_horizontal("deck_0", "deck_1"),
            deck_b=pl.max_horizontal("deck_0", "deck_1"),
            n_games="n_first",
            n="n",
            first_wins="first_wins",
        )
        .group_by("deck_a", "deck_b")
        .agg(pl.col("n_games", "n", "first_wins").sum())
        .filter(pl.col("n_games") > 0)
        .sort("deck_a", "deck_b")
    )
    return with_wilson(out, "first_wins", "n")


def deck_matchups(seats: pl.LazyFrame) -> pl.DataFrame:
    """Return the row deck's win rate against each column deck: ``deck, opponent, n, wins, rate, lo, hi``.

    ``n`` counts seat-games (see the module doc); draws and timeouts count as not won.

    Examples
    --------
    >>> seats = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "deck": ["a", "b", "b", "a"],
    ...     "won": [1, 0, 1, 0]})
    >>> deck_matchups(seats).select("deck", "opponent", "n", "wins").rows()
    [('a', 'b', 2, 1), ('b', 'a', 2, 1)]
    """
    return matchups_from(pairing_counts(seats))


def pairing_first_mover(seats: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Return each unordered deck pairing's first-mover share of decided games.

    Columns: ``deck_a, deck_b`` (``deck_a <= deck_b``; equal for a mirror), ``n_games``,
    ``n`` (decided), ``first_wins, rate, lo, hi`` (Wilson 95 %).

    Examples
    --------
    >>> seats = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "deck": ["a", "a", "a", "b"],
    ...     "won": [1, 0, 0, 0]})
    >>> games = pl.LazyFrame({"game": [0, 1], "first_seat": [0, 1], "winner": [0, -1]})
    >>> pairing_first_mover(seats, games).select("deck_a", "deck_b", "n_games", "n", "first_wins").rows()
    [('a', 'a', 1, 1, 1), ('a', 'b', 1, 0, 0)]
    """
    return first_mover_from(pairing_counts(seats, games))


def deck_order(matchups: pl.DataFrame) -> list[str]:
    """Return the decks of a matchup frame in a stable order (alphabetical)."""
    if matchups.height == 0 or "deck" not in columns(matchups):
        return []
    return sorted(set(matchups["deck"].to_list()) | set(matchups["opponent"].to_list()))


def members_from_dim(card_dim: pl.DataFrame, decks: list[str]) -> pl.DataFrame | None:
    """Return ``card, deck`` from the card dimension's ``in_<deck>`` copy counts, or None if a deck has none.

    Examples
    --------
    >>> dim = pl.DataFrame({"card": [0, 1, 2], "in_a": [2, 0, 1], "in_b": [0, 3, 1]})
    >>> members_from_dim(dim, ["a", "b"]).rows()
    [(0, 'a'), (1, 'b'), (2, 'a'), (2, 'b')]
    >>> members_from_dim(dim, ["a", "c"]) is None
    True
    """
    if "card" not in card_dim.columns or any(f"in_{d}" not in card_dim.columns for d in decks):
        return None
    parts = [
        card_dim.filter(pl.col(f"in_{d}") > 0).select(pl.col("card").cast(pl.Int64), pl.lit(d).alias("deck"))
        for d in decks
    ]
    return pl.concat(parts).sort("card", "deck")


def deck_members(cards: pl.LazyFrame, seats: pl.LazyFrame, *, max_games: int = 2_000) -> pl.DataFrame:
    """Return which named decks hold each card: ``card, deck`` (one row per card and deck), sorted.

    Read from the first ``max_games`` games of the ``cards`` table (one row per game, seat
    and card held) joined to the seat's ``deck``: the decks are fixed lists, so a few
    thousand games show every card of every deck that was played.

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 0, 0, 1], "seat": [0, 0, 1, 0], "card": [5, 6, 5, 7]})
    >>> seats = pl.LazyFrame({"game": [0, 0, 1], "seat": [0, 1, 0], "deck": ["a", "b", "c"], "won": [1, 0, 0]})
    >>> deck_members(cards, seats).rows()
    [(5, 'a'), (5, 'b'), (6, 'a'), (7, 'c')]
    """
    first = cards.select(pl.col("game").min()).collect().item()
    if first is None:
        return pl.DataFrame(schema={"card": pl.Int64, "deck": pl.String})
    held = cards.filter(pl.col("game") < first + max_games).select("game", "seat", pl.col("card").cast(pl.Int64))
    first_games = pl.col("game") < first + max_games
    decks = seats.lazy().filter(first_games).select("game", "seat", pl.col("deck").cast(pl.String))
    return held.join(decks, on=["game", "seat"]).select("card", "deck").unique().sort("card", "deck").collect()


def _oriented(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Return one row per seat-game: ``game, side (0/1), deck, opponent, won`` (decks as text)."""
    games = _games(seats).with_columns(pl.col("deck_0", "deck_1").cast(pl.String))
    return pl.concat(
        [
            games.select("game", side=pl.lit(0, pl.Int8), deck="deck_0", opponent="deck_1", won="won_0"),
            games.select("game", side=pl.lit(1, pl.Int8), deck="deck_1", opponent="deck_0", won="won_1"),
        ]
    )


def compare_decks(a: pl.LazyFrame, b: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return each deck's, and each pairing's, paired win-rate difference between two runs' ``seats`` (A − B).

    Seat-games are paired by game and seat, and kept only where both runs gave the seat the
    same deck against the same opponent deck (runs on the same seeds with a rule variant
    deal the same decks); the join is made once and summed per pairing, and the decks'
    rows are those sums added up. Both frames have ``deck`` (the pairings also
    ``opponent``), ``n`` (paired seat-games), ``wins_a``/``wins_b`` with ``rate_a, lo_a,
    hi_a`` and ``rate_b, lo_b, hi_b`` (Wilson 95 %), ``delta`` with ``lo``, ``hi`` (t
    interval of the paired differences, 95 %), ``significant``.

    Examples
    --------
    >>> a = pl.LazyFrame({"game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "deck": ["x", "y", "y", "x", "x", "x"],
    ...     "won": [1, 0, 0, 1, 1, 0]})
    >>> b = a.with_columns(pl.when(pl.col("game") == 0).then(1 - pl.col("won")).otherwise(pl.col("won")).alias("won"))
    >>> by_deck, by_pairing = compare_decks(a, b)
    >>> by_deck.select("deck", "n", "rate_a", "rate_b", "delta").rows()
    [('x', 4, 0.75, 0.5, 0.25), ('y', 2, 0.0, 0.5, -0.5)]
    >>> by_pairing.select("deck", "opponent", "n", "delta").rows()
    [('x', 'x', 2, 0.0), ('x', 'y', 2, 0.5), ('y', 'x', 2, -0.5)]
    """
    side_b = _oriented(b).select("game", "side", pl.col("deck").alias("deck_b"),
                                 pl.col("opponent").alias("opponent_b"), pl.col("won").alias("won_b"))  # fmt: skip
    joined = _oriented(a).join(side_b, on=["game", "side"])
    same = joined.filter((pl.col("deck") == pl.col("deck_b")) & (pl.col("opponent") == pl.col("opponent_b")))
    x, y = (pl.col("won") == 1).cast(pl.Int64), (pl.col("won_b") == 1).cast(pl.Int64)
    sums = ["n", "wins_a", "wins_b", "d_sq"]
    pairs = (
        same.group_by("deck", "opponent")
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            x.sum().alias("wins_a"),
            y.sum().alias("wins_b"),
            ((x - y) * (x - y)).sum().alias("d_sq"),
        )
        .sort("deck", "opponent")
        .collect()
    )
    decks = pairs.group_by("deck").agg(pl.col(sums).sum()).sort("deck")
    return _paired_rates(decks), _paired_rates(pairs)


def _paired_rates(sums: pl.DataFrame) -> pl.DataFrame:
    """Turn ``n, wins_a, wins_b, d_sq`` (sum of squared differences) into rates, Δ and their intervals."""
    n = pl.col("n").cast(pl.Float64)
    delta = (pl.col("wins_a") - pl.col("wins_b")) / n
    sd = ((pl.col("d_sq") - n * delta * delta) / (n - 1)).clip(lower_bound=0.0).sqrt()
    out = sums.with_columns(delta.alias("delta"), pl.when(n > 1).then(sd).otherwise(0.0).alias("sd"))
    out = with_wilson(out, "wins_a", "n", ("rate_a", "lo_a", "hi_a"))
    out = with_wilson(out, "wins_b", "n", ("rate_b", "lo_b", "hi_b"))
    out = with_mean_ci(out, "delta", "sd", "n")
    significant = pl.col("lo").is_finite() & pl.col("hi").is_finite() & ((pl.col("lo") > 0) | (pl.col("hi") < 0))
    return out.drop("sd", "d_sq").with_columns(significant.fill_null(False).alias("significant"))
