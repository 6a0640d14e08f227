"""Counter-based per-game random streams (DESIGN.md: Randomness and reproducibility).

Game ``g`` of a run with root seed ``s`` draws everything from ``game_seed(s, g)``: a
splitmix64 hash, so a game's randomness depends on nothing but ``(s, g)``. A game keeps a
small ``uint64`` array of independent *lanes* (one per concern: set-up, shuffles, each
seat's bot), so that a rule variant that shuffles differently does not shift the decks
or the bots' tie-breaks of a paired comparison.

Each lane is a splitmix64 generator: ``next`` adds the golden gamma and mixes.
"""

import numpy as np

from sims.core.jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@kernel
def mix64(z: np.uint64) -> np.uint64:
    """Return the splitmix64 finaliser of ``z`` (a bijection on 64-bit integers)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel
def game_seed(root_seed: np.uint64, g: np.int64) -> np.uint64:
    """Return the seed of game ``g`` of a run: a hash of ``(root_seed, g)``."""
    return mix64(np.uint64(root_seed) ^ mix64(np.uint64(g) * GOLDEN + GOLDEN))


@kernel
def seed_lanes(rng: np.ndarray, seed: np.uint64) -> None:
    """Seed every lane of ``rng`` (uint64[n_lanes]) in place from one game seed."""
    for lane in range(rng.shape[0]):
        rng[lane] = mix64(np.uint64(seed) + np.uint64(lane + 1) * GOLDEN)


@kernel
def next_u64(rng: np.ndarray, lane: int) -> np.uint64:
    """Advance ``rng[lane]`` in place; return the next 64 random bits."""
    rng[lane] += GOLDEN
    return mix64(rng[lane])


@kernel
def randint(rng: np.ndarray, lane: int, n: int) -> int:
    """Return a uniform integer in ``[0, n)`` from ``rng[lane]`` (``n`` < 2**31).

    Multiply-shift on the high 32 bits: bias below 2**-31 * n, far below anything a
    balance figure could show.
    """
    hi = next_u64(rng, lane) >> _S32
    return np.int64((hi * np.uint64(n)) >> _S32)


@kernel
def shuffle(items: np.ndarray, n: int, rng: np.ndarray, lane: int) -> None:
    """Shuffle ``items[:n]`` in place (Fisher-Yates): a uniform random permutation."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, lane, i + 1)
        items[i], items[j] = items[j], items[i]
