"""Conformance: every registered game gets these checks by being in ``sims.GAMES``."""

import numpy as np
import pytest

import sims
from sims.core import NO_WINNER, TABLES

GAMES = sims.available()


def _same(a, b):
    """Return True if two record arrays hold equal values in every field (padding ignored)."""
    return a.dtype == b.dtype and len(a) == len(b) and all(np.array_equal(a[f], b[f]) for f in a.dtype.names)


def _inputs(game, bots):
    params = game.make_params()
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    decks = np.zeros((game.seats, getattr(params, "deck_size", 1)), dtype=np.int16)
    bot_ids = np.array([game.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([game.make_weights(b) for b in bots])
    return params, pool, decks, bot_ids, weights


def _bot_lineups(game):
    return [tuple([b] * game.seats) for b in game.bots]


@pytest.mark.slow  # hundreds of games: minutes with NUMBA_DISABLE_JIT (make test runs slow tests)
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_conserves_cards_and_takes_only_legal_actions(name, seed):
    game = sims.load(name)
    params, pool, decks, bot_ids, weights = _inputs(game, ("random",) * game.seats)
    report = np.zeros(4, dtype=np.int64)
    game.check_games(params, pool.table, decks, bot_ids, weights, np.uint64(seed), 0, 400, report)
    decisions, conservation, illegal, unfinished = report.tolist()
    assert decisions > 400
    assert (conservation, illegal, unfinished) == (0, 0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_bot_plays_legal_conserving_games(name):
    game = sims.load(name)
    for lineup in _bot_lineups(game):
        params, pool, decks, bot_ids, weights = _inputs(game, lineup)
        report = np.zeros(4, dtype=np.int64)
        game.check_games(params, pool.table, decks, bot_ids, weights, np.uint64(9), 0, 200, report)
        assert report[1:].tolist() == [0, 0, 0], lineup


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_records_match_the_declared_schema_and_bounds(name):
    game = sims.load(name)
    params, pool, decks, bot_ids, weights = _inputs(game, ("random",) * game.seats)
    out = game.play_chunk(params, pool, decks, bot_ids, weights, 4, 0, 300)
    for table in TABLES:
        assert out[table].dtype == game.tables[table]
        assert set(game.core_columns[table]) <= set(out[table].dtype.names)
    games = out["games"]
    per_game = int(game.rows_per_game["games"](params))  # games rows one simulated game writes (CardRPG: sessions)
    assert games["game"].tolist() == list(range(300 * per_game))
    assert (games["turns"] >= 0).all()
    assert len(out["seats"]) == 300 * per_game * game.seats
    if "winner" not in games.dtype.names:  # a one-seat game: no winner, no scores (SOLO_CORE_COLUMNS)
        assert game.seats == 1
        return
    assert set(np.unique(games["winner"])) <= {NO_WINNER, *range(game.seats)}
    assert (games["turns"] >= 1).all()
    if hasattr(params, "max_turns"):
        assert (games["turns"] <= params.max_turns).all()
        timeouts = games["winner"] == NO_WINNER
        assert (games["turns"][timeouts] == params.max_turns).all()
    won = out["seats"]["won"].reshape(300, game.seats)
    assert (won.sum(axis=1) == (games["winner"] != NO_WINNER)).all()
    if hasattr(params, "target_score"):
        for p in range(game.seats):
            scores = games[f"score_{p}"]
            assert (scores >= 0).all()
            assert (scores[games["winner"] == p] >= params.target_score).all()
            assert (scores[games["winner"] != p] < params.target_score).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_same_seed_gives_identical_records_for_any_chunking(name):
    game = sims.load(name)
    params, pool, decks, bot_ids, weights = _inputs(game, tuple(game.bots[1:2]) * game.seats)
    whole = game.play_chunk(params, pool, decks, bot_ids, weights, 77, 0, 240)
    again = game.play_chunk(params, pool, decks, bot_ids, weights, 77, 0, 240)
    first = game.play_chunk(params, pool, decks, bot_ids, weights, 77, 0, 97)
    rest = game.play_chunk(params, pool, decks, bot_ids, weights, 77, 97, 143)
    other = game.play_chunk(params, pool, decks, bot_ids, weights, 78, 0, 240)
    for table in TABLES:
        assert _same(whole[table], again[table]), table
        assert _same(whole[table], np.concatenate([first[table], rest[table]])), table
    assert not _same(whole["games"], other["games"])


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_cards_and_turns_tables_can_be_switched_off_without_changing_games(name):
    game = sims.load(name)
    params, pool, decks, bot_ids, weights = _inputs(game, tuple(game.bots[1:2]) * game.seats)
    full = game.play_chunk(params, pool, decks, bot_ids, weights, 5, 0, 150)
    lean = game.play_chunk(params, pool, decks, bot_ids, weights, 5, 0, 150, tables=("games", "seats"))
    assert set(lean) == {"games", "seats"}
    assert _same(lean["games"], full["games"])
    assert _same(lean["seats"], full["seats"])


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_named_variants_resolve_and_play(name):
    game = sims.load(name)
    for variant, spec in game.variants.items():
        if not spec.runnable:
            continue
        params = game.make_params(variant)
        pool = game.prepare_pool(game.load_pool(game.cards_path), params)
        decks = np.zeros((game.seats, getattr(params, "deck_size", 1)), dtype=np.int16)
        bots = np.zeros(game.seats, dtype=np.int64)
        weights = np.stack([game.make_weights(game.bots[0])] * game.seats)
        out = game.play_chunk(params, pool, decks, bots, weights, 1, 0, 50)
        assert len(out["games"]) == 50 * int(game.rows_per_game["games"](params)), variant
