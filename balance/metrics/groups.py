"""Results by game setting: every ``games`` enum column with a few values (deck, location, class ...).

A run can vary a setting per game (Cardia's ``grid`` sweeps deck x location; CardRPG
sweeps classes). :func:`group_results` gives, for each value of such a column, how many
games were played, how they ended, and each seat's win rate with its interval, so a
single run answers "win rate by deck / location". Paired comparisons of two settings
belong to ``balance compare``; these rows are per group, not paired.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from balance.metrics._common import columns, mean_sd, moment_aggs, with_mean_ci, with_wilson


def has_first_seat(games: pl.LazyFrame | pl.DataFrame) -> bool:
    """Return whether some game records a seat that moved first (``first_seat >= 0``).

    Games where both players act at once (Cardia) record ``first_seat = -1``; first-seat
    advantage and turn-order win rates mean nothing for them.

    Examples
    --------
    >>> has_first_seat(pl.LazyFrame({"first_seat": [-1, -1]})), has_first_seat(pl.LazyFrame({"first_seat": [0, 1]}))
    (False, True)
    """
    if "first_seat" not in columns(games):
        return False
    return bool(games.lazy().select((pl.col("first_seat") >= 0).any()).collect().item())


def group_results(games: pl.LazyFrame, seats: pl.LazyFrame, by: str) -> pl.DataFrame:
    """Return per value of the games column ``by``: games, draws, length and each seat's win rate.

    Columns ``by, n_games, draws, draw_rate, draw_lo, draw_hi, turns_mean, turns_lo,
    turns_hi, seat, bot, n, wins, rate, lo, hi`` (one row per value and seat; rates with
    Wilson 95 % intervals, the mean length with a t interval). ``bot`` is null when the
    seats table has none.

    Examples
    --------
    >>> games = pl.LazyFrame({"game": [0, 1, 2], "winner": [0, 1, -1], "turns": [4, 6, 5], "loc": ["a", "a", "b"]})
    >>> seats = pl.LazyFrame({"game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "won": [1, 0, 0, 1, 0, 0]})
    >>> group_results(games, seats, "loc").select("loc", "n_games", "draws", "seat", "wins").rows()
    [('a', 2, 0, 0, 1), ('a', 2, 0, 1, 1), ('b', 1, 1, 0, 0), ('b', 1, 1, 1, 0)]
    """
    return group_results_by(games, seats, [by])[by]


def group_results_by(games: pl.LazyFrame, seats: pl.LazyFrame, names: Sequence[str]) -> dict[str, pl.DataFrame]:
    """Return :func:`group_results` for each games column of ``names``, from one join of the seats to the games.

    Examples
    --------
    >>> games = pl.LazyFrame({"game": [0, 1], "winner": [0, 1], "turns": [4, 6], "a": ["x", "y"], "b": ["z", "z"]})
    >>> seats = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1] * 2, "won": [1, 0, 0, 1]})
    >>> {k: v.select(k, "seat", "wins").rows() for k, v in group_results_by(games, seats, ["a", "b"]).items()}
    {'a': [('x', 0, 1), ('x', 1, 0), ('y', 0, 0), ('y', 1, 1)], 'b': [('z', 0, 1), ('z', 1, 1)]}
    """
    names = list(names)
    has_bot = "bot" in columns(seats)
    bot = [pl.col("bot").first().cast(pl.String).alias("bot")] if has_bot else [pl.lit(None).alias("bot")]
    joined = seats.join(games.select("game", *names), on="game", how="inner")
    queries = []
    for by in names:
        key = pl.col(by).cast(pl.String)
        counts = [pl.len().alias("n_games"), (pl.col("winner") < 0).sum().alias("draws")]
        queries.append(games.group_by(key).agg(*counts, *moment_aggs(pl.col("turns"), "turns", integer=True)))
        queries.append(
            joined.group_by(key, "seat").agg(*bot, pl.len().alias("n"), (pl.col("won") == 1).sum().alias("wins"))
        )
    return finish_group_results(pl.collect_all(queries), names)  # the join once for every column


def finish_group_results(frames: Sequence[pl.DataFrame], names: Sequence[str]) -> dict[str, pl.DataFrame]:
    """Return :func:`group_results_by` from its counts: per column of ``names`` the games by value (``n_games``,
    ``draws`` and the games' length as :func:`~balance.metrics._common.moment_aggs`), then the seats by value and
    seat (``bot``, ``n``, ``wins``). The mean length and its sd come from exact integer sums, as in ``summarize``.
    """
    out = {}
    keep = ["draw_rate", "draw_lo", "draw_hi", "turns_mean", "turns_lo", "turns_hi"]
    for i, by in enumerate(names):
        per_group = frames[2 * i]
        _, mean, sd = mean_sd(per_group, "turns")
        per_group = per_group.with_columns(turns_mean=mean, turns_sd=sd)
        per_group = with_wilson(per_group, "draws", "n_games", ("draw_rate", "draw_lo", "draw_hi"))
        per_group = with_mean_ci(per_group, "turns_mean", "turns_sd", "n_games", ("turns_lo", "turns_hi"))
        wins = with_wilson(frames[2 * i + 1], "wins", "n")
        joined_rows = per_group.join(wins, on=by, how="left").sort(by, "seat")
        out[by] = joined_rows.select(by, "n_games", "draws", *keep, "seat", "bot", "n", "wins", "rate", "lo", "hi")
    return out
