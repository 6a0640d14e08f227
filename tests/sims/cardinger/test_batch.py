"""kernel.play_batch: the one compiled game loop behind play_games, check_games and replay_game (RULES.md §11)."""

import numpy as np

import sims
from sims.cardinger import kernel
from sims.cardinger.state import CARD_RECORD_DTYPE, GAME_DTYPE, SEAT_DTYPE, TURN_DTYPE

GAME = sims.load("cardinger")
SEED = np.uint64(2026)
N = 40


def inputs() -> tuple:
    """Return (params, pool, weights, decks, bot ids) of a greedy mirror under the modern rules."""
    params = GAME.make_params("modern")
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    decks = np.zeros((2, params.deck_size), np.int16)
    return params, pool, weights, decks, np.array([GAME.bots.index("greedy")] * 2, np.int64)


def batch(record_cards: int, record_turns: int) -> tuple[np.ndarray, np.ndarray]:
    """Play games 0 .. N-1 (greedy mirror, modern) with the given switches; return (state, games rows)."""
    params, pool, weights, decks, ids = inputs()
    state = kernel.prepare(pool.table, params, weights, 0)
    games = np.zeros(N, GAME_DTYPE)
    seats = np.zeros(0, SEAT_DTYPE)
    cards = np.zeros(2 * params.deck_size * N if record_cards else 0, CARD_RECORD_DTYPE)
    turns = np.zeros(params.max_turns * N if record_turns else 0, TURN_DTYPE)
    counts = np.zeros(4, np.int64)
    done = kernel.play_batch(
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


def test_check_games_and_replay_play_the_batch_games():
    params, pool, weights, decks, ids = inputs()
    report = np.ones(4, np.int64)  # check_games zeroes it first
    kernel.check_games(params, pool.table, decks, ids, weights, SEED, 0, N, report)
    assert report[0] > 0  # decisions audited
    assert report[1:].tolist() == [0, 0, 0]  # no conservation violation, illegal action or unfinished game
    _, games = batch(0, 0)
    for g in (0, N - 1):
        events = kernel.replay_game(params, pool.table, decks, ids, weights, SEED, g)
        assert events["turn"].max() == games["turns"][g]


def test_the_audit_counts_of_two_half_batches_add_up_to_the_whole_batch():
    params, pool, weights, decks, ids = inputs()
    whole, halves = np.zeros(4, np.int64), np.zeros(4, np.int64)
    kernel.check_games(params, pool.table, decks, ids, weights, SEED, 0, N, whole)
    for first in (0, N // 2):  # play_batch adds its counts (scratch.report) to the caller's report
        state = kernel.prepare(pool.table, params, weights, 0)
        kernel.play_batch(state, decks, ids, SEED, first, N // 2, 0, 0, *kernel.NO_ROWS, np.zeros(4, np.int64), halves)
    assert whole[0] > 0
    assert halves.tolist() == whole.tolist()
