"""Differential test: the Numba Blessings & Curses kernel against the pure-Python reference, game by game.

``benchmarks/blessings_reference.py`` re-implements the rules and the ``random``,
``greedy`` and ``tactician`` bots in plain Python (the Cardinger reference's RNG port with
six lanes, its own piles, battle and turn loop, and the same float arithmetic). Both play
the same seeded games; every column of every table (``games``, ``seats``, ``cards``,
``turns``) must be equal, game by game, for every named variant x several bot pairings,
plus parameter settings no variant reaches (caps, draws, Health, smaller pools).
"""

import dataclasses

import numba
import numpy as np
import pytest

import sims
from sims.blessings import kernel
from sims.blessings.state import N_LANES
from sims.core import rng
from tests.sims.differential import load_reference
from tests.sims.differential import mismatches as table_mismatches

GAME = sims.load("blessings")
TABLES = ("games", "seats", "cards", "turns")
POOL = GAME.load_pool(GAME.cards_path)


def scaled(n: int) -> int:
    """Return ``n`` games, or a twentieth of them when the kernel runs interpreted (``make test-nojit``).

    A configuration scaled to 0 games is not collected (the tactician mirror and the slow
    random mirrors: each interpreted game takes seconds).
    """
    return n // 20 if numba.config.DISABLE_JIT else n


ref = load_reference("blessings_reference")


def inputs(variant: str, overrides: dict | None, bots: tuple[str, str], weights=None, pool=POOL):
    """Return (params, pool, decks, bot ids, weights) as ``balance.spec.resolve`` builds them."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(pool, params)
    decks = np.zeros((2, 0), dtype=np.int16)  # unused: decks follow from deck_mode (R3)
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    if weights is None:
        weights = np.stack([GAME.make_weights(b) for b in bots])
    return params, pool, decks, bot_ids, weights


def play_both(variant, overrides, bots, n_games, seed, *, weights=None, pool=POOL, rules=None):
    """Play games ``0 .. n_games-1`` with both implementations; return (kernel tables, reference results)."""
    params, pool, decks, bot_ids, weights = inputs(variant, overrides, bots, weights, pool)
    out = GAME.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, n_games, TABLES)
    reference = ref.Reference(rules or params, pool, bots, weights.tolist())
    return out, [reference.play(seed, g, TABLES) for g in range(n_games)]


def mismatches(kernel_out: dict, results: list[dict], limit: int = 6) -> tuple[set[int], list[str]]:
    """Return (games that differ, notes on the first ``limit``): see ``tests/sims/differential.py``."""
    return table_mismatches(kernel_out, ref.to_rows(results), TABLES, limit=limit)


def assert_agree(out: dict, results: list[dict], n_games: int, what: str) -> None:
    """Fail with the first differing games (table, row, column, both values) if any game differs."""
    bad, notes = mismatches(out, results)
    assert not bad, f"{what}: {len(bad)} of {n_games} games differ; first:\n  " + "\n  ".join(notes)
    assert len(out["games"]) == n_games
    assert len(out["turns"]) == sum(r["battles"] for r in results)  # every battle row compared


# -- 1. the RNG port with six lanes --------------------------------------------------------------


def test_rng_port_with_six_lanes_is_bit_exact():
    assert N_LANES == ref.N_LANES == 6
    assert (ref.LANE_SETUP, ref.LANE_SHUFFLE, ref.LANE_BOT, ref.LANE_REVEAL) == (0, 1, 3, 5)
    for root in (0, 1, 2**64 - 1):
        for g in (0, 7, 123_456):
            seed = ref.game_seed(root, g)
            assert seed == int(rng.game_seed(np.uint64(root), g))
            lanes = np.zeros(N_LANES, dtype=np.uint64)
            rng.seed_lanes(lanes, np.uint64(seed))
            mine = ref.Rng(seed, ref.N_LANES)
            assert mine.lanes == [int(x) for x in lanes]
            for lane in range(N_LANES):
                assert mine.randint(lane, 52) == rng.randint(lanes, lane, 52)
                items = np.arange(26, dtype=np.int16)
                rng.shuffle(items, 26, lanes, lane)
                mine_items = list(range(26))
                mine.shuffle(mine_items, lane)
                assert mine_items == items.tolist()
            assert mine.lanes == [int(x) for x in lanes]


# -- 2. the first battle's start: deal, gather, first player, opening hands ----------------------


@pytest.mark.parametrize("variant", ["modern", "split_deck", "three_plus_two", "arranged_hands"])
def test_first_battle_start_agrees(variant):
    params, pool, _, _, weights = inputs(variant, None, ("random", "greedy"))
    state = kernel.prepare(pool.table, params, weights, 0)
    s = state[0]
    s["meta"]["bots"][:] = [0, 1]
    reference = ref.Reference(params, pool, ("random", "greedy"), weights.tolist())
    q = s["piles"]
    for g in range(scaled(200)):
        seed = ref.game_seed(3, g)
        kernel.set_up(s, g, np.uint64(seed))  # runs to the first decision (turn 1's surrender question)
        game = reference.game(3, g)
        game.deal_owned()
        assert game.start_battle()
        assert game.first_seat == s["meta"]["first_seat"] == s["meta"]["mover"], g
        for p in range(2):
            assert game.owned[p] == q["owned"][p, : q["owned_n"][p]].tolist(), (g, p)
            assert game.deck[p] == q["deck"][p, : q["deck_n"][p]].tolist(), (g, p)
            assert game.hand[p] == q["hand"][p, : q["hand_n"][p]].tolist(), (g, p)
        assert game.rng.lanes == [int(x) for x in s["scratch"]["rng"]], g  # every random number drawn alike


# -- 3. whole games: every named variant x bot pairings -------------------------------------------

PAIRINGS = {  # bots -> games per variant (the reference plays 100-2000 games/s; the tactician mirror ~100)
    ("random", "random"): 30,
    ("greedy", "greedy"): 40,
    ("tactician", "greedy"): 25,
    ("random", "tactician"): 25,
    ("greedy", "random"): 20,
    ("tactician", "tactician"): 6,
}
SLOW = {  # random mirrors that run ~900 turns a game (blessings protect before curses, R16), tactician stalls
    ("blessing_first", ("random", "random")): 6,
    ("fresh_hand_blessing_first", ("random", "random")): 6,
    ("first_reading", ("tactician", "tactician")): 3,  # 50 battles a game (RULES.md §9)
    ("fresh_hand", ("tactician", "tactician")): 3,
}
MATRIX = [
    pytest.param(v, bots, SLOW.get((v, bots), n), id=f"{v}-{bots[0]}-{bots[1]}")
    for v in GAME.variants
    for bots, n in PAIRINGS.items()
    if scaled(SLOW.get((v, bots), n)) > 0
]


@pytest.mark.parametrize(("variant", "bots", "n_games"), MATRIX)
def test_variant_games_agree(variant, bots, n_games):
    n_games = scaled(n_games)
    seed = 1000 + list(GAME.variants).index(variant) * 10 + list(PAIRINGS).index(bots)
    out, results = play_both(variant, None, bots, n_games, seed)
    assert_agree(out, results, n_games, f"{variant} {bots[0]}/{bots[1]} seed {seed}")


CASES = [  # (variant, overrides, bots, games, root seed): settings no named variant reaches
    ("modern", {"max_turns_per_battle": 7}, ("random", "tactician"), 40, 1),  # turn caps (drawn battles)
    ("no_surrender", {"max_turns_per_battle": 20}, ("greedy", "random"), 30, 2),
    ("modern", {"max_battles": 2}, ("tactician", "tactician"), 30, 3),  # battle cap
    ("first_reading", {"max_battles": 3}, ("tactician", "tactician"), 30, 4),  # battle cap, fresh hands
    ("modern", {"turn_draw": 1, "card_health": 13}, ("random", "greedy"), 40, 5),
    ("blessing_first", {"turn_draw": 3, "card_health": 25, "face_bonus": 2}, ("tactician", "greedy"), 30, 6),
    ("no_reshuffle", {"opening": "three_plus_two", "destroyed_cards": "recycle"}, ("random", "random"), 40, 7),
    ("no_reshuffle", {"surrender": "never"}, ("tactician", "random"), 30, 8),  # exhaustion, mutual too
    ("arranged_hands", {"open_hands": False, "face_bonus_seats": "seat_1"}, ("random", "tactician"), 30, 9),
    ("arranged_hands", {"pool_target": "fresh_hand", "deck_mode": "split_one_deck"}, ("tactician",) * 2, 10, 10),
    ("hidden_hands", {"blessing_before_curses": True, "face_bonus_seats": "seat_0"}, ("tactician", "greedy"), 30, 11),
    ("split_deck", {"opening": "three_plus_two", "surrender": "never"}, ("greedy", "tactician"), 30, 12),
    ("literal_recycle", {"surrender": "never", "max_turns_per_battle": 40}, ("greedy", "greedy"), 20, 13),
    ("turn_start_surrender", {"midbattle_reshuffle": False}, ("tactician", "greedy"), 30, 14),
    ("hidden_hands", {"surrender": "turn_start"}, ("tactician", "tactician"), 20, 15),
    # counterfactual card value (issue 9): both arms, both baselines, split and own decks
    ("split_deck", {"value_card": 7}, ("tactician", "greedy"), 30, 16),
    ("split_deck", {"value_card": 7, "value_swap": 1}, ("tactician", "greedy"), 30, 16),
    ("split_deck", {"value_card": 30, "value_swap": 1, "value_baseline": "next_suit"}, ("greedy", "random"), 30, 17),
    ("modern", {"value_card": 51, "value_swap": 1}, ("random", "tactician"), 30, 18),
    ("split_deck", {"value_card": 0, "value_swap": 1, "open_hands": False}, ("tactician", "tactician"), 20, 19),
]


@pytest.mark.parametrize(("variant", "overrides", "bots", "n_games", "seed"), [c for c in CASES if scaled(c[3]) > 0])
def test_parameter_settings_agree(variant, overrides, bots, n_games, seed):
    n_games = scaled(n_games)
    out, results = play_both(variant, overrides, bots, n_games, seed)
    assert_agree(out, results, n_games, f"{variant} {overrides} {bots[0]}/{bots[1]}")


@pytest.mark.parametrize(
    ("keep", "variant", "bots"),
    [
        (lambda t: t["suit"] != 2, "split_deck", ("random", "tactician")),  # 39 cards: an odd pool, one left out
        (lambda t: t["face"] == 1, "modern", ("random", "greedy")),  # Attack 0 only: the first-player coin (R5)
        (lambda t: np.arange(len(t)) % 4 == 1, "three_plus_two", ("tactician", "greedy")),  # 13 cards
    ],
    ids=["odd-pool-split", "faces-only", "thirteen-cards"],
)
def test_smaller_pools_agree(keep, variant, bots):
    n = scaled(30)
    pool = POOL.subset(keep(POOL.table))
    out, results = play_both(variant, None, bots, n, 21, pool=pool)
    assert_agree(out, results, n, f"{len(pool)}-card pool, {variant}")


def test_bots_agree_with_unusual_weights():
    """Heuristic choices hang on float comparisons: perturbed weights must give the same games."""
    pick = np.random.default_rng(5)
    n = scaled(25)
    for trial, (variant, bots) in enumerate(
        [("modern", ("tactician", "greedy")), ("blessing_first", ("tactician", "tactician")),
         ("hidden_hands", ("greedy", "tactician")), ("first_reading", ("random", "tactician")),
         ("turn_start_surrender", ("tactician", "greedy"))]
    ):  # fmt: skip
        base = np.stack([GAME.make_weights(b) for b in bots])
        weights = base * pick.uniform(0.3, 2.0, base.shape) * np.where(pick.random(base.shape) < 0.15, -1, 1)
        weights[:, 0] = pick.uniform(0.0, 0.3, 2)  # random bot's surrender rate
        weights[:, 6:14] += pick.uniform(0.0, 1.0, (2, 8))  # tactician-only weights, non-zero for greedy too
        out, results = play_both(variant, {"max_battles": 6}, bots, n, 40 + trial, weights=weights)
        assert_agree(out, results, n, f"{variant} {bots} weights {np.round(weights, 3).tolist()}")


ORDERS = [(0.0, 2.0), (1.0, 0.0), (2.0, 1.0), (1.5, -1.0)]  # each seat's ``order`` weight; 1.5 and -1 read as 1 and 0


@pytest.mark.parametrize("orders", ORDERS, ids=[f"{a:g}-{b:g}" for a, b in ORDERS])
@pytest.mark.parametrize("variant", ["modern", "blessing_first", "first_reading", "hidden_hands", "arranged_hands"])
def test_every_play_order_agrees(variant, orders):
    """R7: which card the heuristic bots play next (``next_card``), each ``order`` code, both bots in both seats."""
    n = scaled(20)
    seed = 60 + list(ORDERS).index(orders)
    for bots in (("tactician", "greedy"), ("greedy", "tactician")):
        weights = np.stack([GAME.make_weights(b, {"order": o}) for b, o in zip(bots, orders, strict=True)])
        out, results = play_both(variant, {"max_battles": 8}, bots, n, seed, weights=weights)
        assert_agree(out, results, n, f"{variant} {bots} orders {orders}")


# -- 4. the comparison can fail ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"face_bonus": 4},
        {"card_health": 21},
        {"blessing_before_curses": 1},
        {"turn_draw": 1},
        {"opening": ref.THREE_PLUS_TWO},
    ],
)
def test_a_changed_rule_makes_games_disagree(change):
    params = GAME.make_params("modern")
    rules = dataclasses.replace(ref.Rules.of(params), **change)
    n = scaled(40)
    out, results = play_both("modern", None, ("tactician", "greedy"), n, 1, rules=rules)
    bad, notes = mismatches(out, results)
    assert len(bad) >= max(1, n // 4), f"changing {change} changed only {len(bad)} of {n} games"
    assert notes[0].startswith(f"game {min(bad)}: ")


def test_the_reference_refuses_a_parameter_it_does_not_know():
    params = GAME.make_params("modern")._asdict()
    with pytest.raises(ValueError, match="new_rule"):
        ref.Rules.of({**params, "new_rule": 1})
