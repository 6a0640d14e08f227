"""Games played in batches into record buffers allocated once and reused.

``GameSpec.play_chunk`` allocates fresh buffers for a whole chunk, which is what a caller
that keeps every row wants. A caller that reduces each batch right away (a run that
keeps sufficient statistics instead of every card and turn row) uses
:func:`play_batches`: the buffers are allocated once per chunk, sized for ``batch``
games, and refilled batch after batch, so they stay in cache, are never page-faulted in
again and memory does not grow with the chunk. Results do not depend on the batch size:
every game is seeded by its own index (``rng.game_seed``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from sims.core.jit import kernel
from sims.core.records import TABLES, empty_records
from sims.core.rng import game_seed

BATCH = 2048  # games per batch: the card and turn buffers of a batch stay within a few MB


def play_batches(
    game: Any,
    params: Any,
    pool: Any,
    decks: np.ndarray,
    bots: np.ndarray,
    weights: np.ndarray,
    root_seed: int,
    first_game: int,
    n_games: int,
    tables: tuple[str, ...] = TABLES,
    batch: int = BATCH,
) -> Iterator[dict[str, np.ndarray]]:
    """Play games ``[first_game, first_game + n_games)`` of ``game`` (a ``GameSpec``); yield each batch's records.

    Each yielded mapping holds, for every table in ``tables``, the batch's rows as a view
    into a reused buffer: valid until the next batch is requested (copy what you keep).
    A batch that does not fit doubles the buffers and is played again from the game that
    did not fit.
    """
    record = {t: t in tables for t in TABLES}
    scale = 1.5
    bufs: dict[str, np.ndarray] = {}
    counts = np.zeros(len(TABLES), dtype=np.int64)
    g, end = first_game, first_game + n_games
    while g < end:
        size = min(batch, end - g)
        if not bufs or any(len(bufs[t]) < _capacity(game, params, t, size, scale) for t in TABLES if record[t]):
            bufs = {
                t: empty_records(game.tables[t], _capacity(game, params, t, size, scale) if record[t] else 0)
                for t in TABLES
            }
        done = game.play_games(
            params, pool.table, decks, bots, weights, np.uint64(root_seed), g, size,
            int(record["cards"]), int(record["turns"]),
            bufs["games"], bufs["seats"], bufs["cards"], bufs["turns"], counts,
        )  # fmt: skip
        if done == 0:  # not even one game fits: grow and play it again
            scale *= 2
            bufs = {}
            continue
        yield {t: bufs[t][: counts[i]] for i, t in enumerate(TABLES) if record[t]}
        g += done
        if done < size:  # the estimate of rows per game was low for these games
            scale *= 2


def _capacity(game: Any, params: Any, table: str, n: int, scale: float) -> int:
    return int(n * game.rows_per_game[table](params) * scale) + 64


@kernel
def game_seeds(root_seed: np.uint64, games: np.ndarray, out: np.ndarray) -> None:
    """Write ``rng.game_seed(root_seed, games[i])`` into ``out[i]`` in place, for every row."""
    for i in range(games.shape[0]):
        out[i] = game_seed(root_seed, games[i])
