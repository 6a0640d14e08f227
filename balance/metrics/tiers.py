"""How much a card's value depends on the bot: one card metric ranked under two tiers.

A *tier* is a bot of a run (each bot's figures come from the seats it played), or a
whole run when two runs are compared. For each tier the per-card win rate (default GIH
WR) is counted from the cards table, once over all games and once for each half of the
games (even and odd game ids). Then:

- the cards are ranked under each tier (1 = highest value) and Spearman's rank
  correlation between the tiers is given with a Fisher-z interval;
- each tier's split-half reliability (the rank correlation between its two halves,
  stepped up to the whole with Spearman-Brown) bounds what the between-tier correlation
  could reach if the bots agreed and only sampling noise moved the ranks: ceiling =
  √(reliability A × reliability B);
- a card *moves* when its value relative to the tier's median card differs between the
  tiers beyond its interval (Newcombe interval of the difference, medians taken as
  fixed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import polars as pl

from balance import stats
from balance.metrics._common import columns, join_card_dim
from balance.metrics.cards import CARD_RATES, rate_subsets

MIN_N = 30  # a card needs at least this many counted games under each tier to be ranked


def seat_tiers(seats: pl.LazyFrame) -> dict[int, str] | None:
    """Return the bot of each seat when every seat always has the same bot, else None.

    Examples
    --------
    >>> seat_tiers(pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "bot": ["a", "b", "a", "b"]}))
    {0: 'a', 1: 'b'}
    """
    if "bot" not in columns(seats):
        return None
    per = seats.group_by("seat").agg(pl.col("bot").n_unique().alias("k"), pl.col("bot").first()).collect()
    if per.height == 0 or per["k"].max() != 1:
        return None
    return {int(s): str(b) for s, b in zip(per["seat"], per["bot"], strict=True)}


def tier_names(seats: pl.LazyFrame) -> list[str]:
    """Return the distinct bots of a run's seats, sorted (empty without a ``bot`` column)."""
    if "bot" not in columns(seats):
        return []
    return sorted(str(b) for b in seats.select(pl.col("bot").unique()).collect()["bot"].drop_nulls())


def tier_counts(
    cards: pl.LazyFrame, seats: pl.LazyFrame | None = None, *, metric: str = "gih_wr", tier: str | None = None
) -> pl.DataFrame:
    """Return ``card, tier, half, k, n``: wins and games counted by ``metric`` per card, tier and half.

    ``half`` is ``game % 2``. With ``tier`` given every row belongs to that tier (a whole
    run); otherwise the tier is the seat's bot, read from ``seats`` (by seat when each seat
    always has the same bot, else joined per game and seat).

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "card": [5, 5, 5, 5], "won": [1, 0, 0, 1],
    ...     "first_drawn_turn": [1, 2, -1, 0]})
    >>> seats = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "bot": ["a", "b", "a", "b"]})
    >>> tier_counts(cards, seats).rows()
    [(5, 'a', 0, 1, 1), (5, 'a', 1, 0, 0), (5, 'b', 0, 0, 1), (5, 'b', 1, 1, 1)]
    """
    if metric not in rate_subsets():
        raise ValueError(f"unknown card metric {metric!r}; known: {', '.join(rate_subsets())}")
    mask = rate_subsets()[metric]
    half = (pl.col("game") % 2).cast(pl.Int8).alias("half")
    aggs = [(mask & (pl.col("won") == 1)).sum().cast(pl.Int64).alias("k"), mask.sum().cast(pl.Int64).alias("n")]
    if tier is not None:
        out = cards.group_by("card", half).agg(aggs).with_columns(pl.lit(tier).alias("tier"))
        return _tidy(out.collect())
    if seats is None:
        raise ValueError("tier_counts needs the seats table (or a fixed tier) to tell the bots apart")
    fixed = seat_tiers(seats)
    if fixed is not None:
        out = cards.group_by("card", "seat", half).agg(aggs).collect()
        out = out.with_columns(pl.col("seat").replace_strict(fixed, return_dtype=pl.String).alias("tier"))
        return _tidy(out.group_by("card", "tier", "half").agg(pl.col("k", "n").sum()))
    bots = seats.select("game", "seat", pl.col("bot").cast(pl.String).alias("tier"))
    joined = cards.join(bots, on=["game", "seat"], how="inner")
    return _tidy(joined.group_by("card", "tier", half).agg(aggs).collect())


def tier_counts_from(
    sums: pl.DataFrame, seats: pl.LazyFrame | None = None, *, metric: str = "gih_wr", tier: str | None = None
) -> pl.DataFrame:
    """Return :func:`tier_counts` from a run's stored ``agg_cards`` sums (kept per card, seat and half).

    Without ``tier`` each seat must always have the same bot (every run's seats do); raise
    ``ValueError`` otherwise.
    """
    if metric not in rate_subsets():
        raise ValueError(f"unknown card metric {metric!r}; known: {', '.join(rate_subsets())}")
    counts = sums.select("card", "seat", "half", pl.col(f"{metric}_k").alias("k"), pl.col(f"{metric}_n").alias("n"))
    if tier is not None:
        return _tidy(
            counts.group_by("card", "half").agg(pl.col("k", "n").sum()).with_columns(pl.lit(tier).alias("tier"))
        )
    fixed = seat_tiers(seats) if seats is not None else None
    if fixed is None:
        raise ValueError("tier counts from stored sums need each seat to keep one bot (read from the seats table)")
    counts = counts.with_columns(pl.col("seat").replace_strict(fixed, return_dtype=pl.String).alias("tier"))
    return _tidy(counts.group_by("card", "tier", "half").agg(pl.col("k", "n").sum()))


def _tidy(df: pl.DataFrame) -> pl.DataFrame:
    return df.select(
        pl.col("card"), pl.col("tier").cast(pl.String), pl.col("half").cast(pl.Int8), pl.col("k", "n").cast(pl.Int64)
    ).sort("card", "tier", "half")


class Agreement(NamedTuple):
    """How well two tiers rank the cards alike."""

    tier_a: str
    tier_b: str
    metric: str
    cards: int  # cards ranked under both tiers
    rho: float  # Spearman's rank correlation between the tiers
    lo: float
    hi: float
    reliability_a: float  # split-half rank correlation of tier A, Spearman-Brown stepped up (NaN if unknown)
    reliability_b: float
    ceiling: float  # sqrt(reliability_a * reliability_b): rho if only noise moved the ranks
    moved: int  # cards whose relative value differs significantly between the tiers


def _rates(counts: pl.DataFrame, tier: str, half: int | None = None) -> pl.DataFrame:
    part = counts.filter(pl.col("tier") == tier)
    if half is not None:
        part = part.filter(pl.col("half") == half)
    return part.group_by("card").agg(pl.col("k", "n").sum()).with_columns((pl.col("k") / pl.col("n")).alias("x"))


def _reliability(counts: pl.DataFrame, tier: str, cards: Sequence[int]) -> float:
    halves = [_rates(counts, tier, h).filter(pl.col("card").is_in(list(cards))) for h in (0, 1)]
    both = halves[0].join(halves[1], on="card", suffix="_1").filter((pl.col("n") > 0) & (pl.col("n_1") > 0))
    if both.height < 4:
        return math.nan
    rho = float(stats.spearman(both["x"].to_numpy(), both["x_1"].to_numpy()).estimate)
    return float(stats.spearman_brown(rho)) if math.isfinite(rho) else math.nan


def card_ranks(
    counts: pl.DataFrame, tier_a: str, tier_b: str, card_dim: pl.DataFrame | None = None, *, min_n: int = MIN_N
) -> pl.DataFrame:
    """Return one row per card ranked under both tiers, sorted by how far its rank moves.

    Columns: ``card, name`` (and the card dimension's text columns), ``value_a``,
    ``lo_a``, ``hi_a``, ``n_a`` (Wilson 95 %) and the same for ``b``, ``rank_a``,
    ``rank_b`` (1 = highest; ties share the mean rank), ``shift`` = rank_b − rank_a
    (positive: the card ranks lower under B), ``relative`` = (value_a − median_a) −
    (value_b − median_b) with ``relative_lo``/``relative_hi`` and ``moved`` (that
    interval excludes 0). Cards counted fewer than ``min_n`` times under either tier are
    left out.
    """
    a, b = _rates(counts, tier_a), _rates(counts, tier_b)
    both = a.join(b, on="card", suffix="_b").filter((pl.col("n") >= min_n) & (pl.col("n_b") >= min_n))
    both = both.rename({"k": "k_a", "n": "n_a", "x": "value_a", "x_b": "value_b"}).sort("card")
    if both.height == 0:
        empty = {"card": pl.Int16, "value_a": pl.Float64, "value_b": pl.Float64, "rank_a": pl.Float64}
        return join_card_dim(pl.DataFrame(schema=empty), card_dim, all_columns=False)
    _, lo_a, hi_a = stats.wilson(both["k_a"], both["n_a"])
    _, lo_b, hi_b = stats.wilson(both["k_b"], both["n_b"])
    med_a, med_b = float(both["value_a"].median()), float(both["value_b"].median())  # type: ignore[arg-type]
    d, d_lo, d_hi = stats.newcombe(both["k_a"], both["n_a"], both["k_b"], both["n_b"])
    shift = med_a - med_b
    out = both.with_columns(
        pl.Series("lo_a", lo_a),
        pl.Series("hi_a", hi_a),
        pl.Series("lo_b", lo_b),
        pl.Series("hi_b", hi_b),
        pl.col("value_a").rank("average", descending=True).alias("rank_a"),
        pl.col("value_b").rank("average", descending=True).alias("rank_b"),
        pl.Series("relative", np.asarray(d) - shift),
        pl.Series("relative_lo", np.asarray(d_lo) - shift),
        pl.Series("relative_hi", np.asarray(d_hi) - shift),
    ).with_columns((pl.col("rank_b") - pl.col("rank_a")).alias("shift"))
    out = out.with_columns(((pl.col("relative_lo") > 0) | (pl.col("relative_hi") < 0)).alias("moved"))
    keep = ["card", "value_a", "lo_a", "hi_a", "n_a", "value_b", "lo_b", "hi_b", "n_b", "rank_a", "rank_b", "shift"]
    out = out.select(*keep, "relative", "relative_lo", "relative_hi", "moved")
    out = join_card_dim(out, card_dim, all_columns=False)
    return out.sort(pl.col("shift").abs(), "card", descending=[True, False])


def agreement(
    counts: pl.DataFrame, tier_a: str, tier_b: str, *, metric: str = "gih_wr", min_n: int = MIN_N
) -> Agreement:
    """Return the rank correlation of the cards under two tiers, with each tier's reliability.

    Examples
    --------
    >>> counts = pl.DataFrame({"card": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4] * 2, "tier": ["a"] * 10 + ["b"] * 10,
    ...     "half": [0, 1] * 10, "k": [60, 60, 50, 50, 40, 40, 30, 30, 20, 20] + [20, 20, 30, 30, 40, 40, 50, 50,
    ...     60, 60], "n": [100] * 20})
    >>> round(agreement(counts, "a", "b").rho, 3)
    -1.0
    """
    ranks = card_ranks(counts, tier_a, tier_b, min_n=min_n)
    rho, lo, hi = (float(v) for v in stats.spearman(ranks["value_a"].to_numpy(), ranks["value_b"].to_numpy()))
    cards = ranks["card"].to_list()
    rel_a, rel_b = _reliability(counts, tier_a, cards), _reliability(counts, tier_b, cards)
    ceiling = math.sqrt(rel_a * rel_b) if rel_a > 0 and rel_b > 0 else math.nan
    moved = int(ranks["moved"].sum()) if ranks.height else 0
    return Agreement(tier_a, tier_b, metric, ranks.height, rho, lo, hi, rel_a, rel_b, ceiling, moved)


def metric_label(metric: str) -> str:
    """Return the display name of a card metric (``gih_wr`` -> ``GIH WR``)."""
    return CARD_RATES.get(metric, metric)
