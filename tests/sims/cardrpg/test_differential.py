"""Differential test: the Numba CardRPG Advanced kernel against the pure-Python reference, session by session.

``benchmarks/cardrpg_reference.py`` re-implements the rules and the ``random``, ``greedy``
and ``planner`` bots in plain Python (the Cardinger reference's RNG port with six lanes,
its own piles, the same phase machine and float arithmetic). Both play the same seeded
characters; every column of every table (``games``, ``seats``, ``cards``, ``turns``) must
be equal, session by session, for every runnable named variant x every bot, plus parameter
settings no variant reaches, smaller decks and perturbed bot weights.

A kernel "game" is a character: ``n_sessions`` ``games`` rows with ids
``character * n_sessions + session``. Mismatches name the session, the table, the row
within the session, the column and both values.
"""

import dataclasses
from collections import deque

import numba
import numpy as np
import pytest

import sims
from sims.cardrpg import bots, kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import (
    GAME_DTYPE,
    N_LANES,
    RING,
    TURN_DTYPE,
    ActionKind,
    EndReason,
    Kind,
    Lane,
    Outcome,
    Phase,
    encode,
)
from sims.core import rng
from tests.sims.differential import load_reference
from tests.sims.differential import mismatches as table_mismatches

GAME = sims.load("cardrpg")
TABLES = ("games", "seats", "cards", "turns")
POOL = GAME.load_pool(GAME.cards_path)
BOTS = GAME.bots  # random, greedy, planner
RUNNABLE = [name for name, v in GAME.variants.items() if v.runnable]


def scaled(n: int) -> int:
    """Return ``n`` characters, or a twentieth of them when the kernel runs interpreted (``make test-nojit``)."""
    return max(1, n // 20) if numba.config.DISABLE_JIT else n


ref = load_reference("cardrpg_reference")


def inputs(variant: str, overrides: dict | None, bot: str, weights=None, pool=POOL):
    """Return (params, pool, decks, bot ids, weights) as ``balance.spec.resolve`` builds them for one seat."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(pool, params)
    decks = np.zeros((1, 0), dtype=np.int16)  # unused: the deck is the whole pool
    bot_ids = np.array([BOTS.index(bot)], dtype=np.int64)
    if weights is None:
        weights = GAME.make_weights(bot)[None, :]
    return params, pool, decks, bot_ids, weights


def play_both(variant, overrides, bot, n_chars, seed, *, weights=None, pool=POOL, rules=None):
    """Play characters ``0 .. n_chars-1`` with both implementations; return (kernel tables, reference results)."""
    params, pool, decks, bot_ids, weights = inputs(variant, overrides, bot, weights, pool)
    out = GAME.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, n_chars, TABLES)
    reference = ref.Reference(rules or params, pool, bot, weights.tolist())
    return out, [reference.play(seed, g, TABLES) for g in range(n_chars)]


def mismatches(kernel_out: dict, results: list[dict], limit: int = 6) -> tuple[set[int], list[str]]:
    """Return (sessions that differ, notes on the first ``limit``): see ``tests/sims/differential.py``."""
    n_sessions = len(results[0]["game_ids"]) if results else 1
    return table_mismatches(
        kernel_out, ref.to_rows(results), TABLES, lambda g: f"session {g} (character {g // max(1, n_sessions)})", limit
    )


def assert_agree(out: dict, results: list[dict], n_chars: int, what: str) -> None:
    """Fail with the first differing sessions (table, row, column, both values) if any session differs."""
    bad, notes = mismatches(out, results)
    n_games = sum(len(r["game_ids"]) for r in results)
    assert not bad, f"{what}: {len(bad)} of {n_games} sessions differ; first:\n  " + "\n  ".join(notes)
    assert len(results) == n_chars
    assert len(out["games"]) == n_games
    assert len(out["turns"]) == sum(len(r["rows"]["turns"]) for r in results)  # every battle row compared
    assert len(out["turns"]) == int(out["games"]["battles"].sum())


# -- 1. the RNG port with six lanes ----------------------------------------------------------------


def test_rng_port_with_six_lanes_is_bit_exact():
    assert N_LANES == ref.N_LANES == 6
    lanes_ref = (ref.LANE_SETUP, ref.LANE_SHUFFLE, ref.LANE_DICE, ref.LANE_THEFT, ref.LANE_BOT, ref.LANE_SPARE)
    assert lanes_ref == tuple(int(lane) for lane in Lane)
    for root in (0, 1, 2**64 - 1):
        for g in (0, 11, 123_456):
            seed = ref.game_seed(root, g)
            assert seed == int(rng.game_seed(np.uint64(root), g))
            lanes = np.zeros(N_LANES, dtype=np.uint64)
            rng.seed_lanes(lanes, np.uint64(seed))
            mine = ref.Rng(seed, ref.N_LANES)
            assert mine.lanes == [int(x) for x in lanes]
            for lane in range(N_LANES):
                assert mine.randint(lane, 6) == rng.randint(lanes, lane, 6)
                assert mine.randint(lane, 100) == rng.randint(lanes, lane, 100)
                items = np.arange(53, dtype=np.int16)
                rng.shuffle(items, 53, lanes, lane)
                mine_items = list(range(53))
                mine.shuffle(mine_items, lane)
                assert mine_items == items.tolist()
            assert mine.lanes == [int(x) for x in lanes]


# -- 2. character creation and the first battle's set-up ------------------------------------------


@pytest.mark.parametrize("variant", ["advanced", "diceless", "diceless_special", "preset_hp", "classic"])
def test_creation_and_first_battle_agree(variant):
    """Up to the first decision: class, STR/HP rolls, the session shuffle and deal, the monster, its HP."""
    params, pool, _, bot_ids, weights = inputs(variant, None, "greedy")
    state = kernel.prepare(pool.table, params, weights, 0)
    s = state[0]
    s["meta"]["bot"] = bot_ids[0]
    reference = ref.Reference(params, pool, "greedy", weights.tolist())
    q, h = s["piles"], s["hero"]
    for g in range(scaled(120)):
        seed = ref.game_seed(5, g)
        assert kernel.set_up(s, g, np.uint64(seed))  # runs to the first decision
        ch = reference.character(5, g)
        assert ch.create_character()
        ch.start_session()
        ch.advance()
        hero = (ch.class_card, ch.class_id, ch.level, ch.str, ch.hp_max, ch.hp, ch.xp, ch.gold)
        fields = ("class_card", "class_id", "level", "str", "hp_max", "hp", "xp", "gold")
        assert hero == tuple(int(h[f]) for f in fields), g
        lo, n = int(q["draw_lo"]), int(q["draw_n"])
        assert list(ch.draw) == [int(q["draw"][(lo + k) % RING]) for k in range(n)], g  # bottom first
        assert ch.hand == q["hand"][: q["hand_n"]].tolist(), g
        assert ch.mpile == q["mpile"][: q["mpile_n"]].tolist(), g
        assert ch.bonus == q["bonus"][: q["bonus_n"]].tolist(), g
        assert (ch.mcard, ch.mhp, ch.mxp) == (
            int(s["monster"]["card"]),
            int(s["monster"]["hp"]),
            int(s["monster"]["xp"]),
        )
        assert ch.phase == int(s["meta"]["phase"]), g
        assert ch.rng.lanes == [int(x) for x in s["scratch"]["rng"]], g  # every random number drawn alike


# -- 3. whole characters: every runnable named variant x every bot -----------------------------------

CHARACTERS = 40  # per variant and bot: ~1,500 sessions in all (campaign: 10 sessions a character)
FEWER = {"modern": 15, "campaign": 8}  # modern is an alias of advanced


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("variant", RUNNABLE)
def test_variant_sessions_agree(variant, bot):
    n = scaled(FEWER.get(variant, CHARACTERS))
    seed = 2000 + RUNNABLE.index(variant) * 10 + BOTS.index(bot)
    out, results = play_both(variant, None, bot, n, seed)
    assert_agree(out, results, n, f"{variant} {bot} seed {seed}")


def test_every_variant_and_bot_is_covered():
    assert set(BOTS) == set(ref.BOTS)
    assert "classic" in RUNNABLE or not GAME.variants["classic"].runnable
    assert len(RUNNABLE) * len(BOTS) >= 30


CASES = [  # (variant, overrides, characters, root seed): settings no named variant reaches; every bot plays each
    ("advanced", {"face_combo": "any_face"}, 30, 1),
    ("advanced", {"random_attack_joker": "no_damage"}, 30, 2),
    ("advanced", {"both_out": "forfeit"}, 30, 3),
    ("adventure", {"both_out": "forfeit", "hand_refill": "both_out_only"}, 30, 4),  # forfeit_one_life
    ("advanced", {"theft_chance_pct": 50}, 30, 5),
    ("advanced", {"affinity_includes_aces": True}, 30, 6),
    ("advanced", {"buyback_destination": "draw_pile_bottom"}, 30, 7),
    ("advanced", {"ace_diamond_buybacks": 0}, 30, 8),
    ("advanced", {"ace_diamond_buybacks": 2}, 30, 9),
    ("campaign", {"xp_overflow": "carry", "n_sessions": 4}, 10, 10),
    ("advanced", {"hand_refill": "both_out_only"}, 30, 11),
    ("advanced", {"hp_reset": "never"}, 30, 12),
    ("advanced", {"class_card": "diamond_queen"}, 30, 13),  # a fixed class: selling, Diamonds, Queen's XP
    ("campaign", {"class_card": "spade_king", "n_sessions": 3}, 8, 14),  # King keeps his hand; spade affinity
    ("advanced", {"max_battles": 4}, 30, 15),  # battle_cap
    ("diceless", {"n_sessions": 3, "max_battles": 40, "xp_overflow": "carry"}, 10, 16),
    ("diceless_special", {"monster_hp": "preset", "theft_chance_pct": 0}, 30, 17),
    ("classic", {"dice": "cards"}, 30, 18),
    ("advanced", {"class_ranks": "jqka", "stat_roll": "d6_reroll_low"}, 30, 19),  # Ace classes with Advanced powers
    ("advanced", {"ace_club_set": "whole_hand"}, 30, 20),  # rules_version 1's readings one by one (RULES.md §7)
    ("advanced", {"empty_hand": "lose_turn"}, 30, 21),
    ("advanced", {"both_out_order": "first_striker", "hand_refill": "both_out_only"}, 30, 22),  # both out often
    ("advanced", {"jack_draws": "both_or_none", "class_card": "club_jack"}, 30, 23),
]


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(("variant", "overrides", "n_chars", "seed"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_parameter_settings_agree(variant, overrides, n_chars, seed, bot):
    n = scaled(n_chars)
    out, results = play_both(variant, overrides, bot, n, seed)
    assert_agree(out, results, n, f"{variant} {overrides} {bot}")


@pytest.mark.parametrize(
    ("keep", "variant", "overrides"),
    [
        (lambda t: t["kind"] != Kind.NUMBER, "advanced", None),  # faces, Aces, Jokers: random attacks only
        (lambda t: t["kind"] != Kind.NUMBER, "diceless", None),  # dice from J/Q/A only, Kings redrawn
        (lambda t: (t["value"] >= 6) | (t["kind"] != Kind.NUMBER), "advanced", {"hp_reset": "never"}),
        (lambda t: (t["suit"] != 2) | (t["kind"] != Kind.NUMBER), "campaign", {"n_sessions": 3}),  # no Diamond gold
    ],
    ids=["no-numbers", "no-numbers-diceless", "high-numbers", "no-diamond-numbers"],
)
@pytest.mark.parametrize("bot", BOTS)
def test_smaller_decks_agree(keep, variant, overrides, bot):
    n = scaled(20)
    pool = POOL.subset(keep(POOL.table))
    out, results = play_both(variant, overrides, bot, n, 21, pool=pool)
    assert_agree(out, results, n, f"{len(pool)}-card deck, {variant} {overrides} {bot}")


def test_bots_agree_with_unusual_weights():
    """Heuristic choices hang on float comparisons: perturbed weights (quitting included) must give the same games."""
    pick = np.random.default_rng(5)
    n = scaled(25)
    for trial, (variant, bot) in enumerate(
        [("advanced", "greedy"), ("advanced", "planner"), ("campaign", "planner"), ("diceless", "greedy"),
         ("preset_hp", "planner"), ("classic", "greedy")]
    ):  # fmt: skip
        base = GAME.make_weights(bot)
        w = base * pick.uniform(0.3, 1.7, base.shape)
        w[0] = pick.uniform(0.0, 12.0)  # face_value: >= 0, so the best combo always exists
        w[5] = pick.uniform(0.0, 1.2)  # keep_hand
        w[7] = pick.choice([0.0, pick.uniform(2.0, 20.0)])  # quit_pile: voluntary ends
        overrides = {"n_sessions": 3} if variant == "campaign" else None
        out, results = play_both(variant, overrides, bot, n, 40 + trial, weights=w[None, :])
        assert_agree(out, results, n, f"{variant} {bot} weights {np.round(w, 3).tolist()}")


@pytest.mark.slow  # 2,000 kernel characters: skipped by make test-nojit
def test_the_settings_reach_every_way_a_session_and_a_battle_ends():
    """The settings compared above end sessions and battles in every way they can (the test is not vacuous).

    ``draw_failed_inventory`` is left out: a victory first puts the cards in play and the
    rest of the attack pile under the draw pile, so the victory draws almost never fail.
    """
    quitter = GAME.make_weights("greedy", {"quit_pile": 15.0})[None, :]
    runs = [
        ("advanced", None, "random", None),
        ("adventure", {"both_out": "forfeit", "hand_refill": "both_out_only"}, "random", None),
        ("diceless", None, "planner", None),
        ("advanced", {"max_battles": 4}, "greedy", None),
        ("advanced", None, "greedy", quitter),
    ]
    reasons, outcomes = set(), set()
    for variant, overrides, bot, weights in runs:
        params, pool, decks, bot_ids, weights = inputs(variant, overrides, bot, weights)
        out = GAME.play_chunk(params, pool, decks, bot_ids, weights, 3, 0, scaled(400), ("games", "turns"))
        reasons |= set(out["games"]["end_reason"].tolist())
        outcomes |= set(out["turns"]["outcome"].tolist())
    assert outcomes == {int(o) for o in Outcome}
    expected = {int(r) for r in EndReason} - {EndReason.DRAW_FAILED_INVENTORY}
    assert expected <= reasons, sorted(EndReason(r).name for r in expected - reasons)


# -- 4. hand-built positions: what seeded sessions (almost) never reach ----------------------------------

IDS = {name: c for c, name in enumerate(POOL.names)}


def load_character(reference, s):
    """Return a reference ``Character`` holding the kernel state ``s`` (zones, stats, tallies, RNG lanes)."""
    m, h, mon, q, t = s["meta"], s["hero"], s["monster"], s["piles"], s["tally"]
    ch = ref.Character(reference, int(m["character"]), int(m["seed"]))
    ch.rng.lanes = [int(x) for x in s["scratch"]["rng"]]
    q = s["piles"]
    meta = ("game", "session", "battle", "exchange", "phase", "end_reason", "sick", "kept_hand", "jack_first")
    for name in (*meta, "attacks_left", "attacks_made", "luck_used", "revealed"):
        setattr(ch, name, int(m[name]))
    ch.blitz, ch.blitz_n = [int(x) for x in q["blitz"]], int(q["blitz_n"])
    for name in ("class_card", "class_id", "rank", "suit", "level", "str", "hp_max", "hp", "xp", "gold"):
        setattr(ch, name, int(h[name]))
    ch.mcard, ch.mkind, ch.mhp, ch.mhp_start, ch.mxp = (int(mon[f]) for f in ("card", "kind", "hp", "hp_start", "xp"))
    lo, n = int(q["draw_lo"]), int(q["draw_n"])
    ch.draw = deque(int(q["draw"][(lo + k) % RING]) for k in range(n))
    ch.hand, ch.inv = q["hand"][: q["hand_n"]].tolist(), q["inv"][: q["inv_n"]].tolist()
    ch.discard, ch.bonus = q["discard"][: q["discard_n"]].tolist(), q["bonus"][: q["bonus_n"]].tolist()
    ch.mpile, ch.play_pile = q["mpile"][: q["mpile_n"]].tolist(), q["play"][: q["play_n"]].tolist()
    ch.bone = list(zip(q["bone"][: q["bone_n"]].tolist(), q["bone_up"][: q["bone_n"]].tolist(), strict=True))
    ch.g = dict(zip(GAME_DTYPE.names, t["game"].tolist(), strict=True))
    ch.st = {name: int(t["seat"][name]) for name in ref.SEAT_COUNTERS}
    ch.touched = {}
    for c in np.flatnonzero(t["touched"][: len(POOL)]).tolist():
        ch.touched[c] = cs = ref.CardStats()
        for name in ref.CARD_COUNTERS:
            setattr(cs, name, int(t["cards"][c][name]))
    ch.battle_rows = [dict(zip(TURN_DTYPE.names, row, strict=True)) for row in t["battles"][: t["n_battles"]].tolist()]
    ch.row = ch.battle_rows[int(t["row"])] if ch.battle_rows else {}
    return ch


def kernel_tables(s) -> dict:
    """Return the character's finished rows held in the kernel state ``s``, as ``play_chunk`` would."""
    t = s["tally"]
    return {
        "games": t["games"][: t["n_sessions"]].copy(),
        "seats": t["seats"][: t["n_sessions"]].copy(),
        "cards": t["card_rows"][: t["n_card_rows"]].copy(),
        "turns": t["battles"][: t["n_battles"]].copy(),
    }


@pytest.mark.parametrize(
    ("dice", "draws", "reason", "level"),
    [
        ("d6", "both_or_none", EndReason.DRAW_FAILED_INVENTORY, 2),
        ("cards", "both_or_none", EndReason.DRAW_FAILED_INVENTORY, 1),
        ("d6", "one_at_a_time", EndReason.DRAW_FAILED_HAND, 2),
        ("cards", "one_at_a_time", EndReason.DRAW_FAILED_DICE, 1),
    ],
)
def test_a_victory_draw_from_a_one_card_pile_agrees(dice, draws, reason, level):
    """A Jack kills with a Spade; the cards in play go under the pile: one card (a King) is left to draw (R16, Q9).

    ``both_or_none``: his two victory cards cannot be drawn; the kill stands and the
    level-up check still runs: a d6 levels him up; a card die finds only the King (drawn
    again, R20), fails, and the first reason, ``draw_failed_inventory``, stands.
    ``one_at_a_time`` (R13): the King is drawn, goes under the pile and is drawn again; the
    session goes on until the level-up's card die or the next hand refill fails.
    """
    overrides = {"class_card": "spade_jack", "dice": dice, "jack_draws": draws}
    params, pool, _, bot_ids, weights = inputs("advanced", overrides, "greedy")
    state = kernel.prepare(pool.table, params, weights, 0)
    s = state[0]
    s["meta"]["bot"] = bot_ids[0]
    assert kernel.set_up(s, 0, np.uint64(ref.game_seed(9, 0)))  # a real first battle, then rebuilt by hand
    q, h, mon, m = s["piles"], s["hero"], s["monster"], s["meta"]
    monster, spade, king = IDS["club:5"], IDS["spade:4"], IDS["heart:king"]
    rest = [c for c in range(len(POOL)) if c not in (monster, spade, king, int(h["class_id"]))]
    q["draw_n"] = q["hand_n"] = q["bonus_n"] = q["mpile_n"] = q["bone_n"] = 0
    q["inv"][0], q["inv_n"] = spade, 1
    q["play"][0], q["play_n"] = king, 1  # the monster's last attack: a chain cut short
    q["discard"][: len(rest)], q["discard_n"] = rest, len(rest)
    mon["card"], mon["kind"], mon["hp"], mon["hp_start"], mon["xp"] = monster, 0, 1, 4, 5
    h["level"], h["xp"] = 1, 9
    m["phase"], m["attacks_left"], m["attacks_made"] = Phase.PLAYER, 1, 0
    assert kernel.conserved(s)
    ch = load_character(ref.Reference(params, pool, "greedy", weights.tolist()), s)

    kernel.apply_action(s, encode(ActionKind.SPADE, 0, 0))
    while s["meta"]["phase"] != Phase.OVER:  # kernel.play_character's loop
        kernel.apply_action(s, bots.choose(bot_ids[0], s))
    ch.apply_action((ref.SPADE_ACT, 0, 0))
    while ch.phase != ref.OVER:
        ch.apply_action(ch.ref.bot_func(ch))

    out = kernel_tables(s)
    assert out["games"]["end_reason"].tolist() == [reason]
    assert out["games"][["level_end", "draw_pile_left", "kills"]].tolist() == [(level, 1, 1)]
    assert out["turns"]["outcome"][-1] == Outcome.WON
    assert_agree(out, [ch.result()], 1, f"a victory draw from a one-card pile, dice {dice}, {draws}")


HAND_BUILT = {  # name -> (params, conftest make_state keywords): the revised readings (RULES.md §7) at work
    "empty_hand_with_gold": (
        Params(),
        {"gold": 2, "monster": "club:10", "monster_hp": 20, "mpile": ("heart:3", "spade:4"),
         "discard": ("heart:9", "club:8"), "rest": "draw", "phase": Phase.MONSTER},
    ),
    "jack_both_out": (Params(), {"monster": "heart:jack", "monster_hp": 30, "rest": "draw", "phase": Phase.MONSTER}),
    "jack_victory_one_card": (
        Params(),
        {"hero": "spade:jack", "hand": ("club:4",), "inv": ("spade:9",), "monster": "club:10", "monster_hp": 9,
         "draw": ("club:7",)},
    ),
    "blitz": (
        Params(),
        {"hand": ("spade:10", "heart:9", "diamond:3"), "inv": ("club:ace",), "monster": "heart:king",
         "monster_hp": 13, "rest": "draw"},
    ),
    "luck_gem": (
        Params(),
        {"inv": ("diamond:ace",), "hand": ("spade:2",), "discard": ("heart:9", "club:8", "spade:7", "heart:10"),
         "rest": "draw"},
    ),
}  # fmt: skip
READINGS = {  # name -> (reference rule change back to rules_version 1, the position it shows in, the bot)
    "empty_hand": ({"empty_hand": ref.LOSE_TURN}, "empty_hand_with_gold", "greedy"),
    "both_out_order": ({"both_out_order": ref.FIRST_STRIKER}, "jack_both_out", "greedy"),
    "jack_draws": ({"jack_draws": ref.BOTH_OR_NONE}, "jack_victory_one_card", "greedy"),
    "ace_club_set": ({"ace_club_set": ref.WHOLE_HAND_SET}, "blitz", "planner"),
    "ace_diamond_buybacks": ({"ace_diamond_buybacks": 1}, "luck_gem", "greedy"),
}


def play_position(rpg, name: str, bot: str, change: dict | None = None) -> tuple[dict, dict]:
    """Play a ``HAND_BUILT`` position to the end with both implementations; return (kernel tables, reference result).

    ``change`` alters the reference's rules (the kernel keeps the position's).
    """
    params, kw = HAND_BUILT[name]
    _state, s = rpg.make_state(params, bot=bot, log=False, **kw)  # _state keeps s alive
    st = s["tally"]["seat"]  # the seats row as start_session begins it
    st["bot"], st["class_card"] = BOTS.index(bot), s["hero"]["class_card"]
    weights = GAME.make_weights(bot)[None, :]
    rules = dataclasses.replace(ref.Rules.of(params), **(change or {}))
    ch = load_character(ref.Reference(rules, POOL, bot, weights.tolist()), s)
    b = BOTS.index(bot)
    kernel.advance(s)
    while s["meta"]["phase"] != Phase.OVER:  # kernel.play_character's loop
        s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
        kernel.apply_action(s, bots.choose(b, s))
    ch.advance()
    while ch.phase != ref.OVER:
        ch.apply_action(ch.ref.bot_func(ch))
    return kernel_tables(s), ch.result()


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("name", HAND_BUILT)
def test_hand_built_positions_of_the_revised_readings_agree(rpg, name, bot):
    out, result = play_position(rpg, name, bot)
    assert_agree(out, [result], 1, f"position {name}, {bot}")


@pytest.mark.parametrize("reading", READINGS)
def test_the_reference_follows_each_revised_reading(rpg, reading):
    """Put rules_version 1's reading back in the reference only: the position where it matters disagrees."""
    change, name, bot = READINGS[reading]
    out, result = play_position(rpg, name, bot, change)
    bad, _ = mismatches(out, [result])
    assert bad, f"the reference with {change} still agrees on {name}"


# -- 5. the comparison can fail ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"hp_reset": ref.NEVER_RESET},
        {"face_combo": ref.ANY_FACE},
        {"theft_chance_pct": 60},
        {"affinity_includes_aces": 1},
        {"buyback_destination": ref.TO_DRAW_PILE_BOTTOM},
        {"class_powers": 0},
        {"max_battles": 6},
    ],
)
def test_a_changed_rule_makes_sessions_disagree(change):
    params = GAME.make_params("advanced")
    rules = dataclasses.replace(ref.Rules.of(params), **change)
    n = max(10, scaled(40))  # interpreted: 10 characters, enough for one difference
    out, results = play_both("advanced", None, "greedy", n, 1, rules=rules)
    bad, notes = mismatches(out, results)
    assert len(bad) >= max(1, n // 5), f"changing {change} changed only {len(bad)} of {n} sessions"
    assert notes[0].startswith(f"session {min(bad)} ")


def test_changed_bot_weights_make_sessions_disagree():
    weights = GAME.make_weights("planner")[None, :]
    n = max(10, scaled(40))
    out = GAME.play_chunk(*inputs("advanced", None, "planner", weights)[:5], 1, 0, n, TABLES)
    other = weights.copy()
    other[0, 1] += 2.0  # buyback_min
    reference = ref.Reference(GAME.make_params("advanced"), POOL, "planner", other.tolist())
    results = [reference.play(1, g) for g in range(n)]
    bad, _ = mismatches(out, results)
    assert len(bad) >= max(1, n // 5), f"a different buyback_min changed only {len(bad)} of {n} sessions"


def test_the_reference_refuses_a_parameter_it_does_not_know():
    params = GAME.make_params("advanced")._asdict()
    with pytest.raises(ValueError, match="new_rule"):
        ref.Rules.of({**params, "new_rule": 1})
