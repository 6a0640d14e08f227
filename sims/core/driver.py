"""Game-independent pieces of a game's driver: the legality audit, the conservation marks, the replay log.

Each takes the game's state record ``s`` (any game whose state has ``scratch.legal``,
``scratch.n_legal``, ``scratch.log`` and ``meta.log_n``); Numba compiles one version per
state type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sims.core.jit import kernel


@kernel
def audit(s, action: int, report: np.ndarray) -> bool:
    """Count one decision in ``report[0]``; return False (and count ``report[2]``) if ``action`` is not legal."""
    report[0] += 1
    for k in range(s.scratch.n_legal):
        if s.scratch.legal[k] == action:
            return True
    report[2] += 1
    return False


@kernel
def mark(seen: np.ndarray, zone: np.ndarray, n: int, p: int) -> int:
    """Add 1 to ``seen[c]`` for each card ``c`` of ``zone[p, :n]`` in place; return ``n``."""
    for k in range(n):
        seen[zone[p, k]] += 1
    return n


@kernel
def logged_events(state: np.ndarray) -> np.ndarray:
    """Return a copy of the events logged in ``state`` (a game's state array, kept alive by the caller)."""
    s = state[0]
    return s.scratch.log[: s.meta.log_n].copy()


def card_name(names: tuple[str, ...], c: int) -> str:
    """Return the name of card ``c``, or ``?`` for no card."""
    return names[c] if 0 <= c < len(names) else "?"


def replay_lines(
    replay_game: Callable[..., np.ndarray],
    format_events: Callable[[np.ndarray, tuple[str, ...]], list[str]],
    params: Any,
    pool: Any,
    decks: np.ndarray,
    bots: np.ndarray,
    weights: np.ndarray,
    root_seed: int,
    game: int,
) -> list[str]:
    """Re-play game ``game`` with a game's ``replay_game`` kernel and return its formatted log lines."""
    bot_ids, weights = np.asarray(bots, dtype=np.int64), np.asarray(weights, dtype=np.float64)
    events = replay_game(params, pool.table, decks, bot_ids, weights, np.uint64(root_seed), int(game))
    return format_events(events, pool.names)
