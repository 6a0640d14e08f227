"""Does an event pay? Win rate of a card's games with and without each of its counted events.

For every extra counter of the ``cards`` table (a game's count of something that happened
to the card: Cardia's ``activations`` — the card lost its encounter and its ability
fired —, ``flips``, ``copied`` ...), among the games in which the card was played, the
win rate when the event happened at least once against the win rate when it did not,
with the difference and Newcombe's interval. For Cardia's ``activations`` this is "how
often losing an encounter on purpose pays", card by card (cards sorted by id; the card
dimension gives their influence).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from balance import stats
from balance.metrics._common import extra_counters, join_card_dim, with_wilson
from balance.metrics.cards import has_card_values

NOT_EVENTS = {"match_game"}  # counters that number something rather than count an event


def event_counters(cards: pl.LazyFrame | pl.DataFrame | None, only: Sequence[str] | None = None) -> list[str]:
    """Return the ``cards`` counters :func:`card_events` splits by (integer extra counters).

    ``only``: the counters a game declares as events (``GameSpec.extra["card_events"]``),
    kept in the table's order; None takes every integer extra counter.
    """
    if cards is None or not has_card_values(cards):
        return []
    schema = cards.collect_schema()
    names = [c for c in extra_counters(cards, "cards") if schema[c].is_integer() and c not in NOT_EVENTS]
    return names if only is None else [c for c in names if c in set(only)]


def card_events(
    cards: pl.LazyFrame, card_dim: pl.DataFrame | None = None, only: Sequence[str] | None = None
) -> pl.DataFrame:
    """Return per counter and card: played games, share with the event, win rate with / without, difference.

    Long format ``counter, card, played, with_n, share, share_lo, share_hi, with_wr,
    with_lo, with_hi, without_n, without_wr, without_lo, without_hi, diff, diff_lo,
    diff_hi`` (+ the card dimension's columns). Counters whose event never happens, or
    always does, in played games are left out (nothing to compare).

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 1, 2, 3], "seat": [0] * 4, "card": [5] * 4, "won": [1, 0, 1, 0],
    ...     "in_opening_hand": [0] * 4, "first_drawn_turn": [0] * 4, "first_played_turn": [1] * 4,
    ...     "times_played": [1] * 4, "activations": [1, 0, 1, 1]})
    >>> card_events(cards).select("counter", "card", "played", "with_n", "with_wr", "without_wr").rows()
    [('activations', 5, 4, 3, 0.6666666666666666, 0.0)]
    """
    names = event_counters(cards, only)
    if not names:
        return pl.DataFrame()
    played = cards.filter(pl.col("times_played") > 0)
    won = pl.col("won") == 1
    aggs = [pl.len().alias("played")]
    for c in names:
        hit = pl.col(c) > 0
        aggs += [hit.sum().alias(f"{c}\0n"), (hit & won).sum().alias(f"{c}\0k"), (~hit & won).sum().alias(f"{c}\0w")]
    return _events(played.group_by("card").agg(aggs).sort("card").collect(), names, card_dim)


def event_counters_from(sums: pl.DataFrame | None, only: Sequence[str] | None = None) -> list[str]:
    """Return the event counters a run's ``agg_cards`` sums carry (``<c>_event_n``), kept in the sums' order."""
    if sums is None:
        return []
    names = [c[: -len("_event_n")] for c in sums.columns if c.endswith("_event_n")]
    return names if only is None else [c for c in names if c in set(only)]


def card_events_from(
    sums: pl.DataFrame, card_dim: pl.DataFrame | None = None, only: Sequence[str] | None = None
) -> pl.DataFrame:
    """Return :func:`card_events` from a run's stored ``agg_cards`` sums (per card: played rows, and per
    event the played rows with it, their wins and the wins of those without it: exact integer sums)."""
    names = event_counters_from(sums, only)
    if not names:
        return pl.DataFrame()
    aggs = [pl.col("played_wr_n").sum().cast(pl.UInt32).alias("played")]
    for c in names:
        aggs += [pl.col(f"{c}_event_{x}").sum().cast(pl.UInt32).alias(f"{c}\0{x}") for x in ("n", "k", "w")]
    agg = sums.group_by("card").agg(aggs).filter(pl.col("played") > 0).sort("card")
    return _events(agg, names, card_dim)


def _events(agg: pl.DataFrame, names: Sequence[str], card_dim: pl.DataFrame | None) -> pl.DataFrame:
    """Finish the per-card event counts ``played, <c>\0n, <c>\0k, <c>\0w`` into the long table."""
    parts = []
    for c in names:
        part = agg.select(
            pl.lit(c).alias("counter"),
            "card",
            "played",
            pl.col(f"{c}\0n").cast(pl.Int64).alias("with_n"),
            pl.col(f"{c}\0k").cast(pl.Int64).alias("with_k"),
            (pl.col("played") - pl.col(f"{c}\0n")).cast(pl.Int64).alias("without_n"),
            pl.col(f"{c}\0w").cast(pl.Int64).alias("without_k"),
        )
        if part["with_n"].sum() == 0 or part["without_n"].sum() == 0:
            continue
        part = with_wilson(part, "with_n", "played", ("share", "share_lo", "share_hi"))
        part = with_wilson(part, "with_k", "with_n", ("with_wr", "with_lo", "with_hi"))
        part = with_wilson(part, "without_k", "without_n", ("without_wr", "without_lo", "without_hi"))
        d, lo, hi = stats.newcombe(part["with_k"], part["with_n"], part["without_k"], part["without_n"])
        part = part.with_columns(
            pl.Series("diff", d, nan_to_null=True),
            pl.Series("diff_lo", lo, nan_to_null=True),
            pl.Series("diff_hi", hi, nan_to_null=True),
        )
        parts.append(part.drop("with_k", "without_k"))
    if not parts:
        return pl.DataFrame()
    return join_card_dim(pl.concat(parts), card_dim)
