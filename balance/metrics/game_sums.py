"""Game- and seat-level figures from a run's stored counts (``agg_games``, ``agg_seats``) instead of its rows.

A run of a two-seat game counts its games by first seat, winner, length, end reason, the
games' enum columns and each seat's bot, result and enum columns (``agg_games``: a few
thousand rows for a million games), and sums the seats' counters by seat and bot
(``agg_seats``; see ``balance.aggregates``). Every function here returns the very frame
its namesake in :mod:`balance.metrics.games`, :mod:`~balance.metrics.groups` or
:mod:`~balance.metrics.matchups` computes from the ``games`` and ``seats`` rows (the
tests compare them): the same counts, the same exact integer moments, the same order and
types, from kilobytes instead of a scan of every game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import polars as pl

from balance.aggregates import seat_key
from balance.metrics._common import counters_from_moments, mean_sd, summed_counters, with_mean_ci, with_wilson
from balance.metrics.games import seat_advantage
from balance.metrics.groups import finish_group_results


def seat_rows(cube: pl.DataFrame, n_seats: int) -> pl.DataFrame:
    """Return ``agg_games`` one row per seat: its games columns, ``seat``, the seat's own columns, ``count``."""
    own = [c.split("_", 1)[1] for c in cube.columns if c.startswith("seat0_")]
    games = [c for c in cube.columns if not re.match(r"seat\d+_", c) and c != "count"]
    parts = [
        cube.select(
            *games,
            pl.lit(s, pl.Int8).alias("seat"),
            *(pl.col(seat_key(s, c)).alias(c) for c in own),
            "count",
        )
        for s in range(n_seats)
    ]
    return pl.concat(parts)


def _n(expr: pl.Expr) -> pl.Expr:
    """Return the games counted where ``expr`` holds, typed as polars counts rows (UInt32)."""
    return pl.col("count").filter(expr).sum().cast(pl.UInt32)


COUNT = pl.col("count").sum().cast(pl.UInt32)


def has_first_seat_from(cube: pl.DataFrame) -> bool:
    """Return :func:`~balance.metrics.groups.has_first_seat` from ``agg_games``."""
    return "first_seat" in cube.columns and bool((cube["first_seat"] >= 0).any())


def win_rates_from(cube: pl.DataFrame, n_seats: int, by: str | Sequence[str]) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.win_rates` by ``by`` (seats columns and ``position``) from ``agg_games``."""
    keys = [by] if isinstance(by, str) else list(by)
    seats = seat_rows(cube, n_seats)
    if "position" in keys:
        n = pl.col("seat").max() + 1
        seats = seats.with_columns(((pl.col("seat") - pl.col("first_seat")) % n + 1).cast(pl.Int8).alias("position"))
    out = seats.group_by(keys).agg(COUNT.alias("n"), _n(pl.col("won") == 1).alias("wins")).sort(keys)
    return with_wilson(out, "wins", "n")


def first_seat_advantage_from(cube: pl.DataFrame, n_seats: int) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.first_seat_advantage` (all games) from ``agg_games``."""
    counts = cube.select(
        COUNT.alias("n_games"),
        _n(pl.col("winner") >= 0).alias("n"),
        _n(pl.col("winner") == pl.col("first_seat")).alias("first_wins"),
    )
    return seat_advantage(counts, n_seats)


def outcome_parts_from(cube: pl.DataFrame) -> list[pl.LazyFrame]:
    """Return the counts :func:`~balance.metrics.games.outcomes` finishes, from ``agg_games``."""
    parts = []
    if "winner" in cube.columns:
        result = cube.lazy().select(
            _n(pl.col("winner") >= 0).alias("decided"), _n(pl.col("winner") < 0).alias("no winner")
        )
        result = result.unpivot(["decided", "no winner"], variable_name="value", value_name="count")
        parts.append(result.with_columns(pl.lit("result").alias("kind")))
    if "end_reason" in cube.columns:
        reason = pl.col("end_reason").cast(pl.String).alias("value")
        parts.append(
            cube.lazy().group_by(reason).agg(COUNT.alias("count")).with_columns(pl.lit("end_reason").alias("kind"))
        )
    return parts


def outcome_detail_parts_from(cube: pl.DataFrame, names: Sequence[str]) -> list[pl.LazyFrame]:
    """Return the counts :func:`~balance.metrics.games.outcome_details` finishes, from ``agg_games``."""
    reason = pl.col("end_reason").cast(pl.String)
    return [
        cube.lazy()
        .group_by(reason, pl.col(c).cast(pl.String).alias("value"))
        .agg(COUNT.alias("count"))
        .select(pl.lit(c).alias("column"), "end_reason", "value", "count")
        for c in names
    ]


def game_length_from(cube: pl.DataFrame) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.game_length` (all games) from ``agg_games``."""
    split = [pl.col("end_reason").cast(pl.String)] if "end_reason" in cube.columns else []
    out = cube.group_by(["turns", *split]).agg(COUNT.alias("count"))
    return out.with_columns((pl.col("count") / pl.col("count").sum()).alias("share")).sort(["turns", *split])


def summarize_from(cube: pl.DataFrame, value: pl.Expr, name: str) -> pl.DataFrame:
    """Return :func:`~balance.metrics._common.summarize` of the integer ``value`` (an expression over ``agg_games``
    naming a column ``name``) over all games: its histogram gives the exact integer moments and order statistics.
    """
    hist = cube.group_by(value.alias(name)).agg(pl.col("count").sum()).drop_nulls(name).sort(name)
    values, counts = hist[name].to_list(), hist["count"].to_list()
    n = sum(counts)
    total, squares = (
        sum(v * c for v, c in zip(values, counts, strict=True)),
        sum(v * v * c for v, c in zip(values, counts, strict=True)),
    )

    def at(i: int) -> float:  # the i-th smallest value (0-based)
        seen = 0
        for v, c in zip(values, counts, strict=True):
            seen += c
            if i < seen:
                return float(v)
        raise IndexError(i)

    def quantile(q: float, how: str) -> float | None:
        if not n:
            return None
        pos = (n - 1) * q
        low, high = at(int(pos // 1)), at(min(int(-(-pos // 1)), n - 1))
        if how == "lower":
            return low
        if how == "higher":
            return high
        return low if low == high else low + (high - low) * (pos - pos // 1)

    moments = pl.DataFrame(
        {f"{name}\0n": [n], f"{name}\0s": [total], f"{name}\0ss": [squares]},
        schema={f"{name}\0n": pl.Int64, f"{name}\0s": pl.Int64, f"{name}\0ss": pl.Int64},
    )
    _, mean, sd = mean_sd(moments, name)
    out = pl.DataFrame(
        {
            "n": pl.Series([n], dtype=pl.UInt32),
            "mean": mean,
            "sd": sd,
            "min": pl.Series([float(values[0]) if n else None], dtype=pl.Float64),
            "p10": pl.Series([quantile(0.1, "lower")], dtype=pl.Float64),
            "median": pl.Series([quantile(0.5, "linear")], dtype=pl.Float64),
            "p90": pl.Series([quantile(0.9, "higher")], dtype=pl.Float64),
            "max": pl.Series([float(values[-1]) if n else None], dtype=pl.Float64),
        }
    )
    out = with_mean_ci(out, "mean", "sd", "n")
    return out.select("n", "mean", "sd", "lo", "hi", "min", "p10", "median", "p90", "max")


def group_columns_from(cube: pl.DataFrame, names: Sequence[str], *, max_values: int = 50) -> list[str]:
    """Return :func:`~balance.metrics.games.group_columns` (of the games enum columns ``names``) from ``agg_games``."""
    if not names:
        return []
    counts = cube.select(pl.col(c).n_unique() for c in names).row(0, named=True)
    return [c for c in names if 2 <= counts[c] <= max_values]


def group_results_from(cube: pl.DataFrame, n_seats: int, names: Sequence[str]) -> dict[str, pl.DataFrame]:
    """Return :func:`~balance.metrics.groups.group_results_by` from ``agg_games``."""
    seats = seat_rows(cube, n_seats)
    has_bot = "bot" in seats.columns
    bot = [pl.col("bot").first().cast(pl.String).alias("bot")] if has_bot else [pl.lit(None).alias("bot")]
    frames = []
    for by in names:
        key = pl.col(by).cast(pl.String)
        t = pl.col("turns").cast(pl.Int64)
        games = cube.group_by(key).agg(
            COUNT.alias("n_games"),
            _n(pl.col("winner") < 0).alias("draws"),
            pl.col("count").filter(t.is_not_null()).sum().alias("turns\0n"),
            (t * pl.col("count")).sum().alias("turns\0s"),
            (t * t * pl.col("count")).sum().alias("turns\0ss"),
        )
        frames.append(games)
        frames.append(seats.group_by(key, "seat").agg(*bot, COUNT.alias("n"), _n(pl.col("won") == 1).alias("wins")))
    return finish_group_results(frames, names)


def pairing_counts_from(cube: pl.DataFrame, *, first_seat: bool) -> pl.DataFrame:
    """Return :func:`~balance.metrics.matchups.pairing_counts` (with the games' first movers when ``first_seat``)."""
    first = (
        [
            COUNT.alias("n_first"),
            _n(pl.col("winner") >= 0).alias("n"),
            _n(pl.col("winner") == pl.col("first_seat")).alias("first_wins"),
        ]
        if first_seat
        else []
    )
    decks = [pl.col(seat_key(s, "deck")).cast(pl.String).alias(f"deck_{s}") for s in (0, 1)]
    won = [_n(pl.col(seat_key(s, "won")) == 1).alias(f"wins_{s}") for s in (0, 1)]
    return cube.group_by(decks).agg(COUNT.alias("n_games"), *won, *first)


def seat_counters_from(seats: pl.DataFrame, counters: Sequence[str], by: str) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.seat_counters` by ``by`` (``bot`` or ``seat``) from ``agg_seats``."""
    sums = [pl.col("rows").sum().cast(pl.UInt32).alias("n")]
    for c in counters:
        sums += [
            pl.col("rows").sum().cast(pl.Int64).alias(f"{c}\0n"),
            pl.col(f"{c}_sum").sum().alias(f"{c}\0s"),
            pl.col(f"{c}_sumsq").sum().alias(f"{c}\0ss"),
        ]
    wide = seats.group_by(by).agg(sums).sort(by)
    return counters_from_moments(wide, counters, [by])


def summed_seat_counters(seats: pl.DataFrame) -> list[str]:
    """Return the counters ``agg_seats`` sums, in order."""
    return summed_counters(seats)


def lead_counts(per_game: pl.DataFrame) -> pl.DataFrame:
    """Return ``lead_changes, lead_for_good, count``: the games of a per-game leads frame counted as ``agg_leads``."""
    return per_game.group_by("lead_changes", "lead_for_good").agg(pl.len().cast(pl.Int64).alias("count"))


def distribution_from(counted: pl.DataFrame, column: str) -> pl.DataFrame:
    """Return :func:`~balance.metrics._common.distribution` of ``column`` from rows counted in ``count``."""
    out = counted.filter(pl.col(column).is_not_null()).group_by(column).agg(COUNT.alias("count"))
    return out.with_columns((pl.col("count") / pl.col("count").sum()).alias("share")).sort(column)
