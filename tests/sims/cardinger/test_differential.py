"""Differential test: the Numba kernel against the pure-Python reference, game by game.

``benchmarks/cardinger_reference.py`` re-implements the Cardinger rules, and
``cardinger_reference_bots.py`` the ``random``, ``greedy`` and ``tuned`` bots, in plain
Python (its own RNG port, deck building, legal-action order and float arithmetic). Both
play the same seeded games; every column of every table (``games``, ``seats`` with deck
lists, ``cards``, ``turns``) must be equal, game by game.
"""

import dataclasses

import numba
import numpy as np
import pytest

import sims
from sims.cardinger import kernel
from sims.core import rng
from tests.sims.differential import load_reference

GAME = sims.load("cardinger")
TABLES = ("games", "seats", "cards", "turns")


def scaled(n: int) -> int:
    """Return ``n`` games, or a twentieth of them when the kernel runs interpreted (``make test-nojit``)."""
    return max(4, n // 20) if numba.config.DISABLE_JIT else n


ref = load_reference("cardinger_reference")


def inputs(variant: str, overrides: dict | None, bots: tuple[str, str], deck_seed: int = 0):
    """Return (params, pool, decks, bot ids, weights) as ``balance.spec.resolve`` builds them."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), dtype=np.int16)
    if params.deck_builder == ref.FIXED:  # two random fixed decks of distinct cards
        pick = np.random.default_rng(deck_seed)
        printed = np.flatnonzero(pool.table["set"] != 0)  # not the value baseline's blank row
        decks = np.stack([pick.choice(printed, params.deck_size, replace=False) for _ in range(2)]).astype(np.int16)
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return params, pool, decks, bot_ids, weights


def mismatches(kernel_out: dict, results: list[dict], limit: int = 5) -> tuple[set[int], list[str]]:
    """Return (games that differ, descriptions of the first ``limit`` differences) over all tables."""
    rows = ref.to_rows(results)
    bad: set[int] = set()
    notes: list[str] = []
    for table in TABLES:
        k_rows, r_rows = kernel_out[table], rows[table]
        if len(k_rows) != len(r_rows):
            notes.append(f"{table}: {len(k_rows)} kernel rows, {len(r_rows)} reference rows")
            bad.add(-1)
            continue
        unchecked = set(k_rows.dtype.names) - set(r_rows[0] if r_rows else k_rows.dtype.names)
        assert not unchecked, f"{table}: kernel columns the reference does not produce: {sorted(unchecked)}"
        for k_row, r_row in zip(k_rows, r_rows, strict=True):
            for key, value in r_row.items():
                got = [int(c) for c in k_row[key] if c >= 0] if key == "deck" else k_row[key].item()
                if got != value:
                    bad.add(int(k_row["game"]))
                    if len(notes) < limit:
                        notes.append(f"{table} game {k_row['game']} {key}: kernel {got!r}, reference {value!r}")
                    break
    return bad, notes


def play_both(variant, overrides, bots, n_games, seed, deck_seed=0, rules=None):
    """Play games ``0 .. n_games-1`` with both implementations; return (kernel tables, reference results)."""
    params, pool, decks, bot_ids, weights = inputs(variant, overrides, bots, deck_seed)
    out = GAME.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, n_games, TABLES)
    reference = ref.Reference(rules or params, pool, bots, weights.tolist(), decks.tolist())
    return out, [reference.play(seed, g, TABLES) for g in range(n_games)]


# -- 1. the RNG port ----------------------------------------------------------------------


def test_rng_port_is_bit_exact():
    port = load_reference("reference_rng")  # shared by the three references
    for z in (0, 1, 12345, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15):
        assert port.mix64(z) == int(rng.mix64(np.uint64(z)))
    for root in (0, 1, 7, 2**32 + 3, 2**64 - 1):
        for g in (0, 1, 2, 999, 123_456_789):
            seed = ref.game_seed(root, g)
            assert seed == int(rng.game_seed(np.uint64(root), g))
            lanes = np.zeros(ref.N_LANES, dtype=np.uint64)
            rng.seed_lanes(lanes, np.uint64(seed))
            mine = ref.Rng(seed, ref.N_LANES)
            assert mine.lanes == [int(x) for x in lanes]
            for k, n in enumerate((1, 2, 3, 7, 20, 74, 1000, 2**31 - 1)):
                lane = k % ref.N_LANES
                assert mine.randint(lane, n) == rng.randint(lanes, lane, n)
                assert mine.next_u64(lane) == int(rng.next_u64(lanes, lane))
            for n in (0, 1, 2, 5, 20, 40):
                items = np.arange(n, dtype=np.int16)
                rng.shuffle(items, n, lanes, 1)
                mine_items = list(range(n))
                mine.shuffle(mine_items, 1)
                assert mine_items == items.tolist()
            assert mine.lanes == [int(x) for x in lanes]


# -- 2. set-up: first seat, deck building, shuffles, opening hands -----------------------------


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("modern", None),
        ("shared_set", None),
        ("starter_pool", None),
        ("uniform_decks", None),
        ("with_gun_imp", None),
        ("shared_set", {"card_sets": "starter,booster1", "deck_size": 15}),
        ("modern", {"first_seat": "alternate", "builder_cost_target": 30}),
        ("modern", {"value_card": 9}),  # balance value arms (RULES.md §10)
        ("modern", {"value_card": 9, "value_swap": 1}),
        ("modern", {"value_card": 70, "value_swap": 1, "value_baseline": "blank"}),
        ("shared_set", {"value_card": 3, "value_swap": 1}),
        ("uniform_decks", {"value_card": 40, "value_swap": 1}),
    ],
)
def test_set_up_agrees(variant, overrides):
    params, pool, decks, _, weights = inputs(variant, overrides, ("greedy", "greedy"))
    state = kernel.prepare(pool.table, params, weights, 0)
    s = state[0]
    reference = ref.Reference(params, pool, ("greedy", "greedy"), weights.tolist())
    size = params.deck_size
    for g in range(scaled(400)):
        seed = ref.game_seed(11, g)
        kernel.set_up(s, decks, g, np.uint64(seed))
        game = ref.Game(reference, g, seed)
        game.set_up(None)
        assert game.first_seat == s["meta"]["first_seat"], g
        for p in range(2):
            assert game.built[p] == s["piles"]["built"][p, :size].tolist(), (g, p)
            assert game.deck[p] == s["piles"]["deck"][p, : s["piles"]["deck_n"][p]].tolist(), (g, p)
            assert game.hand[p] == s["piles"]["hand"][p, : s["piles"]["hand_n"][p]].tolist(), (g, p)
        assert game.plays_left == s["meta"]["plays_left"]


# -- 3. whole games ------------------------------------------------------------------------------

CASES = [  # (variant, overrides, bots, games, root seed)
    ("modern", None, ("greedy", "greedy"), 300, 1),
    ("modern", None, ("random", "random"), 200, 2),
    ("modern", None, ("greedy", "random"), 50, 3),
    ("modern", None, ("random", "greedy"), 50, 4),
    ("digital", None, ("greedy", "greedy"), 50, 5),
    ("digital", None, ("random", "random"), 50, 6),
    ("shared_set", None, ("greedy", "random"), 40, 7),
    ("starter_pool", None, ("greedy", "greedy"), 40, 8),
    ("uniform_decks", None, ("random", "greedy"), 40, 9),
    ("with_gun_imp", None, ("greedy", "greedy"), 40, 10),
    ("modern", {"deck_builder": "fixed"}, ("greedy", "random"), 40, 11),
    ("modern", {"max_turns": 30}, ("random", "random"), 40, 12),  # timeouts
    ("modern", {"first_seat": "alternate", "play_limit": "unlimited", "first_turn_draw": 1}, ("greedy",) * 2, 40, 13),
    ("modern", {"idle_extra_draw": False, "replenish_point": 0, "prosperity_step": 2}, ("random", "greedy"), 40, 14),
    ("modern", {"hand_limit": 7, "field_limit": 3, "devour_hp_cap": 2}, ("random", "random"), 40, 15),
    ("digital", {"deck_size": 12, "opening_hand": 6, "target_score": 30}, ("greedy", "random"), 40, 16),
    ("modern", None, ("tuned", "tuned"), 150, 17),
    ("modern", None, ("tuned", "greedy"), 60, 18),
    ("modern", None, ("random", "tuned"), 40, 19),
    ("modern", {"prosperity_gain": "second_gain"}, ("greedy", "tuned"), 60, 20),
    ("modern", {"prosperity_step": 2, "hand_limit": 8}, ("tuned", "greedy"), 60, 21),  # PROSPERITY everywhere
    ("uniform_decks", {"first_turn_draw": 1}, ("greedy", "tuned"), 40, 22),  # cost-8 cards: long discards
    ("modern", {"value_card": 9}, ("greedy", "greedy"), 40, 23),  # balance value arms
    ("modern", {"value_card": 9, "value_swap": 1}, ("greedy", "greedy"), 40, 23),
    ("modern", {"value_card": 33, "value_swap": 1, "value_baseline": "blank"}, ("random", "greedy"), 40, 24),
    ("shared_set", {"value_card": 3, "value_swap": 1}, ("greedy", "random"), 30, 25),
    ("modern", {"deck_builder": "fixed", "value_card": 5, "value_swap": 1}, ("greedy", "greedy"), 30, 26),
    ("with_gun_imp", {"value_card": 21, "value_swap": 1}, ("greedy", "greedy"), 30, 27),
]


@pytest.mark.parametrize(("variant", "overrides", "bots", "n_games", "seed"), CASES)
def test_games_agree_game_by_game(variant, overrides, bots, n_games, seed):
    n_games = scaled(n_games)
    out, results = play_both(variant, overrides, bots, n_games, seed)
    bad, notes = mismatches(out, results)
    assert not bad, f"{len(bad)} of {n_games} games differ:\n" + "\n".join(notes)
    assert len(out["games"]) == n_games
    assert len(out["turns"]) == sum(r["turns"] for r in results)  # every turn row compared


@pytest.mark.parametrize("bot", ["greedy", "tuned"])
def test_heuristic_bots_agree_with_unusual_weights(bot):
    """Bot decisions hang on float comparisons: perturbed weights (some negated) must give the same games."""
    params, pool, decks, bot_ids, base = inputs("modern", None, (bot, bot))
    pick = np.random.default_rng(3)
    n = scaled(60)
    for trial in range(4):
        weights = base * pick.uniform(0.3, 2.0, base.shape) * np.where(pick.random(base.shape) < 0.15, -1, 1)
        weights[:, -1] += pick.uniform(0.0, 0.5, 2)  # ``discard`` is 0 for tuned: give it a value to perturb
        out = GAME.play_chunk(params, pool, decks, bot_ids, weights, 20 + trial, 0, n, TABLES)
        reference = ref.Reference(params, pool, (bot, bot), weights.tolist())
        bad, notes = mismatches(out, [reference.play(20 + trial, g, TABLES) for g in range(n)])
        assert not bad, f"weights {weights.tolist()}: {len(bad)} games differ:\n" + "\n".join(notes)


# -- 4. the comparison can fail -------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [{"target_score": 19}, {"replenish_point": 0}, {"idle_extra_draw": 0}, {"replenish_timing": 1}],
)
def test_a_changed_rule_makes_games_disagree(change):
    params = GAME.make_params("modern")
    rules = dataclasses.replace(ref.Rules.of(params), **change)
    n = scaled(60)
    out, results = play_both("modern", None, ("greedy", "greedy"), n, 1, rules=rules)
    bad, _ = mismatches(out, results)
    assert len(bad) >= n // 3, f"changing {change} changed only {len(bad)} of {n} games"


@pytest.mark.parametrize(
    ("bot", "part", "blind"),
    [
        ("greedy", "prosperity_outlook", lambda original: lambda *a: (0, 0)),  # PROSPERITY-blind plays and draws
        ("greedy", "discard_value", lambda original: lambda *a: 0.0),  # every discard priced alike
        ("greedy", "best_attack", lambda original: lambda *a: (*original(*a)[:2], -1, -np.inf)),  # DOUBLE as one
        ("tuned", "self_change", lambda original: lambda *a: 0.0),  # DEVOUR, DECAY and FRAGILE ignored
    ],
)
def test_a_blind_reference_bot_makes_games_disagree(monkeypatch, bot, part, blind):
    bots_ref = load_reference("cardinger_reference_bots")
    monkeypatch.setattr(bots_ref, part, blind(getattr(bots_ref, part)))
    n = scaled(60)
    out, results = play_both("modern", None, (bot, bot), n, 1)
    bad, _ = mismatches(out, results)
    assert len(bad) >= n // 5, f"a reference {bot} without {part} changed only {len(bad)} of {n} games"


def test_the_second_gain_reading_changes_final_scores_only():
    n = max(40, scaled(400))  # 27 of the 400 games differ, the first is game 25: 20 interpreted games had none
    old_reading = ref.Rules(prosperity_gain=ref.SECOND_GAIN)
    out, results = play_both("modern", None, ("greedy", "greedy"), n, 1, rules=old_reading)
    bad, _ = mismatches(out, results)
    assert bad, f"no game of {n} ended on a PROSPERITY score with a bonus"
    assert [r["winner"] for r in results] == out["games"]["winner"].tolist()
    assert [r["turns"] for r in results] == out["games"]["turns"].tolist()
