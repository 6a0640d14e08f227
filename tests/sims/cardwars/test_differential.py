"""Differential test: the Numba Card Wars kernel against the pure-Python reference, game by game.

``benchmarks/cardwars_reference.py`` re-implements the rules and the ``random``, ``greedy``
and ``planner`` bots in plain Python (the shared RNG port with seven lanes, lists for the
board and piles, its own trigger queue and the same float arithmetic). Both play the same
seeded games; every column of every table (``games``, ``seats``, ``cards``, ``turns``) must
be equal, game by game: every named variant x bot pairings, parameter settings no variant
reaches, value-mode arms, custom decks and perturbed weights.
"""

import numba
import numpy as np
import pytest

import sims
from sims.cardwars.layout import N_RNG, Lane
from sims.core import rng
from tests.sims.differential import load_reference
from tests.sims.differential import mismatches as table_mismatches

GAME = sims.load("cardwars")
TABLES = ("games", "seats", "cards", "turns")
POOL = GAME.load_pool(GAME.cards_path)
ref = load_reference("cardwars_reference")


def scaled(n: int) -> int:
    """Return ``n`` games, or a tenth of them when the kernel runs interpreted (``make test-nojit``)."""
    return max(1, n // 10) if numba.config.DISABLE_JIT else n


def play_both(variant, overrides, bots, n_games, seed, *, weights=None, decks=None):
    """Play games ``0 .. n_games-1`` with both implementations; return (kernel tables, reference results)."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(POOL, params)
    kernel_decks = np.zeros((2, 1), np.int16) if decks is None else decks
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    if weights is None:
        weights = np.stack([GAME.make_weights(b) for b in bots])
    out = GAME.play_chunk(params, pool, kernel_decks, bot_ids, weights, seed, 0, n_games, TABLES)
    reference = ref.Reference(params, pool, bots, weights.tolist(), None if decks is None else decks.tolist())
    return out, [reference.play(seed, g, TABLES) for g in range(n_games)]


def assert_agree(out, results, n_games, what):
    bad, notes = table_mismatches(out, ref.to_rows(results), TABLES)
    assert not bad, f"{what}: {len(bad)} of {n_games} games differ; first:\n  " + "\n  ".join(notes)
    assert len(out["games"]) == n_games
    assert len(out["turns"]) == sum(r["turns"] for r in results)  # every turn row compared


def test_rng_lanes_match():
    assert N_RNG == ref.N_RNG == 7
    assert (Lane.SETUP, Lane.SHUFFLE, Lane.BOT, Lane.EFFECT) == (ref.LANE_SETUP, ref.LANE_SHUFFLE, ref.LANE_BOT,
                                                                  ref.LANE_EFFECT)  # fmt: skip
    for root, g in ((0, 0), (1, 7), (2**64 - 1, 123_456)):
        assert int(rng.game_seed(np.uint64(root), g)) == ref.game_seed(root, g)


VARIANTS = sorted(GAME.variants)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bots", [("random", "random"), ("greedy", "greedy")])
def test_every_variant_agrees(variant, bots):
    n = scaled(40 if bots[0] == "random" else 60)
    out, results = play_both(variant, None, bots, n, seed=11)
    assert_agree(out, results, n, f"{variant} {bots}")


@pytest.mark.parametrize(
    "bots", [("greedy", "random"), ("random", "greedy"), ("planner", "greedy"), ("greedy", "planner")]
)
def test_mixed_bots_agree(bots):
    n = scaled(8 if "planner" in bots else 80)
    out, results = play_both(None, None, bots, n, seed=3)
    assert_agree(out, results, n, str(bots))


OFF_VARIANT = [
    {"turn_bonus": "at_resolution"},
    {"empty_pick": "forbidden"},
    {"repeat_targets": "up_to"},
    {"silo_unplayable": "thief_hand"},
    {"max_turns": 12},  # timeouts
    {"hit_points": 8},
    {"opening_hand": 8, "actions_per_turn": 3},
    {"first_player": "previous_winner", "series_length": 4},
    {"deck_0": "bmo", "deck_1": "bmo", "mulligan": "off"},
]


@pytest.mark.parametrize("overrides", OFF_VARIANT, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_parameter_settings_no_variant_reaches_agree(overrides):
    n = scaled(40)
    for bots in (("random", "random"), ("greedy", "greedy")):
        out, results = play_both(None, overrides, bots, n, seed=5)
        assert_agree(out, results, n, f"{overrides} {bots}")


@pytest.mark.parametrize("card", ["The Pig", "Silo of Truth", "Husker Knight", "Gnome Snot"])
@pytest.mark.parametrize("swap", [0, 1])
@pytest.mark.parametrize("baseline", ["vanilla", "no_ability"])
def test_value_mode_arms_agree(card, swap, baseline):
    n = scaled(24)
    overrides = {"value_card": POOL.names.index(card), "value_swap": swap, "value_baseline": baseline}
    out, results = play_both(None, overrides, ("greedy", "greedy"), n, seed=8)
    assert_agree(out, results, n, f"{card} swap={swap} {baseline}")


def test_custom_decks_agree():
    names = POOL.names
    mixed = [names.index(n) for n in ("Phyllis", "Evil Eye", "Husker Knight", "Shark", "The Pig", "Cool Dog",
                                      "Gnome Snot", "Teleport", "Mouthball", "Field Reaper", "Corn Scepter",
                                      "Celestial Castle", "Sandsnake", "Uni-Knight")]  # fmt: skip
    deck0 = sorted(mixed * 3)[:41]
    deck1 = [names.index("Drooling Dude")] * 3 + [names.index(n) for n in names[:37]]
    decks = np.full((2, 64), -1, np.int16)
    decks[0, : len(deck0)], decks[1, : len(deck1)] = deck0, deck1
    n = scaled(40)
    for bots in (("random", "random"), ("greedy", "greedy")):
        out, results = play_both(None, {"deck_builder": "fixed"}, bots, n, seed=9, decks=decks)
        assert_agree(out, results, n, f"custom decks {bots}")


def test_perturbed_weights_agree():
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    generator = np.random.default_rng(1)
    weights[:, :16] *= generator.uniform(0.3, 2.0, size=(2, 16))
    n = scaled(60)
    out, results = play_both(None, None, ("greedy", "greedy"), n, seed=4, weights=weights)
    assert_agree(out, results, n, "perturbed weights")


@pytest.mark.parametrize(
    ("method", "patch"),
    [
        ("check_end", lambda g: False),  # games never end at 0 Hit Points
        ("protected", lambda g, q, lane: False),  # Cool Dog does nothing
        ("paid_cost", lambda g, p, c: g.cards[c].cost),  # no discounts
    ],
)
def test_a_changed_rule_in_the_reference_breaks_agreement(monkeypatch, method, patch):
    monkeypatch.setattr(ref.Game, method, patch)
    n = scaled(60)
    params = GAME.make_params(None, {"deck_0": "finn", "deck_1": "rainicorn"} if method != "check_end" else None)
    pool = GAME.prepare_pool(POOL, params)
    bots = ("greedy", "greedy")
    weights = np.stack([GAME.make_weights(b) for b in bots])
    out = GAME.play_chunk(params, pool, np.zeros((2, 1), np.int16), np.array([1, 1]), weights, 2, 0, n, TABLES)
    reference = ref.Reference(params, pool, bots, weights.tolist())
    results = []
    for g in range(n):
        try:
            results.append(reference.play(2, g, TABLES))
        except (IndexError, ValueError, KeyError):
            return  # the broken rule does not even play: disagreement shown
    bad, _ = table_mismatches(out, ref.to_rows(results), TABLES)
    assert bad


@pytest.mark.parametrize("first", [1, 4, 6])
def test_series_chunk_replays_the_earlier_games(first):
    """A chunk starting inside a cool_guy_series replays the series' earlier games: same rows as one chunk."""
    params = GAME.make_params(None, {"first_player": "previous_winner", "series_length": 4})
    pool = GAME.prepare_pool(POOL, params)
    bot_ids = np.array([GAME.bots.index("greedy")] * 2, dtype=np.int64)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    args = (params, pool, np.zeros((2, 1), np.int16), bot_ids, weights, 9)
    whole = GAME.play_chunk(*args, 0, 12, TABLES)
    part = GAME.play_chunk(*args, first, 12 - first, TABLES)
    assert len(set(whole["games"]["first_seat"][first:].tolist())) == 2  # the previous winner decides who starts
    for table in TABLES:
        rows = whole[table][whole[table]["game"] >= first]
        assert len(rows) == len(part[table]) > 0
        for column in rows.dtype.names:
            assert np.array_equal(rows[column], part[table][column]), (table, column)
