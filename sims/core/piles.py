"""Pile helpers shared by games: ordered piles stored as ``ids[n]`` + a length.

A pile's top is its last element (``pile[len - 1]``), so draw and discard are O(1).
"""

import numpy as np

from sims.core.jit import kernel

NO_CARD = -1


@kernel
def pop_top(pile: np.ndarray, lens: np.ndarray, z: int) -> int:
    """Remove the top card of pile ``z`` in place; return its id, or ``NO_CARD`` if empty."""
    n = lens[z]
    if n == 0:
        return NO_CARD
    lens[z] = n - 1
    return pile[z, n - 1]


@kernel
def push(pile: np.ndarray, lens: np.ndarray, z: int, card: int) -> None:
    """Put ``card`` on top of pile ``z`` in place."""
    pile[z, lens[z]] = card
    lens[z] += 1


@kernel
def remove_at(pile: np.ndarray, lens: np.ndarray, z: int, i: int) -> int:
    """Remove entry ``i`` of pile ``z`` in place (order kept); return the card id."""
    card = pile[z, i]
    n = lens[z]
    for k in range(i, n - 1):
        pile[z, k] = pile[z, k + 1]
    lens[z] = n - 1
    return card


@kernel
def find(pile: np.ndarray, lens: np.ndarray, z: int, card: int) -> int:
    """Return the index of ``card`` in pile ``z``, or -1."""
    for i in range(lens[z]):
        if pile[z, i] == card:
            return i
    return -1
