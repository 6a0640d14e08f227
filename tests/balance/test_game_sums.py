"""A run's agg_games / agg_seats counts give every game- and seat-level frame its games and seats rows give.

Each duel game plays a real run (two bots, so bot and seat differ; small chunks, so the
counts are merged over chunks); every ``balance.metrics.sources`` figure read from the
stored counts must equal, value for value and type for type, the one computed from the
rows by a direct scan (the same run opened without its sums).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import sims
from balance import aggregates
from balance.io import Run, load_run
from balance.metrics import game_sums, sources
from balance.metrics import games as g
from balance.metrics._common import distribution
from balance.run import run
from balance.spec import RunSpec

BOTS = {"cardinger": ("greedy", "random"), "blessings": ("greedy", "random"), "cardia": ("greedy", "random")}
BOTS["cardwars"] = ("greedy", "random")


@pytest.fixture(scope="module", params=sorted(BOTS))
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, Run]:
    """Return one real run of the game twice: with its stored sums, and as a run without any (raw rows only)."""
    game = request.param
    out = tmp_path_factory.mktemp(game)
    spec = RunSpec(game=game, n_games=1500, seed=11, bots=BOTS[game], workers=1, chunk_size=400, out=str(out), name="r")
    made = load_run(run(spec))
    return made, dataclasses.replace(made, sums=None)


def test_the_run_counts_its_games_and_seats(runs: tuple[Run, Run]) -> None:
    made, _ = runs
    cube = sources.sums(made, aggregates.GAMES)
    assert cube is not None
    assert cube["count"].sum() == 1500
    assert sources.sums(made, aggregates.SEATS)["rows"].sum() == 3000  # type: ignore[index]
    keys = made.manifest["aggregates"][aggregates.GAMES]["keys"]
    assert keys == [c for c in cube.columns if c != "count"]
    assert {"seat0_bot", "seat0_won", "seat1_bot", "seat1_won", "winner", "turns"} <= set(keys)


def test_win_rates_first_seat_and_outcomes_equal_the_rows(runs: tuple[Run, Run]) -> None:
    made, raw = runs
    for by in ("bot", "seat", ["bot", "position"], "position"):
        if "position" in by and not sources.has_first_seat_of(raw):
            continue
        assert_frame_equal(sources.win_rates_of(made, by), sources.win_rates_of(raw, by), check_exact=True)
    assert sources.has_first_seat_of(made) == sources.has_first_seat_of(raw)
    assert_frame_equal(sources.first_seat_advantage_of(made), sources.first_seat_advantage_of(raw), check_exact=True)
    assert_frame_equal(sources.outcomes_of(made), sources.outcomes_of(raw), check_exact=True)
    enums = g.enum_columns(raw.games)
    if enums:
        assert_frame_equal(sources.outcome_details_of(made, enums), g.outcome_details(raw.games), check_exact=True)
    assert_frame_equal(sources.no_winner_reasons_of(made), sources.no_winner_reasons_of(raw), check_exact=True)


def test_length_and_settings_equal_the_rows(runs: tuple[Run, Run]) -> None:
    made, raw = runs
    assert_frame_equal(sources.game_length_of(made), g.game_length(raw.games), check_exact=True)
    assert_frame_equal(sources.turns_summary_of(made), g.game_length_summary(raw.games), check_exact=True)
    assert_frame_equal(
        sources.turns_summary_of(made, rounds=True), sources.turns_summary_of(raw, rounds=True), check_exact=True
    )
    names = sources.group_columns_of(raw)
    assert sources.group_columns_of(made) == names == g.group_columns(raw.games)
    by_sums, by_rows = sources.group_results_of(made, names), sources.group_results_of(raw, names)
    assert list(by_sums) == list(by_rows)
    for name in names:
        assert_frame_equal(by_sums[name], by_rows[name], check_exact=True)


def test_seat_counters_equal_the_rows(runs: tuple[Run, Run]) -> None:
    made, raw = runs
    for by in ("bot", "seat"):
        assert_frame_equal(sources.seat_counters_of(made, by), g.seat_counters(raw.seats, by=by), check_exact=True)


def test_deck_pairings_equal_the_rows(runs: tuple[Run, Run]) -> None:
    made, raw = runs
    if "deck" not in sims.load(made.manifest["game"]).enums.get("seats", {}):  # no named deck (none, or a card list)
        assert sources.game_counts(made, "seat:deck") is None
        return
    order = ["deck_0", "deck_1"]
    for first_seat in (True, False):
        a = sources.pairing_counts_of(made, first_seat=first_seat).sort(order)
        b = sources.pairing_counts_of(raw, first_seat=first_seat).sort(order)
        assert_frame_equal(a, b, check_exact=True)


@pytest.mark.parametrize("values", [[7], [3, 3, 4], [1, 2, 3, 4], [5, 1, 9, 9, 2, 30, 4, 4, 4, 12, 13]])
def test_a_summary_from_counts_is_summarize_of_the_values(values: list[int]) -> None:
    """Order statistics (lower 10 %, median, higher 90 %) and moments from a histogram, as polars gives them."""
    rng = np.random.default_rng(len(values))
    for _ in range(5):
        drawn = rng.choice(values, size=int(rng.integers(1, 40))).astype(np.int16)
        rows = pl.DataFrame({"turns": drawn})
        cube = rows.group_by("turns").agg(pl.len().cast(pl.Int64).alias("count"))
        want = g.summarize(rows.lazy(), "turns")
        assert_frame_equal(game_sums.summarize_from(cube, pl.col("turns"), "turns"), want, check_exact=True)


def test_a_run_that_adds_seats_columns_reads_its_counters_from_the_rows(runs: tuple[Run, Run]) -> None:
    """agg_seats sums the kernel's counters: a seats table with more (or fewer) counters is read from its rows."""
    made, _ = runs
    fewer = dataclasses.replace(made, seats=made.seats.drop("score"))
    assert_frame_equal(sources.seat_counters_of(fewer, "bot"), g.seat_counters(fewer.seats, by="bot"))


def test_lead_counts_give_the_per_game_leads_figures(runs: tuple[Run, Run]) -> None:
    made, _ = runs
    counted, per_game = sources.lead_counts_of(made), sources.leads_of(made)  # the stored per_game rows
    if per_game is None:  # a game without tempo figures stores no lead counts either
        assert not sources.has_tempo(made)
        assert counted is None
        return
    assert counted is not None
    assert per_game is not None
    assert sources.sums(made, aggregates.LEADS) is counted
    for column in ("lead_changes", "lead_for_good"):
        got = game_sums.summarize_from(counted, pl.col(column), column)
        assert_frame_equal(got, g.summarize(per_game, column), check_exact=True)
        assert_frame_equal(game_sums.distribution_from(counted, column), distribution(per_game, column))


def test_per_game_leads_of_a_chunk_of_many_batches_are_those_of_its_turn_rows(tmp_path: Path) -> None:
    """A chunk plays its games in batches into reused buffers: every game keeps its own per_game row.

    (Each batch's game ids were once kept as a view of the buffer, so every batch's leads
    were stored under the last batch's ids: lead changes counted zero for most games.)
    """
    from balance.metrics import turns

    spec = RunSpec(
        game="cardwars", n_games=5000, seed=4, workers=1, chunk_size=5000, tables=("games", "seats", "turns"),
        out=str(tmp_path), name="r",
    )  # fmt: skip
    made = load_run(run(spec))
    assert made.sums is not None
    per_game = made.sums.per_game
    assert per_game is not None
    assert per_game.select(pl.col("game").n_unique()).collect().item() == 5000
    from_sums = turns.lead_per_game_from(per_game, made.games)
    assert_frame_equal(from_sums, turns.lead_per_game(made.turns, made.games), check_dtypes=False)
    counted = sources.lead_counts_of(made)
    assert counted is not None
    assert_frame_equal(counted.sort(pl.all()), game_sums.lead_counts(from_sums).sort(pl.all()))


def test_the_run_header_bots_and_hands_equal_the_rows(runs: tuple[Run, Run]) -> None:
    from balance.metrics.tiers import tier_names
    from balance.report.single import run_info

    made, raw = runs
    assert run_info(made) == run_info(raw)
    assert run_info(made)["bots"] == "greedy, random"
    assert sources.tier_names_of(made) == sources.tier_names_of(raw) == tier_names(raw.seats)
    assert sources.first_bot_of(made) == sources.first_bot_of(raw) == "greedy"
    assert sources.hands(made) == sources.hands(raw) == 3000
    assert sources.n_games_of(made) == sources.n_games_of(raw) == 1500


def test_a_run_made_before_the_counts_resumed_keeps_its_tables_and_reads_its_rows(tmp_path: Path, monkeypatch) -> None:
    """Resumed by code that counts games, a run whose manifest lists no agg_games writes none for its last chunks."""
    import importlib
    import json

    from balance.run import resume

    run_module = importlib.import_module("balance.run")  # the package's attribute is the function

    spec = RunSpec(game="cardwars", n_games=900, seed=6, workers=1, chunk_size=300, out=str(tmp_path), name="old")
    real, calls = run_module.play_chunk_to_parts, {"n": 0}

    def crash_after_one(*args):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(run_module, "play_chunk_to_parts", crash_after_one)
    with pytest.raises(KeyboardInterrupt):
        run(spec)
    monkeypatch.setattr(run_module, "play_chunk_to_parts", real)
    path = tmp_path / "old"
    manifest = json.loads((path / "manifest.json").read_text())  # as a run made before the counts existed
    new = (aggregates.GAMES, aggregates.SEATS, aggregates.LEADS)
    manifest["aggregates"] = {k: v for k, v in manifest["aggregates"].items() if k not in new}
    manifest["layout"] = {k: v for k, v in manifest["layout"].items() if k not in new}
    (path / "manifest.json").write_text(json.dumps(manifest))
    for name in new:  # the chunk played before the crash wrote them; an old run's would not have
        for part in (path / name).glob("*.parquet"):
            part.unlink()
    resume(path)
    assert all(not list((path / name).glob("*.parquet")) for name in new)
    made = load_run(path)
    assert sources.game_counts(made) is None
    assert sources.win_rates_of(made, "bot")["n"].sum() == 1800
