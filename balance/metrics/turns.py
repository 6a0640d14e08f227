"""Tempo from the ``turns`` table: score difference by turn, lead changes, lead for good.

Needs ``turns.score_0`` and ``turns.score_1`` (the scores at the end of each turn of a
two-seat game); :data:`TEMPO_COLUMNS` names them so callers can check first. Per-game
sequential logic runs on whole columns at once (shifts over rows sorted by game and
turn, then group-bys), never in a Python loop; unsorted input is sorted first. The large
turns table is streamed and aggregated, never materialised: on this VM allocating a
fresh 40M-row frame costs more than the aggregation itself.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from balance.aggregates import TEMPO_COLUMNS
from balance.metrics._common import columns, distribution, with_mean_ci

PERSPECTIVES = {"first_minus_second": "first seat − second seat", "winner_minus_loser": "winner − loser"}
_MISSING = -2  # winner/first_seat code for a turn whose game is not in the games table


def _check(turns: pl.LazyFrame) -> None:
    missing = [c for c in TEMPO_COLUMNS if c not in columns(turns)]
    if missing:
        raise ValueError(f"tempo needs turns columns {list(TEMPO_COLUMNS)}; this game's turns table lacks {missing}")


def _diff() -> pl.Expr:
    return (pl.col("score_0").cast(pl.Int32) - pl.col("score_1").cast(pl.Int32)).alias("d")


def _with_game(turns: pl.LazyFrame, games: pl.DataFrame) -> pl.LazyFrame:
    """Add each turn's game ``first_seat`` and ``winner`` (-2 if the game is unknown).

    Game ids are dense (0 .. n-1), so a lookup array indexed by game id replaces a hash
    join of the large turns table; sparse ids fall back to the join.
    """
    names = ("first_seat", "winner")
    if games.height == 0:
        return turns.with_columns(pl.lit(_MISSING, pl.Int8).alias(c) for c in names)
    lo, hi = int(games["game"].min()), int(games["game"].max())
    if hi - lo + 1 > 4 * games.height + 1024:
        joined = turns.join(games.select("game", *names).lazy(), on="game", how="left", maintain_order="left")
        return joined.with_columns(pl.col(*names).fill_null(_MISSING).cast(pl.Int8))
    idx = (games["game"] - lo).to_numpy()
    lookups = {}
    for name in names:
        lookups[name] = np.full(hi - lo + 1, _MISSING, dtype=np.int8)
        lookups[name][idx] = games[name].to_numpy()
    inside = turns.filter(pl.col("game").is_between(lo, hi))
    return inside.with_columns(pl.lit(pl.Series(a)).gather(pl.col("game") - lo).alias(c) for c, a in lookups.items())


def _in_order(turns: pl.LazyFrame) -> pl.LazyFrame:
    """Return ``turns`` sorted by game and turn (a cheap check first: runs are written sorted)."""
    key = pl.col("game").cast(pl.Int64) * 65536 + pl.col("turn").cast(pl.Int64)
    if turns.select(key.is_sorted()).collect().item():
        return turns
    return turns.sort("game", "turn")


def alternates(turns: pl.LazyFrame, games: pl.LazyFrame | pl.DataFrame) -> bool:
    """Return whether the seats take turns strictly in turn: turn ``t`` is the first seat's when ``t`` is odd.

    Needs ``turns.seat`` and ``games.first_seat``; False when either is missing or any turn
    row breaks the pattern (an extra turn), or there are no rows.

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0, 0, 1, 1], "turn": [1, 2, 3, 1, 2], "seat": [1, 0, 1, 0, 1]})
    >>> alternates(turns, pl.LazyFrame({"game": [0, 1], "first_seat": [1, 0]}))
    True
    """
    if "seat" not in columns(turns) or "first_seat" not in columns(games):
        return False
    g = games.lazy().select("game", "first_seat", pl.lit(0, pl.Int8).alias("winner")).collect()
    path = _with_game(turns.select("game", "turn", "seat"), g)
    expected = (pl.col("first_seat").cast(pl.Int32) + pl.col("turn").cast(pl.Int32) - 1) % 2
    counts = path.select(pl.len().alias("rows"), (pl.col("seat").cast(pl.Int32) != expected).sum().alias("off"))
    rows, off = counts.collect().row(0)
    return rows > 0 and off == 0


def rounds(turns: pl.LazyFrame) -> pl.LazyFrame:
    """Return the turns table at the end of each round: both seats' turns, the second seat's last.

    Round ``r`` holds turns ``2r − 1`` and ``2r`` of a two-seat game whose seats
    alternate (:func:`alternates`). One row per game and round: the round's last turn row
    (the second seat's turn, or the first seat's when the game ended in it), with ``turn``
    renumbered to the round, so :func:`tempo` of it gives the score difference after
    every round instead of the zig-zag of alternating half-turns. Other columns are kept.

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0, 0, 1, 1], "turn": [1, 2, 3, 1, 2], "score_0": [2, 2, 4, 0, 1],
    ...     "score_1": [0, 3, 3, 1, 1]})
    >>> rounds(turns).select("game", "turn", "score_0", "score_1").collect().rows()
    [(0, 1, 2, 3), (0, 2, 4, 3), (1, 1, 1, 1)]
    """
    ordered = _in_order(turns)
    r = ((pl.col("turn").cast(pl.Int32) + 1) // 2).alias("turn")
    game = pl.col("game")
    framed = ordered.with_columns(r)
    last = (game != game.shift(-1)).fill_null(True) | (pl.col("turn") != pl.col("turn").shift(-1)).fill_null(True)
    return framed.filter(last)


def tempo(turns: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Return the score difference by turn: ``perspective, turn, n, mean, sd, lo, hi, q10, q90``.

    ``perspective`` is ``first_minus_second`` (seat that moved first minus the other,
    all games) or ``winner_minus_loser`` (decided games only). ``n`` counts the games
    still running at the end of ``turn``; ``lo``/``hi`` bound the mean (95 %) and
    ``q10``/``q90`` are the 10 % and 90 % quantiles of the difference across games.

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0, 1, 1], "turn": [1, 2, 1, 2], "seat": [0, 1, 1, 0],
    ...     "score_0": [2, 2, 0, 1], "score_1": [0, 1, 1, 1]})
    >>> games = pl.LazyFrame({"game": [0, 1], "first_seat": [0, 1], "winner": [0, -1]})
    >>> tempo(turns, games).select("perspective", "turn", "n", "mean").rows()  # doctest: +NORMALIZE_WHITESPACE
    [('first_minus_second', 1, 2, 1.5), ('first_minus_second', 2, 2, 0.5),
     ('winner_minus_loser', 1, 1, 2.0), ('winner_minus_loser', 2, 1, 1.0)]
    """
    _check(turns)
    g = games.select("game", "first_seat", "winner").collect()
    path = _with_game(turns.select("game", "turn", _diff()), g)
    return tempo_from(path.group_by("turn", "d", "first_seat", "winner").agg(pl.len().alias("count")))


def tempo_from(hist: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Return :func:`tempo` from its histogram: ``turn, d, first_seat, winner, count``.

    ``d`` is score_0 − score_1 at the end of ``turn``; ``count`` the games with that
    difference, first seat and winner there. A run's stored ``agg_tempo`` holds it for
    each grain (``turn``, and ``round`` for games of alternating turns).
    """
    hist = hist.lazy()
    signs = {
        "first_minus_second": pl.when(pl.col("first_seat") == 0).then(1).when(pl.col("first_seat") == 1).then(-1),
        "winner_minus_loser": pl.when(pl.col("winner") == 0).then(1).when(pl.col("winner") == 1).then(-1),
    }
    long = pl.concat(
        [
            hist.select(pl.lit(p).alias("perspective"), "turn", (pl.col("d") * s).alias("value"), "count")
            for p, s in signs.items()
        ]
    )
    long = (
        long.filter(pl.col("value").is_not_null()).group_by("perspective", "turn", "value").agg(pl.col("count").sum())
    )
    group = ["perspective", "turn"]
    n = pl.col("count").sum().over(group)
    mean = (pl.col("count") * pl.col("value")).sum().over(group) / n
    cum = pl.col("count").cum_sum().over(group)
    out = (
        long.sort("perspective", "turn", "value")
        .with_columns(n.alias("n"), mean.alias("mean"), cum.alias("cum"))
        .group_by(group)
        .agg(
            pl.col("n").first(),
            pl.col("mean").first(),
            ((pl.col("count") * (pl.col("value") - pl.col("mean")) ** 2).sum() / (pl.col("n").first() - 1))
            .sqrt()
            .alias("sd"),
            pl.col("value").filter(pl.col("cum") >= 0.1 * pl.col("n")).first().cast(pl.Float64).alias("q10"),
            pl.col("value").filter(pl.col("cum") >= 0.9 * pl.col("n")).first().cast(pl.Float64).alias("q90"),
        )
        .sort(group)
        .collect()
    )
    out = out.with_columns(pl.when(pl.col("n") > 1).then(pl.col("sd")).alias("sd"))
    return with_mean_ci(out, "mean", "sd", "n").select(
        "perspective", "turn", "n", "mean", "sd", "lo", "hi", "q10", "q90"
    )


def lead_per_game(turns: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Return ``game, lead_changes, lead_for_good`` for every game in ``games``.

    ``lead_changes`` counts sign changes of score_0 − score_1 over the game's rows of
    ``turns``, ignoring tied rows (+ 0 − is one change). ``lead_for_good`` is the first
    ``turn`` at whose end the eventual winner is strictly ahead and stays strictly ahead
    at the end of every later row of the game, up to its last row in ``turns`` (the last
    turn, or the last battle of a game whose turns table has one row per battle); null
    for games without a winner, games without rows, and games whose winner is not ahead
    at the end of the last row. Only ``games.game`` and ``games.winner`` are read.

    Examples
    --------
    >>> turns = pl.LazyFrame(
    ...     {"game": [0] * 5, "turn": [1, 2, 3, 4, 5], "score_0": [1, 1, 1, 3, 5], "score_1": [0, 1, 2, 2, 2]}
    ... )
    >>> lead_per_game(turns, pl.LazyFrame({"game": [0], "winner": [0]})).row(0)
    (0, 2, 4)
    """
    _check(turns)
    g = games.select("game", "winner").collect()
    ordered = _in_order(turns)
    d, game = pl.col("d"), pl.col("game")
    last_of_game = game != game.shift(-1).fill_null(-1)  # rows are sorted by game, then turn
    # lead changes: sign changes between consecutive non-tied turns of the same game
    signs = ordered.select("game", _diff().sign().alias("s")).filter(pl.col("s") != 0)
    changed = (pl.col("s") != pl.col("s").shift(1)) & (game == game.shift(1))
    changes = signs.filter(changed).group_by("game").agg(pl.len().cast(pl.UInt32).alias("lead_changes"))
    # lead for good: the turn after the last turn the winner was not strictly ahead
    path = _with_game(ordered.select("game", "turn", _diff()), g.with_columns(pl.lit(0, pl.Int8).alias("first_seat")))
    ahead = pl.when(pl.col("winner") == 0).then(d).when(pl.col("winner") == 1).then(-d)
    behind = (
        path.filter(ahead <= 0).select("game", pl.col("turn").cast(pl.Int32).alias("last_behind")).filter(last_of_game)
    )
    last = ordered.select("game", pl.col("turn").cast(pl.Int32).alias("last_turn")).filter(last_of_game)
    changes_df, behind_df, last_df = pl.collect_all([changes, behind, last])
    good = (
        pl.when((pl.col("winner") < 0) | pl.col("last_turn").is_null())
        .then(None)
        .when(pl.col("last_behind").is_null())
        .then(1)
        .when(pl.col("last_behind") < pl.col("last_turn"))
        .then(pl.col("last_behind") + 1)
    )
    out = g.join(changes_df, on="game", how="left").join(behind_df, on="game", how="left")
    out = out.join(last_df, on="game", how="left")
    return out.select("game", pl.col("lead_changes").fill_null(0), good.cast(pl.Int32).alias("lead_for_good")).sort(
        "game"
    )


def lead_per_game_from(per_game: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Return :func:`lead_per_game` from a run's stored ``per_game`` table (one row per game, every game)."""
    values = per_game.select("game", pl.col("lead_changes").cast(pl.UInt32), pl.col("lead_for_good").cast(pl.Int32))
    out = games.select("game").join(values, on="game", how="left")
    return out.select("game", pl.col("lead_changes").fill_null(0), "lead_for_good").sort("game").collect()


def alternates_from(order: pl.DataFrame | None) -> bool:
    """Return :func:`alternates` from a run's stored ``agg_order`` (turn rows and rows out of alternation)."""
    if order is None or order.height == 0:
        return False
    rows, off = order.row(0)
    return bool(rows) and rows > 0 and off == 0


def lead_changes(turns: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Return the distribution of lead changes per game: ``lead_changes, count, share``.

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0, 1], "turn": [1, 2, 1], "score_0": [1, 0, 0], "score_1": [0, 2, 0]})
    >>> games = pl.LazyFrame({"game": [0, 1], "winner": [1, -1]})
    >>> lead_changes(turns, games).rows()
    [(0, 1, 0.5), (1, 1, 0.5)]
    """
    return distribution(lead_per_game(turns, games), "lead_changes")


def lead_for_good(turns: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Return the distribution of the turn (or battle) the winner takes the lead for good.

    Columns ``lead_for_good, count, share`` over decided games (see :func:`lead_per_game`).

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0], "turn": [1, 2], "score_0": [0, 2], "score_1": [1, 1]})
    >>> lead_for_good(turns, pl.LazyFrame({"game": [0], "winner": [0]})).rows()
    [(2, 1, 1.0)]
    """
    return distribution(lead_per_game(turns, games), "lead_for_good")
