"""``sims/core/rng.py`` with Python ints, shared by the pure-Python references.

Splitmix64 lanes with 64-bit wrap-around by masking: bit-exact with the kernels' RNG, so a
reference plays the same games as its kernel.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """Return the splitmix64 finaliser of ``z``."""
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def game_seed(root_seed: int, g: int) -> int:
    """Return the seed of game ``g`` of a run: a hash of ``(root_seed, g)``."""
    return mix64((root_seed & MASK64) ^ mix64((((g & MASK64) * GOLDEN) + GOLDEN) & MASK64))


class Rng:
    """A game's random lanes (each a splitmix64 generator)."""

    __slots__ = ("lanes",)

    def __init__(self, seed: int, n_lanes: int) -> None:
        self.lanes = [mix64((seed + (lane + 1) * GOLDEN) & MASK64) for lane in range(n_lanes)]

    def next_u64(self, lane: int) -> int:
        """Advance ``lane``; return its next 64 random bits."""
        z = (self.lanes[lane] + GOLDEN) & MASK64
        self.lanes[lane] = z
        return mix64(z)

    def randint(self, lane: int, n: int) -> int:
        """Return a uniform integer in ``[0, n)``: multiply-shift on the high 32 bits."""
        return ((self.next_u64(lane) >> 32) * n) >> 32

    def shuffle(self, items: list, lane: int) -> None:
        """Shuffle ``items`` in place: Fisher-Yates from the top, like ``rng.shuffle``."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(lane, i + 1)
            items[i], items[j] = items[j], items[i]
