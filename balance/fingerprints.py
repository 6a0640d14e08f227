"""Deck fingerprints: what a run keeps of its seats' deck lists so two runs can be checked for equal decks.

A deck list (``seats.deck``, build order) costs about 45 bytes a game on disk, most of a
default run. Instead every seat gets

- ``deck_fp``: 16 bits of a hash of its deck's card **names** in build order (stored in
  ``seats``, 2 bytes a seat): two runs' decks of a seat differ when their prints differ;
  equal prints of different decks happen once in 65,536 changed seats;
- a 128-bit digest per block of :data:`BLOCK` games (``agg_decks``: ``block, n, x0, x1``):
  the XOR over the block's seats of a 128-bit hash of (game, seat, deck names). XOR merges
  chunk parts in any order and chunking, and two runs with the same ``n`` and digest in a
  block dealt the same decks in all its games (a chance collision is 2⁻¹²⁸): so "decks
  changed in 0 of N games" is exact, and only a block whose digests differ is counted
  seat by seat with ``deck_fp``.

Names, not ids: pools that list the same cards in other rows give the same prints. The
lists themselves are kept for the first games of the run (``balance.manifest.DECK_LISTS``) for
the paired deltas of edited cards, which need to know who holds a card.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

BLOCK = 1 << 16  # games per digest block
_M1, _M2, _GOLDEN = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x9E3779B97F4A7C15)


def _mix(z: np.ndarray) -> np.ndarray:
    """Return the splitmix64 finaliser of a uint64 array (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def name_hashes(names: Sequence[str]) -> np.ndarray:
    """Return uint64 ``[len(names) + 1, 2]``: two independent 64-bit hashes of each card name (last row: no card)."""
    out = np.zeros((len(names) + 1, 2), np.uint64)
    for i, name in enumerate(names):
        digest = hashlib.blake2b(name.encode(), digest_size=16, person=b"balance-deck").digest()
        out[i] = np.frombuffer(digest, np.uint64)
    return out


def deck_lanes(decks: np.ndarray, hashes: np.ndarray) -> np.ndarray:
    """Return uint64 ``[n, 2]``: a 128-bit hash of each row's card names in order (``-1`` = padding, skipped).

    Examples
    --------
    >>> h = name_hashes(["a", "b"])
    >>> d = deck_lanes(np.array([[0, 1, -1], [1, 0, -1], [0, 1, -1]], np.int16), h)
    >>> bool((d[0] == d[2]).all()), bool((d[0] != d[1]).any())
    (True, True)
    """
    lanes = np.tile(np.array([[1, 2]], np.uint64), (len(decks), 1))
    for i in range(decks.shape[1]):
        ids = decks[:, i].astype(np.int64)
        valid = ids >= 0
        h = hashes[np.where(valid, ids, len(hashes) - 1)]
        lanes = np.where(valid[:, None], _mix(lanes ^ h), lanes)
    with np.errstate(over="ignore"):
        count = (decks >= 0).sum(axis=1).astype(np.uint64)
        return _mix(lanes ^ (count * _GOLDEN)[:, None])


def prints(lanes: np.ndarray) -> np.ndarray:
    """Return each seat's 16-bit ``deck_fp`` from its :func:`deck_lanes`."""
    return (lanes[:, 0] & np.uint64(0xFFFF)).astype(np.uint16)


def block_digests(game: np.ndarray, seat: np.ndarray, lanes: np.ndarray) -> dict[str, np.ndarray]:
    """Return the ``agg_decks`` rows of these seats: ``block, n`` (seats) and the XOR digests ``x0, x1``."""
    with np.errstate(over="ignore"):
        key = _mix(game.astype(np.uint64) * np.uint64(8) + seat.astype(np.uint64) + _GOLDEN)
    terms = _mix(lanes ^ key[:, None])
    block = game.astype(np.int64) // BLOCK
    blocks, index = np.unique(block, return_inverse=True)
    x = np.zeros((len(blocks), 2), np.uint64)
    np.bitwise_xor.at(x, index, terms)
    return {"block": blocks, "n": np.bincount(index).astype(np.int64), "x0": x[:, 0], "x1": x[:, 1]}
