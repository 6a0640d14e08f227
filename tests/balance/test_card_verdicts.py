"""Card verdicts (too strong / too weak) and the measured bias of IWD, on hand-counted data."""

from __future__ import annotations

import math

import polars as pl
import pytest

from balance import metrics
from balance.io import Run
from balance.metrics import verdicts


def _cards(values: list[float | None], half: list[float]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "name": [f"c{i}" for i in range(len(values))],
            "delta": values,
            "delta_lo": [None if v is None else v - h for v, h in zip(values, half, strict=True)],
            "delta_hi": [None if v is None else v + h for v, h in zip(values, half, strict=True)],
        }
    )


def test_flags_need_the_band_and_an_interval_beyond_the_median() -> None:
    # median of the known values (0.00, 0.01, 0.03, -0.03, 0.05, -0.05, 0.021) is 0.01
    df = _cards([0.0, 0.01, 0.03, -0.03, 0.05, -0.05, 0.021, None], [0.01, 0.01, 0.01, 0.01, 0.045, 0.01, 0.001, 0.0])
    out = verdicts.flag_cards(df, "delta")
    assert out["reference"][0] == pytest.approx(0.01)
    assert out["verdict"].to_list() == [
        None,  # at the median
        None,  # the median card itself
        None,  # 2 pp above: not more than the band
        verdicts.WEAK,  # 4 pp below, interval [-0.04, -0.02] below 0.01
        None,  # 4 pp above, but its interval [0.005, 0.095] reaches below the median
        verdicts.WEAK,
        None,  # 1.1 pp above with a tight interval: beyond the median, within the band
        None,  # no value, no verdict
    ]
    stronger = verdicts.flag_cards(df.with_columns(pl.col("delta_lo").fill_null(0.0) + 0.0), "delta", band=0.005)
    assert stronger["verdict"][2] == verdicts.STRONG
    assert stronger["verdict"][6] == verdicts.STRONG


def test_flags_work_on_win_rates_with_named_interval_columns() -> None:
    df = pl.DataFrame(
        {"name": ["a", "b", "c"], "gih_wr": [0.6, 0.5, 0.48], "lo": [0.57, 0.47, 0.45], "hi": [0.63, 0.53, 0.51]}
    )
    out = verdicts.flag_cards(df, "gih_wr", lo="lo", hi="hi")
    assert out["verdict"].to_list() == [verdicts.STRONG, None, None]


def test_flags_of_a_frame_without_values_are_empty() -> None:
    out = verdicts.flag_cards(_cards([None, None], [0.0, 0.0]).with_columns(pl.col("delta").cast(pl.Float64)), "delta")
    assert out["verdict"].null_count() == 2
    assert out["reference"].null_count() == 2


def test_seen_unseen_pools_every_card_of_the_small_run(small_run: Run) -> None:
    assert small_run.cards is not None
    out = {r["seen"]: r for r in metrics.seen_unseen(small_run.cards, small_run.games).iter_rows(named=True)}
    seen, unseen = out["seen"], out["unseen"]
    # seen: card 0 in games 0-3 (seat 0), card 1 in games 0-5 (seat 1), card 2 in game 0 (seat 0)
    assert (seen["n"], seen["wins"], seen["hands"], seen["games"]) == (11, 6, 10, 6)
    assert seen["length"] == pytest.approx(47 / 11)  # game lengths 5, 4, 5, 4, 3, 3 turns
    # unseen: card 0 in games 4 and 5 (lost, no winner), card 2 in game 0 for seat 1 (lost)
    assert (unseen["n"], unseen["wins"], unseen["hands"], unseen["games"]) == (3, 0, 3, 3)
    assert unseen["length"] == pytest.approx(11 / 3)
    assert unseen["rate"] == 0.0
    assert unseen["lo"] == 0.0
    assert not metrics.iwd_biased(metrics.seen_unseen(small_run.cards, small_run.games))  # intervals overlap


def test_seen_unseen_intervals_count_hands_and_games_not_card_games() -> None:
    # 10 games, one seat, 5 cards each: a card-game repeats its hand's result and its game's length
    rows = [(g, c, 1 if c < 4 else -1, int(g % 2 == 0)) for g in range(10) for c in range(5)]
    cards = pl.LazyFrame(rows, schema=["game", "card", "first_drawn_turn", "won"], orient="row").with_columns(
        pl.lit(0).alias("seat")
    )
    games = pl.LazyFrame({"game": list(range(10)), "turns": [10 + g for g in range(10)]})
    out = {r["seen"]: r for r in metrics.seen_unseen(cards, games).iter_rows(named=True)}
    assert (out["seen"]["n"], out["seen"]["hands"], out["seen"]["games"]) == (40, 10, 10)
    from balance import stats

    _, lo, hi = stats.wilson(5, 10)  # 20 of 40 card-games won = 5 of 10 hands
    assert (out["seen"]["lo"], out["seen"]["hi"]) == pytest.approx((float(lo), float(hi)))
    _, lo, hi = stats.mean_ci([10 + g for g in range(10)])  # one value per game
    assert (out["seen"]["length_lo"], out["seen"]["length_hi"]) == pytest.approx((float(lo), float(hi)), rel=0.01)
    _, naive_lo, _ = stats.mean_ci([10 + g for g in range(10) for _ in range(4)])  # one per card-game: too narrow
    assert out["seen"]["length_lo"] < float(naive_lo) - 0.5


def test_iwd_bias_needs_shorter_unseen_games_beyond_their_intervals() -> None:
    def frame(seen: tuple[float, float, float], unseen: tuple[float, float, float]) -> pl.DataFrame:
        return pl.DataFrame(
            [("seen", *seen), ("unseen", *unseen)], schema=["seen", "length", "length_lo", "length_hi"], orient="row"
        )

    assert verdicts.iwd_biased(frame((32.9, 32.8, 33.0), (19.8, 19.7, 19.9)))  # the demo run's figures
    assert not verdicts.iwd_biased(frame((32.9, 32.8, 33.0), (31.0, 30.9, 31.1)))  # only 6 % shorter
    assert not verdicts.iwd_biased(frame((32.9, 20.0, 45.0), (19.8, 10.0, 30.0)))  # intervals overlap
    assert not verdicts.iwd_biased(
        frame((32.9, 32.8, 33.0), (math.nan, math.nan, math.nan)).with_columns(pl.col("length").fill_nan(None))
    )


def test_seen_unseen_can_pool_only_the_first_games(small_run: Run) -> None:
    assert small_run.cards is not None
    out = {
        r["seen"]: r for r in metrics.seen_unseen(small_run.cards, small_run.games, max_games=2).iter_rows(named=True)
    }
    # games 0 and 1: seen card 0 (games 0, 1), card 1 (games 0, 1), card 2 (game 0, seat 0); unseen card 2 (seat 1)
    assert (out["seen"]["n"], out["seen"]["games"], out["unseen"]["n"]) == (5, 2, 1)
    assert out["seen"]["length"] == pytest.approx((5 + 4 + 5 + 4 + 5) / 5)
