"""Card Wars: the turn rows are written only when the turns table is wanted (``meta.record_turns``).

``kernel.drive`` sets ``meta.record_turns`` from its ``record_turns`` argument once per game;
``flow.end_turn`` and the end of ``play_game`` write a turn's row into ``tally.turns`` only
when it is set (issue 13: a counter costs nothing when its table is off). Leaving the turns
table out must change nothing else.
"""

import numpy as np

import sims
from sims.cardwars import bots, kernel
from sims.cardwars.layout import STATE_DTYPE
from sims.core import rng

GAME = sims.load("cardwars")
PARAMS = GAME.make_params(None)
POOL = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), PARAMS)
DECKS = np.zeros((2, 1), np.int16)


def play_one(record_turns: int, g: int):
    """Return the state after playing greedy-mirror game ``g`` with ``meta.record_turns`` set as given."""
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    state = kernel.prepare(POOL.table, PARAMS, weights, DECKS, 0).view(STATE_DTYPE)
    ids = np.array([bots.Bot.GREEDY] * 2, np.int64)
    state[0].meta.record_turns = record_turns
    seed = np.uint64(rng.game_seed(np.uint64(5), g))
    kernel.play_game(state[0], state[1], DECKS, ids, g, seed, np.int64(-1), np.zeros(0, np.int64))
    return state


def test_turn_rows_are_written_only_when_asked():
    for g in range(3):
        on, off = play_one(1, g), play_one(0, g)
        turns = int(on[0]["meta"]["turn"])
        assert turns > 2
        rows = on[0]["tally"]["turns"]
        assert (rows["turn"][:turns] == np.arange(1, turns + 1)).all()  # every turn's row, written
        assert (off[0]["tally"]["turns"]["turn"] == 0).all()  # none written
        assert off[0]["meta"]["turn"] == turns
        assert off[0]["meta"]["winner"] == on[0]["meta"]["winner"]


def test_leaving_out_the_turns_table_changes_no_other_table():
    ids = np.array([GAME.bots.index("greedy")] * 2, np.int64)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    args = (PARAMS, POOL, DECKS, ids, weights, 99, 0, 300)
    every = GAME.play_chunk(*args, ("games", "seats", "cards", "turns"))
    some = GAME.play_chunk(*args, ("games", "seats", "cards"))
    assert len(every["turns"]) > 300
    assert "turns" not in some
    for table in ("games", "seats", "cards"):
        assert len(some[table]) == len(every[table]) > 0
        assert (some[table] == every[table]).all()
