"""Metrics of a one-seat (solitaire) game: outcomes by group, levels, step outcomes, cards gained.

A solitaire game (``GameSpec.seats == 1``, e.g. a CardRPG session) has no winner: its
``games`` table holds what one session achieved (numeric outcome columns such as kills,
deaths, the level reached) and why it ended, and its ``turns`` table one row per step
(a battle) with the step's ``outcome``. Nothing here knows a particular game; functions
read the columns they are told (defaults below) and the report checks they exist:

- groups: the enum columns of ``games`` other than ``end_reason`` (a character's class),
- :data:`LEVEL_REACHED` in ``games`` and :data:`LEVEL` in ``turns`` for level progress,
- :data:`OUTCOME` in ``turns`` for how each step ended.

Rates come with ``n, rate, lo, hi`` (Wilson 95 %), means with ``n, mean, sd, lo, hi``
(Student t 95 %).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from balance.aggregates import LEVEL
from balance.metrics._common import as_list, columns, counter_means, with_mean_ci, with_wilson
from balance.metrics.games import group_columns, outcome_columns

LEVEL_REACHED = "level_end"  # games: the level a session ended at
OUTCOME = "outcome"  # turns: how the step ended (an enum: won, died ...); turns.level (LEVEL): the level at its start


def _require(frame: pl.LazyFrame | pl.DataFrame | None, table: str, *names: str) -> None:
    """Raise ``ValueError`` naming the columns of ``table`` a metric needs and ``frame`` lacks."""
    missing = list(names) if frame is None else [c for c in names if c not in columns(frame)]
    if missing:
        raise ValueError(f"this metric needs {table} column(s) {missing}, which this run does not have")


def group_outcomes(
    games: pl.LazyFrame, *, by: str | Sequence[str] | None = None, columns: Sequence[str] | None = None
) -> pl.DataFrame:
    """Return the mean per game of each outcome column per group: ``*by, counter, n, mean, sd, lo, hi``.

    ``by`` defaults to the first of :func:`~balance.metrics.games.group_columns` (a
    character's class), or no grouping when there is none. ``columns`` defaults to
    :func:`~balance.metrics.games.outcome_columns`; ``n`` counts the group's games and
    ``lo``/``hi`` bound the mean (95 %, t).

    Examples
    --------
    >>> games = pl.LazyFrame({"cls": ["a", "a", "b"], "kills": [1, 3, 5], "deaths": [0, 2, 1]})
    >>> group_outcomes(games, by="cls").select("cls", "counter", "n", "mean").rows()
    [('a', 'kills', 2, 2.0), ('a', 'deaths', 2, 1.0), ('b', 'kills', 1, 5.0), ('b', 'deaths', 1, 1.0)]
    """
    names = outcome_columns(games) if columns is None else list(columns)
    if by is None:
        by = group_columns(games)[:1]
    return counter_means(games.lazy(), names, as_list(by))


def level_reached(
    games: pl.LazyFrame, *, column: str = LEVEL_REACHED, by: str | Sequence[str] | None = None
) -> pl.DataFrame:
    """Return the share of games that reach each level: ``*by, level, n, count, rate, lo, hi``.

    For every level from the lowest level reached + 1 up to the highest, ``count`` games
    of the ``n`` in the group end at that level or above (``column >= level``).

    Examples
    --------
    >>> games = pl.LazyFrame({"level_end": [1, 2, 2, 3]})
    >>> level_reached(games).select("level", "n", "count", "rate").rows()
    [(2, 4, 3, 0.75), (3, 4, 1, 0.25)]
    """
    _require(games, "games", column)
    keys = as_list(by)
    counts = games.lazy().group_by(*keys, column).agg(pl.len().alias("k")).collect()
    schema = {**{k: counts.schema[k] for k in keys}, "level": pl.Int64, "n": pl.Int64, "count": pl.Int64}
    if counts.height == 0:
        return with_wilson(pl.DataFrame(schema=schema), "count", "n")
    lo, hi = int(counts[column].min()), int(counts[column].max())
    levels = pl.DataFrame({"level": pl.Series(range(lo + 1, hi + 1), dtype=pl.Int64)})
    at = pl.col(column).cast(pl.Int64)
    out = (
        counts.join(levels, how="cross")
        .group_by(*keys, "level")
        .agg(
            pl.col("k").sum().cast(pl.Int64).alias("n"), pl.col("k").filter(at >= pl.col("level")).sum().alias("count")
        )
        .with_columns(pl.col("count").cast(pl.Int64))
    )
    return with_wilson(out.sort(*keys, "level").select(*keys, "level", "n", "count"), "count", "n")


def level_progression(turns: pl.LazyFrame, *, column: str = LEVEL) -> pl.DataFrame:
    """Return when games first play a step at each level: ``level, n, mean, sd, lo, hi, min, p10, median, p90, max``.

    For each level ``L``, over the ``n`` games that reach it (that play a step at level
    ``L`` or above, counting the levels from that of the game's first step up): the
    number (``turn``) of the game's first step at level ``L`` or above, 1 being its first
    step, so ``turn − 1`` steps were played before it. A game that goes up two levels at
    once counts its first step at the higher level for both. ``lo``/``hi`` bound the mean
    (95 %, t). Rows sorted by game then turn (as runs are written) are read in one pass;
    others are sorted first.

    Examples
    --------
    >>> turns = pl.LazyFrame({"game": [0, 0, 0, 1, 1], "turn": [1, 2, 3, 1, 2], "level": [1, 2, 2, 1, 3]})
    >>> level_progression(turns).select("level", "n", "mean", "max").rows()
    [(1, 2, 1.0, 1.0), (2, 2, 2.0, 2.0), (3, 1, 2.0, 2.0)]
    """
    _require(turns, "turns", column)
    frame = turns.lazy().select("game", pl.col("turn").cast(pl.Int64), pl.col(column).cast(pl.Int64).alias("level"))
    game, level = pl.col("game"), pl.col("level")
    first = frame.select(
        level.min().alias("lo"),
        level.max().alias("hi"),
        (game * 65536 + pl.col("turn")).is_sorted().alias("sorted"),
    ).collect()
    lo, hi, ordered = first.row(0)
    if lo is None:
        firsts = pl.LazyFrame(schema={"level": pl.Int64, "first": pl.Int64})
    else:
        # Rows sorted by game then turn make one running maximum of game * width + level the
        # highest level each game has reached so far (no per-game window); the rows where it
        # rises are the first steps at each new level, covering every level it jumped over.
        frame = frame if ordered else frame.sort("game", "turn")
        width = hi - lo + 1
        reached = (game * width + level - lo).cum_max()
        new_game = (game != game.shift(1)).fill_null(True)
        now = reached - game * width + lo
        before = reached.shift(1) - game * width + lo  # the game's highest level before this step
        marked = frame.with_columns(now.alias("now"), pl.when(new_game).then(now).otherwise(before + 1).alias("start"))
        rises = marked.filter(pl.col("now") >= pl.col("start"))
        firsts = rises.select(
            pl.int_ranges("start", pl.col("now") + 1).alias("level"), pl.col("turn").alias("first")
        ).explode("level")
    return progression_from(firsts.group_by("level", "first").agg(pl.len().alias("count")).collect())


def progression_from(hist: pl.DataFrame) -> pl.DataFrame:
    """Return :func:`level_progression` from its histogram ``level, first, count`` (a run's ``agg_levels``).

    Order statistics come from the cumulative counts: ``p10`` is the lower and ``p90`` the
    higher 10 %/90 % quantile, ``median`` the middle value (the mean of the two middle
    values of an even count), as polars computes them from the rows.
    """
    schema = ["level", "n", "mean", "sd", "lo", "hi", "min", "p10", "median", "p90", "max"]
    rows = []
    for (level,), part in hist.sort("level", "first").group_by("level", maintain_order=True):
        x, k = part["first"].cast(pl.Int64).to_numpy(), part["count"].cast(pl.Int64).to_numpy()
        rows.append((int(level), *_hist_summary(x, k)))
    out = pl.DataFrame(rows, schema=schema[:4] + schema[6:], orient="row")
    out = out.with_columns(pl.col("level", "n").cast(pl.Int64), pl.exclude("level", "n").cast(pl.Float64))
    return with_mean_ci(out, "mean", "sd", "n").select(schema)


def _hist_summary(x: np.ndarray, k: np.ndarray) -> tuple[int, float, float | None, float, float, float, float, float]:
    """Return ``n, mean, sd, min, p10, median, p90, max`` of the values ``x`` taken ``k`` times (x ascending)."""
    n = int(k.sum())
    total, squares = int((x * k).sum()), int((x * x * k).sum())
    sd = ((n * squares - total * total) / (n * (n - 1))) ** 0.5 if n > 1 else None
    ends = np.cumsum(k)

    def at(i: int) -> float:  # the i-th smallest value (0-based)
        return float(x[np.searchsorted(ends, i, side="right")])

    median = (at((n - 1) // 2) + at(n // 2)) / 2
    return n, total / n, sd, float(x[0]), at(int(0.1 * (n - 1))), median, at(-int(-0.9 * (n - 1))), float(x[-1])


def step_outcomes(turns: pl.LazyFrame, *, by: str | Sequence[str] | None = None, column: str = OUTCOME) -> pl.DataFrame:
    """Return the share of steps ending each way: ``*by, outcome, count, n, rate, lo, hi``.

    ``n`` counts the group's steps (rows of ``turns``) and ``rate`` the share whose
    ``column`` (default :data:`OUTCOME`) has that value, e.g. the death rate by level and
    by monster kind. Every outcome value seen anywhere gets a row in every group (count 0
    where it did not occur).

    Examples
    --------
    >>> turns = pl.LazyFrame({"level": [1, 1, 1, 2], "outcome": ["won", "died", "won", "won"]})
    >>> step_outcomes(turns, by="level").select("level", "outcome", "count", "n").rows()
    [(1, 'died', 1, 3), (1, 'won', 2, 3), (2, 'died', 0, 1), (2, 'won', 1, 1)]
    """
    _require(turns, "turns", column)
    keys = as_list(by)
    value = pl.col(column).cast(pl.String).alias("outcome")
    counts = turns.lazy().group_by(*keys, value).agg(pl.len().cast(pl.Int64).alias("count")).collect()
    return _complete(counts, keys)


def step_outcomes_from(
    sums: pl.DataFrame, *, by: str | Sequence[str] | None = None, column: str = OUTCOME
) -> pl.DataFrame:
    """Return :func:`step_outcomes` from a run's stored ``agg_steps`` sums (rows per value of the turns' enums)."""
    keys = as_list(by)
    value = pl.col(column).cast(pl.String).alias("outcome")
    counts = sums.group_by(*keys, value).agg(pl.col("rows").sum().cast(pl.Int64).alias("count"))
    return _complete(counts, keys)


def rollup_outcomes(df: pl.DataFrame, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return :func:`step_outcomes` at a coarser grouping ``by`` from a finer one (no new scan).

    Examples
    --------
    >>> fine = step_outcomes(pl.LazyFrame({"a": [1, 1, 2], "b": ["x", "y", "x"], "outcome": ["won", "died", "won"]}),
    ...     by=["a", "b"])
    >>> rollup_outcomes(fine, "b").select("b", "outcome", "count", "n").rows()
    [('x', 'died', 0, 2), ('x', 'won', 2, 2), ('y', 'died', 1, 1), ('y', 'won', 0, 1)]
    """
    keys = as_list(by)
    counts = df.group_by(*keys, "outcome").agg(pl.col("count").sum())
    return _complete(counts, keys)


def _complete(counts: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Give every group a row per outcome value, then add ``n`` and the Wilson columns."""
    values = counts.select(pl.col("outcome").unique())
    grid = counts.select(keys).unique().join(values, how="cross") if keys else values
    out = grid.join(counts, on=[*keys, "outcome"], how="left", nulls_equal=True)
    out = out.with_columns(pl.col("count").fill_null(0).cast(pl.Int64))
    total = pl.col("count").sum().over(keys) if keys else pl.col("count").sum()
    out = out.with_columns(total.alias("n")).sort(*keys, "outcome", nulls_last=True)
    return with_wilson(out.select(*keys, "outcome", "count", "n"), "count", "n")


def has_columns(frame: pl.LazyFrame | pl.DataFrame | None, *names: str) -> bool:
    """Return whether ``frame`` exists and has every column of ``names``."""
    return frame is not None and all(c in columns(frame) for c in names)
