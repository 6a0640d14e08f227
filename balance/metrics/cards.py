"""Card value metrics with the names 17lands and HSReplay use, per card id.

One row of ``cards`` is one card in one seat's deck in one game; its ``won`` is the
seat's result. Definitions (each rate has its own ``n`` and Wilson 95 % interval):

========== =============================================== ==========================
column     games counted                                   meaning
========== =============================================== ==========================
gp_wr      card in the deck                                game-played win rate
oh_wr      ``in_opening_hand == 1``                        opening-hand win rate
gd_wr      ``first_drawn_turn > 0``                        drawn-later win rate
gih_wr     ``first_drawn_turn >= 0``                       games-in-hand win rate
gns_wr     ``first_drawn_turn == -1``                      not-seen win rate
iwd        gih_wr − gns_wr, Newcombe interval              improvement when drawn
played_wr  ``times_played > 0``                            win rate when played
play_rate  share of deck games with ``times_played > 0``   how often it gets played
turn_played mean ``first_played_turn`` where ``>= 0``      average turn first played
========== =============================================== ==========================

A rate ``x`` has columns ``x``, ``x_n``, ``x_lo``, ``x_hi``; ``iwd`` has ``iwd_lo`` and
``iwd_hi``; ``turn_played`` has ``turn_played_n``, ``turn_played_sd`` and a t interval.
A timeout counts as not won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import polars as pl

from balance import stats
from balance.aggregates import ATTRIBUTE_COUNTERS, CARD_VALUE_COLUMNS, RATES
from balance.metrics._common import (
    columns,
    extra_counters,
    from_sums,
    join_card_dim,
    mean_sd,
    moment_aggs,
    summed_counters,
    with_mean_ci,
    with_wilson,
)

CARD_RATES: dict[str, str] = {
    "gp_wr": "GP WR",
    "oh_wr": "OH WR",
    "gd_wr": "GD WR",
    "gih_wr": "GIH WR",
    "gns_wr": "GNS WR",
    "played_wr": "Played WR",
    "play_rate": "Play rate",
}


def has_card_values(cards: pl.LazyFrame | pl.DataFrame | None) -> bool:
    """Return whether ``cards`` has the columns the win-rate metrics need (:data:`CARD_VALUE_COLUMNS`).

    A one-seat game has no winner, so its cards table carries only keys and effect
    counters: then only :func:`card_counters` (and the counters by attribute) apply.

    Examples
    --------
    >>> has_card_values(pl.LazyFrame({"game": [0], "seat": [0], "card": [1], "damage": [3]}))
    False
    """
    return cards is not None and all(c in columns(cards) for c in CARD_VALUE_COLUMNS)


def rate_subsets() -> dict[str, pl.Expr]:
    """Return, for each win rate of :data:`CARD_RATES` but the play rate, the card rows it counts (a mask).

    Examples
    --------
    >>> sorted(rate_subsets())
    ['gd_wr', 'gih_wr', 'gns_wr', 'gp_wr', 'oh_wr', 'played_wr']
    """
    drawn = pl.col("first_drawn_turn")
    return {
        "gp_wr": pl.col("card").is_not_null(),
        "oh_wr": pl.col("in_opening_hand") == 1,
        "gd_wr": drawn > 0,
        "gih_wr": drawn >= 0,
        "gns_wr": drawn == -1,
        "played_wr": pl.col("times_played") > 0,
    }


def _rate_aggs() -> list[pl.Expr]:
    won = pl.col("won") == 1
    played = pl.col("times_played") > 0
    subsets = rate_subsets()
    aggs = [pl.len().cast(pl.Int64).alias("play_rate_n"), played.sum().cast(pl.Int64).alias("play_rate\0k")]
    for name, mask in subsets.items():
        aggs += [mask.sum().cast(pl.Int64).alias(f"{name}_n"), (mask & won).sum().cast(pl.Int64).alias(f"{name}\0k")]
    first = pl.col("first_played_turn")
    return aggs + moment_aggs(pl.when(first >= 0).then(first), "turn_played", integer=True)  # null when never played


def _aggregate(
    cards: pl.LazyFrame, *, values: bool, counters: bool, more: Sequence[str] = ()
) -> tuple[pl.DataFrame, list[str]]:
    """Aggregate ``cards`` per card in one pass: rate counts and/or counter moments.

    ``more`` names core columns (``times_played``) whose moments are wanted as well;
    the returned names are the extra counters only.
    """
    schema = cards.collect_schema()
    names = extra_counters(cards, "cards") if counters else []
    aggs = _rate_aggs() if values else [pl.len().cast(pl.Int64).alias("n")]
    for c in [*more, *names]:
        aggs += moment_aggs(pl.col(c), c, integer=schema[c].is_integer())
    return cards.group_by("card").agg(aggs).sort("card").collect(), names


def _values(agg: pl.DataFrame, card_dim: pl.DataFrame | None) -> pl.DataFrame:
    for name in CARD_RATES:
        agg = with_wilson(agg, f"{name}\0k", f"{name}_n", (name, f"{name}_lo", f"{name}_hi"))
    iwd, lo, hi = stats.newcombe(agg["gih_wr\0k"], agg["gih_wr_n"], agg["gns_wr\0k"], agg["gns_wr_n"])
    n, mean, sd = mean_sd(agg, "turn_played")
    agg = agg.with_columns(
        pl.Series("iwd", iwd, nan_to_null=True),
        pl.Series("iwd_lo", lo, nan_to_null=True),
        pl.Series("iwd_hi", hi, nan_to_null=True),
        turn_played=mean,
        turn_played_n=n,
        turn_played_sd=sd,
    )
    agg = with_mean_ci(agg, "turn_played", "turn_played_sd", "turn_played_n", ("turn_played_lo", "turn_played_hi"))
    order = ["card"]
    for name in CARD_RATES:
        order += [name, f"{name}_n", f"{name}_lo", f"{name}_hi"]
        if name == "gns_wr":
            order += ["iwd", "iwd_lo", "iwd_hi"]
    order += ["turn_played", "turn_played_n", "turn_played_sd", "turn_played_lo", "turn_played_hi"]
    return join_card_dim(agg.select(order), card_dim)


def _counters(agg: pl.DataFrame, names: list[str], card_dim: pl.DataFrame | None) -> pl.DataFrame:
    if not names:
        empty = pl.DataFrame(schema={"card": pl.Int16, "counter": pl.String, "n": pl.Int64, "mean": pl.Float64})
        return join_card_dim(empty, card_dim, all_columns=False)
    parts = []
    for c in names:
        n, mean, sd = mean_sd(agg, c)
        parts.append(pl.DataFrame({"card": agg["card"], "counter": c, "n": n, "mean": mean, "sd": sd}))
    long = with_mean_ci(pl.concat(parts).sort("card", maintain_order=True), "mean", "sd", "n")
    return join_card_dim(long, card_dim, all_columns=False)


def card_values(cards: pl.LazyFrame, card_dim: pl.DataFrame | None = None) -> pl.DataFrame:
    """Return card value metrics per card (see the module docstring for the columns).

    The card dimension's columns (``name`` and provenance such as ``source`` and
    ``confidence``) come first; cards missing from it are named ``card <id>``.

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "card": [7, 7, 7, 7], "won": [1, 0, 1, 0],
    ...     "in_opening_hand": [1, 0, 0, 0], "first_drawn_turn": [0, 3, -1, -1], "first_played_turn": [1, -1, -1, -1],
    ...     "times_played": [1, 0, 0, 0]})
    >>> card_values(cards).select("name", "gp_wr", "gih_wr_n", "gih_wr", "gns_wr", "iwd", "turn_played").row(0)
    ('card 7', 0.5, 2, 0.5, 0.5, 0.0, 1.0)
    """
    agg, _ = _aggregate(cards, values=True, counters=False)
    return _values(agg, card_dim)


def card_counters(cards: pl.LazyFrame, card_dim: pl.DataFrame | None = None) -> pl.DataFrame:
    """Return the mean per game in deck of every extra numeric column of ``cards``.

    Long format: ``card, name, <provenance>, counter, n, mean, sd, lo, hi`` (``lo``/``hi``
    bound the mean, 95 %). The counters are whatever the game records per card (points
    scored, damage dealt, ...). Empty when the game records no extra card columns.

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 1], "seat": [0, 0], "card": [3, 3], "won": [1, 0], "damage_dealt": [2, 4]})
    >>> card_counters(cards).select("name", "counter", "n", "mean").rows()
    [('card 3', 'damage_dealt', 2, 3.0)]
    """
    agg, names = _aggregate(cards, values=False, counters=True)
    return _counters(agg, names, card_dim)


def card_tables(cards: pl.LazyFrame, card_dim: pl.DataFrame | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return ``(card_values(...), card_counters(...))`` from a single pass over ``cards``.

    Reading the large cards table once instead of twice is what a report wants.

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0], "seat": [0], "card": [3], "won": [1], "in_opening_hand": [1],
    ...     "first_drawn_turn": [0], "first_played_turn": [1], "times_played": [1], "damage_dealt": [2]})
    >>> values, counters = card_tables(cards)
    >>> values["gp_wr"].to_list(), counters["mean"].to_list()
    ([1.0], [2.0])
    """
    agg, names = _aggregate(cards, values=True, counters=True)
    return _values(agg, card_dim), _counters(agg, names, card_dim)


def _incidence(counts: pl.DataFrame, n_games: int, card_dim: pl.DataFrame | None) -> pl.DataFrame:
    counts = counts.with_columns(pl.col("count").cast(pl.Int64), pl.lit(n_games, pl.Int64).alias("n"))
    return join_card_dim(with_wilson(counts, "count", "n"), card_dim, all_columns=False)


def card_incidence(cards: pl.LazyFrame, n_games: int, card_dim: pl.DataFrame | None = None) -> pl.DataFrame:
    """Return in how many of ``n_games`` games each card has a row: ``card, name, ..., count, n, rate, lo, hi``.

    For a solitaire game whose ``cards`` table has (at most) one row per game and card,
    for the cards that came into play (entered the Inventory), ``rate`` is the share of
    games in which the card did (Wilson 95 %).

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 1, 1], "seat": [0, 0, 0], "card": [5, 5, 7]})
    >>> card_incidence(cards, 4).select("name", "count", "n", "rate").rows()
    [('card 5', 2, 4, 0.5), ('card 7', 1, 4, 0.25)]
    """
    counts = cards.lazy().group_by("card").agg(pl.len().alias("count")).sort("card").collect()
    return _incidence(counts, n_games, card_dim)


# -- card value by attribute ------------------------------------------------------------------

NOT_ATTRIBUTES = ("card", "name", "source", "confidence")


def card_attributes(card_dim: pl.DataFrame | None, *, max_values: int = 20) -> list[str]:
    """Return the card dimension's low-cardinality columns, in table order.

    A column qualifies when it has 2 to ``max_values`` distinct values and is not
    ``card``, ``name`` or provenance (``source``, ``confidence``). A ``<x>_code`` column
    is left out when ``x`` is a column too (the text it was parsed from says the same).

    Examples
    --------
    >>> dim = pl.DataFrame({"card": [0, 1, 2], "name": ["a", "b", "c"], "suit": ["heart", "spade", "heart"],
    ...     "rank": ["2", "jack", "2"], "rank_code": [2, 11, 2], "copies": [1, 1, 1]})
    >>> card_attributes(dim)
    ['suit', 'rank']
    """
    if card_dim is None:
        return []
    out = []
    for c in card_dim.columns:
        if c in NOT_ATTRIBUTES or (c.endswith("_code") and c[:-5] in card_dim.columns):
            continue
        if 2 <= card_dim[c].n_unique() <= max_values:
            out.append(c)
    return out


def _value_order(dim: pl.DataFrame, attribute: str) -> pl.Expr:
    """Return the sort key of an attribute's values: its code, its number, or its first card id."""
    if f"{attribute}_code" in dim.columns:
        return pl.col(f"{attribute}_code").min()
    if dim.schema[attribute].is_numeric():
        return pl.col(attribute).min()
    return pl.col("card").min()  # text: the order the card table lists it (suits, types ...)


def _by_attribute(
    agg: pl.DataFrame, counters: list[str], card_dim: pl.DataFrame, attributes: list[str], pairs: int | None
) -> pl.DataFrame:
    """Pool per-card aggregates (:func:`_aggregate`) over each attribute's values."""
    rates = "gp_wr_n" in agg.columns  # False for a cards table without results (a one-seat game)
    count = "gp_wr_n" if rates else "n"
    mirror = rates and pairs is not None and agg.height > 0 and bool((agg["gp_wr_n"] == pairs).all())
    dim = card_dim.with_columns(pl.col("card").cast(agg.schema["card"]))
    joined = agg.join(dim, on="card", how="left")
    moments = [f"{c}\0{k}" for c in counters for k in ("n", "s", "ss")]
    parts = []
    for a in attributes:
        grouped = (
            joined.group_by(a)
            .agg(
                pl.len().alias("cards"),
                pl.col(count).sum().alias("n"),
                pl.col(count).max().alias("n_eff"),
                (pl.col("gp_wr\0k").sum() if rates else pl.lit(None, pl.Int64)).alias("wins"),
                *(pl.col(m).sum() for m in moments),
                _value_order(joined, a).alias("\0order"),
            )
            .sort("\0order", nulls_last=True)
        )
        # one hand may hold several cards of the value, so its result and counters repeat:
        # intervals use n_eff, the most-held card's count, as if each hand held all of them
        k_eff = (pl.col("wins") * pl.col("n_eff") / pl.col("n")).alias("\0k_eff")
        grouped = with_wilson(grouped.with_columns(k_eff), "\0k_eff", "n_eff", ("gp_wr", "gp_wr_lo", "gp_wr_hi"))
        means = {}
        for c in counters:
            _, mean, sd = mean_sd(grouped, c)
            means[c], means[f"{c}_sd"] = mean, sd
        grouped = grouped.with_columns(**means)
        for c in counters:
            grouped = with_mean_ci(grouped, c, f"{c}_sd", "n_eff", (f"{c}_lo", f"{c}_hi"))
        parts.append(
            grouped.select(
                pl.lit(a).alias("attribute"),
                pl.col(a).cast(pl.String).alias("value"),
                pl.col("cards").cast(pl.UInt32),
                pl.col("n").cast(pl.Int64),
                pl.col("n_eff").cast(pl.Int64),
                pl.col("wins").cast(pl.Int64),
                "gp_wr",
                "gp_wr_lo",
                "gp_wr_hi",
                *(pl.col(f"{c}{s}") for c in counters for s in ("", "_sd", "_lo", "_hi")),
            )
        )
    fixed = {"attribute": pl.String, "value": pl.String, "cards": pl.UInt32, "n": pl.Int64, "n_eff": pl.Int64}
    fixed |= {"wins": pl.Int64}
    fixed |= {"gp_wr": pl.Float64, "gp_wr_lo": pl.Float64, "gp_wr_hi": pl.Float64}
    out = pl.concat(parts) if parts else pl.DataFrame(schema=fixed)
    return out.with_columns(pl.lit(mirror).alias("mirror_decks"))


def _pairs(cards: pl.LazyFrame, seats: pl.LazyFrame | None) -> int:
    """Return how many (game, seat) hands the cards table covers (seats rows when given)."""
    if seats is not None:
        return int(seats.select(pl.len()).collect().item())
    return int(cards.select(pl.struct("game", "seat").n_unique()).collect().item())


def card_attribute_values(
    cards: pl.LazyFrame,
    card_dim: pl.DataFrame | None,
    seats: pl.LazyFrame | None = None,
    *,
    attributes: Sequence[str] | None = None,
    max_values: int = 20,
) -> pl.DataFrame:
    """Return deck win rate and mean counters per value of each card attribute.

    One row per ``attribute`` (default :func:`card_attributes`: suit, rank, type, cost
    ...) and ``value``: ``cards`` (distinct cards with that value), ``n`` (card-games:
    rows of ``cards``), ``wins``, ``gp_wr`` = wins / n, then for ``times_played`` and
    every extra numeric card column ``c`` the mean per card-game ``c`` with its ``c_sd``.

    A hand holding several cards of a value repeats its result (and shares its game) in
    ``n``, so the 95 % intervals (Wilson ``gp_wr_lo``/``gp_wr_hi``, t ``c_lo``/``c_hi``)
    use ``n_eff``, the largest single card's ``n``: exact when every hand holding one card
    of the value holds them all, conservative (wider) otherwise. ``mirror_decks`` is true
    when every (game, seat) holds the same set of cards (each card's ``n`` equals the
    number of seats in ``seats``, or of distinct (game, seat) pairs in ``cards``): then
    every card's GP WR is the same by construction and only the counters say anything.

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 0, 0, 0], "card": [0, 1, 0, 1], "won": [1, 1, 0, 0],
    ...     "in_opening_hand": [0] * 4, "first_drawn_turn": [-1] * 4, "first_played_turn": [-1] * 4,
    ...     "times_played": [1, 3, 2, 0]})
    >>> dim = pl.DataFrame({"card": [0, 1], "name": ["a", "b"], "suit": ["heart", "spade"]})
    >>> card_attribute_values(cards, dim).select("value", "n", "gp_wr", "times_played", "mirror_decks").rows()
    [('heart', 2, 0.5, 1.5, True), ('spade', 2, 0.5, 1.5, True)]
    """
    return card_summary(cards, card_dim, seats, attributes=attributes, max_values=max_values).by_attribute


class CardTables(NamedTuple):
    """The card metrics of a run from one pass over ``cards``."""

    values: pl.DataFrame  # card_values
    counters: pl.DataFrame  # card_counters
    by_attribute: pl.DataFrame  # card_attribute_values


def card_summary(
    cards: pl.LazyFrame,
    card_dim: pl.DataFrame | None = None,
    seats: pl.LazyFrame | None = None,
    *,
    attributes: Sequence[str] | None = None,
    max_values: int = 20,
) -> CardTables:
    """Return :class:`CardTables` (values, counters, by attribute) from a single pass over ``cards``.

    What a report wants: the large cards table is read once, and the attribute figures
    are pooled from the per-card sums (exact, no second scan). A cards table without the
    win columns (:func:`has_card_values`, a one-seat game) gives :func:`card_incidence`
    as ``values`` (``n`` = the seats in ``seats``, i.e. games) and attribute rows without
    win rates (``wins``, ``gp_wr`` null).
    """
    have = columns(cards)
    more = [c for c in ATTRIBUTE_COUNTERS if c in have]
    values = has_card_values(cards)
    agg, names = _aggregate(cards, values=values, counters=True, more=more)
    return _tables(agg, more, names, values, card_dim, lambda: _pairs(cards, seats), attributes, max_values)


def _tables(
    agg: pl.DataFrame,
    more: list[str],
    names: list[str],
    values: bool,
    card_dim: pl.DataFrame | None,
    pairs: Callable[[], int],
    attributes: Sequence[str] | None,
    max_values: int,
) -> CardTables:
    """Finish :class:`CardTables` from per-card counts and moments (raw rows or stored sums alike)."""
    chosen = card_attributes(card_dim, max_values=max_values) if attributes is None else list(attributes)
    if card_dim is None or not chosen:
        by_attribute = _by_attribute(agg, [], pl.DataFrame({"card": agg["card"]}), [], None)
    else:
        by_attribute = _by_attribute(agg, [*more, *names], card_dim, chosen, pairs() if values else None)
    if values:
        value_table = _values(agg, card_dim)
    else:
        value_table = _incidence(agg.select("card", pl.col("n").alias("count")), pairs(), card_dim)
    return CardTables(value_table, _counters(agg, names, card_dim), by_attribute)


def per_card_sums(sums: pl.DataFrame) -> tuple[pl.DataFrame, list[str], list[str], bool]:
    """Return the per-card frame :func:`_aggregate` builds from raw rows, from a run's ``agg_cards`` sums.

    Also the core counters (``times_played``) and the extra counters it carries, and
    whether it has card win rates. Sums over seats and halves are exact integers, so every
    figure finished from it equals the one from the raw rows.
    """
    counters = summed_counters(sums)
    more = [c for c in counters if c in ATTRIBUTE_COUNTERS]
    names = [c for c in counters if c not in ATTRIBUTE_COUNTERS]
    values = "gp_wr_n" in sums.columns
    if values:
        aggs = [pl.col("rows").alias("play_rate_n"), pl.col("played_wr_n").alias("play_rate\0k")]
        for name in RATES:
            aggs += [pl.col(f"{name}_n"), pl.col(f"{name}_k").alias(f"{name}\0k")]
        stored = {"n": "turn_played_n", "s": "turn_played_total", "ss": "turn_played_squares"}
        aggs += [pl.col(c).alias(f"turn_played\0{k}") for k, c in stored.items()]
    else:
        aggs = [pl.col("rows").alias("n")]
    for c in [*more, *names]:
        aggs += from_sums(sums, c)
    per_card = sums.group_by("card").agg(pl.exclude("seat", "half").sum()).sort("card")
    return per_card.select("card", *aggs), more, names, values


def card_summary_from(
    sums: pl.DataFrame,
    card_dim: pl.DataFrame | None = None,
    hands: int = 0,
    *,
    attributes: Sequence[str] | None = None,
    max_values: int = 20,
) -> CardTables:
    """Return :func:`card_summary` from a run's stored ``agg_cards`` sums; ``hands`` = rows of ``seats``."""
    agg, more, names, values = per_card_sums(sums)
    return _tables(agg, more, names, values, card_dim, lambda: hands, attributes, max_values)


def card_values_from(sums: pl.DataFrame, card_dim: pl.DataFrame | None = None) -> pl.DataFrame:
    """Return :func:`card_values` from a run's stored ``agg_cards`` sums."""
    agg, _, _, _ = per_card_sums(sums)
    return _values(agg, card_dim)
