"""CardRPG Advanced rules, part 1: worked examples E1-E14 and rulings R2, R7-R11, R14, R20, R21 (rulings/cardrpg.md).

The character, monster HP and XP tables, diceless dice, monster attacks, Hearts, the player's
random attacks, combos, Spades and Clubs, suit affinity, turn order and running out. Parts 2
and 3 (``test_rules_rewards.py``, ``test_rules_flow.py``) hold the rest of E1-E20 and R1-R22.
Positions are built by hand on the real 54-card deck (checked against the rulebook in
test_pool.py), so cards are named as ``deck.csv`` names them; piles are listed top first,
as the rulings' examples list them. Rulings about flow (R1, R4, R19, R22) are also checked
on characters played from fixed seeds with the event log on. Shared helpers:
``rules_helpers.py``.
"""

import math

import numpy as np
import pytest

from sims.cardrpg import kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import (
    HP_DICE,
    MAX_LEVEL,
    XP_NEXT,
    BothOut,
    Dice,
    DicelessKingJoker,
    EndReason,
    FaceCombo,
    Lane,
    MonsterHp,
    MonsterKind,
    Outcome,
    Phase,
    RandomAttackJoker,
)
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import EventKind as E
from sims.cardrpg.state import encode as act
from tests.sims.cardrpg.rules_helpers import (
    END,
    HAND5,
    PASS,
    QUIT,
    attack,
    battle_at,
    battle_row,
    created,
    die_of,
    hit,
    monster_attack,
    setup_dice,
)

# -- E1-E3, R2: the character --------------------------------------------------------------------------------


def test_e1_new_character_sheet(rpg):
    _, s = rpg.new_character(seed=5)
    h = s["hero"]
    assert (int(h["level"]), int(h["xp"]), int(XP_NEXT[h["level"]]), int(h["gold"])) == (1, 0, 10, 0)
    g = s["tally"]["game"]
    assert (int(g["kills"]), int(g["deaths"]), int(g["jokers_killed"])) == (0, 0, 0)
    assert int(s["tally"]["n_sessions"]) == 0  # no session finished yet
    assert int(s["meta"]["session"]) == 0


@pytest.mark.parametrize("seed", range(1, 13))
def test_r2_str_is_half_the_first_die_rounded_up_plus_two_and_hp_the_second_die_plus_two(rpg, seed):
    a, b = setup_dice(seed)
    _, s = created(rpg, Params(), seed)
    assert int(s["hero"]["str"]) == math.ceil(a / 2) + 2
    assert int(s["hero"]["hp_max"]) == int(s["hero"]["hp"]) == b + 2
    (ev,) = rpg.events(s, E.CHARACTER)
    assert (int(ev["value"]), int(ev["extra"])) == (math.ceil(a / 2) + 2, b + 2)


def test_e2_e3_dice_of_five_give_str_5_and_hp_7(rpg):
    seed = next(sd for sd in range(1, 2000) if setup_dice(sd) == (5, 5))
    _, s = created(rpg, Params(), seed)
    assert (int(s["hero"]["str"]), int(s["hero"]["hp_max"])) == (5, 7)


def test_r2_str_and_hp_cover_their_ranges_over_many_characters(rpg):
    stats = set()
    for seed in range(1, 120):
        _, s = created(rpg, Params(), seed)
        stats.add((int(s["hero"]["str"]), int(s["hero"]["hp_max"])))
    assert {st for st, _ in stats} == {3, 4, 5}
    assert {hp for _, hp in stats} == set(range(3, 9))


def creation_deck(rpg, params: Params, seed: int) -> list[str]:
    """Return, top first, the deck shuffled for diceless creation rolls of character 0 seeded with ``seed``."""
    state = kernel.prepare(rpg.POOL.table, params, rpg.GAME.make_weights("greedy")[None, :], 0)
    s = state[0]
    kernel.reset(s, 0, np.uint64(seed))
    s["hero"]["class_id"] = rpg.card("spade:jack")  # character 0 plays class 0 (R22)
    kernel.lay_out_deck(s, Lane.SETUP)
    return rpg.draw_pile(s)


@pytest.mark.parametrize("seed", range(1, 9))
def test_r20_diceless_creation_rolls_use_the_top_cards_of_a_shuffled_deck(rpg, seed):
    params = Params(dice=Dice.CARDS)
    dice = [d for d in map(die_of, creation_deck(rpg, params, seed)) if d is not None]
    _, s = created(rpg, params, seed)
    assert int(s["hero"]["str"]) == math.ceil(dice[0] / 2) + 2
    assert int(s["hero"]["hp_max"]) == dice[1] + 2


def test_e2_e3_diceless_creation_cards_showing_five_give_str_5_and_hp_7(rpg):
    params = Params(dice=Dice.CARDS)
    for seed in range(1, 3000):
        dice = [d for d in map(die_of, creation_deck(rpg, params, seed)) if d is not None]
        if dice[:2] == [5, 5]:
            break
    else:
        pytest.fail("no seed deals two 9s or 10s first")
    _, s = created(rpg, params, seed)
    assert (int(s["hero"]["str"]), int(s["hero"]["hp_max"])) == (5, 7)


# -- E4, E5, E6, E7, R21: monster HP, XP and the tables ---------------------------------------------------


def test_e4_hp_dice_and_xp_tables():
    assert HP_DICE[1 : MAX_LEVEL + 1].tolist() == [3, 3, 5, 5, 5, 7, 7, 7, 10, 10]
    assert XP_NEXT[1:MAX_LEVEL].tolist() == [10, 20, 40, 60, 80, 110, 140, 170, 200]


@pytest.mark.parametrize("level", range(1, 11))
def test_e4_r21_monster_hp_uses_the_level_tables_number_of_dice(rpg, level):
    dice = [3, 3, 5, 5, 5, 7, 7, 7, 10, 10][level - 1]
    for monster, per_die in (("club:7", 2), ("heart:king", 4), ("joker:1", 6)):
        _, s = battle_at(rpg, Params(monster_hp=MonsterHp.PRESET), (monster,), level=level)
        kernel.start_battle(s)
        assert int(s["monster"]["hp"]) == int(s["monster"]["hp_start"]) == per_die * dice, monster


@pytest.mark.parametrize(
    ("monster", "hp", "xp"), [("club:7", 10, 7), ("heart:king", 20, 20), ("joker:2", 30, 15), ("diamond:ace", 10, 1)]
)
def test_e5_preset_hp_for_a_level_4_character(rpg, monster, hp, xp):
    _, s = battle_at(rpg, Params(monster_hp=MonsterHp.PRESET), (monster,), level=4)
    kernel.start_battle(s)
    assert (int(s["monster"]["hp"]), int(s["monster"]["xp"])) == (hp, xp)


def test_e6_joker_monster_at_level_1(rpg):
    top = ("joker:1", "spade:9", "heart:4", "club:2", "diamond:8")
    _, s = battle_at(rpg, Params(), top)
    kernel.start_battle(s)
    assert int(s["monster"]["card"]) == rpg.card("joker:1")
    assert int(s["monster"]["kind"]) == MonsterKind.JOKER
    assert rpg.zone(s, "bonus") == ["spade:9", "heart:4"]
    assert rpg.mpile(s) == ["diamond:8", "club:2"]  # 2 x level; the last card dealt is on top
    assert (int(s["monster"]["hp"]), int(s["monster"]["xp"])) == (18, 9)


def test_e7_face_monster_rolled_17_hp_gives_17_xp(rpg):
    # diceless dice: J 6, Q 6, 10 5 = 17 (R20); the dice follow the bonus card and the attack pile
    top = ("heart:king", "spade:3", "club:2", "diamond:4", "diamond:jack", "club:queen", "spade:10")
    _, s = battle_at(rpg, Params(dice=Dice.CARDS), top, level=2, inv=("spade:ace",))  # level 2: 3 dice, no level-up
    kernel.start_battle(s)
    assert (int(s["monster"]["hp"]), int(s["monster"]["xp"])) == (17, 17)
    assert s["meta"]["phase"] == Phase.PLAYER
    kernel.apply_action(s, act(K.ACE_SPADE, 0, 0))
    assert int(s["hero"]["xp"]) == 17
    assert rpg.bone(s) == [("heart:king", True)]


@pytest.mark.parametrize("seed", range(1, 25))
def test_e7_r17_a_face_monster_is_worth_its_rolled_hp(rpg, seed):
    _, s = battle_at(rpg, Params(), ("heart:king",), seed=seed)
    kernel.start_battle(s)
    assert 3 <= int(s["monster"]["hp"]) <= 18
    assert int(s["monster"]["xp"]) == int(s["monster"]["hp_start"])


def test_e7_rolled_face_monster_hp_varies_with_the_dice(rpg):
    seen = set()
    for seed in range(1, 40):
        _, s = battle_at(rpg, Params(), ("heart:king",), seed=seed)
        kernel.start_battle(s)
        seen.add(int(s["monster"]["hp"]))
    assert len(seen) >= 6


# -- E8, R20: diceless dice -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "die"),
    [
        (("club:7",), 4),
        (("heart:ace",), 1),
        (("spade:2",), 1),
        (("diamond:10",), 5),
        (("spade:9",), 5),
        (("heart:jack",), 6),
        (("club:queen",), 6),
    ],
)
def test_e8_a_card_die_is_half_the_value_rounded_up_and_j_q_give_6(rpg, top, die):
    _, s = rpg.make_state(Params(dice=Dice.CARDS), draw=(*top, "heart:5", "club:8"))
    assert kernel.card_die(s) == die
    assert rpg.draw_pile(s) == ["heart:5", "club:8", top[0]]  # the drawn card ends at the bottom


@pytest.mark.parametrize("special", ["heart:king", "joker:2"])
def test_e8_redraw_kings_and_jokers_use_the_next_card(rpg, special):
    _, s = rpg.make_state(Params(dice=Dice.CARDS), draw=(special, "club:7", "heart:5"))
    assert kernel.card_die(s) == 4
    assert rpg.draw_pile(s) == ["heart:5", special, "club:7"]  # both drawn cards went under, in order


@pytest.mark.parametrize(("special", "die"), [("heart:king", 7), ("joker:2", 0)])
def test_e8_special_kings_give_7_and_jokers_0(rpg, special, die):
    _, s = rpg.make_state(
        Params(dice=Dice.CARDS, diceless_king_joker=DicelessKingJoker.SPECIAL), draw=(special, "club:7")
    )
    assert kernel.card_die(s) == die
    assert rpg.draw_pile(s) == ["club:7", special]


def test_r20_a_pile_of_only_kings_and_jokers_gives_no_die(rpg):
    _, s = rpg.make_state(Params(dice=Dice.CARDS), draw=("heart:king", "joker:1", "spade:king"))
    assert kernel.card_die(s) == -1
    _, s = rpg.make_state(Params(dice=Dice.CARDS))
    assert kernel.card_die(s) == -1


def test_r20_diceless_monster_hp_is_the_sum_of_card_dice(rpg):
    top = ("club:7", "diamond:2", "heart:9", "club:king", "diamond:3", "spade:jack")  # 5 + (K again) 2 + 6
    _, s = battle_at(rpg, Params(dice=Dice.CARDS), top)
    kernel.start_battle(s)
    assert int(s["monster"]["hp"]) == 13
    assert int(s["monster"]["xp"]) == 7


def test_r16_r20_a_diceless_roll_needs_only_one_card(rpg):
    """The one number card left is drawn for every die (each goes back under the pile)."""
    _, s = rpg.make_state(Params(dice=Dice.CARDS), hand=HAND5, draw=("club:7", "diamond:2", "heart:8"))
    s["meta"]["phase"] = Phase.BATTLE_START
    kernel.start_battle(s)
    assert s["meta"]["phase"] != Phase.SESSION_END
    assert int(s["monster"]["hp"]) == 12
    assert rpg.draw_pile(s) == ["heart:8"]


def test_r16_r20_a_diceless_roll_with_no_usable_card_ends_the_session(rpg):
    _, s = rpg.make_state(Params(dice=Dice.CARDS), hand=HAND5, draw=("club:7", "diamond:2", "heart:king", "joker:1"))
    s["meta"]["phase"] = Phase.BATTLE_START
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.SESSION_END
    assert s["meta"]["end_reason"] == EndReason.DRAW_FAILED_DICE


def test_r2_r20_level_up_adds_half_a_card_die_rounded_up_to_str_and_to_hp(rpg):
    # after the victory draw (spade:2), the STR die is a 9 (5 -> +3), the HP die a 3 (2 -> +1)
    _, s = rpg.make_state(
        Params(dice=Dice.CARDS), xp=8, hp_max=7, hp=4, strength=4, hand=("club:5",),
        monster="diamond:5", monster_hp=5, draw=("spade:2", "heart:9", "club:3"), rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, attack(5))
    h = s["hero"]
    assert (int(h["level"]), int(h["str"]), int(h["hp_max"]), int(h["hp"])) == (2, 7, 8, 5)


# -- E9, R10: monster attacks ---------------------------------------------------------------------------------


def test_e9_critical_chain_k_q_7_deals_21(rpg):
    s = monster_attack(rpg, ("spade:king", "heart:queen", "club:7", "spade:3"))
    assert int(s["hero"]["hp"]) == 9
    assert rpg.mpile(s) == ["spade:3"]
    assert rpg.zone(s, "play") == ["spade:king", "heart:queen", "club:7"]
    (ev,) = rpg.events(s, E.MONSTER_ATTACK)
    assert (int(ev["value"]), int(ev["card"])) == (21, rpg.card("club:7"))
    assert s["meta"]["phase"] == Phase.PLAYER


def test_e9_a_chain_cut_short_by_the_pile_deals_0(rpg):
    s = monster_attack(rpg, ("diamond:jack",))
    assert int(s["hero"]["hp"]) == 30
    assert rpg.mpile(s) == []
    assert rpg.zone(s, "play") == ["diamond:jack"]
    assert s["meta"]["phase"] == Phase.PLAYER


def test_r10_a_number_card_deals_its_value_and_an_ace_1(rpg):
    assert int(monster_attack(rpg, ("heart:8",))["hero"]["hp"]) == 22
    assert int(monster_attack(rpg, ("heart:ace",))["hero"]["hp"]) == 29
    assert int(monster_attack(rpg, ("heart:jack", "heart:ace"))["hero"]["hp"]) == 28


def test_e9_a_joker_kills_a_character_without_the_ace_of_hearts(rpg):
    s = monster_attack(rpg, ("joker:1",), inv=("heart:10", "spade:9"))  # an ordinary Heart does not help
    assert rpg.bone(s) == [("club:10", False)]
    assert battle_row(s)["outcome"] == Outcome.DIED
    assert "heart:10" in rpg.zone(s, "discard")


def test_r10_a_joker_anywhere_in_the_chain_kills(rpg):
    s = monster_attack(rpg, ("spade:king", "joker:2", "club:7"))
    assert rpg.bone(s) == [("club:10", False)]


def test_e9_the_ace_of_hearts_survives_a_joker_restores_max_hp_and_goes_under_the_draw_pile(rpg):
    s = monster_attack(rpg, ("joker:1",), hp=4, inv=("heart:ace", "heart:9"), draw=("spade:4",))
    assert int(s["hero"]["hp"]) == 30
    assert rpg.zone(s, "inv") == ["heart:9"]  # the ordinary Heart is not spent
    assert rpg.draw_pile(s)[-1] == "heart:ace"
    assert rpg.bone(s) == []
    assert s["meta"]["phase"] == Phase.PLAYER


def test_r10_heart_class_affinity_does_not_stop_a_joker(rpg):
    s = monster_attack(rpg, ("joker:1",), hero="heart:king", inv=("club:9",))
    assert rpg.bone(s) == [("club:10", False)]


# -- R7, E13, R14 Hearts ---------------------------------------------------------------------------------------


def test_r7_a_character_at_exactly_0_hp_dies(rpg):
    s = monster_attack(rpg, ("heart:5",), hp=5, hp_max=8)
    assert rpg.bone(s) == [("club:10", False)]


def test_r7_a_character_left_with_1_hp_lives(rpg):
    s = monster_attack(rpg, ("heart:5",), hp=6, hp_max=8)
    assert int(s["hero"]["hp"]) == 1
    assert rpg.bone(s) == []


def test_e13_a_heart_saves_a_character_at_minus_3_with_its_value(rpg):
    s = monster_attack(rpg, ("club:7",), hp=4, hp_max=8, inv=("heart:6",))
    assert int(s["hero"]["hp"]) == 6
    assert rpg.zone(s, "inv") == []
    assert rpg.zone(s, "discard")[-1] == "heart:6"
    assert rpg.bone(s) == []
    assert int(s["tally"]["game"]["heart_saves"]) == 1


def test_r7_r14_a_heart_triggers_at_exactly_0_hp(rpg):
    s = monster_attack(rpg, ("club:7",), hp=7, hp_max=8, inv=("heart:2",))
    assert int(s["hero"]["hp"]) == 2


def test_r14_the_highest_ordinary_heart_is_used_before_the_ace_of_hearts(rpg):
    s = monster_attack(rpg, ("spade:9",), hp=2, hp_max=8, inv=("heart:3", "heart:ace", "heart:8"))
    assert int(s["hero"]["hp"]) == 8
    assert rpg.zone(s, "inv") == ["heart:3", "heart:ace"]


def test_r14_without_a_heart_the_ace_of_hearts_restores_max_hp(rpg):
    s = monster_attack(rpg, ("spade:9",), hp=2, hp_max=8, inv=("heart:ace", "spade:5"), draw=("club:2",))
    assert int(s["hero"]["hp"]) == 8
    assert rpg.zone(s, "inv") == ["spade:5"]
    assert rpg.draw_pile(s)[-1] == "heart:ace"


def test_r14_a_heart_character_uses_any_number_card_as_a_heart(rpg):
    s = monster_attack(rpg, ("spade:4",), hero="heart:queen", hp=1, inv=("club:5", "spade:ace"))
    assert int(s["hero"]["hp"]) == 5
    assert rpg.zone(s, "inv") == ["spade:ace"]


def test_r14_a_non_heart_character_cannot_use_a_club_as_a_heart(rpg):
    s = monster_attack(rpg, ("spade:4",), hero="spade:queen", hp=1, inv=("club:5",))
    assert rpg.bone(s) == [("club:10", False)]


# -- E10, R9: random attacks by the player ----------------------------------------------------------------------


def test_e10_a_queen_from_hand_turning_up_an_8_deals_8(rpg):
    s = hit(rpg, ("heart:queen",), 12, top=("spade:8", "club:2"))
    assert int(s["monster"]["hp"]) == 42
    assert rpg.zone(s, "play") == ["heart:queen", "spade:8"]  # the turned-up card is in play
    assert rpg.draw_pile(s) == ["club:2"]


def test_e10_a_joker_from_hand_turning_up_a_5_deals_10(rpg):
    s = hit(rpg, ("joker:1",), 14, top=("heart:5",))
    assert int(s["monster"]["hp"]) == 40


def test_r9_a_face_card_turned_up_raises_the_multiplier(rpg):
    s = hit(rpg, ("spade:king",), 13, top=("heart:queen", "club:4"))  # like a monster's [Q, 4]
    assert int(s["monster"]["hp"]) == 50 - 2 * 4
    s = hit(rpg, ("joker:2",), 14, top=("heart:jack", "club:3"))
    assert int(s["monster"]["hp"]) == 50 - 3 * 3


def test_r9_an_ace_turned_up_deals_its_value(rpg):
    s = hit(rpg, ("spade:jack",), 11, top=("heart:ace",))
    assert int(s["monster"]["hp"]) == 49


def test_e10_a_jack_from_hand_turning_up_a_joker_kills_the_monster(rpg):
    s = hit(rpg, ("spade:jack", "heart:4"), 11, top=("joker:1", "club:2"))
    assert rpg.bone(s) == [("club:10", True)]
    assert s["meta"]["phase"] == Phase.BETWEEN
    (ev,) = rpg.events(s, E.VICTORY)
    assert int(ev["value"]) == 10


def test_r9_a_turned_up_joker_kills_at_once_so_the_rest_of_the_combo_makes_no_random_attack(rpg):
    """Two Jacks together: the first turns up the last card of the pile, a Joker; the second must not draw."""
    s = hit(rpg, ("spade:jack", "heart:jack"), 11, 2, top=("joker:1",))
    assert rpg.bone(s) == [("club:10", True)]  # a kill, not a session ended by a failed random-attack draw
    assert s["meta"]["phase"] == Phase.BETWEEN
    assert int(s["tally"]["seat"]["random_attacks"]) == 1


def test_r9_random_attack_joker_no_damage_variant(rpg):
    params = Params(random_attack_joker=RandomAttackJoker.NO_DAMAGE)
    s = hit(rpg, ("spade:jack", "heart:4"), 11, top=("joker:1", "club:2"), params=params)
    assert int(s["monster"]["hp"]) == 50
    assert rpg.bone(s) == []
    assert rpg.zone(s, "play") == ["spade:jack", "joker:1"]


# -- E11, R8: combos, Spades, Clubs ----------------------------------------------------------------------------


def test_e11_two_sevens_together_deal_14(rpg):
    s = hit(rpg, ("spade:7", "heart:3", "club:7"), 7, 2)
    assert int(s["monster"]["hp"]) == 36
    assert rpg.zone(s, "hand") == ["heart:3"]


def test_r8_combos_are_offered_for_identical_ranks_only(rpg):
    _, s = rpg.make_state(
        hand=("spade:7", "club:7", "heart:8", "heart:jack", "club:queen", "heart:ace"), monster="club:10"
    )
    expected = {attack(7), attack(7, 2), attack(8), attack(11), attack(12), attack(1)}
    assert rpg.legal(s) == expected  # no END: at least one card must be played (R8)


def test_r8_any_face_variant_lets_jacks_queens_and_kings_combo(rpg):
    params = Params(face_combo=FaceCombo.ANY_FACE)
    _, s = rpg.make_state(params, hand=("heart:jack", "club:queen", "diamond:king", "spade:7"), monster="club:10")
    assert rpg.legal(s) == {attack(11), attack(11, 2), attack(11, 3), attack(7)}
    s = hit(rpg, ("heart:jack", "club:queen", "spade:7"), 11, 2, top=("heart:5", "club:3"), params=params)
    assert int(s["monster"]["hp"]) == 42  # each face card makes its own random attack: 5 + 3
    assert len(rpg.events(s, E.RANDOM_TURN)) == 2
    assert rpg.zone(s, "hand") == ["spade:7"]


def test_r8_each_face_card_in_a_combo_makes_its_own_random_attack(rpg):
    s = hit(rpg, ("heart:king", "spade:king"), 13, 2, top=("heart:5", "club:3", "spade:9"))
    assert int(s["monster"]["hp"]) == 42
    assert [rpg.NAMES[e["card"]] for e in rpg.events(s, E.RANDOM_TURN)] == ["heart:5", "club:3"]
    (ev,) = rpg.events(s, E.PLAYER_ATTACK)
    assert int(ev["value"]) == 8


def test_r8_end_is_legal_only_after_an_attack_or_with_an_empty_hand(rpg):
    _, s = rpg.make_state(hand=("spade:7", "club:5"), monster="club:10", monster_hp=50, inv=("club:2",))
    assert END not in rpg.legal(s)
    kernel.apply_action(s, attack(7))
    assert END in rpg.legal(s)
    _, s = rpg.make_state(hand=(), inv=("spade:4",), monster="club:10", monster_hp=50)
    assert END in rpg.legal(s)


def test_e11_a_spade_then_a_hand_4_deals_10(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("club:4", "heart:9"), inv=("spade:6",), monster="club:10", monster_hp=50
    )
    kernel.apply_action(s, act(K.SPADE, 0, 0))
    assert int(s["monster"]["hp"]) == 44
    kernel.apply_action(s, attack(4))
    assert int(s["monster"]["hp"]) == 40
    assert rpg.zone(s, "discard")[-1] == "spade:6"


def test_r14_a_spade_is_played_before_the_hand_attack_not_after(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("club:4", "heart:9"), inv=("spade:6",), monster="club:10", monster_hp=50
    )
    assert act(K.SPADE, 0, 0) in rpg.legal(s)
    kernel.apply_action(s, attack(4))
    assert act(K.SPADE, 0, 0) not in rpg.legal(s)


def test_e11_a_club_lets_the_player_play_a_9_and_then_a_3(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("spade:9", "heart:3", "diamond:3"), inv=("club:2",), monster="spade:10", monster_hp=50
    )
    kernel.apply_action(s, act(K.CLUB, 0, 0))
    assert rpg.zone(s, "inv") == []
    kernel.apply_action(s, attack(9))
    assert s["meta"]["phase"] == Phase.PLAYER
    assert attack(3) in rpg.legal(s)
    kernel.apply_action(s, attack(3))
    assert int(s["monster"]["hp"]) == 38
    assert rpg.zone(s, "hand") == ["diamond:3"]
    assert not any(k >> 12 == K.ATTACK for k in rpg.legal(s))  # two attacks: one plus one Club


def test_r14_a_club_may_follow_the_first_attack(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("spade:9", "heart:3"), inv=("club:2",), monster="spade:10", monster_hp=50
    )
    kernel.apply_action(s, attack(9))
    assert s["meta"]["phase"] == Phase.PLAYER
    assert act(K.CLUB, 0, 0) in rpg.legal(s)
    kernel.apply_action(s, act(K.CLUB, 0, 0))
    kernel.apply_action(s, attack(3))
    assert int(s["monster"]["hp"]) == 38


def test_r8_the_turn_ends_with_end_and_the_monster_strikes(rpg):
    _, s = rpg.make_state(hand=("spade:9", "heart:3"), monster="club:10", monster_hp=50, mpile=("heart:4",), hp_max=8)
    kernel.apply_action(s, attack(9))
    kernel.apply_action(s, END)
    assert int(s["hero"]["hp"]) == 4
    assert s["meta"]["phase"] == Phase.PLAYER
    assert int(s["meta"]["attacks_left"]) == 1


# -- E12, R14: suit affinity -------------------------------------------------------------------------------------


def test_e12_a_spade_character_plays_an_inventory_heart_5_as_a_spade(rpg):
    _, s = rpg.make_state(hero="spade:king", hand=("club:4",), inv=("heart:5",), monster="club:10", monster_hp=50)
    assert act(K.SPADE, 0, 0) in rpg.legal(s)
    kernel.apply_action(s, act(K.SPADE, 0, 0))
    assert int(s["monster"]["hp"]) == 45


def test_r14_without_affinity_a_heart_is_not_a_spade(rpg):
    _, s = rpg.make_state(hero="club:king", hand=("club:4",), inv=("heart:5",), monster="club:10", monster_hp=50)
    assert act(K.SPADE, 0, 0) not in rpg.legal(s)


def test_r14_affinity_covers_number_cards_only_aces_keep_their_power(rpg):
    _, s = rpg.make_state(hero="spade:king", hand=("club:4",), inv=("heart:ace", "club:ace"), monster="club:10")
    legal = rpg.legal(s)
    assert act(K.SPADE, 0, 0) not in legal
    assert act(K.SPADE, 1, 0) not in legal
    assert act(K.ACE_CLUB, 1, 0) in legal


def test_r14_affinity_includes_aces_variant_plays_an_ace_as_a_1_of_the_class_suit(rpg):
    params = Params(affinity_includes_aces=1)
    _, s = rpg.make_state(
        params, hero="spade:king", hand=("club:4",), inv=("heart:ace",), monster="club:10", monster_hp=50
    )
    assert act(K.SPADE, 0, 0) in rpg.legal(s)
    kernel.apply_action(s, act(K.SPADE, 0, 0))
    assert int(s["monster"]["hp"]) == 49


# -- E14, R11: turn order and running out --------------------------------------------------------------------------


def test_e14_a_jack_monster_strikes_before_the_players_first_attack(rpg):
    _, s = battle_at(rpg, Params(), ("heart:jack", "club:5", "spade:3"), hp_max=30)
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.MONSTER
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.PLAYER
    assert int(s["hero"]["hp"]) == 27  # the pile's one card (spade:3); club:5 is the bonus card
    kinds = [int(e["kind"]) for e in rpg.events(s) if e["kind"] in (E.MONSTER_ATTACK, E.PLAYER_ATTACK)]
    assert kinds == [E.MONSTER_ATTACK]


def test_e14_against_any_other_monster_the_player_attacks_first(rpg):
    for monster in ("heart:queen", "heart:king", "club:7", "joker:1", "heart:ace"):
        _, s = battle_at(rpg, Params(), (monster,), hp_max=30)
        kernel.start_battle(s)
        assert s["meta"]["phase"] == Phase.PLAYER, monster
        assert int(s["hero"]["hp"]) == 30


def test_r14_the_ace_of_spades_may_kill_a_jack_monster_before_its_first_strike(rpg):
    params = Params()  # level 2: the Jack's XP (at most 18) does not level up and change HP
    _, s = battle_at(rpg, params, ("heart:jack", "club:5", "spade:3", "club:3"), level=2, inv=("spade:ace",), hp_max=30)
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.PRE_STRIKE
    assert rpg.legal(s) == {act(K.ACE_SPADE, 0, 0), PASS}
    kernel.apply_action(s, act(K.ACE_SPADE, 0, 0))
    assert rpg.bone(s) == [("heart:jack", True)]
    assert int(s["hero"]["hp"]) == 30
    assert rpg.events(s, E.MONSTER_ATTACK) == []


def test_r11_a_monster_out_of_attack_cards_loses_its_turn(rpg):
    _, s = rpg.make_state(hand=("spade:9",), monster="club:10", monster_hp=50, phase=Phase.MONSTER, hp_max=8)
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.PLAYER
    assert int(s["hero"]["hp"]) == 8


def test_r11_a_player_out_of_hand_cards_loses_the_turn_and_the_monster_strikes_again(rpg):
    _, s = rpg.make_state(
        monster="club:10", monster_hp=50, mpile=("heart:2", "spade:3"), phase=Phase.MONSTER, hp_max=20,
        draw=(*HAND5, "diamond:4"), strength=5,
    )  # fmt: skip
    kernel.advance(s)
    assert [int(e["value"]) for e in rpg.events(s, E.MONSTER_ATTACK)] == [2, 3]
    assert int(s["hero"]["hp"]) == 15
    # then both were out: fresh cards for both (R11), and the player's turn
    assert sorted(rpg.zone(s, "hand")) == sorted(HAND5)
    assert rpg.mpile(s) == ["diamond:4"]
    assert s["meta"]["phase"] == Phase.PLAYER


def test_r11_with_an_empty_hand_the_player_may_still_use_inventory_spades(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", monster="club:10", monster_hp=50, mpile=("heart:2",), inv=("spade:7",), phase=Phase.MONSTER
    )
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.PLAYER
    assert rpg.legal(s) == {act(K.SPADE, 0, 0), END}


@pytest.mark.parametrize(("monster", "pile"), [("club:10", 2), ("joker:1", 4)])
def test_r11_both_out_continue_deals_str_cards_and_a_fresh_attack_pile(rpg, monster, pile):
    top = ("spade:2", "heart:3", "club:4", "spade:5", "heart:6", "club:7", "club:8", "club:9", "heart:9", "spade:9")
    _, s = rpg.make_state(monster=monster, monster_hp=50, level=2, strength=5, draw=top, phase=Phase.MONSTER)
    kernel.monster_turn(s)
    assert rpg.zone(s, "hand") == list(top[:5])
    assert sorted(rpg.mpile(s)) == sorted(top[5 : 5 + pile])
    assert rpg.draw_pile(s) == list(top[5 + pile :])
    assert s["meta"]["phase"] == Phase.PLAYER


def test_r11_r16_both_out_needs_both_draws_in_full(rpg):
    top = ("spade:2", "heart:3", "club:4", "spade:5", "heart:6", "club:7")  # STR 5 + level 2 = 7 needed
    _, s = rpg.make_state(monster="club:10", monster_hp=50, level=2, strength=5, draw=top, phase=Phase.MONSTER)
    kernel.monster_turn(s)
    assert s["meta"]["phase"] == Phase.SESSION_END
    assert s["meta"]["end_reason"] == EndReason.DRAW_FAILED_FRESH_CARDS
    assert rpg.zone(s, "hand") == []
    assert rpg.draw_pile(s) == list(top)  # nothing drawn


def test_r11_both_out_forfeit_counts_as_a_death(rpg):
    params = Params(both_out=BothOut.FORFEIT)
    _, s = rpg.make_state(
        params, monster="club:10", monster_hp=50, xp=5, hero="spade:jack", phase=Phase.MONSTER, rest="draw"
    )
    kernel.monster_turn(s)
    assert rpg.bone(s) == [("club:10", False)]
    assert battle_row(s)["outcome"] == Outcome.FORFEIT
    assert int(s["hero"]["xp"]) == 0
    assert s["meta"]["phase"] == Phase.BETWEEN
    finish_session_by_quit(s)
    assert int(s["tally"]["games"][0]["deaths"]) == 1


def test_r1_r11_forfeit_under_one_life_ends_as_forfeit_one_life(rpg):
    params = Params(both_out=BothOut.FORFEIT, death_ends_session=1)
    for hero in ("spade:jack", "spade:king"):
        _, s = rpg.make_state(params, hero=hero, monster="club:10", monster_hp=50, phase=Phase.MONSTER, rest="draw")
        kernel.monster_turn(s)
        assert s["meta"]["phase"] == Phase.SESSION_END, hero
        assert s["meta"]["end_reason"] == EndReason.FORFEIT_ONE_LIFE, hero


def finish_session_by_quit(s) -> None:
    """Quit at the BETWEEN decision and close the session (one-session params)."""
    assert s["meta"]["phase"] == Phase.BETWEEN
    kernel.apply_action(s, QUIT)
    assert s["meta"]["phase"] == Phase.OVER
