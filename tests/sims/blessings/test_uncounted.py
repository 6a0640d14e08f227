"""The games-only entry (``kernel.batch_uncounted``, no counters kept) plays the same games as the counted one.

A run that asks for the games table alone goes through a separately compiled game loop
that skips every seats, cards and turns counter; its games rows must equal those of a
run that records every table, for every bot line-up and for the variants whose rules
touch the skipped counters (split deck, recycled cards, fresh-hand pools, arranged hands).
"""

from __future__ import annotations

import numpy as np
import pytest

import sims
from sims.blessings import kernel

GAME = sims.load("blessings")
VARIANTS = ("modern", "split_deck", "literal_recycle", "first_reading", "arranged_hands", "hidden_hands")


def _play(variant: str, bots: tuple[str, str], tables: tuple[str, ...]) -> dict[str, np.ndarray]:
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, 1), dtype=np.int16)
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return GAME.play_chunk(params, pool, decks, bot_ids, weights, 31, 0, 120, tables=tables)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bots", [("greedy", "greedy"), ("random", "tactician"), ("tactician", "greedy")])
def test_games_only_rows_equal_the_rows_of_a_run_with_every_table(variant, bots):
    full = _play(variant, bots, ("games", "seats", "cards", "turns"))["games"]
    lean = _play(variant, bots, ("games",))["games"]
    assert len(lean) == len(full) == 120
    for field in full.dtype.names:
        assert np.array_equal(lean[field], full[field]), field


def test_a_game_played_without_counting_leaves_every_counter_alone():
    params = GAME.make_params()
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    state = kernel.prepare(pool.table, params, np.stack([GAME.make_weights("greedy")] * 2), 0)
    s = state[0]
    bot_ids = np.array([1, 1], dtype=np.int64)
    kernel.play_game(s, bot_ids, 3, np.uint64(99), np.zeros(0, np.int64), False)
    assert s["tally"]["seats"]["attacks"].sum() == 0
    assert s["tally"]["cards"]["times_drawn"].sum() == 0
    assert s["meta"]["turn"] > 0
    kernel.play_game(s, bot_ids, 3, np.uint64(99), np.zeros(0, np.int64), True)
    assert s["tally"]["seats"]["attacks"].sum() > 0
    assert s["tally"]["cards"]["times_drawn"].sum() > 0
