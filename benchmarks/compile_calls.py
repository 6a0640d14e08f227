"""The calls the compile benchmarks time: every entry point of a game, greedy in every seat.

``compile_profile.py`` and ``compile_llvm_split.py`` run their measuring code in a fresh
interpreter (from the project root, with an empty Numba cache); the child puts this folder on
``sys.path`` and calls ``every_entry_point``: the batch kernel for the games table, then for
every table, the audit (``check_games``) and the replay, as ``compile_time.py`` times them.
"""

from __future__ import annotations

import numpy as np

import sims
from balance.spec import RunSpec, resolve


def every_entry_point(game: str, before=None) -> None:
    """Resolve a greedy run of ``game`` and call each entry point once (``before()`` first, if given)."""
    r = resolve(RunSpec(game=game, bots=("greedy",) * sims.load(game).seats, seed=1))
    args = (r.params, r.pool, r.decks, r.bot_ids, r.weights)
    if before is not None:
        before()
    r.game.play_chunk(*args, 1, 0, 1, tables=("games",))
    r.game.play_chunk(*args, 1, 0, 1)
    report = np.zeros(4, dtype=np.int64)
    r.game.check_games(r.params, r.pool.table, r.decks, r.bot_ids, r.weights, np.uint64(1), 0, 1, report)
    r.game.replay(*args, 1, 0)
