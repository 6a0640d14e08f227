"""kernel.play_batch: the one game loop behind play_games, check_games and replay_game, compiled as
batch_counted and batch_uncounted (RULES.md §11)."""

import numpy as np

import sims
from sims.cardinger import kernel
from sims.cardinger.state import CARD_RECORD_DTYPE, GAME_DTYPE, SEAT_DTYPE, TURN_DTYPE

GAME = sims.load("cardinger")
SEED = np.uint64(2026)
N = 40


def batch(record_cards: int, record_turns: int, entry=kernel.batch_counted) -> tuple[np.ndarray, np.ndarray]:
    """Play games 0 .. N-1 (greedy mirror, modern) through ``entry`` with the given switches; return (state, games)."""
    params = GAME.make_params("modern")
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    state = kernel.prepare(pool.table, params, weights, 0)
    games = np.zeros(N, GAME_DTYPE)
    seats = np.zeros(0, SEAT_DTYPE)
    cards = np.zeros(2 * params.deck_size * N if record_cards else 0, CARD_RECORD_DTYPE)
    turns = np.zeros(params.max_turns * N if record_turns else 0, TURN_DTYPE)
    counts = np.zeros(4, np.int64)
    decks = np.zeros((2, params.deck_size), np.int16)
    ids = np.array([GAME.bots.index("greedy")] * 2, np.int64)
    done = entry(
        state, decks, ids, SEED, 0, N, record_cards, record_turns, games, seats, cards, turns, counts, kernel.NO_REPORT
    )
    assert done == N
    return state, games


def test_a_games_only_batch_plays_the_same_games_without_turn_rows_or_card_records():
    every_state, every = batch(1, 1)
    only_state, only = batch(0, 0)
    assert np.array_equal(every, only)
    every_tally, only_tally = every_state[0]["tally"], only_state[0]["tally"]
    assert every_tally["turns"]["turn"].max() > 0  # the switch on: turn rows written
    assert only_tally["turns"]["turn"].max() == 0  # off: never written
    assert (every_tally["cards"]["game"] == N - 1).sum() == 2 * GAME.make_params("modern").deck_size
    assert (only_tally["cards"]["game"] != 0).sum() == 0  # off: the records are never cleared for a game


def test_the_uncounted_entry_plays_the_same_games_and_keeps_no_counter():
    counted_state, counted = batch(0, 0)
    state, games = batch(0, 0, kernel.batch_uncounted)
    assert np.array_equal(counted, games)
    tally, counted_tally = state[0]["tally"], counted_state[0]["tally"]
    counters = ("points_score", "points_replenish", "cards_played", "attacks", "draws", "scores", "replenishes", "first")
    for name in counters:
        assert counted_tally["seats"][name].sum() > 0  # counted: kept (40 games ended with some of each)
        assert tally["seats"][name].sum() == 0  # uncounted: never touched
    assert not tally["cards"]["times_drawn"].any() and not tally["cards"]["times_played"].any()
    assert counted_tally["cards"]["times_drawn"].any()  # counted keeps the records' counters even off the table
    assert tally["turns"]["turn"].max() == 0


def test_play_games_takes_the_uncounted_entry_only_for_the_games_table_alone():
    params = GAME.make_params("modern")
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    args = (params, pool.table, np.zeros((2, params.deck_size), np.int16), np.array([1, 1], np.int64))
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    rows = {}
    for name, n_seats in (("games only", 0), ("games and seats", 2 * N)):
        games, seats, counts = np.zeros(N, GAME_DTYPE), np.zeros(n_seats, SEAT_DTYPE), np.zeros(4, np.int64)
        no_cards, no_turns = np.zeros(0, CARD_RECORD_DTYPE), np.zeros(0, TURN_DTYPE)
        done = kernel.play_games(*args, weights, SEED, 0, N, 0, 0, games, seats, no_cards, no_turns, counts)
        assert done == N
        rows[name] = games, seats
    assert np.array_equal(rows["games only"][0], rows["games and seats"][0])
    assert rows["games and seats"][1]["attacks"].sum() > 0
    assert len(kernel.batch_uncounted.signatures) == 1 and len(kernel.batch_counted.signatures) >= 1


def test_check_games_and_replay_play_the_batch_games():
    params = GAME.make_params("modern")
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    decks = np.zeros((2, params.deck_size), np.int16)
    ids = np.array([GAME.bots.index("greedy")] * 2, np.int64)
    report = np.ones(4, np.int64)  # check_games zeroes it first
    kernel.check_games(params, pool.table, decks, ids, weights, SEED, 0, N, report)
    assert report[0] > 0  # decisions audited
    assert report[1:].tolist() == [0, 0, 0]  # no conservation violation, illegal action or unfinished game
    _, games = batch(0, 0)
    for g in (0, N - 1):
        events = kernel.replay_game(params, pool.table, decks, ids, weights, SEED, g)
        assert events["turn"].max() == games["turns"][g]
