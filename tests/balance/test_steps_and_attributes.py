"""Games played in larger steps (battles), enum outcome details, card value by attribute, dimension.

The ``battle_run`` fixture (conftest ``BATTLES``) has hand-counted answers; the Cardinger
checks use a real run or the real card pool.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from balance import io, metrics, parts, stats
from balance.io import Run
from balance.manifest import new_manifest, write_dimensions
from balance.run import run
from balance.spec import RunSpec, resolve
from sims.core import TABLES, CardPool


def _row(df: pl.DataFrame, **where: Any) -> dict[str, Any]:
    rows = df.filter(*(pl.col(k) == v for k, v in where.items()))
    assert rows.height == 1, where
    return rows.row(0, named=True)


# -- card dimension -------------------------------------------------------------------------
def _legacy_dimension(pool: Any) -> pl.DataFrame:
    """The card dimension as ``write_dimensions`` built it before ``card_dimension`` existed."""
    columns: dict[str, Any] = {"card": list(range(len(pool))), "name": list(pool.names)}
    for field in pool.table.dtype.names or ():
        columns[field.rstrip("_")] = pool.table[field]
    for key, values in pool.text.items():
        columns.setdefault(key, list(values))
    return pl.DataFrame(columns).with_columns(pl.col("card").cast(pl.Int16))


def test_cardinger_dimension_is_unchanged(tmp_path: Path) -> None:
    resolved = resolve(RunSpec(game="cardinger", n_games=1))
    assert "card_dim" not in resolved.game.enums
    manifest = new_manifest(resolved, "c")
    write_dimensions(resolved, tmp_path, manifest)
    written = pl.read_parquet(tmp_path / "cards.parquet")
    expected = _legacy_dimension(resolved.pool)
    assert written.schema == expected.schema
    assert written.equals(expected)


def test_blessings_dimension_names_enums_and_keeps_rank_text(tmp_path: Path) -> None:
    resolved = resolve(RunSpec(game="blessings", n_games=1))
    manifest = new_manifest(resolved, "b")
    assert manifest["turn_unit"] == "battle"
    write_dimensions(resolved, tmp_path, manifest)
    dim = pl.read_parquet(tmp_path / "cards.parquet")
    assert dim.columns[:5] == ["card", "name", "suit", "rank", "rank_code"]
    assert dim.schema["suit"] == pl.String
    assert dim.schema["type"] == pl.String
    heart_jack = _row(dim, name="heart:jack")
    assert (heart_jack["suit"], heart_jack["rank"], heart_jack["rank_code"]) == ("heart", "jack", 11)
    assert set(dim["suit"]) == {"heart", "diamond", "spade", "club"}
    assert set(dim["type"]) == {"blessing", "curse"}
    assert _row(dim, name="club:7")["rank"] == "7"


def test_card_dimension_collisions_labelled_and_legacy() -> None:
    import enum

    class Colour(enum.IntEnum):
        RED = 0
        BLUE = 1

    table = np.array([(0, 1, 3), (1, 2, 5)], dtype=[("colour", "i1"), ("set", "i1"), ("def_", "i1")])
    pool = CardPool(table, ("a", "b"), {"set": ("Starter", "Booster 1"), "colour": ("Red", "Blue"), "note": ("x", "")})
    legacy = parts.card_dimension(pool)
    assert legacy.columns == ["card", "name", "colour", "set", "def", "note"]
    assert legacy["set"].to_list() == [1, 2]  # the numeric field keeps the name, text dropped
    labelled = parts.card_dimension(pool, {"colour": Colour})
    assert labelled.columns == ["card", "name", "colour", "set", "set_code", "def", "note"]
    assert labelled["colour"].to_list() == ["red", "blue"]  # the enum's names, not the text column
    assert labelled["set"].to_list() == ["Starter", "Booster 1"]
    assert labelled["set_code"].to_list() == [1, 2]
    opted_in = parts.card_dimension(pool, {})  # an empty declaration asks for the labelled layout too
    assert opted_in.columns == ["card", "name", "colour", "colour_code", "set", "set_code", "def", "note"]
    assert opted_in["colour"].to_list() == ["Red", "Blue"]


# -- turn unit ---------------------------------------------------------------------------------
def test_turn_unit_from_manifest_game_or_default(battle_run: Run, shared_run: Run, tmp_path: Path) -> None:
    assert battle_run.turn_unit == "battle"
    assert "turn_unit" not in shared_run.manifest  # an old Cardinger run
    assert shared_run.turn_unit == "turn"
    unknown = Run(tmp_path, {"game": "no-such-game"}, shared_run.games, shared_run.seats, None, None, pl.DataFrame())
    assert unknown.turn_unit == "turn"
    blessings = Run(tmp_path, {"game": "blessings"}, shared_run.games, shared_run.seats, None, None, pl.DataFrame())
    assert blessings.turn_unit == "battle"  # asked the registered game


# -- lead per game with battle rows -----------------------------------------------------------
def test_lead_per_game_ends_at_the_last_battle_not_at_games_turns(battle_run: Run) -> None:
    out = metrics.lead_per_game(battle_run.turns, battle_run.games)
    # game 3: the winner (seat 1) is behind after its only battle; games.turns = 12 must not
    # let "the battle after the last one" count as taking the lead
    assert out.rows() == [(0, 0, 1), (1, 0, None), (2, 0, None), (3, 0, None)]


def test_lead_per_game_is_null_for_a_decided_game_without_rows() -> None:
    turns = pl.LazyFrame({"game": [0, 0], "turn": [1, 2], "score_0": [1, 2], "score_1": [0, 0]})
    games = pl.LazyFrame({"game": [0, 1], "winner": [0, 1]})
    assert metrics.lead_per_game(turns, games).rows() == [(0, 0, 1), (1, 0, None)]


def _reference_leads(path: list[tuple[int, int]], winner: int) -> tuple[int, int | None]:
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


def test_cardinger_turn_rows_run_from_one_to_games_turns(tmp_path: Path) -> None:
    """For Cardinger the last turn row of a game is games.turns, so lead_per_game is unchanged."""
    path = run(RunSpec(game="cardinger", n_games=300, seed=11, out=str(tmp_path), name="c", tables=TABLES))
    loaded = io.load_run(path)
    turns = loaded.turns.collect()
    games = loaded.games.select("game", "winner", "turns").collect().sort("game")
    rows = turns.group_by("game").agg(
        pl.len().alias("rows"), pl.col("turn").min().alias("first"), pl.col("turn").max().alias("last")
    )
    joined = games.join(rows, on="game", how="left")
    assert joined.height == 300
    assert (joined["first"] == 1).all()
    assert (joined["last"] == joined["turns"]).all()
    assert (joined["rows"] == joined["turns"]).all()
    paths = turns.sort("game", "turn").group_by("game", maintain_order=True).agg("score_0", "score_1")
    winner = dict(games.select("game", "winner").iter_rows())
    expected = [(g, *_reference_leads(list(zip(s0, s1, strict=True)), winner[g])) for g, s0, s1 in paths.iter_rows()]
    got = metrics.lead_per_game(loaded.turns, loaded.games)
    assert got.rows() == expected
    assert got["lead_for_good"].is_not_null().sum() > 100  # the comparison covered decided games


# -- steps -----------------------------------------------------------------------------------------
def test_steps_per_game_from_rows_or_a_games_column(battle_run: Run) -> None:
    by_rows = metrics.steps_per_game(battle_run.turns, battle_run.games)
    assert by_rows.rows() == [(0, 2), (1, 3), (2, 1), (3, 1)]
    games = battle_run.games.with_columns(pl.when(pl.col("game") == 1).then(9).otherwise(pl.col("battles")).alias("b"))
    by_column = metrics.steps_per_game(battle_run.turns, games, count_column="b")
    assert by_column["steps"].to_list() == [2, 9, 1, 1]  # the games column wins over the rows
    assert metrics.steps_per_game(None, battle_run.games, count_column="battles")["steps"].to_list() == [2, 3, 1, 1]
    assert metrics.steps_per_game(battle_run.turns, games, count_column="missing")["steps"].to_list() == [2, 3, 1, 1]


def test_step_endings_share_with_wilson_interval(battle_run: Run) -> None:
    out = metrics.step_endings(battle_run.turns)
    assert out.select("how", "count", "n").rows() == [("exhaustion", 3, 7), ("surrender", 3, 7), ("turn_cap", 1, 7)]
    r = _row(out, how="turn_cap")
    assert r["rate"] == pytest.approx(1 / 7)
    assert 0 < r["lo"] < r["rate"] < r["hi"] < 1


def test_step_openers_leave_drawn_steps_out(battle_run: Run) -> None:
    r = metrics.step_openers(battle_run.turns).row(0, named=True)
    assert (r["steps"], r["drawn"], r["n"], r["opener_wins"]) == (7, 1, 6, 2)
    assert r["rate"] == pytest.approx(1 / 3)
    assert r["drawn_rate"] == pytest.approx(1 / 7)
    assert r["lo"] < r["rate"] < r["hi"]
    by_how = metrics.step_openers(battle_run.turns, by="how")
    assert by_how.select("how", "steps", "drawn", "n", "opener_wins").rows() == [
        ("exhaustion", 3, 0, 3, 2),
        ("surrender", 3, 0, 3, 0),
        ("turn_cap", 1, 1, 0, 0),
    ]
    assert _row(by_how, how="turn_cap")["rate"] is None  # no decided step: no share


def test_step_counters_average_every_other_numeric_column(battle_run: Run) -> None:
    out = metrics.step_counters(battle_run.turns)
    names = out["counter"].to_list()
    assert names[:2] == ["turns", "curse_pool_0"]
    assert not {"game", "turn", "seat", "winner", "how", "score_0", "score_1"} & set(names)
    turns = _row(out, counter="turns")
    assert (turns["n"], turns["mean"]) == (7, pytest.approx(35.0))
    assert turns["lo"] < 35.0 < turns["hi"]
    assert _row(out, counter="winner_bonus")["mean"] == pytest.approx(3.0)
    assert _row(out, counter="cards_left_0")["mean"] == pytest.approx(50 - (1 + 2 + 1 + 2 + 3 + 1 + 1) / 7)


def test_step_metrics_need_winner_and_how(shared_run: Run) -> None:
    assert not metrics.has_steps(shared_run.turns)
    for f in (metrics.step_endings, metrics.step_openers, metrics.step_counters):
        with pytest.raises(ValueError, match="how"):
            f(shared_run.turns)


# -- outcomes by enum columns ---------------------------------------------------------------------
def test_outcome_details_cross_end_reason_with_final_how(battle_run: Run, shared_run: Run) -> None:
    assert metrics.enum_columns(battle_run.games) == ["final_how"]
    out = metrics.outcome_details(battle_run.games)
    assert out.select("column", "end_reason", "value", "count", "n").rows() == [
        ("final_how", "battle_cap", "surrender", 1, 1),
        ("final_how", "mutual_wipeout", "surrender", 1, 1),
        ("final_how", "wipeout", "exhaustion", 1, 2),
        ("final_how", "wipeout", "surrender", 1, 2),
    ]
    assert _row(out, end_reason="wipeout", value="exhaustion")["rate"] == pytest.approx(0.5)
    assert metrics.outcome_details(shared_run.games).height == 0  # Cardinger: end_reason only


# -- card value by attribute -----------------------------------------------------------------------
def test_card_attributes_pick_low_cardinality_columns(battle_run: Run, shared_run: Run) -> None:
    assert metrics.card_attributes(battle_run.card_dim) == ["suit", "rank", "attack", "type"]
    assert metrics.card_attributes(shared_run.card_dim) == ["cost"]  # not name, source, confidence
    assert metrics.card_attributes(shared_run.card_dim, max_values=3) == []
    assert metrics.card_attributes(None) == []


def test_card_attribute_values_in_mirror_decks(battle_run: Run) -> None:
    out = metrics.card_attribute_values(battle_run.cards, battle_run.card_dim, battle_run.seats)
    assert out["mirror_decks"].all()
    assert out.filter(pl.col("attribute") == "rank")["value"].to_list() == ["2", "7", "jack"]  # by rank_code
    assert out.filter(pl.col("attribute") == "attack")["value"].to_list() == ["0", "2", "7"]  # numeric order
    assert out.filter(pl.col("attribute") == "suit")["value"].to_list() == ["heart", "spade"]  # card order
    heart = _row(out, attribute="suit", value="heart")
    assert (heart["cards"], heart["n"], heart["n_eff"], heart["wins"], heart["gp_wr"]) == (2, 16, 8, 4, 0.25)
    # each hand holds both hearts: the interval is that of 2 wins in 8 hands, not 4 in 16
    _, lo, hi = stats.wilson(2, 8)
    assert (heart["gp_wr_lo"], heart["gp_wr_hi"]) == (pytest.approx(float(lo)), pytest.approx(float(hi)))
    assert heart["times_played"] == pytest.approx(2.5)
    sd = (17 * 4 / 15) ** 0.5
    assert heart["times_played_sd"] == pytest.approx(sd)
    _, lo, hi = stats.mean_ci_stats(2.5, sd, 8)
    assert (heart["times_played_lo"], heart["times_played_hi"]) == (pytest.approx(float(lo)), pytest.approx(float(hi)))
    assert heart["damage_dealt"] == pytest.approx(3.5)
    spade = _row(out, attribute="suit", value="spade")
    assert (spade["n"], spade["times_played"], spade["damage_dealt"]) == (8, 1.5, 1.0)
    assert spade["damage_dealt_sd"] == 0.0
    without_seats = metrics.card_attribute_values(battle_run.cards, battle_run.card_dim)
    assert without_seats["mirror_decks"].all()


def test_card_attribute_values_pool_wins_across_cards() -> None:
    # game 0: seat 0 (won) holds cards 0, 1; seat 1 (lost) 2, 3. game 1: seat 0 (won) 0, 2; seat 1 (lost) 1, 3.
    rows = [
        (0, 0, 0, 1),
        (0, 0, 1, 1),
        (0, 1, 2, 0),
        (0, 1, 3, 0),
        (1, 0, 0, 1),
        (1, 0, 2, 1),
        (1, 1, 1, 0),
        (1, 1, 3, 0),
    ]
    cards = pl.LazyFrame(rows, schema=["game", "seat", "card", "won"], orient="row").with_columns(
        in_opening_hand=0, first_drawn_turn=-1, first_played_turn=-1, times_played=pl.col("card")
    )
    dim = pl.DataFrame({"card": [0, 1, 2, 3], "name": list("abcd"), "suit": ["A", "A", "B", "B"]})
    out = metrics.card_attribute_values(cards, dim)
    assert out.select("value", "cards", "n", "wins", "times_played", "mirror_decks").rows() == [
        ("A", 2, 4, 3, 0.5, False),
        ("B", 2, 4, 1, 2.5, False),
    ]
    a = _row(out, value="A")
    assert (a["gp_wr"], a["n_eff"]) == (pytest.approx(0.75), 2)
    _, lo, hi = stats.wilson(1.5, 2)  # 3 of 4 card-games, but at most 2 hands hold one card
    assert (a["gp_wr_lo"], a["gp_wr_hi"]) == (pytest.approx(float(lo)), pytest.approx(float(hi)))
    shuffled = metrics.card_attribute_values(cards.collect().sample(fraction=1.0, shuffle=True, seed=3).lazy(), dim)
    assert shuffled.equals(out)


def test_card_summary_matches_the_separate_metrics(small_run: Run) -> None:
    tables = metrics.card_summary(small_run.cards, small_run.card_dim, small_run.seats)
    values, counters = metrics.card_tables(small_run.cards, small_run.card_dim)
    assert tables.values.equals(values)
    assert tables.counters.equals(counters)
    cost = tables.by_attribute
    assert cost.select("value", "n", "wins").rows() == [("0", 6, 3), ("1", 6, 2), ("2", 2, 1)]
    assert not cost["mirror_decks"].any()


# -- comparison label --------------------------------------------------------------------------
def test_compare_labels_lead_for_good_with_the_turn_unit(battle_run: Run, shared_run: Run) -> None:
    battle = metrics.compare_runs(battle_run, battle_run)
    assert _row(battle, metric="lead_for_good")["label"] == "Mean battle winner leads for good"
    assert _row(battle, metric="lead_for_good")["unit"] == "battle"
    turn = metrics.compare_runs(shared_run, shared_run)
    assert _row(turn, metric="lead_for_good")["label"] == "Mean turn winner leads for good"


def test_compare_runs_pairs_each_end_reason_and_each_extra_games_column(battle_run, battle_specs, tmp_path):
    """Game 3 turned from a wipe-out into a mutual wipe-out: shares move by 1/4; battles per game stay 7/4."""
    from tests.balance.conftest import build_battle_run

    battle_specs[3] = {**battle_specs[3], "reason": 1, "winner": -1}  # EndReason.MUTUAL_WIPEOUT
    other = build_battle_run(tmp_path / "other", battle_specs)
    table = metrics.compare_runs(battle_run, other)
    wipeout = _row(table, metric="end_reason[wipeout]")
    assert (wipeout["value_a"], wipeout["value_b"], wipeout["delta"]) == (0.5, 0.25, 0.25)
    assert wipeout["label"] == "Games ending by wipeout"
    assert wipeout["unit"] == "rate"
    mutual = _row(table, metric="end_reason[mutual_wipeout]")
    assert (mutual["value_a"], mutual["value_b"], mutual["label"]) == (0.25, 0.5, "Games ending by mutual wipeout")
    assert _row(table, metric="end_reason[battle_cap]")["delta"] == 0.0
    battles = _row(table, metric="mean[battles]")
    assert (battles["value_a"], battles["delta"], battles["label"]) == (1.75, 0.0, "Mean battles per game")
    assert not table["metric"].str.contains("final_how").any()  # an enum column is not a mean
