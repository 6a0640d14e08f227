"""CardRPG Advanced bots: legal choices on hand-built and played positions, what each bot prefers, conservation."""

import itertools

import numpy as np
import pytest

import sims
from sims.cardrpg import bots, kernel
from sims.cardrpg.bots import Bot
from sims.cardrpg.params import Params
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import FaceCombo, Phase
from sims.cardrpg.state import encode as act

END, QUIT, PASS, KEEP = act(K.END, 0, 0), act(K.QUIT, 0, 0), act(K.PASS, 0, 0), act(K.KEEP, 0, 0)
BOT_NAMES = ("random", "greedy", "planner")

POSITIONS = {  # name -> (params, make_state keywords, actions applied first)
    "combos": (
        Params(),
        {"hand": ("spade:7", "club:7", "heart:9", "heart:jack", "club:3"), "monster": "club:10", "monster_hp": 20},
        (),
    ),
    "full_inventory": (
        Params(),
        {
            "hero": "heart:queen", "hand": ("spade:7", "club:7", "heart:9"), "gold": 2, "discard": ("spade:10",),
            "inv": ("spade:5", "club:4", "heart:6", "spade:ace", "club:ace", "diamond:ace"),
            "monster": "heart:king", "monster_hp": 25,
        },
        (),
    ),
    "after_the_attack_with_a_club_left": (
        Params(),
        {"hero": "heart:queen", "hand": ("spade:9", "heart:3"), "inv": ("club:2",), "monster": "spade:10"},
        (act(K.ATTACK, 9, 1),),
    ),
    "empty_hand_and_a_spade": (Params(), {"hero": "heart:queen", "inv": ("spade:7",), "monster": "club:10"}, ()),
    "joker_monster": (
        Params(),
        {"hand": ("club:6", "heart:2"), "inv": ("spade:ace", "spade:6"), "monster": "joker:1", "monster_hp": 18},
        (),
    ),
    "any_face_combos": (
        Params(face_combo=FaceCombo.ANY_FACE),
        {"hand": ("heart:jack", "club:queen", "diamond:king", "spade:7"), "monster": "club:10"},
        (),
    ),
    "affinity_includes_aces": (
        Params(affinity_includes_aces=1),
        {"hero": "spade:king", "hand": ("club:4",), "inv": ("heart:ace", "club:5"), "monster": "club:10"},
        (),
    ),
    "between_with_gold": (
        Params(),
        {"gold": 12, "discard": ("spade:10", "heart:2"), "draw": ("heart:8",), "rest": "draw", "hand": ("club:2",)},
        (),
    ),
    "between_diamond_class": (
        Params(),
        {"hero": "diamond:king", "inv": ("spade:7", "club:3"), "draw": ("heart:8",), "rest": "draw"},
        (),
    ),
    "buy_a_number_card": (Params(), {"gold": 12, "draw": ("spade:9", "club:2")}, (act(K.REVEAL, 0, 0),)),
    "buy_an_ace": (Params(), {"gold": 25, "draw": ("heart:ace", "club:2")}, (act(K.REVEAL, 0, 0),)),
    "buy_a_face_card": (Params(), {"gold": 25, "draw": ("heart:king", "club:2")}, (act(K.REVEAL, 0, 0),)),
    "pre_strike": (
        Params(),
        {"hand": ("club:6",), "inv": ("spade:ace",), "monster": "heart:jack", "phase": Phase.PRE_STRIKE},
        (),
    ),
    "blitz": (
        Params(),
        {"hand": ("spade:7", "heart:2", "diamond:9", "heart:king", "club:9"), "inv": ("club:ace",),
         "monster": "club:10", "monster_hp": 50, "rest": "draw"},
        (act(K.ACE_CLUB, 0, 0), act(K.ATTACK, 9, 1)),
    ),
    "empty_hand_with_gold": (
        Params(), {"gold": 2, "monster": "club:10", "discard": ("heart:9", "club:3"), "rest": "draw"}, ()
    ),
    "king_keep": (
        Params(),
        {"hero": "spade:king", "hand": ("club:6", "heart:2", "spade:3"), "monster": "heart:jack", "mpile": ("joker:1",),
         "phase": Phase.MONSTER},
        (),
    ),
}  # fmt: skip


def position(rpg, name: str, bot: str):
    """Return ``(state, s)`` of the named position with ``bot`` deciding, after its opening actions."""
    params, kw, first = POSITIONS[name]
    state, s = rpg.make_state(params, bot=bot, **kw)
    if s["meta"]["phase"] == Phase.MONSTER:
        kernel.advance(s)  # king_keep: the Joker kills the King, who then decides about his hand
    for a in first:
        assert a in rpg.legal(s)
        kernel.apply_action(s, a)
    return state, s


def test_positions_reach_the_decisions_they_are_named_for(rpg):
    phases = {name: int(position(rpg, name, "greedy")[1]["meta"]["phase"]) for name in POSITIONS}
    assert phases["king_keep"] == Phase.KING_KEEP
    assert phases["pre_strike"] == Phase.PRE_STRIKE
    assert phases["buy_an_ace"] == phases["buy_a_number_card"] == phases["buy_a_face_card"] == Phase.BUY
    assert phases["between_with_gold"] == phases["between_diamond_class"] == Phase.BETWEEN
    assert phases["after_the_attack_with_a_club_left"] == phases["empty_hand_with_gold"] == Phase.PLAYER
    assert phases["blitz"] == Phase.BLITZ


def choose(rpg, s, bot: str) -> int:
    """Return the bot's choice in ``s``, with the legal list filled in as ``play_character`` fills it."""
    s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
    return bots.choose(rpg.GAME.bots.index(bot), s)


@pytest.mark.parametrize(("bot", "name"), list(itertools.product(BOT_NAMES, POSITIONS)))
def test_bots_choose_only_legal_actions_in_hand_built_positions(rpg, bot, name):
    _, s = position(rpg, name, bot)
    legal = rpg.legal(s)
    assert legal
    tries = 60 if bot == "random" else 1  # the random bot draws anew each time
    chosen = {choose(rpg, s, bot) for _ in range(tries)}
    assert chosen <= legal
    if bot == "random" and len(legal) > 4:
        assert len(chosen) > 3  # it really does spread its choices


@pytest.mark.parametrize("bot", ["greedy", "planner"])
def test_heuristic_bots_leave_the_position_unchanged(rpg, bot):
    for name in POSITIONS:
        state, s = position(rpg, name, bot)
        s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
        before = state.tobytes()
        bots.choose(rpg.GAME.bots.index(bot), s)
        assert state.tobytes() == before, name


@pytest.mark.parametrize("variant", ["advanced", "preset_hp", "diceless", "classic"])
def test_bots_choose_legal_actions_in_positions_reached_by_play(rpg, variant):
    """Walk real characters by uniformly random legal play (never quitting); ask every bot at each decision."""
    params = rpg.GAME.make_params(variant)
    gen = np.random.default_rng(5)
    seen, phases = 0, set()
    for g in range(6):
        _, s = rpg.new_character(params, seed=500 + g, character=g)
        for _ in range(150):
            if s["meta"]["phase"] == Phase.OVER:
                break
            legal = rpg.legal(s)
            for bot in BOT_NAMES:
                assert choose(rpg, s, bot) in legal
            seen += 1
            phases.add(int(s["meta"]["phase"]))
            walk = sorted(legal - {QUIT})
            kernel.apply_action(s, walk[int(gen.integers(len(walk)))])
    assert seen >= 100
    assert {Phase.PLAYER, Phase.BETWEEN} <= phases


# -- what the bots choose ------------------------------------------------------------------------------------------


def test_greedy_plays_its_most_damaging_combo(rpg):
    _, s = rpg.make_state(hand=("spade:7", "heart:9", "club:7", "heart:3"), monster="club:10", monster_hp=30)
    assert choose(rpg, s, "greedy") == act(K.ATTACK, 7, 2)  # 14 beats 9
    _, s = rpg.make_state(hand=("spade:7", "heart:9", "club:3"), monster="club:10", monster_hp=30)
    assert choose(rpg, s, "greedy") == act(K.ATTACK, 9, 1)


def test_greedy_values_face_cards_at_the_face_value_weight(rpg):
    hand = ("heart:jack", "club:jack", "diamond:9")  # a long draw pile: the random attacks are (all but) sure
    _, s = rpg.make_state(hand=hand, monster="club:10", monster_hp=30, rest="draw")
    assert choose(rpg, s, "greedy") == act(K.ATTACK, 11, 2)  # 2 x 6 expected beats 9
    _, s = rpg.make_state(hand=hand, monster="club:10", monster_hp=30, weights={"face_value": 4.0}, rest="draw")
    assert choose(rpg, s, "greedy") == act(K.ATTACK, 9, 1)  # 2 x 4 does not


def test_greedy_plays_spades_and_clubs_before_its_hand_but_keeps_hearts(rpg):
    _, s = rpg.make_state(hero="heart:queen", hand=("club:9",), inv=("spade:5",), monster="club:10", monster_hp=30)
    assert choose(rpg, s, "greedy") == act(K.SPADE, 0, 0)
    _, s = rpg.make_state(hero="heart:queen", hand=("club:9",), inv=("club:5",), monster="club:10", monster_hp=30)
    assert choose(rpg, s, "greedy") == act(K.CLUB, 0, 0)
    _, s = rpg.make_state(hero="spade:queen", hand=("club:9",), inv=("heart:5",), monster="club:10", monster_hp=30)
    assert act(K.SPADE, 0, 0) in rpg.legal(s)  # affinity would allow it
    assert choose(rpg, s, "greedy") == act(K.ATTACK, 9, 1)


def test_greedy_uses_the_ace_of_spades_on_face_monsters_and_jokers_only(rpg):
    for monster, used in (("heart:king", True), ("joker:1", True), ("club:10", False)):
        _, s = rpg.make_state(hand=("club:9",), inv=("spade:ace",), monster=monster, monster_hp=30)
        assert (choose(rpg, s, "greedy") == act(K.ACE_SPADE, 0, 0)) == used, monster


@pytest.mark.parametrize(("hp", "choice"), [(15, act(K.ACE_CLUB, 0, 0)), (30, act(K.ATTACK, 9, 1))])
def test_greedy_blitzes_with_the_ace_of_clubs_when_the_whole_hand_kills(rpg, hp, choice):
    _, s = rpg.make_state(hand=("spade:7", "heart:9"), inv=("club:ace",), monster="club:10", monster_hp=hp, rest="draw")
    assert choose(rpg, s, "greedy") == choice


def test_planner_plays_a_spade_when_it_turns_a_combo_into_a_kill(rpg):
    _, s = rpg.make_state(hand=("club:6",), inv=("spade:5",), monster="club:10", monster_hp=11, bot="planner")
    assert choose(rpg, s, "planner") == act(K.SPADE, 0, 0)
    _, s = rpg.make_state(hand=("club:6",), inv=("spade:5",), monster="club:10", monster_hp=20, bot="planner")
    assert choose(rpg, s, "planner") == act(K.ATTACK, 6, 1)  # no kill: the Spade is kept


@pytest.mark.parametrize("hero", ["heart:queen", "spade:queen"])  # a Spade class could also play the Club as a Spade
def test_planner_plays_a_club_when_two_attacks_make_the_kill(rpg, hero):
    kw = {"hero": hero, "hand": ("club:9", "heart:8"), "inv": ("club:3",), "monster": "club:10", "bot": "planner"}
    _, s = rpg.make_state(monster_hp=16, **kw)
    assert choose(rpg, s, "planner") == act(K.CLUB, 0, 0)
    _, s = rpg.make_state(monster_hp=18, **kw)  # 9 + 8 < 18; the Club's 3 does not count twice (Club and Spade)
    assert choose(rpg, s, "planner") == act(K.ATTACK, 9, 1)


def test_planner_kills_with_the_smallest_combo_that_kills(rpg):
    hand = ("spade:8", "heart:9", "club:4", "diamond:4", "spade:3")
    _, s = rpg.make_state(hand=hand, monster="club:10", monster_hp=7, bot="planner")
    assert choose(rpg, s, "planner") == act(K.ATTACK, 8, 1)  # one card, least waste (not the 9, not 4+4)
    hand = ("spade:9", "heart:7", "club:7", "spade:4", "heart:4", "diamond:4")
    _, s = rpg.make_state(hand=hand, monster="club:10", monster_hp=12, bot="planner")
    assert choose(rpg, s, "planner") == act(K.ATTACK, 7, 2)  # two 7s: fewer cards than three 4s


def test_planner_attacks_with_its_strongest_combo_when_nothing_kills(rpg):
    hand = ("spade:8", "heart:9", "club:4", "diamond:4", "heart:4")
    _, s = rpg.make_state(hand=hand, monster="club:10", monster_hp=40, bot="planner")
    assert choose(rpg, s, "planner") == act(K.ATTACK, 4, 3)


def test_planner_saves_the_ace_of_spades_for_jokers(rpg):
    _, s = rpg.make_state(hand=("spade:10", "club:2"), inv=("spade:ace",), monster="heart:king", monster_hp=9)
    assert choose(rpg, s, "planner") == act(K.ATTACK, 10, 1)
    _, s = rpg.make_state(hand=("spade:10", "club:2"), inv=("spade:ace",), monster="joker:2", monster_hp=9)
    assert choose(rpg, s, "planner") == act(K.ACE_SPADE, 0, 0)


def test_planner_passes_on_the_ace_of_spades_before_a_jack_it_can_beat(rpg):
    hand = ("club:6", "heart:6")  # 12 against 10 HP (the A-spade before a Jack it cannot beat: test_bots_blind_spots)
    _, s = rpg.make_state(hand=hand, inv=("spade:ace",), monster="heart:jack", phase=Phase.PRE_STRIKE)
    assert choose(rpg, s, "planner") == PASS
    assert choose(rpg, s, "greedy") == act(K.ACE_SPADE, 0, 0)  # a Jack is a face monster


def test_random_never_quits(rpg):
    _, s = rpg.make_state(gold=3, discard=("spade:10",), draw=("heart:8",), rest="draw", bot="random")
    legal = rpg.legal(s)
    assert QUIT in legal
    chosen = [choose(rpg, s, "random") for _ in range(400)]
    assert QUIT not in chosen
    assert {END, act(K.REVEAL, 0, 0)} <= set(chosen)


@pytest.mark.parametrize(("hand", "keep"), [(("club:6", "heart:2", "spade:3"), True), (("club:6", "heart:2"), False)])
def test_a_king_keeps_a_hand_of_at_least_half_his_str(rpg, hand, keep):
    _, s = rpg.make_state(hero="spade:king", strength=5, hand=hand, monster="club:9", phase=Phase.MONSTER)
    kernel.death(s)
    assert s["meta"]["phase"] == Phase.KING_KEEP
    for bot in ("greedy", "planner"):
        assert choose(rpg, s, bot) == (KEEP if keep else PASS)


@pytest.mark.parametrize(
    ("top", "gold", "bot", "bought"),
    [
        ("spade:9", 9, "greedy", True),
        ("spade:5", 9, "greedy", False),  # below buy_min 6
        ("spade:5", 9, "planner", True),  # planner's buy_min is 5
        ("diamond:9", 9, "greedy", True),  # a Diamond is free: its gold comes back
        ("diamond:9", 8, "planner", False),  # ... if the gold covers its price
        ("heart:ace", 20, "greedy", True),
    ],
)
def test_bots_buy_a_revealed_card_worth_its_price(rpg, top, gold, bot, bought):
    _, s = rpg.make_state(gold=gold, draw=(top, "club:2"), bot=bot)
    kernel.apply_action(s, act(K.REVEAL, 0, 0))
    assert choose(rpg, s, bot) == (act(K.BUY, 0, 0) if bought else PASS)


# -- conservation and legality over many characters -----------------------------------------------------------------

RUNNABLE = [name for name, v in sims.load("cardrpg").variants.items() if v.runnable]
EXTRA = {  # rule settings no named variant reaches
    "any_face": {"face_combo": "any_face"},
    "forfeit": {"both_out": "forfeit"},
    "joker_no_damage": {"random_attack_joker": "no_damage"},
    "both_out_only": {"hand_refill": "both_out_only"},
    "hp_never_reset": {"hp_reset": "never"},
    "buyback_to_draw_pile": {"buyback_destination": "draw_pile_bottom"},
    "luck_unlimited": {"ace_diamond_buybacks": -1},
    "xp_carry": {"xp_overflow": "carry"},
    "aces_affinity": {"affinity_includes_aces": True},
    "theft_half": {"theft_chance_pct": 50},
    "campaign_one_life": {"n_sessions": 4, "death_ends_session": True},
}


def check(rpg, params: Params, bot: str, n: int, seed: int = 11) -> list[int]:
    """Return the ``check_games`` report of ``n`` characters of ``bot`` under ``params``."""
    game = rpg.GAME
    pool = game.prepare_pool(rpg.POOL, params)
    report = np.zeros(4, np.int64)
    ids = np.array([game.bots.index(bot)], np.int64)
    weights = game.make_weights(bot)[None, :]
    game.check_games(params, pool.table, np.zeros((1, 54), np.int16), ids, weights, np.uint64(seed), 0, n, report)
    return report.tolist()


def test_a_few_characters_conserve_cards_and_take_legal_actions(rpg):
    for bot in BOT_NAMES:
        report = check(rpg, Params(), bot, 3)
        assert report[0] > 0
        assert report[1:] == [0, 0, 0], bot


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "bot"), list(itertools.product(RUNNABLE, BOT_NAMES)))
def test_every_named_variant_conserves_cards_and_takes_only_legal_actions(rpg, variant, bot):
    report = check(rpg, rpg.GAME.make_params(variant), bot, 150)
    assert report[0] > 150  # decisions audited
    assert report[1:] == [0, 0, 0]  # conservation violations, illegal actions, characters not finished


@pytest.mark.slow
@pytest.mark.parametrize(("setting", "bot"), list(itertools.product(EXTRA, BOT_NAMES)))
def test_rule_settings_conserve_cards_and_take_only_legal_actions(rpg, setting, bot):
    report = check(rpg, rpg.GAME.make_params("advanced", EXTRA[setting]), bot, 100)
    assert report[0] > 100
    assert report[1:] == [0, 0, 0]


def test_bot_ids_match_the_policies():
    assert [b.name.lower() for b in Bot] == list(BOT_NAMES)
