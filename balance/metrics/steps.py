"""Steps: games whose ``turns`` table has one row per larger step (a battle, a round).

A game sets ``GameSpec.turn_unit`` to the step's name when one row of ``turns`` is one
step rather than one turn; core column ``turn`` then numbers the steps (1-based) and
``seat`` is the seat that opened the step. When the table also says who won each step
(``winner``, -1 = drawn) and how it ended (``how``), these functions describe the steps:
how many a game has, how they end, whether opening one helps, and the mean of every
other numeric column per step. Nothing here knows a particular game.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from balance.aggregates import STEP_COLUMNS, TEMPO_COLUMNS
from balance.metrics._common import (
    KEYS,
    as_list,
    columns,
    counter_means,
    counters_from_moments,
    from_sums,
    summed_counters,
    with_wilson,
)
from sims.core import CORE_COLUMNS


def has_steps(turns: pl.LazyFrame | pl.DataFrame | None) -> bool:
    """Return whether ``turns`` records who won each row and how it ended (:data:`STEP_COLUMNS`).

    Examples
    --------
    >>> has_steps(pl.LazyFrame({"game": [0], "turn": [1], "seat": [0], "winner": [1], "how": ["surrender"]}))
    True
    >>> has_steps(None)
    False
    """
    return turns is not None and all(c in columns(turns) for c in STEP_COLUMNS)


def _check(turns: pl.LazyFrame) -> None:
    if not has_steps(turns):
        missing = [c for c in STEP_COLUMNS if c not in columns(turns)]
        raise ValueError(f"step metrics need turns columns {list(STEP_COLUMNS)}; this turns table lacks {missing}")


def steps_per_game(
    turns: pl.LazyFrame | None,
    games: pl.LazyFrame,
    *,
    count_column: str | None = None,
    per_game: pl.LazyFrame | None = None,
) -> pl.DataFrame:
    """Return ``game, steps`` for every game in ``games``.

    ``steps`` is ``games[count_column]`` when that column exists (e.g. ``battles``),
    else a run's stored ``per_game.steps`` when given, else the number of the game's rows
    in ``turns`` (0 for a game without rows).

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0, 1], "turn": [1, 2, 1]})
    >>> steps_per_game(turns, pl.LazyFrame({"game": [0, 1, 2]})).rows()
    [(0, 2), (1, 1), (2, 0)]
    """
    if count_column and count_column in columns(games):
        return games.select("game", pl.col(count_column).cast(pl.Int64).alias("steps")).sort("game").collect()
    if per_game is not None and "steps" in columns(per_game):
        return per_game.select("game", pl.col("steps").cast(pl.Int64)).sort("game").collect()
    if turns is None:
        raise ValueError("steps per game need the turns table or a games column counting them")
    counts = turns.group_by("game").agg(pl.len().cast(pl.Int64).alias("steps"))
    out = games.select("game").join(counts, on="game", how="left")
    return out.select("game", pl.col("steps").fill_null(0)).sort("game").collect()


def step_endings(turns: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return how steps end: ``*by, how, count, n, rate, lo, hi`` (``n`` = steps in the group).

    Raises ``ValueError`` when ``turns`` lacks :data:`STEP_COLUMNS` (likewise the other
    step metrics below).

    Examples
    --------
    >>> turns = pl.LazyFrame({"winner": [0, 1, 0, -1], "how": ["surrender", "exhaustion", "surrender", "surrender"]})
    >>> step_endings(turns).select("how", "count", "n").rows()
    [('exhaustion', 1, 4), ('surrender', 3, 4)]
    """
    _check(turns)
    return _endings(turns.group_by(*as_list(by), pl.col("how").cast(pl.String)).agg(pl.len().alias("count")), by)


def _endings(counts: pl.LazyFrame | pl.DataFrame, by: str | Sequence[str] | None) -> pl.DataFrame:
    keys = as_list(by)
    total = pl.col("count").sum().over(keys) if keys else pl.col("count").sum()
    out = counts.lazy().with_columns(total.alias("n")).sort(*keys, "how", nulls_last=True).collect()
    return with_wilson(out, "count", "n")


def step_endings_from(sums: pl.DataFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return :func:`step_endings` from a run's stored ``agg_steps`` sums."""
    keys = as_list(by)
    counts = sums.group_by(*keys, pl.col("how").cast(pl.String)).agg(
        pl.col("rows").sum().cast(pl.UInt32).alias("count")
    )
    return _endings(counts, by)


def step_openers(turns: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return how often the seat that opened a step won it, drawn steps apart.

    Columns ``*by, steps, drawn, drawn_rate, drawn_lo, drawn_hi`` (drawn steps,
    ``winner < 0``, as a share of all steps) and ``n`` (decided steps), ``opener_wins``,
    ``rate``, ``lo``, ``hi`` (share of decided steps won by ``seat``, the seat that
    opened them); Wilson 95 % intervals.

    Examples
    --------
    >>> turns = pl.LazyFrame({"seat": [0, 1, 0, 1], "winner": [0, 0, -1, 1], "how": ["x"] * 4})
    >>> step_openers(turns).select("steps", "drawn", "n", "opener_wins").row(0)
    (4, 1, 3, 2)
    """
    _check(turns)
    keys = as_list(by)
    decided = pl.col("winner") >= 0
    aggs = [
        pl.len().alias("steps"),
        (~decided).sum().alias("drawn"),
        decided.sum().alias("n"),
        (decided & (pl.col("winner") == pl.col("seat"))).sum().alias("opener_wins"),
    ]
    frame = turns.with_columns(pl.col(k).cast(pl.String) for k in keys)
    return _openers((frame.group_by(keys).agg(aggs).sort(keys) if keys else frame.select(aggs)).collect(), keys)


def step_openers_from(sums: pl.DataFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return :func:`step_openers` from a run's stored ``agg_steps`` sums."""
    keys = as_list(by)
    aggs = [
        pl.col("rows").sum().cast(pl.UInt32).alias("steps"),
        (pl.col("rows") - pl.col("decided")).sum().cast(pl.UInt32).alias("drawn"),
        pl.col("decided").sum().cast(pl.UInt32).alias("n"),
        pl.col("opener_wins").sum().cast(pl.UInt32).alias("opener_wins"),
    ]
    frame = sums.with_columns(pl.col(k).cast(pl.String) for k in keys)
    return _openers(frame.group_by(keys).agg(aggs).sort(keys) if keys else frame.select(aggs), keys)


def _openers(out: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    out = with_wilson(out, "drawn", "steps", ("drawn_rate", "drawn_lo", "drawn_hi"))
    out = with_wilson(out, "opener_wins", "n")
    return out.select(
        *keys, "steps", "drawn", "drawn_rate", "drawn_lo", "drawn_hi", "n", "opener_wins", "rate", "lo", "hi"
    )


def step_counter_columns(turns: pl.LazyFrame | pl.DataFrame) -> list[str]:
    """Return the numeric columns of ``turns`` to average per step, in file order.

    All numeric columns except keys, the core ``game, turn, seat``, ``winner`` (a seat)
    and the running scores ``score_0, score_1`` (which tempo draws).

    Examples
    --------
    >>> step_counter_columns(pl.LazyFrame({"game": [0], "turn": [1], "seat": [0], "winner": [0], "how": ["x"],
    ...     "score_0": [1], "score_1": [0], "turns": [7], "winner_bonus": [3]}))
    ['turns', 'winner_bonus']
    """
    skip = set(CORE_COLUMNS["turns"]) | KEYS | {"winner"} | set(TEMPO_COLUMNS)
    return [c for c, t in turns.collect_schema().items() if c not in skip and t.is_numeric()]


def step_counters(turns: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return the mean per step of each :func:`step_counter_columns` column.

    Long format ``*by, counter, n, mean, sd, lo, hi`` (``n`` = steps, ``lo``/``hi`` bound
    the mean, 95 % t). Empty when the table has no such column.

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0], "turn": [1, 2], "seat": [0, 1], "winner": [0, 1], "how": ["x", "y"],
    ...     "turns": [6, 8]})
    >>> step_counters(turns).select("counter", "n", "mean").rows()
    [('turns', 2, 7.0)]
    """
    _check(turns)
    return counter_means(turns, step_counter_columns(turns), as_list(by))


def step_counters_from(sums: pl.DataFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return the mean per step of each counter a run's stored ``agg_steps`` sums carry (:func:`step_counters`)."""
    keys = as_list(by)
    counters = summed_counters(sums)
    aggs = [pl.col("rows").sum().cast(pl.UInt32).alias("n")]
    aggs += [pl.col(f"{c}_sum", f"{c}_sumsq").sum() for c in counters]
    wide = sums.group_by(keys).agg(aggs).sort(keys) if keys else sums.select(aggs)
    moments = [expr for c in counters for expr in from_sums(wide, c, n="n")]
    return counters_from_moments(wide.with_columns(moments), counters, keys)
