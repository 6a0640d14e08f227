"""Counter-based random streams: reproducible, independent per game, uniform."""

import numpy as np
import pytest

from sims.core import rng


def _lanes(root, g, n=4):
    lanes = np.zeros(n, dtype=np.uint64)
    rng.seed_lanes(lanes, np.uint64(rng.game_seed(np.uint64(root), g)))
    return lanes


def test_game_seed_depends_only_on_root_and_game():
    assert rng.game_seed(np.uint64(1), 5) == rng.game_seed(np.uint64(1), 5)
    seeds = {int(rng.game_seed(np.uint64(1), g)) for g in range(10_000)}
    assert len(seeds) == 10_000
    assert rng.game_seed(np.uint64(1), 5) != rng.game_seed(np.uint64(2), 5)


def test_lanes_are_distinct_streams():
    lanes = _lanes(3, 7, n=5)
    assert len(set(lanes.tolist())) == 5
    firsts = [int(rng.next_u64(lanes, i)) for i in range(5)]
    assert len(set(firsts)) == 5


def test_randint_is_uniform_chi_square():
    lanes = _lanes(11, 0)
    draws = np.array([rng.randint(lanes, 0, 7) for _ in range(70_000)])
    counts = np.bincount(draws, minlength=7)
    assert counts.min() >= 0
    assert draws.max() == 6
    expected = 10_000
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 16.81  # chi-square, 6 degrees of freedom, p = 0.01


def test_shuffle_is_a_uniform_permutation():
    lanes = _lanes(5, 1)
    counts = np.zeros((4, 4), dtype=np.int64)  # counts[position, item]
    items = np.zeros(4, dtype=np.int16)
    for _ in range(24_000):
        items[:] = np.arange(4)
        rng.shuffle(items, 4, lanes, 2)
        counts[np.arange(4), items] += 1
    chi2 = float(((counts - 6_000) ** 2 / 6_000).sum())
    assert chi2 < 21.67  # 9 degrees of freedom, p = 0.01
    assert sorted(items.tolist()) == [0, 1, 2, 3]


@pytest.mark.parametrize("n", [1, 2, 80])
def test_randint_stays_in_range(n):
    lanes = _lanes(9, 2)
    values = [rng.randint(lanes, 1, n) for _ in range(2_000)]
    assert min(values) >= 0
    assert max(values) == n - 1
