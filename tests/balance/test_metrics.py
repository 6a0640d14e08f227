"""Metrics: hand-counted values on the small run, properties on random frames, comparisons."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance import metrics, stats
from balance.io import Run


def _row(df: pl.DataFrame, **where: Any) -> dict[str, Any]:
    rows = df.filter(*(pl.col(k) == v for k, v in where.items()))
    assert rows.height == 1, where
    return rows.row(0, named=True)


# -- games and seats --------------------------------------------------------------------
def test_win_rates_by_bot_seat_and_position_count_timeouts_as_not_won(small_run: Run) -> None:
    by_bot = metrics.win_rates(small_run.seats)
    assert by_bot.select("bot", "n", "wins").rows() == [("alpha", 6, 3), ("beta", 6, 2)]
    assert by_bot["rate"].to_list() == pytest.approx([0.5, 2 / 6])
    by_seat = metrics.win_rates(small_run.seats, by="seat")
    assert by_seat.select("seat", "wins").rows() == [(0, 3), (1, 2)]
    by_position = metrics.win_rates(small_run.seats, by="position", games=small_run.games)
    assert by_position.select("position", "n", "wins").rows() == [(1, 6, 3), (2, 6, 2)]
    for r in (*by_bot.iter_rows(named=True), *by_seat.iter_rows(named=True)):
        assert r["lo"] <= r["rate"] <= r["hi"]


def test_win_rates_summed_from_bot_and_position_equal_a_scan_by_bot_or_position() -> None:
    rng = np.random.default_rng(5)
    n = 300
    seats = pl.LazyFrame(
        {
            "game": np.repeat(np.arange(n), 2),
            "seat": np.tile([0, 1], n).astype(np.int8),
            "bot": rng.choice(["alpha", "beta", "gamma"], 2 * n),
            "won": rng.integers(0, 2, 2 * n).astype(np.int8),
        }
    )
    games = pl.LazyFrame({"game": np.arange(n - 7), "first_seat": rng.integers(0, 2, n - 7)})  # 7 games unknown
    cross = metrics.win_rates(seats, by=["bot", "position"], games=games)
    assert metrics.win_rates_over(cross, "bot").equals(metrics.win_rates(seats, by="bot"))
    by_position = metrics.win_rates(seats, by="position", games=games)
    assert by_position["position"].null_count() == 1
    assert metrics.win_rates_over(cross, "position").equals(by_position)


def test_win_rates_by_position_needs_games(small_run: Run) -> None:
    with pytest.raises(ValueError, match="games"):
        metrics.win_rates(small_run.seats, by="position")


def test_first_seat_advantage_counts_decided_games_only(small_run: Run) -> None:
    r = metrics.first_seat_advantage(small_run.games).row(0, named=True)
    assert (r["n_games"], r["n"], r["first_wins"]) == (6, 5, 3)
    assert r["rate"] == pytest.approx(0.6)
    assert r["advantage"] == pytest.approx(0.1)
    assert r["advantage_lo"] == pytest.approx(r["lo"] - 0.5)
    assert r["significant"] is False


def test_outcomes_give_no_winner_rate_and_end_reasons(small_run: Run) -> None:
    out = metrics.outcomes(small_run.games)
    assert out.select("kind", "value", "count", "n").rows() == [
        ("result", "decided", 5, 6),
        ("result", "no winner", 1, 6),
        ("end_reason", "target_score", 5, 6),
        ("end_reason", "timeout", 1, 6),
    ]
    assert _row(out, value="no winner")["rate"] == pytest.approx(1 / 6)


def test_game_length_distribution_and_summary(small_run: Run) -> None:
    dist = metrics.game_length(small_run.games)
    assert dist.select("turns", "end_reason", "count").rows() == [
        (3, "target_score", 1),
        (3, "timeout", 1),
        (4, "target_score", 2),
        (5, "target_score", 2),
    ]
    assert dist["share"].sum() == pytest.approx(1.0)
    s = metrics.game_length_summary(small_run.games).row(0, named=True)
    assert (s["n"], s["mean"], s["min"], s["median"], s["max"]) == (6, 4.0, 3.0, 4.0, 5.0)
    assert s["lo"] < 4.0 < s["hi"]


def test_seat_counters_average_every_extra_numeric_column(small_run: Run) -> None:
    out = metrics.seat_counters(small_run.seats)
    assert {"score", "draws", "points_steal", "deck_total_cost"} <= set(out["counter"])
    assert not {"game", "seat", "won", "bot", "deck"} & set(out["counter"])
    assert _row(out, bot="alpha", counter="score")["mean"] == pytest.approx(3.0)
    assert _row(out, bot="beta", counter="score")["mean"] == pytest.approx(13 / 6)
    assert _row(out, bot="alpha", counter="draws")["mean"] == pytest.approx(3.0)


# -- cards ----------------------------------------------------------------------------
def test_card_values_follow_the_17lands_definitions(small_run: Run, script_name: str) -> None:
    cv = metrics.card_values(small_run.cards, small_run.card_dim)
    assert cv["name"].to_list() == ["Bumblebee", script_name, "Pick & Boy"]
    assert cv.columns[:6] == ["card", "name", "cost", "source", "confidence", "gp_wr"]
    c0 = _row(cv, card=0)
    counts = {
        k: (c0[f"{k}_n"], c0[k]) for k in ("gp_wr", "oh_wr", "gd_wr", "gih_wr", "gns_wr", "played_wr", "play_rate")
    }
    assert counts == {
        "gp_wr": (6, 0.5),
        "oh_wr": (2, 0.5),
        "gd_wr": (2, 1.0),
        "gih_wr": (4, 0.75),
        "gns_wr": (2, 0.0),
        "played_wr": (2, 1.0),
        "play_rate": (6, pytest.approx(1 / 3)),
    }
    assert c0["iwd"] == pytest.approx(0.75)
    assert (c0["iwd_lo"], c0["iwd_hi"]) == pytest.approx(tuple(float(x) for x in stats.newcombe(3, 4, 0, 2)[1:]))
    assert (c0["turn_played"], c0["turn_played_n"]) == (2.0, 2)
    c1 = _row(cv, card=1)
    assert (c1["gp_wr"], c1["oh_wr"], c1["gih_wr"], c1["played_wr"]) == pytest.approx((1 / 3, 1 / 3, 1 / 3, 1.0))
    assert (c1["gd_wr_n"], c1["gd_wr"], c1["gd_wr_lo"], c1["gd_wr_hi"]) == (0, None, 0.0, 1.0)
    assert c1["iwd"] is None
    c2 = _row(cv, card=2)
    assert (c2["gp_wr_n"], c2["gp_wr"], c2["gih_wr"], c2["gns_wr"], c2["turn_played_n"]) == (2, 0.5, 1.0, 0.0, 0)


def test_card_values_name_unknown_cards_by_id(small_run: Run) -> None:
    cv = metrics.card_values(small_run.cards, small_run.card_dim.filter(pl.col("card") != 2))
    assert _row(cv, card=2)["name"] == "card 2"
    assert metrics.card_values(small_run.cards)["name"].to_list() == ["card 0", "card 1", "card 2"]


def test_card_counters_average_extra_card_columns(small_run: Run) -> None:
    out = metrics.card_counters(small_run.cards, small_run.card_dim)
    assert {"damage_dealt", "times_drawn", "points_scored"} <= set(out["counter"])
    r = _row(out, card=0, counter="damage_dealt")
    assert (r["name"], r["n"], r["mean"], r["source"]) == ("Bumblebee", 6, 2.5, "rulebook")
    assert r["lo"] < 2.5 < r["hi"]


# -- turns ----------------------------------------------------------------------------
def test_lead_per_game_matches_hand_counts(small_run: Run) -> None:
    out = metrics.lead_per_game(small_run.turns, small_run.games)
    assert out.rows() == [(0, 2, 5), (1, 0, 1), (2, 1, 3), (3, 2, 4), (4, 2, 3), (5, 0, None)]
    assert metrics.lead_changes(small_run.turns, small_run.games).select("lead_changes", "count").rows() == [
        (0, 2),
        (1, 1),
        (2, 3),
    ]
    assert metrics.lead_for_good(small_run.turns, small_run.games).select("lead_for_good", "count").rows() == [
        (1, 1),
        (3, 2),
        (4, 1),
        (5, 1),
    ]


def test_tempo_turn_one_by_hand(small_run: Run) -> None:
    out = metrics.tempo(small_run.turns, small_run.games)
    first = _row(out, perspective="first_minus_second", turn=1)
    assert (first["n"], first["mean"], first["q10"], first["q90"]) == (6, pytest.approx(-1 / 6), -1.0, 1.0)
    assert first["lo"] < first["mean"] < first["hi"]
    winner = _row(out, perspective="winner_minus_loser", turn=1)
    assert (winner["n"], winner["mean"]) == (5, pytest.approx(0.8))
    assert _row(out, perspective="first_minus_second", turn=5)["n"] == 2


def test_rounds_keep_the_last_turn_of_each_round(small_run: Run) -> None:
    assert small_run.turns is not None
    out = metrics.rounds(small_run.turns).select("game", "turn", "score_0", "score_1").collect()
    # game 0 (5 turns): rounds end at turns 2, 4 and 5 (it ends within round 3); game 1 (4 turns) at 2 and 4
    assert out.filter(pl.col("game") == 0).rows() == [(0, 1, 1, 2), (0, 2, 3, 3), (0, 3, 5, 3)]
    assert out.filter(pl.col("game") == 1).rows() == [(1, 1, 0, 2), (1, 2, 1, 3)]
    assert out.height == 3 + 2 + 3 + 2 + 2 + 2


def test_rounds_sort_rows_written_out_of_order(small_run: Run) -> None:
    assert small_run.turns is not None
    shuffled = small_run.turns.collect().sample(fraction=1.0, shuffle=True, seed=3).lazy()
    expected = metrics.rounds(small_run.turns).collect()
    assert metrics.rounds(shuffled).collect().equals(expected)


def test_alternates_checks_every_turn_against_the_first_seat(small_run: Run) -> None:
    assert small_run.turns is not None
    assert metrics.alternates(small_run.turns, small_run.games)
    extra_turn = small_run.turns.with_columns(
        pl.when((pl.col("game") == 2) & (pl.col("turn") == 3)).then(1).otherwise(pl.col("seat")).alias("seat")
    )
    assert not metrics.alternates(extra_turn, small_run.games)  # seat 1 takes turns 2 and 3 of game 2: an extra turn
    assert not metrics.alternates(small_run.turns.drop("seat"), small_run.games)


def test_tempo_by_round_by_hand(small_run: Run) -> None:
    assert small_run.turns is not None
    out = metrics.tempo(metrics.rounds(small_run.turns), small_run.games)
    # first − second after rounds 1, 2, 3 of games 0-5: (-1, 0, 2), (2, 2), (-1, 1, 3), (0, -1), (1, -1), (0, 0)
    first = {r["turn"]: r for r in out.filter(pl.col("perspective") == "first_minus_second").iter_rows(named=True)}
    assert [(t, first[t]["n"]) for t in (1, 2, 3)] == [(1, 6), (2, 6), (3, 2)]
    assert [first[t]["mean"] for t in (1, 2, 3)] == pytest.approx([1 / 6, 1 / 6, 2.5])
    # winner − loser (game 5 has no winner): (-1, 0, 2), (2, 2), (-1, 1, 3), (0, 1), (-1, 1)
    winner = {r["turn"]: r for r in out.filter(pl.col("perspective") == "winner_minus_loser").iter_rows(named=True)}
    assert [winner[t]["mean"] for t in (1, 2, 3)] == pytest.approx([-0.2, 1.0, 2.5])
    assert winner[1]["n"] == 5


def test_tempo_needs_both_score_columns(small_run: Run) -> None:
    with pytest.raises(ValueError, match="score_1"):
        metrics.tempo(small_run.turns.drop("score_1"), small_run.games)


def _reference_leads(path: list[tuple[int, int]], winner: int) -> tuple[int, int | None]:
    """Lead changes and lead-for-good turn computed the slow, obvious way."""
    signs = [int(np.sign(a - b)) for a, b in path if a != b]
    changes = sum(x != y for x, y in itertools.pairwise(signs))
    if winner < 0:
        return changes, None
    ahead = [(a - b) * (1 if winner == 0 else -1) > 0 for a, b in path]
    if not ahead[-1]:
        return changes, None
    turn = len(path)
    while turn > 1 and ahead[turn - 2]:
        turn -= 1
    return changes, turn


game_specs = st.lists(
    st.tuples(st.integers(-1, 1), st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=8)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(game_specs, st.randoms(use_true_random=False))
def test_lead_per_game_matches_reference_in_any_row_order(specs: list[Any], rnd: Any) -> None:
    rows = [(g, t, s0, s1) for g, (_, path) in enumerate(specs) for t, (s0, s1) in enumerate(path, start=1)]
    rnd.shuffle(rows)
    turns = pl.LazyFrame(
        rows, schema={"game": pl.Int64, "turn": pl.Int16, "score_0": pl.Int16, "score_1": pl.Int16}, orient="row"
    )
    games = pl.LazyFrame(
        {
            "game": range(len(specs)),
            "first_seat": [g % 2 for g in range(len(specs))],
            "winner": [w for w, _ in specs],
            "turns": [len(p) for _, p in specs],
        }
    )
    got = metrics.lead_per_game(turns, games)
    assert got.rows() == [(g, *_reference_leads(path, w)) for g, (w, path) in enumerate(specs)]


seat_rows = st.lists(
    st.tuples(st.integers(0, 5), st.sampled_from(["a", "b", "c"]), st.integers(0, 1)), min_size=1, max_size=40
)


@settings(max_examples=50, deadline=None)
@given(seat_rows, st.randoms(use_true_random=False))
def test_win_rates_are_row_order_invariant_and_bounded(rows: list[tuple[int, str, int]], rnd: Any) -> None:
    frame = pl.DataFrame(rows, schema={"seat": pl.Int8, "bot": pl.String, "won": pl.Int8}, orient="row").with_row_index(
        "game"
    )
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=rnd.randint(0, 10**6))
    for by in ("bot", "seat"):
        a, b = metrics.win_rates(frame.lazy(), by=by), metrics.win_rates(shuffled.lazy(), by=by)
        assert a.equals(b)
        assert ((a["lo"] <= a["rate"]) & (a["rate"] <= a["hi"]) & (a["lo"] >= 0) & (a["hi"] <= 1)).all()


card_rows = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.integers(0, 1),
        st.integers(0, 1),
        st.integers(-1, 6),
        st.integers(-1, 6),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=30, deadline=None)
@given(card_rows, st.randoms(use_true_random=False))
def test_card_values_are_row_order_invariant_and_bounded(rows: list[tuple[int, ...]], rnd: Any) -> None:
    schema = {
        "card": pl.Int16,
        "won": pl.Int8,
        "in_opening_hand": pl.Int8,
        "first_drawn_turn": pl.Int16,
        "first_played_turn": pl.Int16,
        "times_played": pl.Int16,
    }
    frame = (
        pl.DataFrame(rows, schema=schema, orient="row")
        .with_row_index("game")
        .with_columns(pl.lit(0, pl.Int8).alias("seat"))
    )
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=rnd.randint(0, 10**6))
    a, b = metrics.card_values(frame.lazy()), metrics.card_values(shuffled.lazy())
    assert a.select(pl.exclude("^turn_played.*$")).equals(b.select(pl.exclude("^turn_played.*$")))
    assert np.allclose(a["turn_played"].fill_null(-1).to_numpy(), b["turn_played"].fill_null(-1).to_numpy())
    for rate in metrics.CARD_RATES:
        r = a.filter(pl.col(rate).is_not_null())
        assert ((r[f"{rate}_lo"] <= r[rate]) & (r[rate] <= r[f"{rate}_hi"])).all()
        assert ((a[f"{rate}_lo"] >= 0) & (a[f"{rate}_hi"] <= 1)).all()
    assert (a["gih_wr_n"] + a["gns_wr_n"] <= a["gp_wr_n"]).all()


# -- registry -------------------------------------------------------------------------
STEP_METRICS = ("step_endings", "step_openers", "step_counters")


SOLITAIRE_METRICS = {"level_reached", "level_progression", "step_outcomes"}  # need level / outcome columns


def test_every_registered_metric_computes_on_a_run(small_run: Run, battle_run: Run, solo_run: Run) -> None:
    for name in metrics.METRICS:
        if name in SOLITAIRE_METRICS:
            assert metrics.compute(name, solo_run).height > 0, name
            for duel in (battle_run, small_run):
                with pytest.raises(ValueError, match="this metric needs"):
                    metrics.compute(name, duel)
            continue
        out = metrics.compute(name, battle_run)  # battle rows, enum columns besides end_reason
        assert isinstance(out, pl.DataFrame)
        assert out.height > 0, name
        if name in STEP_METRICS:  # a turn-by-turn table does not say who won each row and how
            with pytest.raises(ValueError, match="step metrics need"):
                metrics.compute(name, small_run)
        elif name == "outcome_details":  # end_reason is the only enum column
            assert metrics.compute(name, small_run).height == 0
        else:
            assert metrics.compute(name, small_run).height > 0, name


def test_compute_reports_a_missing_table(make_run: Callable[..., Run]) -> None:
    run = make_run("bare", tables=("games", "seats"))
    assert run.cards is None
    with pytest.raises(ValueError, match="cards table"):
        metrics.compute("card_values", run)
    with pytest.raises(KeyError, match="known"):
        metrics.compute("nope", run)


# -- comparisons ------------------------------------------------------------------------
def _longer(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every game one (tied) turn longer: only the game length changes."""
    return [{**g, "path": [*g["path"], g["path"][-1]]} for g in games]


def test_compare_runs_pairs_games_by_index(small_run: Run, make_run: Callable[..., Run], game_specs: list[Any]) -> None:
    out = metrics.compare_runs(small_run, make_run("longer", _longer(game_specs)))
    length = _row(out, metric="game_length")
    assert (length["n"], length["value_a"], length["value_b"], length["delta"], length["lo"], length["hi"]) == (
        6,
        4.0,
        5.0,
        -1.0,
        -1.0,
        -1.0,
    )
    assert length["significant"] is True
    for key in (
        "seat_0_win_rate",
        "first_seat_win_rate",
        "no_winner_rate",
        "win_rate[alpha]",
        "lead_changes",
        "lead_for_good",
    ):
        r = _row(out, metric=key)
        assert r["delta"] == 0.0
        assert r["significant"] is False
    assert _row(out, metric="lead_for_good")["n"] == 5
    assert _row(out, metric="final_score_0")["value_a"] == pytest.approx(17 / 6)


def test_compare_runs_paired_interval_on_hand_made_pairs(
    small_run: Run, make_run: Callable[..., Run], game_specs: list[Any]
) -> None:
    changed = [*game_specs[:5], {"winner": 0, "path": [(1, 0), (1, 1), (3, 2)]}]  # the timeout becomes a seat-0 win
    out = metrics.compare_runs(small_run, make_run("changed", changed))
    seat0 = _row(out, metric="seat_0_win_rate")
    expected = stats.paired_difference([1, 0, 1, 1, 0, 0], [1, 0, 1, 1, 0, 1])
    assert (seat0["value_a"], seat0["value_b"], seat0["delta"]) == pytest.approx((0.5, 4 / 6, -1 / 6))
    assert (seat0["lo"], seat0["hi"], seat0["p_value"]) == pytest.approx((expected.lo, expected.hi, expected.p_value))
    assert seat0["lo"] == pytest.approx(-1 / 6 - 2.5706 * math.sqrt(1 / 6) / math.sqrt(6), abs=1e-4)
    assert _row(out, metric="no_winner_rate")["delta"] == pytest.approx(1 / 6)
    assert _row(out, metric="lead_for_good")["n"] == 5


def test_compare_runs_skips_bot_rates_when_bots_differ(small_run: Run, make_run: Callable[..., Run]) -> None:
    other = make_run("gamma")
    other_seats = other.seats.with_columns(pl.lit("gamma").alias("bot"))
    other = Run(other.path, other.manifest, other.games, other_seats, other.cards, other.turns, other.card_dim)
    assert not any(k.startswith("win_rate[") for k in metrics.compare_runs(small_run, other)["metric"])


def test_compare_cards_is_unpaired_and_joined_by_name(
    small_run: Run, make_run: Callable[..., Run], game_specs: list[Any], card_specs: list[tuple[int, ...]]
) -> None:
    renumbered = small_run.card_dim.with_columns((3 - pl.col("card")).cast(pl.Int16).alias("card"))
    other = make_run(
        "renumbered", game_specs, [(g, s, 3 - c, *rest) for g, s, c, *rest in card_specs], card_dim=renumbered
    )
    out = metrics.compare_cards(small_run, other)
    assert set(out["delta_method"]) == {metrics.CARD_DELTA_METHOD}
    assert "unpaired" in metrics.CARD_DELTA_METHOD
    bee = _row(out, name="Bumblebee")
    assert (bee["gp_wr_a"], bee["gp_wr_b"], bee["gp_wr_delta"], bee["gp_wr_n_a"]) == (0.5, 0.5, 0.0, 6)
    assert bee["gp_wr_delta_lo"] < 0 < bee["gp_wr_delta_hi"]
    assert bee["iwd_delta"] == 0.0
    assert not out["gih_wr_significant"].any()


def test_summary_names_significant_changes_in_plain_language(
    small_run: Run, make_run: Callable[..., Run], game_specs: list[Any]
) -> None:
    runs = metrics.compare_runs(small_run, make_run("longer", _longer(game_specs)))
    lines = metrics.summarize_comparison(runs, label_a="tabletop", label_b="digital")
    expected = "Games are 1.00 turns shorter under tabletop than under digital (95 % CI 1.00–1.00; 4.00 vs 5.00)."
    assert lines[0] == expected
    assert lines[1].startswith("No significant difference in: Seat 0 win rate")


def test_pairing_counts_matching_seeds(small_run: Run, make_run: Callable[..., Run]) -> None:
    r = metrics.pairing(small_run, make_run("other")).row(0, named=True)
    assert r == {"n_a": 6, "n_b": 6, "n_paired": 6, "same_seed": 6}


def test_counter_means_of_a_single_group_are_those_grouping_gives() -> None:
    from balance.metrics._common import counter_means

    lf = pl.LazyFrame({"bot": ["a"] * 5, "x": [1, 2, 3, 4, 5], "y": [0, 0, 1, 1, 9]}, schema_overrides={"x": pl.Int16})
    alone = counter_means(lf, ["x", "y"], ["bot"])
    grouped = counter_means(pl.concat([lf, lf.with_columns(bot=pl.lit("b"))]), ["x", "y"], ["bot"])
    assert alone.equals(grouped.filter(pl.col("bot") == "a"))
    assert alone["mean"].to_list() == [3.0, 2.2]


def test_group_results_of_several_columns_from_one_join_equal_one_column_at_a_time() -> None:
    from balance.metrics.groups import group_results, group_results_by

    rng = np.random.default_rng(11)
    n = 300
    games = pl.LazyFrame(
        {
            "game": np.arange(n),
            "winner": rng.integers(-1, 2, n).astype(np.int8),
            "turns": rng.integers(3, 30, n).astype(np.int16),
            "deck_0": rng.choice(["finn", "jake", "bmo"], n),
            "location": pl.Series(rng.choice(["a", "b"], n)).cast(pl.Categorical),
        }
    )
    kept = np.repeat(np.arange(n - 5), 2)  # the last five games have no seats
    seats = pl.LazyFrame(
        {
            "game": kept,
            "seat": np.tile([0, 1], n - 5).astype(np.int8),
            "bot": np.tile(["greedy", "random"], n - 5),
            "won": rng.integers(0, 2, 2 * (n - 5)).astype(np.int8),
        }
    )
    together = group_results_by(games, seats, ["deck_0", "location"])
    assert list(together) == ["deck_0", "location"]
    for by, df in together.items():
        assert df.equals(group_results(games, seats, by))
    assert together["location"]["location"].dtype == pl.String
    g, s = games.collect(), seats.collect()
    deck = g["deck_0"].to_numpy()
    for row in together["deck_0"].iter_rows(named=True):  # counted by hand
        assert row["n_games"] == (deck == row["deck_0"]).sum()
        mine = (deck[s["game"].to_numpy()] == row["deck_0"]) & (s["seat"].to_numpy() == row["seat"])
        assert (row["n"], row["wins"]) == (mine.sum(), (s["won"].to_numpy()[mine] == 1).sum())
        assert row["bot"] == ("greedy" if row["seat"] == 0 else "random")
