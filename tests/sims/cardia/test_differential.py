"""Differential test: the Numba Cardia kernel against the pure-Python reference, game by game.

``benchmarks/cardia_reference.py`` (rules) and ``cardia_reference_bots.py`` (random,
greedy, expert) re-implement the game in plain Python with the same RNG lanes and the
same float arithmetic. Both play the same seeded games; every column of every table
(``games``, ``seats``, ``cards``, ``turns``) must be equal, game by game, for every named
variant x several bot pairings, and for parameter settings no variant reaches.
"""

import numba
import numpy as np
import pytest

import sims
from tests.sims.differential import load_reference
from tests.sims.differential import mismatches as table_mismatches

GAME = sims.load("cardia")
TABLES = ("games", "seats", "cards", "turns")
POOL = GAME.load_pool(GAME.cards_path)
ref = load_reference("cardia_reference")


def scaled(n: int) -> int:
    """Return ``n`` games, or a tenth of them (at least 1) when the kernel runs interpreted."""
    return max(1, n // 10) if numba.config.DISABLE_JIT else n


def play_both(variant, overrides, bots, n_games, seed, *, weights=None):
    """Play games ``0 .. n_games-1`` with both implementations; return (kernel tables, reference results)."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(POOL, params)
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    if weights is None:
        weights = np.stack([GAME.make_weights(b) for b in bots])
    out = GAME.play_chunk(params, pool, np.zeros((2, 0), np.int16), bot_ids, weights, seed, 0, n_games, TABLES)
    reference = ref.Reference(params, pool, bots, weights.tolist())
    return out, [reference.play(seed, g, TABLES) for g in range(n_games)]


def assert_agree(out, results, n_games, what):
    bad, notes = table_mismatches(out, ref.to_rows(results), TABLES)
    assert not bad, f"{what}: {len(bad)} of {n_games} games differ; first:\n  " + "\n  ".join(notes)
    assert len(out["games"]) == n_games
    assert len(out["turns"]) == sum(len(r["turns"]) for r in results)


PAIRINGS = {
    ("random", "random"): 40,
    ("greedy", "greedy"): 40,
    ("greedy", "random"): 20,
    ("expert", "greedy"): 4,
}
VARIANTS = [
    "first_games", "deck_ii", "grid", "best_of_3", "mixed_I_II_I_II", "mixed_II_I_II_I", "djinn_immediate",
    "deck_ii_djinn_once", "more_signets_after_tie", "foggy_resolve",
    *(f"loc_{loc}" for loc in ("serpent_temple", "bazaar", "founders_day", "grand_library", "scrapyard",
                               "auction_house", "haunted_catacombs", "foggy_swamp")),
    *(f"deck_ii_{loc}" for loc in ("serpent_temple", "bazaar", "founders_day", "auction_house", "foggy_swamp")),
]  # fmt: skip
MATRIX = [pytest.param(v, bots, n, id=f"{v}-{bots[0]}-{bots[1]}") for v in VARIANTS for bots, n in PAIRINGS.items()]


@pytest.mark.parametrize(("variant", "bots", "n_games"), MATRIX)
def test_variant_games_agree(variant, bots, n_games):
    n = scaled(n_games)
    seed = 100 + VARIANTS.index(variant) * 10 + list(PAIRINGS).index(bots)
    out, results = play_both(variant, None, bots, n, seed)
    assert_agree(out, results, n, f"{variant} {bots} seed {seed}")


CASES = [  # settings no named variant reaches
    ("first_games", {"value_card": 15, "value_swap": 1}, ("greedy", "greedy"), 40, 1),
    ("deck_ii", {"value_card": 31, "value_swap": 1, "value_baseline": "counterpart"}, ("greedy", "expert"), 4, 2),
    ("first_games", {"serpent_current": 1, "location": "serpent_temple"}, ("greedy", "random"), 40, 3),
    ("first_games", {"serpent_per_change": 0, "location": "serpent_temple"}, ("greedy", "greedy"), 40, 4),
    ("first_games", {"max_rounds": 4}, ("random", "random"), 40, 5),
    ("deck_ii", {"win_signets": 3, "bazaar_refill": 2, "location": "bazaar"}, ("greedy", "random"), 40, 6),
    ("best_of_3", {"match_games_cap": 3, "deck": "mixed", "faction_decks": "guild"}, ("random", "greedy"), 20, 7),
    ("first_games", {"opening_hand": 3, "round_draw": 2}, ("expert", "random"), 4, 8),
]


@pytest.mark.parametrize(("variant", "overrides", "bots", "n_games", "seed"), CASES)
def test_parameter_settings_agree(variant, overrides, bots, n_games, seed):
    n = scaled(n_games)
    out, results = play_both(variant, overrides, bots, n, seed)
    assert_agree(out, results, n, f"{variant} {overrides} {bots}")


def test_bots_agree_with_unusual_weights():
    """Heuristic choices hang on float comparisons: perturbed weights must give the same games."""
    pick = np.random.default_rng(5)
    for variant, bots in (("deck_ii", ("greedy", "greedy")), ("loc_serpent_temple", ("expert", "greedy"))):
        weights = np.stack([GAME.make_weights(b) for b in bots]) * pick.uniform(
            0.5, 1.5, size=(2, len(GAME.bot_params["greedy"]))
        )
        n = scaled(30 if "expert" not in bots else 3)
        out, results = play_both(variant, None, bots, n, 77, weights=weights)
        assert_agree(out, results, n, f"{variant} {bots} perturbed weights")


def test_a_changed_rule_in_the_reference_breaks_agreement(monkeypatch):
    """The comparison can fail: a reference whose Treasurer gives no extra signet disagrees."""
    n = scaled(60)
    params = GAME.make_params()
    bots = ("greedy", "greedy")
    out, _ = play_both(None, None, bots, n, 9)
    monkeypatch.setattr(ref, "TREASURER", -99)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    broken = ref.Reference(params, GAME.prepare_pool(POOL, params), bots, weights.tolist())
    bad, _ = table_mismatches(out, ref.to_rows([broken.play(9, g, TABLES) for g in range(n)]), TABLES)
    assert bad
