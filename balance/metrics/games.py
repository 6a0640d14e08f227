"""Game- and seat-level metrics: win rates, first-seat advantage, outcomes, length, counters.

All functions read only the core columns (``sims.core.records.CORE_COLUMNS``) plus
``seats.bot``; extra numeric seat columns are summarised generically by
:func:`seat_counters`. Rates come with ``n``, ``rate``, ``lo``, ``hi`` (Wilson 95 %).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from balance.metrics._common import KEYS, as_list, columns, counter_means, extra_counters, summarize, with_wilson


def _positions(seats: pl.LazyFrame, games: pl.LazyFrame | None) -> pl.LazyFrame:
    """Add ``position`` (1 = took the first turn, 2 = next seat in turn order, ...)."""
    if games is None:
        raise ValueError("win rates by position need the games table (first_seat); pass games=run.games")
    n_seats = pl.col("seat").max() + 1
    joined = seats.join(games.select("game", "first_seat"), on="game", how="left")
    return joined.with_columns(((pl.col("seat") - pl.col("first_seat")) % n_seats + 1).cast(pl.Int8).alias("position"))


def win_rates(
    seats: pl.LazyFrame, *, by: str | Sequence[str] = "bot", games: pl.LazyFrame | None = None
) -> pl.DataFrame:
    """Return win rates per group of seats: ``*by, n, wins, rate, lo, hi``.

    A seat wins when ``won == 1``; draws and timeouts count as not won (see
    :func:`outcomes` for their rate). ``by`` may name any seats column (``bot``,
    ``seat``) and ``position`` (1 = moved first), which needs ``games``.

    Examples
    --------
    >>> seats = pl.LazyFrame(
    ...     {"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "bot": ["a", "b", "a", "b"], "won": [1, 0, 0, 0]}
    ... )
    >>> win_rates(seats).select("bot", "n", "wins", "rate").rows()
    [('a', 2, 1, 0.5), ('b', 2, 0, 0.0)]
    """
    keys = as_list(by)
    lf = _positions(seats, games) if "position" in keys else seats
    out = lf.group_by(keys).agg(pl.len().alias("n"), (pl.col("won") == 1).sum().alias("wins")).sort(keys).collect()
    return with_wilson(out, "wins", "n")


def win_rates_over(rates: pl.DataFrame, by: str | Sequence[str]) -> pl.DataFrame:
    """Return :func:`win_rates` by ``by`` from finer win rates (e.g. by bot and position), summing their counts.

    Equal to ``win_rates(seats, by=by)`` when ``rates`` groups every seat by ``by`` and more keys.

    Examples
    --------
    >>> fine = pl.DataFrame({"bot": ["a", "a", "b"], "position": [1, 2, 1], "n": [2, 2, 3], "wins": [2, 0, 1]})
    >>> win_rates_over(fine, "bot").select("bot", "n", "wins", "rate").rows()
    [('a', 4, 2, 0.5), ('b', 3, 1, 0.3333333333333333)]
    """
    keys = as_list(by)
    return with_wilson(rates.group_by(keys).agg(pl.col("n", "wins").sum()).sort(keys), "wins", "n")


def first_seat_advantage(
    games: pl.LazyFrame, *, by: str | Sequence[str] | None = None, n_seats: int = 2
) -> pl.DataFrame:
    """Return the share of decided games won by the seat that moved first.

    Columns: ``*by, n_games, n`` (decided games), ``first_wins, rate, lo, hi``, ``fair``
    (``1 / n_seats``), ``advantage`` = rate − fair with ``advantage_lo``/``advantage_hi``
    and ``significant`` (the interval excludes fair). Timeouts are left out of ``n``.

    Examples
    --------
    >>> games = pl.LazyFrame({"first_seat": [0, 1, 0, 1], "winner": [0, 1, 1, -1]})
    >>> first_seat_advantage(games).select("n_games", "n", "first_wins", "advantage").row(0)
    (4, 3, 2, 0.16666666666666663)
    """
    keys = as_list(by)
    aggs = [
        pl.len().alias("n_games"),
        (pl.col("winner") >= 0).sum().alias("n"),
        (pl.col("winner") == pl.col("first_seat")).sum().alias("first_wins"),
    ]
    return seat_advantage(
        (games.group_by(keys).agg(aggs).sort(keys) if keys else games.select(aggs)).collect(), n_seats
    )


def seat_advantage(counts: pl.DataFrame, n_seats: int = 2) -> pl.DataFrame:
    """Return :func:`first_seat_advantage` from its counts (``n_games``, ``n`` decided, ``first_wins``)."""
    fair = 1.0 / n_seats
    out = with_wilson(counts, "first_wins", "n").with_columns(pl.lit(fair).alias("fair"))
    return out.with_columns(
        (pl.col("rate") - fair).alias("advantage"),
        (pl.col("lo") - fair).alias("advantage_lo"),
        (pl.col("hi") - fair).alias("advantage_hi"),
        ((pl.col("lo") > fair) | (pl.col("hi") < fair)).alias("significant"),
    )


def outcomes(games: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return how games ended: ``*by, kind, value, count, n, rate, lo, hi``.

    Rows of kind ``result`` are ``decided`` and ``no winner`` (draw or timeout,
    ``winner == -1``), both always present when the games table has ``winner`` (a
    one-seat game has none); rows of kind ``end_reason`` give each ``end_reason`` value
    that occurs.

    Examples
    --------
    >>> games = pl.LazyFrame({"winner": [0, 1, -1, 0], "end_reason": ["score", "score", "timeout", "score"]})
    >>> outcomes(games).select("kind", "value", "count").rows()
    [('result', 'decided', 3), ('result', 'no winner', 1), ('end_reason', 'score', 3), ('end_reason', 'timeout', 1)]
    """
    keys = as_list(by)
    have = columns(games)
    parts = []
    if "winner" in have:  # a one-seat game has no winner: only its end reasons
        counts = [(pl.col("winner") >= 0).sum().alias("decided"), (pl.col("winner") < 0).sum().alias("no winner")]
        result = games.group_by(keys).agg(counts) if keys else games.select(counts)
        result = result.unpivot(["decided", "no winner"], index=keys, variable_name="value", value_name="count")
        parts.append(result.with_columns(pl.lit("result").alias("kind")))
    if "end_reason" in have:
        reason = pl.col("end_reason").cast(pl.String).alias("value")
        parts.append(
            games.group_by([*keys, reason])
            .agg(pl.len().alias("count"))
            .with_columns(pl.lit("end_reason").alias("kind"))
        )
    return outcomes_of_counts(parts, keys)


def outcomes_of_counts(parts: Sequence[pl.LazyFrame], keys: Sequence[str] = ()) -> pl.DataFrame:
    """Return :func:`outcomes` from its counts (``*keys, kind, value, count`` frames: results, then end reasons)."""
    keys = list(keys)
    if not parts:
        empty = {**{k: pl.String for k in keys}, "kind": pl.String, "value": pl.String, "count": pl.UInt32}
        return with_wilson(pl.DataFrame(schema=empty).with_columns(pl.lit(0, pl.UInt32).alias("n")), "count", "n")
    out = pl.concat([p.select(*keys, "kind", "value", pl.col("count").cast(pl.UInt32)) for p in parts])
    n = pl.col("count").sum().over([*keys, "kind"]).alias("n")
    order = pl.col("kind").replace_strict({"result": 0, "end_reason": 1}, return_dtype=pl.Int8)
    out = out.with_columns(n).sort([*keys, order, "value"]).collect()
    return with_wilson(out, "count", "n")


def enum_columns(games: pl.LazyFrame | pl.DataFrame) -> list[str]:
    """Return the string (enum-coded) columns of ``games`` other than ``end_reason`` and run keys.

    Examples
    --------
    >>> enum_columns(pl.LazyFrame({"run_id": ["r"], "end_reason": ["wipeout"], "final_how": ["surrender"]}))
    ['final_how']
    """
    schema = games.collect_schema()
    skip = KEYS | {"end_reason"}
    return [c for c, t in schema.items() if c not in skip and t in (pl.String, pl.Categorical, pl.Enum)]


def outcome_details(games: pl.LazyFrame, *, enums: Sequence[str] | None = None) -> pl.DataFrame:
    """Return how games ended, by end reason and each other enum column of ``games``.

    Long format ``column, end_reason, value, count, n, rate, lo, hi``: for each enum
    column (``enums``, default :func:`enum_columns`, e.g. ``final_how``: how the deciding step ended)
    and each end reason, how many games took each value; ``n`` counts the games with that
    end reason and ``rate`` (Wilson 95 % ``lo``/``hi``) is ``count / n``. Empty when the
    games table has no ``end_reason`` or no other enum column.

    Examples
    --------
    >>> games = pl.LazyFrame(
    ...     {"end_reason": ["wipeout", "wipeout", "cap"], "final_how": ["surrender", "exhaustion", "cap"]}
    ... )
    >>> outcome_details(games).select("end_reason", "value", "count", "n").rows()
    [('cap', 'cap', 1, 1), ('wipeout', 'exhaustion', 1, 2), ('wipeout', 'surrender', 1, 2)]
    """
    names = enum_columns(games) if enums is None else list(enums)
    schema = {"column": pl.String, "end_reason": pl.String, "value": pl.String, "count": pl.UInt32, "n": pl.UInt32}
    if "end_reason" not in columns(games) or not names:
        return with_wilson(pl.DataFrame(schema=schema), "count", "n")
    reason = pl.col("end_reason").cast(pl.String)
    parts = [
        games.group_by(reason, pl.col(c).cast(pl.String).alias("value"))
        .agg(pl.len().alias("count"))
        .select(pl.lit(c).alias("column"), "end_reason", "value", pl.col("count").cast(pl.UInt32))
        for c in names
    ]
    return details_of_counts(parts, names)


def details_of_counts(parts: Sequence[pl.LazyFrame], names: Sequence[str]) -> pl.DataFrame:
    """Return :func:`outcome_details` from its counts (``column, end_reason, value, count``, one frame a column)."""
    out = pl.concat(parts).with_columns(pl.col("count").sum().over("column", "end_reason").alias("n"))
    order = pl.col("column").replace_strict({c: i for i, c in enumerate(names)}, return_dtype=pl.Int32)
    return with_wilson(out.sort(order, "end_reason", "value", nulls_last=True).collect(), "count", "n")


def game_length(games: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return the distribution of game length: ``*by, turns, end_reason, count, share``.

    ``share`` is the fraction of all games (of the ``by`` group) with that length and end
    reason; the ``end_reason`` column is absent when the games table has none.

    Examples
    --------
    >>> games = pl.LazyFrame({"turns": [10, 10, 12], "end_reason": ["score", "score", "timeout"]})
    >>> game_length(games).rows()
    [(10, 'score', 2, 0.6666666666666666), (12, 'timeout', 1, 0.3333333333333333)]
    """
    keys = as_list(by)
    split = [pl.col("end_reason").cast(pl.String)] if "end_reason" in columns(games) else []
    out = games.group_by([*keys, "turns", *split]).agg(pl.len().alias("count"))
    total = pl.col("count").sum().over(keys) if keys else pl.col("count").sum()
    return out.with_columns((pl.col("count") / total).alias("share")).sort([*keys, "turns", *split]).collect()


def game_length_summary(games: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return ``*by, n, mean, sd, lo, hi, min, p10, median, p90, max`` of game length in turns.

    ``lo``/``hi`` bound the mean turns (95 %, Student t).

    Examples
    --------
    >>> game_length_summary(pl.LazyFrame({"turns": [10, 12, 14]})).select("n", "mean", "median").row(0)
    (3, 12.0, 12.0)
    """
    return summarize(games, "turns", by=by)


def seat_counters(seats: pl.LazyFrame, *, by: str | Sequence[str] = "bot") -> pl.DataFrame:
    """Return the mean per game of ``score`` and every extra numeric seat column.

    Long format: ``*by, counter, n, mean, sd, lo, hi`` (``lo``/``hi`` bound the mean,
    95 %). The counters are whatever numeric columns the game adds to ``seats``.

    Examples
    --------
    >>> seats = pl.LazyFrame(
    ...     {"game": [0, 0], "seat": [0, 1], "bot": ["a", "a"], "score": [3, 5], "won": [0, 1], "draws": [1, 2]}
    ... )
    >>> seat_counters(seats).select("bot", "counter", "n", "mean").rows()
    [('a', 'score', 2, 4.0), ('a', 'draws', 2, 1.5)]
    """
    counters = [c for c in ("score",) if c in columns(seats)] + extra_counters(seats, "seats")
    return counter_means(seats, counters, as_list(by))


def game_counters(games: pl.LazyFrame, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return the mean per game of every numeric games column beyond the core ones.

    Long format ``*by, counter, n, mean, sd, lo, hi`` (``lo``/``hi`` bound the mean,
    95 %): final scores (``score_0``, ``score_1``) for duels, session outcomes (kills,
    level, ...) for a solitaire game. Empty when the games table has no such column.

    Examples
    --------
    >>> games = pl.LazyFrame({"game": [0, 1], "seed": [5, 6], "winner": [0, -1], "turns": [3, 5], "level": [2, 4]})
    >>> game_counters(games).select("counter", "n", "mean").rows()
    [('level', 2, 3.0)]
    """
    return counter_means(games, outcome_columns(games), as_list(by))


def is_key(name: str) -> bool:
    """Return whether a column names a key, not a measure: run keys, ``*_id`` and ``*_index`` columns.

    Examples
    --------
    >>> [is_key(c) for c in ("character_id", "session_index", "kills", "seat")]
    [True, True, False, True]
    """
    return name in KEYS or name.endswith(("_id", "_index"))


def outcome_columns(games: pl.LazyFrame | pl.DataFrame) -> list[str]:
    """Return the numeric ``games`` columns beyond the core ones that measure something, in file order.

    Every extra numeric column except keys (:func:`is_key`: ``character_id``,
    ``session_index`` ...): final scores of a duel, the session outcome of a solitaire
    game (kills, deaths, level reached ...).

    Examples
    --------
    >>> outcome_columns(pl.LazyFrame({"game": [0], "turns": [3], "character_id": [0], "kills": [2], "how": ["x"]}))
    ['kills']
    """
    return [c for c in extra_counters(games, "games") if not is_key(c)]


def group_columns(games: pl.LazyFrame | pl.DataFrame, *, max_values: int = 50) -> list[str]:
    """Return the enum columns of ``games`` (:func:`enum_columns`) with 2 to ``max_values`` values.

    The columns a run's games can be compared by (a solitaire character's class, a
    duel's deck archetype ...); ``end_reason`` is an outcome, not a group, and is left out.

    Examples
    --------
    >>> group_columns(pl.LazyFrame({"end_reason": ["a", "b"], "class_card": ["spade_king", "heart_jack"]}))
    ['class_card']
    """
    names = enum_columns(games)
    if not names:
        return []
    counts = games.lazy().select(pl.col(c).n_unique() for c in names).collect().row(0, named=True)
    return [c for c in names if 2 <= counts[c] <= max_values]


def descriptor_columns(
    games: pl.LazyFrame | pl.DataFrame, by: str, candidates: Sequence[str] | None = None
) -> list[str]:
    """Return the ``candidates`` that are constant within every group of ``by`` (they describe the group).

    ``candidates`` defaults to :func:`outcome_columns`. A class's rank and suit, or a
    starting level every session shares, are facts about the group rather than outcomes.
    Needs at least two rows per group on average, so that a small sample does not make a
    varying column look fixed; otherwise returns ``[]``.

    Examples
    --------
    >>> games = pl.LazyFrame({"cls": ["a", "a", "b", "b"], "rank": [11, 11, 12, 12], "kills": [1, 3, 2, 2]})
    >>> descriptor_columns(games, "cls", ["rank", "kills"])
    ['rank']
    """
    names = outcome_columns(games) if candidates is None else list(candidates)
    if not names:
        return []
    per_group = games.lazy().group_by(by).agg(pl.len().alias("\0n"), *(pl.col(c).n_unique() for c in names))
    counts = per_group.collect()
    if counts.height == 0 or counts["\0n"].sum() < 2 * counts.height:
        return []
    return [c for c in names if counts[c].max() == 1]
