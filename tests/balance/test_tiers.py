"""Card values under two bot tiers: counts per tier, ranks, rank correlation, reliability, movers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from balance import metrics
from balance.io import Run
from balance.metrics import tiers


def test_tier_counts_join_the_bot_of_each_seat_by_game(small_run: Run) -> None:
    """In the small run the bots swap seats every game, so counts need the per-game join."""
    assert small_run.cards is not None
    assert tiers.seat_tiers(small_run.seats) is None
    counts = tiers.tier_counts(small_run.cards, small_run.seats)
    total = counts.group_by("card", "tier").agg(pl.col("k", "n").sum()).sort("card", "tier")
    # card 0 (seat 0): alpha in games 0, 2 (seen, won both), beta in games 1, 3 (seen; won game 3)
    # card 1 (seat 1): beta in games 0, 2, 4 (won 4), alpha in games 1, 3, 5 (won 1); seen in all
    assert total.filter(pl.col("card") < 2).rows() == [
        (0, "alpha", 2, 2),
        (0, "beta", 1, 2),
        (1, "alpha", 1, 3),
        (1, "beta", 1, 3),
    ]
    halves = counts.filter((pl.col("card") == 0) & (pl.col("n") > 0)).select("tier", "half").rows()
    assert halves == [("alpha", 0), ("beta", 1)]  # even games are half 0


def test_tier_counts_by_fixed_seat_equal_a_direct_count(small_run: Run) -> None:
    """When every seat keeps its bot, counts come from a group-by on the seat (no join): same numbers."""
    assert small_run.cards is not None
    fixed = small_run.seats.with_columns(
        pl.when(pl.col("seat") == 0).then(pl.lit("alpha")).otherwise(pl.lit("beta")).alias("bot")
    )
    assert tiers.seat_tiers(fixed) == {0: "alpha", 1: "beta"}
    fast = tiers.tier_counts(small_run.cards, fixed)
    seen = pl.col("first_drawn_turn") >= 0
    direct = (
        small_run.cards.join(fixed.select("game", "seat", "bot"), on=["game", "seat"])
        .group_by("card", pl.col("bot").alias("tier"), (pl.col("game") % 2).cast(pl.Int8).alias("half"))
        .agg((seen & (pl.col("won") == 1)).sum().cast(pl.Int64).alias("k"), seen.sum().cast(pl.Int64).alias("n"))
        .sort("card", "tier", "half")
        .collect()
    )
    assert fast.equals(direct)


def test_tier_counts_of_a_whole_run_and_other_metrics(small_run: Run) -> None:
    assert small_run.cards is not None
    counts = tiers.tier_counts(small_run.cards, metric="gp_wr", tier="run A")
    assert set(counts["tier"]) == {"run A"}
    total = counts.group_by("card").agg(pl.col("k", "n").sum()).sort("card")
    assert total.rows() == [(0, 3, 6), (1, 2, 6), (2, 1, 2)]  # GP WR 3/6, 2/6, 1/2
    with pytest.raises(ValueError, match="unknown card metric"):
        tiers.tier_counts(small_run.cards, small_run.seats, metric="iwd")
    with pytest.raises(ValueError, match="seats table"):
        tiers.tier_counts(small_run.cards)


def _counts(
    values_a: list[float], values_b: list[float], n: int = 1000, noise: bool = False, seed: int = 1
) -> pl.DataFrame:
    """Counts for cards 0.. under tiers a and b, each half holding n/2 games at the given win rates."""
    rng = np.random.default_rng(seed)
    rows = []
    for tier, values in (("a", values_a), ("b", values_b)):
        for card, p in enumerate(values):
            for half in (0, 1):
                k = int(rng.binomial(n // 2, p)) if noise else round(p * n / 2)
                rows.append((card, tier, half, k, n // 2))
    return pl.DataFrame(rows, schema=["card", "tier", "half", "k", "n"], orient="row")


def test_card_ranks_by_hand() -> None:
    counts = _counts([0.60, 0.55, 0.50, 0.45, 0.40], [0.40, 0.55, 0.50, 0.45, 0.60])
    ranks = tiers.card_ranks(counts, "a", "b")
    by = {r["card"]: r for r in ranks.iter_rows(named=True)}
    assert [(by[c]["rank_a"], by[c]["rank_b"], by[c]["shift"]) for c in range(5)] == [
        (1, 5, 4),
        (2, 2, 0),
        (3, 3, 0),
        (4, 4, 0),
        (5, 1, -4),
    ]
    assert ranks["card"].to_list()[:2] in ([0, 4], [4, 0])  # sorted by the size of the shift
    assert by[0]["relative"] == pytest.approx(0.20)  # (0.60 - 0.50) - (0.40 - 0.50)
    assert by[0]["moved"]
    assert by[4]["moved"]
    assert not by[2]["moved"]
    assert by[0]["lo_a"] < 0.60 < by[0]["hi_a"]
    assert ranks["name"].to_list()[0] in ("card 0", "card 4")  # no card dimension: named by id


def test_card_ranks_leave_out_rarely_counted_cards_and_name_cards() -> None:
    counts = _counts([0.6, 0.5, 0.4], [0.6, 0.5, 0.4]).with_columns(
        pl.when(pl.col("card") == 1).then(10).otherwise(pl.col("n")).alias("n"),
        pl.when(pl.col("card") == 1).then(5).otherwise(pl.col("k")).alias("k"),
    )
    dim = pl.DataFrame({"card": [0, 1, 2], "name": ["<b>Ace</b>", "Two", "Three"]})
    ranks = tiers.card_ranks(counts, "a", "b", dim)
    assert sorted(ranks["name"].to_list()) == ["<b>Ace</b>", "Three"]  # card 1: 20 games per tier < 30


def test_agreement_is_perfect_for_identical_tiers_and_inverted_for_reversed_ones() -> None:
    values = [0.3 + 0.02 * i for i in range(20)]
    same = tiers.agreement(_counts(values, values), "a", "b")
    assert (same.rho, same.cards, same.moved) == (pytest.approx(1.0), 20, 0)
    assert same.reliability_a == pytest.approx(1.0)
    assert same.ceiling == pytest.approx(1.0)
    reversed_ = tiers.agreement(_counts(values, values[::-1]), "a", "b")
    assert reversed_.rho == pytest.approx(-1.0)
    assert reversed_.hi < 0


def test_noise_alone_keeps_rho_near_the_ceiling_and_a_real_reshuffle_does_not() -> None:
    rng = np.random.default_rng(5)
    values = list(0.35 + 0.3 * rng.random(40))
    noise = tiers.agreement(_counts(values, values, n=4000, noise=True, seed=2), "a", "b")
    assert noise.ceiling > 0.95
    assert noise.lo <= noise.ceiling <= 1.0  # the interval reaches the noise ceiling: no bot dependence shown
    shuffled = list(rng.permutation(values))
    real = tiers.agreement(_counts(values, shuffled, n=4000, noise=True, seed=3), "a", "b")
    assert real.hi < real.ceiling  # far below what noise allows
    assert real.moved > noise.moved


def test_agreement_with_too_few_cards_has_no_reliability() -> None:
    a = tiers.agreement(_counts([0.6, 0.5, 0.4], [0.4, 0.5, 0.6]), "a", "b")
    assert a.cards == 3
    assert math.isnan(a.reliability_a)
    assert math.isnan(a.ceiling)
    assert (a.lo, a.hi) == (-1.0, 1.0)


def test_tiers_lists_the_bots_of_a_run(small_run: Run) -> None:
    assert metrics.tier_names(small_run.seats) == ["alpha", "beta"]
    assert metrics.tier_names(small_run.seats.drop("bot")) == []
