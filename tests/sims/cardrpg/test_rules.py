"""CardRPG Advanced rules: worked examples E1-E20 and rulings R1-R22 (rulings/cardrpg.md).

Positions are built by hand on the real 54-card deck (checked against the rulebook in
test_pool.py), so cards are named as ``deck.csv`` names them; piles are listed top first,
as the rulings' examples list them. Rulings about flow (R1, R4, R19, R22) are also checked
on characters played from fixed seeds with the event log on.
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
    AceClubSet,
    BothOut,
    ClassCard,
    Dice,
    DicelessKingJoker,
    EndReason,
    FaceCombo,
    HandRefill,
    HpReset,
    Lane,
    MonsterHp,
    MonsterKind,
    Outcome,
    Phase,
    RandomAttackJoker,
    XpOverflow,
)
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import EventKind as E
from sims.cardrpg.state import encode as act
from sims.core import rng

HAND5 = ("spade:2", "heart:3", "club:4", "spade:5", "heart:6")  # a full hand for STR 5: no refill draws
END, QUIT, PASS = act(K.END, 0, 0), act(K.QUIT, 0, 0), act(K.PASS, 0, 0)


def attack(rank: int, count: int = 1) -> int:
    """Return the ATTACK action playing ``count`` hand cards of ``rank``."""
    return act(K.ATTACK, rank, count)


def die_of(name: str) -> int | None:
    """Return the die a card shows in diceless play (R20, E8), or None for a King or Joker (drawn again)."""
    rank = name.split(":")[1]
    if rank in ("jack", "queen"):
        return 6
    if rank in ("king", "joker") or name.startswith("joker"):
        return None
    return math.ceil((1 if rank == "ace" else int(rank)) / 2)


def battle_row(s):
    """Return the battle tally row of the current (or last) battle."""
    return s["tally"]["battles"][s["tally"]["row"]]


def finish(s) -> None:
    """Run the phases that need no decision (closing the session once it has ended)."""
    kernel.advance(s)


def index_of(s, zone: str, name: str, rpg) -> int:
    """Return the index of card ``name`` in ``zone`` (``inv`` or ``discard``)."""
    return rpg.zone(s, zone).index(name)


# -- E1-E3, R2: the character --------------------------------------------------------------------------------


def test_e1_new_character_sheet(rpg):
    _, s = rpg.new_character(seed=5)
    h = s["hero"]
    assert (int(h["level"]), int(h["xp"]), int(XP_NEXT[h["level"]]), int(h["gold"])) == (1, 0, 10, 0)
    g = s["tally"]["game"]
    assert (int(g["kills"]), int(g["deaths"]), int(g["jokers_killed"])) == (0, 0, 0)
    assert int(s["tally"]["n_sessions"]) == 0  # no session finished yet
    assert int(s["meta"]["session"]) == 0


def setup_dice(seed: int) -> tuple[int, int]:
    """Return the first two d6 of the SETUP lane of a character seeded with ``seed``."""
    lanes = np.zeros(len(Lane), np.uint64)
    rng.seed_lanes(lanes, np.uint64(seed))
    return int(rng.randint(lanes, Lane.SETUP, 6)) + 1, int(rng.randint(lanes, Lane.SETUP, 6)) + 1


def created(rpg, params: Params, seed: int):
    """Return ``s`` after ``create_character`` for character 0 seeded with ``seed``."""
    state = kernel.prepare(rpg.POOL.table, params, rpg.GAME.make_weights("greedy")[None, :], 1)
    s = state[0]
    kernel.reset(s, 0, np.uint64(seed))
    assert kernel.create_character(s, 0)
    return state, s


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


def battle_at(rpg, params: Params, top: tuple[str, ...], level: int = 1, **kw):
    """Return ``(state, s)`` about to start a battle: a full hand, ``top`` on the draw pile, the rest under it."""
    kw.setdefault("hand", HAND5)
    return rpg.make_state(params, level=level, draw=top, rest="draw", phase=Phase.BATTLE_START, **kw)


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


def monster_attack(rpg, pile, **kw):
    """Return ``s`` after the monster (a club:10, never a thief) attacks once from ``pile`` (top first)."""
    kw.setdefault("hp_max", 30)
    kw.setdefault("hand", ("spade:2",))
    _, s = rpg.make_state(monster=kw.pop("monster", "club:10"), mpile=pile, phase=Phase.MONSTER, **kw)
    kernel.monster_turn(s)
    return s


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


def hit(rpg, hand, rank: int, count: int = 1, top=(), params=None, **kw):
    """Return ``s`` after the player attacks a 50-HP monster with ``count`` hand cards of ``rank``."""
    _, s = rpg.make_state(params, hand=hand, draw=top, monster=kw.pop("monster", "club:10"), monster_hp=50, **kw)
    kernel.hand_attack(s, rank, count, False)
    return s


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


# -- E15, E16, R13: cards entering the Inventory -------------------------------------------------------------------


def test_e15_a_jack_character_makes_two_victory_draws_diamond_gold_and_face_card_under_the_pile(rpg):
    _, s = rpg.make_state(
        hero="heart:jack", hand=("spade:4",), monster="club:6", monster_hp=3,
        draw=("diamond:7", "heart:king", "club:2"), rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, attack(4))
    assert int(s["hero"]["gold"]) == 7
    assert rpg.zone(s, "inv") == []
    assert rpg.draw_pile(s)[0] == "club:2"
    assert rpg.draw_pile(s)[-3:] == ["spade:4", "diamond:7", "heart:king"]  # the attack card, then the draws
    assert [rpg.NAMES[e["card"]] for e in rpg.events(s, E.INVENTORY)] == ["diamond:7", "heart:king"]


def test_e15_a_queen_character_makes_one_victory_draw(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("spade:4",), monster="club:6", monster_hp=3,
        draw=("spade:8", "club:2"), rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, attack(4))
    assert rpg.zone(s, "inv") == ["spade:8"]
    assert rpg.draw_pile(s)[0] == "club:2"


@pytest.mark.parametrize(
    ("name", "inv", "gold", "bottom"),
    [
        ("spade:8", ["spade:8"], 0, None),
        ("diamond:7", [], 7, "diamond:7"),
        ("heart:ace", ["heart:ace"], 0, None),
        ("diamond:ace", ["diamond:ace"], 0, None),
        ("club:queen", [], 0, "club:queen"),
    ],
)
def test_r13_what_a_card_entering_the_inventory_does(rpg, name, inv, gold, bottom):
    _, s = rpg.make_state(draw=(name, "club:2"), gold=0)
    kernel.enter_inventory(s, kernel.draw_top(s))
    assert rpg.zone(s, "inv") == inv
    assert int(s["hero"]["gold"]) == gold
    assert rpg.draw_pile(s) == (["club:2", bottom] if bottom else ["club:2"])
    assert kernel.conserved(s)


def test_e16_a_joker_drawn_into_the_inventory_takes_the_inventory_but_the_ace_of_diamonds_and_the_discards_under(rpg):
    _, s = rpg.make_state(
        inv=("spade:5", "diamond:ace", "club:3"), draw=("joker:1", "heart:9", "club:2"),
        discard=("heart:4", "spade:10"), hand=("club:8",),
    )  # fmt: skip
    discards = set(rpg.zone(s, "discard"))
    assert len(discards) > 30
    kernel.enter_inventory(s, kernel.draw_top(s))
    assert kernel.conserved(s)
    assert rpg.zone(s, "inv") == ["diamond:ace"]
    assert rpg.zone(s, "discard") == []
    pile = rpg.draw_pile(s)
    assert pile[:2] == ["heart:9", "club:2"]  # the old draw pile stays on top
    assert sorted(pile[2:]) == sorted(discards | {"joker:1", "spade:5", "club:3"})
    assert rpg.zone(s, "hand") == ["club:8"]


def test_r13_cards_still_due_after_a_joker_are_taken(rpg):
    _, s = rpg.make_state(
        hero="heart:jack", hand=("spade:4",), monster="club:6", monster_hp=3, inv=("spade:9",),
        draw=("joker:1", "club:5", "club:2"), discard=("heart:10",),
    )  # fmt: skip
    kernel.apply_action(s, attack(4))
    assert rpg.zone(s, "inv") == ["club:5"]
    assert rpg.zone(s, "discard") == []
    assert rpg.draw_pile(s)[0] == "club:2"
    assert {"joker:1", "spade:9", "heart:10", "spade:4"} <= set(rpg.draw_pile(s))


def test_r13_bonus_cards_enter_before_the_victory_draw(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", inv=("spade:ace",), monster="club:king", monster_hp=20, bonus=("spade:3",),
        draw=("club:4",), rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, act(K.ACE_SPADE, 0, 0))
    assert rpg.zone(s, "inv") == ["spade:3", "club:4"]
    assert [rpg.NAMES[e["card"]] for e in rpg.events(s, E.INVENTORY)] == ["spade:3", "club:4"]


def test_classic_without_inventory_bonus_and_victory_cards_are_not_taken(rpg):
    """Variant ``classic`` (inventory = false): nothing enters the Inventory, so no gold either."""
    params = Params(inventory=0)
    _, s = rpg.make_state(
        params, hero="heart:queen", hand=("spade:9",), monster="club:king", monster_hp=5, bonus=("diamond:6",),
        draw=("club:4",), rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, attack(9))
    assert rpg.bone(s) == [("club:king", True)]
    assert rpg.zone(s, "inv") == []
    assert int(s["hero"]["gold"]) == 0
    assert rpg.draw_pile(s)[0] == "club:4"


# -- E17, R12: theft -----------------------------------------------------------------------------------------------


def thief(rpg, hero: str, monster: str, inv, **kw):
    """Return ``s`` after ``monster`` tries one theft from ``hero`` holding ``inv``."""
    _, s = rpg.make_state(hero=hero, monster=monster, inv=inv, phase=Phase.MONSTER, **kw)
    kernel.theft(s)
    return s


def test_e17_a_king_steals_the_lowest_card_of_a_spade_queen_own_suit_first(rpg):
    s = thief(rpg, "spade:queen", "heart:king", ("heart:4", "club:4", "spade:4", "spade:9"))
    assert rpg.zone(s, "inv") == ["heart:4", "club:4", "spade:9"]
    assert rpg.zone(s, "discard")[-1] == "spade:4"
    (ev,) = rpg.events(s, E.THEFT)
    assert int(ev["card"]) == rpg.card("spade:4")


def test_e17_a_joker_takes_aces_first_then_the_highest_card(rpg):
    """Also under NUMBA_DISABLE_JIT, where card values stay int8 and a theft key must not overflow."""
    s = thief(rpg, "spade:queen", "joker:1", ("heart:10", "spade:ace", "club:10"))
    assert rpg.zone(s, "discard")[-1] == "spade:ace"
    kernel.theft(s)
    assert rpg.zone(s, "discard")[-1] == "heart:10"
    assert rpg.zone(s, "inv") == ["club:10"]


def test_r12_face_thief_ties_without_the_class_suit_go_clubs_hearts_spades(rpg):
    s = thief(rpg, "diamond:queen", "heart:king", ("spade:4", "heart:4", "club:4", "heart:7"))
    order = [rpg.zone(s, "discard")[-1]]
    for _ in range(3):
        kernel.theft(s)
        order.append(rpg.zone(s, "discard")[-1])
    assert order == ["club:4", "heart:4", "spade:4", "heart:7"]


def test_r12_joker_ties_go_spades_hearts_clubs_then_the_class_suit(rpg):
    s = thief(rpg, "heart:queen", "joker:2", ("heart:10", "club:10", "spade:10", "spade:2"))
    order = [rpg.zone(s, "discard")[-1]]
    for _ in range(3):
        kernel.theft(s)
        order.append(rpg.zone(s, "discard")[-1])
    assert order == ["spade:10", "club:10", "heart:10", "spade:2"]


def test_r12_the_ace_of_diamonds_can_be_stolen(rpg):
    s = thief(rpg, "spade:queen", "heart:king", ("spade:2", "diamond:ace"))
    assert rpg.zone(s, "inv") == ["spade:2"]
    assert rpg.zone(s, "discard")[-1] == "diamond:ace"


THIEVES = {"jack": {"queen", "king", "joker"}, "queen": {"king", "joker"}, "king": {"queen", "joker"}}


@pytest.mark.parametrize("cls", ["jack", "queen", "king"])
@pytest.mark.parametrize("monster", ["jack", "queen", "king", "joker", "7", "ace"])
def test_r12_eligible_thieves_always_steal_and_no_one_else_does(rpg, cls, monster):
    name = "joker:1" if monster == "joker" else f"club:{monster}"
    s = thief(rpg, f"heart:{cls}", name, ("spade:4",))
    stolen = monster in THIEVES[cls]
    assert rpg.zone(s, "inv") == ([] if stolen else ["spade:4"])
    assert len(rpg.events(s, E.THEFT)) == int(stolen)


def test_r12_an_empty_inventory_loses_the_top_card_of_the_draw_pile(rpg):
    s = thief(rpg, "heart:jack", "club:king", (), draw=("spade:8", "club:2"))
    assert rpg.draw_pile(s) == ["club:2"]
    assert rpg.zone(s, "discard")[-1] == "spade:8"


def test_r12_an_empty_inventory_and_draw_pile_lose_nothing_and_the_session_goes_on(rpg):
    s = thief(rpg, "heart:jack", "club:king", ())
    assert s["meta"]["phase"] == Phase.MONSTER
    assert kernel.conserved(s)


def test_r12_theft_follows_the_damage_once_per_attack_even_for_a_chain(rpg):
    s = monster_attack(
        rpg, ("heart:queen", "diamond:king", "club:2"), hero="heart:jack", monster="club:king",
        inv=("spade:4", "spade:5", "spade:6"),
    )  # fmt: skip
    assert int(s["hero"]["hp"]) == 24
    assert rpg.zone(s, "inv") == ["spade:5", "spade:6"]
    assert len(rpg.events(s, E.THEFT)) == 1


def test_r12_no_theft_when_the_attack_kills(rpg):
    s = monster_attack(rpg, ("spade:9",), hero="club:jack", monster="club:king", hp=3, inv=("spade:4",))
    assert rpg.bone(s) == [("club:king", False)]
    assert rpg.events(s, E.THEFT) == []


def test_r12_theft_after_a_heart_save(rpg):
    s = monster_attack(rpg, ("spade:9",), hero="club:jack", monster="club:king", hp=3, inv=("heart:5", "spade:4"))
    assert int(s["hero"]["hp"]) == 5
    assert rpg.zone(s, "inv") == []  # the Heart saved, then the thief took spade:4
    assert len(rpg.events(s, E.THEFT)) == 1


def test_r12_theft_chance_zero_never_steals(rpg):
    _, s = rpg.make_state(Params(theft_chance_pct=0), hero="heart:jack", monster="club:king", inv=("spade:4",))
    for _ in range(20):
        kernel.theft(s)
    assert rpg.zone(s, "inv") == ["spade:4"]


def test_r12_theft_chance_half_steals_sometimes(rpg):
    stolen = 0
    for seed in range(1, 41):
        _, s = rpg.make_state(
            Params(theft_chance_pct=50), hero="heart:jack", monster="club:king", inv=("spade:4",), seed=seed
        )
        kernel.theft(s)
        stolen += rpg.zone(s, "inv") == []
    assert 5 < stolen < 35


# -- E18, R18: death ----------------------------------------------------------------------------------------------


def dead(rpg, hero: str, **kw):
    """Return ``s`` after ``hero`` (XP 6, 7 gold, a hand, an Inventory with the A-diamond) dies to a club:10."""
    _, s = rpg.make_state(
        hero=hero, xp=6, gold=7, hand=("spade:2", "heart:3", "club:4"), inv=("spade:5", "diamond:ace", "heart:8"),
        monster="club:10", mpile=("heart:2",), play=("spade:9",), bonus=("club:3",), hp=2, hp_max=8,
        phase=Phase.MONSTER, **kw,
    )  # fmt: skip
    kernel.death(s)
    return s


def lost_by_everyone(rpg, s) -> None:
    """Check what every class loses at a death (R18, E18)."""
    assert int(s["hero"]["gold"]) == 0
    assert rpg.zone(s, "inv") == ["diamond:ace"]
    assert rpg.bone(s) == [("club:10", False)]
    assert rpg.zone(s, "play") == rpg.zone(s, "bonus") == rpg.mpile(s) == []
    assert {"spade:5", "heart:8", "heart:2", "spade:9", "club:3"} <= set(rpg.zone(s, "discard"))
    assert kernel.conserved(s)


def test_e18_a_queen_keeps_her_xp_and_loses_her_hand(rpg):
    s = dead(rpg, "spade:queen")
    lost_by_everyone(rpg, s)
    assert int(s["hero"]["xp"]) == 6
    assert rpg.zone(s, "hand") == []
    assert s["meta"]["phase"] == Phase.BETWEEN
    assert int(s["hero"]["hp"]) == 8


def test_e18_a_jack_loses_xp_and_hand(rpg):
    s = dead(rpg, "spade:jack")
    lost_by_everyone(rpg, s)
    assert int(s["hero"]["xp"]) == 0
    assert rpg.zone(s, "hand") == []


@pytest.mark.parametrize(("choice", "kept"), [(K.KEEP, True), (K.PASS, False)])
def test_e18_a_king_may_keep_his_hand(rpg, choice, kept):
    s = dead(rpg, "spade:king")
    lost_by_everyone(rpg, s)
    assert int(s["hero"]["xp"]) == 0
    assert s["meta"]["phase"] == Phase.KING_KEEP
    assert rpg.legal(s) == {act(K.KEEP, 0, 0), PASS}
    kernel.apply_action(s, act(choice, 0, 0))
    assert s["meta"]["phase"] == Phase.BETWEEN
    assert rpg.zone(s, "hand") == (["spade:2", "heart:3", "club:4"] if kept else [])
    assert int(s["hero"]["hp"]) == 8


def test_r18_a_king_with_an_empty_hand_is_not_asked(rpg):
    _, s = rpg.make_state(hero="spade:king", monster="club:10", phase=Phase.MONSTER)
    kernel.death(s)
    assert s["meta"]["phase"] == Phase.BETWEEN


def test_r1_r18_one_life_the_first_death_ends_the_session(rpg):
    _, s = rpg.make_state(
        Params(death_ends_session=1), monster="club:10", mpile=("heart:9",), hp=3, phase=Phase.MONSTER
    )
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.OVER
    g = s["tally"]["games"][0]
    assert (int(g["end_reason"]), int(g["deaths"]), int(g["kills"])) == (EndReason.DEATH_ONE_LIFE, 1, 0)


def test_r18_play_resumes_with_a_summoning_sickness_deal(rpg):
    s = dead(rpg, "spade:jack", session=1, strength=5, draw=("club:2", "spade:3", "heart:4", "club:5"), rest="draw")
    kernel.apply_action(s, END)
    assert s["meta"]["phase"] in (Phase.PLAYER, Phase.MONSTER, Phase.PRE_STRIKE)
    assert rpg.zone(s, "hand") == ["club:2", "spade:3", "heart:4"]  # ceil(5/2)
    (deal,) = rpg.events(s, E.DEAL)
    assert int(deal["value"]) == 3


def test_r18_a_kings_kept_hand_gets_no_deal_and_no_top_up(rpg):
    s = dead(rpg, "spade:king", session=1, strength=5, draw=("club:2", "spade:3", "heart:4", "club:5"), rest="draw")
    kernel.apply_action(s, act(K.KEEP, 0, 0))
    kernel.apply_action(s, END)
    assert rpg.zone(s, "hand") == ["spade:2", "heart:3", "club:4"]
    assert rpg.events(s, E.DEAL) == []


def test_r4_r18_the_death_deal_happens_even_after_a_buyback_into_the_hand(rpg):
    """After a death the next battle uses the summoning-sickness deal, ceil(STR/2) cards (R4, R18).

    The A-diamond survives the death and pays one buy-back (R15); buying a card back into the
    hand between the death and the next battle must not cancel the deal.
    """
    s = dead(rpg, "spade:jack", session=1, strength=5, draw=("club:2", "spade:3", "heart:4", "club:5"), rest="draw")
    kernel.apply_action(s, act(K.BUYBACK, index_of(s, "discard", "heart:8", rpg), 0))
    assert rpg.zone(s, "hand") == ["heart:8"]
    kernel.apply_action(s, END)
    deals = [int(e["value"]) for e in rpg.events(s, E.DEAL)]
    assert deals == [3]
    assert rpg.zone(s, "hand") == ["heart:8", "club:2", "spade:3", "heart:4"]


# -- E19, R17: XP and levels ---------------------------------------------------------------------------------------


def kill_for_xp(rpg, params: Params | None = None, xp=8, level=1, monster="diamond:5", value=5, seed=1):
    """Return ``s`` after a Queen at ``level`` with ``xp`` kills ``monster`` (a number card) with a hand card."""
    _, s = rpg.make_state(
        params, hero="heart:queen", level=level, xp=xp, strength=4, hp_max=7, hand=(f"spade:{value}",),
        monster=monster, monster_hp=value, rest="draw", seed=seed,
    )  # fmt: skip
    kernel.apply_action(s, attack(value))
    return s


def test_e19_level_up_resets_xp_and_raises_str_and_hp_by_1_to_3(rpg):
    for seed in range(1, 15):
        s = kill_for_xp(rpg, seed=seed)
        h = s["hero"]
        assert (int(h["level"]), int(h["xp"]), int(XP_NEXT[h["level"]])) == (2, 0, 20)
        assert 1 <= int(h["str"]) - 4 <= 3
        assert 1 <= int(h["hp_max"]) - 7 <= 3
        (ev,) = rpg.events(s, E.LEVEL_UP)
        assert (int(ev["value"]), int(ev["extra"])) == (2, int(h["str"]))
        assert int(s["tally"]["game"]["level_ups"]) == 1


def test_e19_r17_xp_overflow_carry_keeps_the_excess(rpg):
    s = kill_for_xp(rpg, Params(xp_overflow=XpOverflow.CARRY))
    assert (int(s["hero"]["level"]), int(s["hero"]["xp"])) == (2, 3)


def test_r17_carry_can_gain_two_levels_at_once_lost_only_one(rpg):
    s = kill_for_xp(rpg, Params(xp_overflow=XpOverflow.CARRY), xp=28, value=7, monster="club:7")
    assert (int(s["hero"]["level"]), int(s["hero"]["xp"])) == (3, 5)
    s = kill_for_xp(rpg, xp=28, value=7, monster="club:7")
    assert (int(s["hero"]["level"]), int(s["hero"]["xp"])) == (2, 0)


@pytest.mark.parametrize("level", range(1, 10))
def test_e4_r17_xp_needed_for_each_level(rpg, level):
    need = [10, 20, 40, 60, 80, 110, 140, 170, 200][level - 1]
    _, s = rpg.make_state(level=level, xp=need - 1)
    kernel.level_up(s)
    assert int(s["hero"]["level"]) == level
    s["hero"]["xp"] = need
    kernel.level_up(s)
    assert int(s["hero"]["level"]) == level + 1


def test_r17_level_10_is_the_maximum(rpg):
    s = kill_for_xp(rpg, level=10, xp=199, value=9, monster="club:9")
    assert (int(s["hero"]["level"]), int(s["hero"]["xp"])) == (10, 208)


def test_r17_xp_for_a_number_monster_is_its_value(rpg):
    s = kill_for_xp(rpg, xp=0, value=7, monster="club:7")
    assert int(s["hero"]["xp"]) == 7
    (ev,) = rpg.events(s, E.VICTORY)
    assert (int(ev["value"]), int(ev["extra"])) == (7, 7)


def test_r17_xp_for_a_face_monster_is_its_starting_hp_not_what_is_left(rpg):
    _, s = battle_at(rpg, Params(monster_hp=MonsterHp.PRESET), ("heart:king",), level=2, inv=("spade:ace",))
    kernel.start_battle(s)
    s["monster"]["hp"] = 3  # wounded before the kill; level 2 needs 20 XP, so no level-up resets it
    kernel.apply_action(s, act(K.ACE_SPADE, 0, 0))
    assert int(s["hero"]["xp"]) == 12


def test_r17_after_a_kill_cards_in_play_and_the_attack_pile_go_under_the_draw_pile(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("spade:9", "heart:2"), play=("spade:3",), mpile=("heart:5", "club:5"),
        monster="diamond:9", monster_hp=9, draw=("club:8",),
    )  # fmt: skip
    kernel.apply_action(s, attack(9))
    assert rpg.mpile(s) == rpg.zone(s, "play") == []
    assert set(rpg.draw_pile(s)) == {"spade:3", "spade:9", "heart:5", "club:5"}  # club:8 was the victory draw
    assert rpg.zone(s, "inv") == ["club:8"]
    assert rpg.zone(s, "hand") == ["heart:2"]  # the hand is kept
    assert rpg.bone(s) == [("diamond:9", True)]
    assert s["meta"]["phase"] == Phase.BETWEEN


def test_r7_a_monster_at_exactly_0_hp_dies_and_at_1_lives(rpg):
    _, s = rpg.make_state(hand=("spade:7",), monster="club:10", monster_hp=7, rest="draw")
    kernel.apply_action(s, attack(7))
    assert rpg.bone(s) == [("club:10", True)]
    _, s = rpg.make_state(hand=("spade:7",), monster="club:10", monster_hp=8, rest="draw")
    kernel.hand_attack(s, 7, 1, False)
    assert int(s["monster"]["hp"]) == 1
    assert rpg.bone(s) == []


# -- R3: Aces outside the Inventory --------------------------------------------------------------------------------


def test_r3_an_ace_monster_has_no_bonus_cards_and_gives_1_xp(rpg):
    _, s = battle_at(rpg, Params(), ("club:ace", "spade:9", "heart:4"))
    kernel.start_battle(s)
    assert int(s["monster"]["kind"]) == MonsterKind.ACE
    assert rpg.zone(s, "bonus") == []
    assert rpg.mpile(s) == ["spade:9"]
    assert int(s["monster"]["xp"]) == 1


def test_r3_an_ace_played_from_hand_deals_1(rpg):
    s = hit(rpg, ("heart:ace", "club:ace"), 1, 2)
    assert int(s["monster"]["hp"]) == 48


# -- R4, R5, R6: battle start --------------------------------------------------------------------------------------


def test_r6_battle_setup_order_refill_monster_bonus_pile(rpg):
    top = ("club:8", "heart:9", "spade:queen", "club:3", "diamond:2", "spade:6")
    _, s = rpg.make_state(
        hero="heart:jack",
        hand=("spade:2", "heart:3", "club:4"),
        strength=5,
        draw=top,
        rest="draw",
        phase=Phase.BATTLE_START,
    )
    kernel.start_battle(s)
    assert rpg.zone(s, "hand") == ["spade:2", "heart:3", "club:4", "club:8", "heart:9"]
    assert rpg.NAMES[s["monster"]["card"]] == "spade:queen"
    assert rpg.zone(s, "bonus") == ["club:3"]
    assert rpg.mpile(s) == ["diamond:2"]
    assert rpg.draw_pile(s)[0] == "spade:6"
    assert int(battle_row(s)["hand_start"]) == 5


def test_r4_a_hand_larger_than_str_is_kept(rpg):
    hand = (*HAND5, "diamond:9", "diamond:8")
    _, s = rpg.make_state(hand=hand, strength=5, draw=("club:7",), rest="draw", phase=Phase.BATTLE_START)
    kernel.start_battle(s)
    assert rpg.zone(s, "hand") == list(hand)


def test_r4_both_out_only_variant_does_not_refill_at_a_battle_start(rpg):
    params = Params(hand_refill=HandRefill.BOTH_OUT_ONLY)
    _, s = rpg.make_state(
        params, hand=("spade:2",), strength=5, draw=("club:7", "heart:2"), rest="draw", phase=Phase.BATTLE_START
    )
    kernel.start_battle(s)
    assert rpg.zone(s, "hand") == ["spade:2"]
    assert rpg.NAMES[s["monster"]["card"]] == "club:7"


def test_r4_the_hand_is_not_refilled_during_a_battle(rpg):
    _, s = rpg.make_state(
        hand=("spade:9", "heart:2"), strength=5, monster="club:10", monster_hp=50, mpile=("heart:4", "club:2"),
        rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, attack(9))
    kernel.apply_action(s, END)
    assert rpg.zone(s, "hand") == ["heart:2"]


def test_r4_first_battle_of_the_first_session_deals_str_and_no_top_up(rpg):
    for seed in range(1, 6):
        _, s = rpg.new_character(seed=seed)
        strength = int(s["hero"]["str"])
        (deal,) = rpg.events(s, E.DEAL)
        assert int(deal["value"]) == strength
        assert int(battle_row(s)["hand_start"]) == strength


def test_r4_later_sessions_start_with_half_str_rounded_up(rpg):
    _, s, report = rpg.play_character(Params(n_sessions=3), "greedy", seed=4)
    assert report[1:].tolist() == [0, 0, 0]
    strength, session, seen = None, -1, []
    for e in rpg.events(s):
        if e["kind"] == E.CHARACTER:
            strength = int(e["value"])
        elif e["kind"] == E.LEVEL_UP:
            strength = int(e["extra"])
        elif e["kind"] == E.SESSION:
            session = int(e["value"])
        elif e["kind"] == E.DEAL and session >= 0:
            seen.append((session, int(e["value"]), strength))
            session = -1  # only the session's opening deal
    assert [x[0] for x in seen] == [0, 1, 2]
    assert seen[0][1] == seen[0][2]
    assert all(n == math.ceil(st / 2) for _, n, st in seen[1:])


def test_r5_hp_is_reset_to_max_at_each_battle_start(rpg):
    _, s = battle_at(rpg, Params(), ("club:7",), hp=2, hp_max=8)
    kernel.start_battle(s)
    assert int(s["hero"]["hp"]) == 8


def test_r5_hp_reset_never_keeps_the_damage(rpg):
    _, s = battle_at(rpg, Params(hp_reset=HpReset.NEVER), ("club:7",), hp=2, hp_max=8)
    kernel.start_battle(s)
    assert int(s["hero"]["hp"]) == 2


# -- E20, R16: a session ends when a required draw cannot be made in full ------------------------------------------


def test_e20_the_session_ends_when_the_attack_pile_cannot_be_dealt(rpg):
    _, s = rpg.make_state(hand=HAND5, strength=5, draw=("spade:king", "heart:2"), battle=0, phase=Phase.BATTLE_START)
    kernel.start_battle(s)
    assert s["meta"]["end_reason"] == EndReason.DRAW_FAILED_ATTACK_PILE
    assert rpg.zone(s, "bonus") == ["heart:2"]  # flip and bonus card used both cards
    assert rpg.draw_pile(s) == []
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.OVER
    g = s["tally"]["games"][0]
    assert int(g["end_reason"]) == EndReason.DRAW_FAILED_ATTACK_PILE
    assert (int(g["kills"]), int(g["deaths"]), int(g["battles"]), int(g["battles_abandoned"])) == (0, 0, 1, 1)
    assert s["tally"]["battles"][1]["outcome"] == Outcome.ABANDONED
    assert len(rpg.zone(s, "discard")) == 53  # every card but the class card
    assert kernel.conserved(s)


@pytest.mark.parametrize(
    ("hand", "top", "reason", "left"),
    [
        (("spade:2", "heart:3"), ("club:7", "heart:2"), EndReason.DRAW_FAILED_HAND, 2),
        (HAND5, (), EndReason.DRAW_FAILED_MONSTER, 0),
        (HAND5, ("joker:1", "heart:2"), EndReason.DRAW_FAILED_BONUS, 1),
        (HAND5, ("club:7",), EndReason.DRAW_FAILED_ATTACK_PILE, 0),
    ],
)
def test_r16_a_battle_start_draw_is_never_partial(rpg, hand, top, reason, left):
    _, s = rpg.make_state(hand=hand, strength=5, draw=top, phase=Phase.BATTLE_START)
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.SESSION_END
    assert s["meta"]["end_reason"] == reason
    assert int(s["piles"]["draw_n"]) == left
    assert rpg.zone(s, "hand") == list(hand)


def test_r16_the_draw_pile_may_run_down_to_zero_cards(rpg):
    _, s = rpg.make_state(hand=HAND5, strength=5, draw=("club:7", "heart:2"), phase=Phase.BATTLE_START)
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.PLAYER
    assert rpg.draw_pile(s) == []


def test_r16_a_failed_random_attack_draw_abandons_the_battle(rpg):
    _, s = rpg.make_state(hand=("spade:jack", "heart:4"), monster="club:10", monster_hp=50, mpile=("heart:9",))
    kernel.apply_action(s, attack(11))
    assert s["meta"]["phase"] == Phase.OVER
    g = s["tally"]["games"][0]
    assert int(g["end_reason"]) == EndReason.DRAW_FAILED_RANDOM_ATTACK
    assert (int(g["kills"]), int(g["deaths"]), int(g["battles_abandoned"])) == (0, 0, 1)
    assert kernel.conserved(s)


def test_r16_a_kill_stands_when_the_victory_draw_fails(rpg):
    _, s = rpg.make_state(hero="heart:queen", hand=("club:4",), inv=("spade:9",), monster="club:10", monster_hp=9)
    kernel.apply_action(s, act(K.SPADE, 0, 0))
    assert s["meta"]["phase"] == Phase.OVER
    g = s["tally"]["games"][0]
    assert int(g["end_reason"]) == EndReason.DRAW_FAILED_INVENTORY
    assert (int(g["kills"]), int(g["deaths"]), int(g["battles_abandoned"])) == (1, 0, 0)


def test_r16_a_victory_draw_may_take_the_last_card(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("club:4",), inv=("spade:9",), monster="club:10", monster_hp=9, draw=("heart:7",)
    )
    kernel.apply_action(s, act(K.SPADE, 0, 0))
    assert s["meta"]["phase"] == Phase.BETWEEN
    assert rpg.zone(s, "inv") == ["heart:7"]
    assert rpg.draw_pile(s) == []


def test_r1_the_battle_cap_ends_the_session(rpg):
    _, s = rpg.make_state(Params(max_battles=3), hand=HAND5, battle=3, rest="draw", phase=Phase.BATTLE_START)
    kernel.start_battle(s)
    assert s["meta"]["end_reason"] == EndReason.BATTLE_CAP


# -- R14: Aces in the Inventory ------------------------------------------------------------------------------------


def test_r14_the_ace_of_spades_kills_as_a_normal_victory_and_goes_under_the_draw_pile(rpg):
    _, s = rpg.make_state(
        hero="heart:queen", hand=("club:4",), inv=("spade:ace",), monster="club:9", monster_hp=9, draw=("heart:7",)
    )
    kernel.apply_action(s, act(K.ACE_SPADE, 0, 0))
    assert rpg.bone(s) == [("club:9", True)]
    assert int(s["hero"]["xp"]) == 9
    assert rpg.zone(s, "inv") == ["heart:7"]
    assert rpg.draw_pile(s) == ["spade:ace"]
    assert int(s["tally"]["game"]["ace_uses"]) == 1


def test_r14_no_ace_spades_counterfactual_removes_the_kill(rpg):
    params = rpg.GAME.make_params("no_ace_spades")
    _, s = rpg.make_state(params, hand=("club:4",), inv=("spade:ace",), monster="club:9")
    assert not any(a >> 12 == K.ACE_SPADE for a in rpg.legal(s))


def test_r14_whole_hand_reading_the_ace_of_clubs_plays_the_whole_hand_as_one_attack(rpg):
    """``ace_club_set = whole_hand`` (rules_version 1, RULES.md §7 Q1); the default lets the player choose."""
    params = Params(ace_club_set=AceClubSet.WHOLE_HAND)
    hand = ("spade:7", "heart:2", "diamond:9")
    _, s = rpg.make_state(params, hand=hand, inv=("club:ace",), monster="club:10", monster_hp=50)
    kernel.apply_action(s, act(K.ACE_CLUB, 0, 0))
    assert int(s["monster"]["hp"]) == 32
    (ev,) = rpg.events(s, E.PLAYER_ATTACK)
    assert int(ev["value"]) == 18
    assert rpg.zone(s, "hand") == rpg.zone(s, "inv") == []
    assert rpg.draw_pile(s)[-1] == "club:ace"


def test_r14_r15_the_ace_of_diamonds_pays_one_buyback_per_battle_and_is_never_spent(rpg):
    """The R15 ruling (``ace_diamond_buybacks = 1``); the rulebook's default sets no limit (test_readings)."""
    _, s = rpg.make_state(
        Params(ace_diamond_buybacks=1), inv=("diamond:ace",), hand=("spade:2",), monster="club:10", monster_hp=50,
        discard=("heart:9", "club:8"),
    )  # fmt: skip
    buybacks = {a for a in rpg.legal(s) if a >> 12 == K.BUYBACK}
    assert len(buybacks) == len(rpg.zone(s, "discard"))
    kernel.apply_action(s, act(K.BUYBACK, index_of(s, "discard", "club:8", rpg), 0))
    assert rpg.zone(s, "hand") == ["spade:2", "club:8"]
    assert rpg.zone(s, "inv") == ["diamond:ace"]
    assert int(s["hero"]["gold"]) == 0
    assert not any(a >> 12 == K.BUYBACK for a in rpg.legal(s))  # one per battle


def test_r15_the_luck_gem_pays_again_in_the_next_battle(rpg):
    _, s = rpg.make_state(
        Params(ace_diamond_buybacks=1), inv=("diamond:ace",), hand=HAND5, strength=5, discard=("heart:9",),
        rest="draw", phase=Phase.BATTLE_START,
    )  # fmt: skip
    s["meta"]["luck_used"] = 1
    assert not kernel.can_buyback(s)
    kernel.start_battle(s)
    assert kernel.can_buyback(s)


def test_r15_the_luck_gem_pays_before_gold(rpg):
    _, s = rpg.make_state(
        Params(ace_diamond_buybacks=1), inv=("diamond:ace",), gold=3, hand=("spade:2",), monster="club:10",
        discard=("heart:9", "club:8"),
    )  # fmt: skip
    kernel.apply_action(s, act(K.BUYBACK, index_of(s, "discard", "club:8", rpg), 0))
    assert int(s["hero"]["gold"]) == 3
    kernel.apply_action(s, act(K.BUYBACK, index_of(s, "discard", "heart:9", rpg), 0))
    assert int(s["hero"]["gold"]) == 2
    assert rpg.zone(s, "hand") == ["spade:2", "club:8", "heart:9"]


@pytest.mark.parametrize(("limit", "paid"), [(0, 0), (-1, 3)])
def test_r15_ace_diamond_buybacks_variant(rpg, limit, paid):
    _, s = rpg.make_state(
        Params(ace_diamond_buybacks=limit), inv=("diamond:ace",), hand=("spade:2",), monster="club:10",
        discard=("heart:9", "club:8", "club:6"),
    )  # fmt: skip
    for _ in range(3):
        buys = sorted(a for a in rpg.legal(s) if a >> 12 == K.BUYBACK)
        if not buys:
            break
        kernel.apply_action(s, buys[-1])
    assert len(rpg.zone(s, "hand")) == 1 + paid


def test_r14_a_diamond_character_may_sell_number_cards_for_their_value(rpg):
    _, s = rpg.make_state(
        hero="diamond:king", inv=("spade:7", "spade:ace", "club:3"), hand=("heart:2",), monster="club:10"
    )
    sells = {a for a in rpg.legal(s) if a >> 12 == K.SELL}
    assert sells == {act(K.SELL, 0, 0), act(K.SELL, 2, 0)}  # not the Ace
    kernel.apply_action(s, act(K.SELL, 0, 0))
    assert int(s["hero"]["gold"]) == 7
    assert rpg.zone(s, "inv") == ["spade:ace", "club:3"]
    assert rpg.zone(s, "discard")[-1] == "spade:7"
    _, s = rpg.make_state(hero="diamond:king", inv=("club:3",))  # between battles too
    assert act(K.SELL, 0, 0) in rpg.legal(s)


def test_r14_other_classes_cannot_sell(rpg):
    _, s = rpg.make_state(hero="club:king", inv=("spade:7", "club:3"), hand=("heart:2",), monster="club:10")
    assert not any(a >> 12 == K.SELL for a in rpg.legal(s))


# -- R15: gold and buying ------------------------------------------------------------------------------------------


def test_r15_a_buyback_costs_1_gold_and_goes_to_the_hand(rpg):
    _, s = rpg.make_state(gold=2, hand=("spade:2",), monster="club:10", discard=("heart:9",))
    kernel.apply_action(s, act(K.BUYBACK, index_of(s, "discard", "heart:9", rpg), 0))
    assert int(s["hero"]["gold"]) == 1
    assert rpg.zone(s, "hand") == ["spade:2", "heart:9"]
    assert "heart:9" not in rpg.zone(s, "discard")


def test_r15_buyback_destination_draw_pile_bottom(rpg):
    params = Params(buyback_destination=1)
    _, s = rpg.make_state(params, gold=2, hand=("spade:2",), monster="club:10", discard=("heart:9",), draw=("club:2",))
    kernel.apply_action(s, act(K.BUYBACK, index_of(s, "discard", "heart:9", rpg), 0))
    assert rpg.zone(s, "hand") == ["spade:2"]
    assert rpg.draw_pile(s) == ["club:2", "heart:9"]


def test_r15_no_gold_no_buyback(rpg):
    _, s = rpg.make_state(gold=0, hand=("spade:2",), monster="club:10", discard=("heart:9",))
    assert not any(a >> 12 == K.BUYBACK for a in rpg.legal(s))


def reveal(rpg, top: str, gold: int):
    """Return ``s`` after revealing ``top`` between battles with ``gold``."""
    _, s = rpg.make_state(gold=gold, draw=(top, "club:2"))
    assert act(K.REVEAL, 0, 0) in rpg.legal(s)
    kernel.apply_action(s, act(K.REVEAL, 0, 0))
    assert s["meta"]["phase"] == Phase.BUY
    assert int(s["meta"]["revealed"]) == rpg.card(top)
    return s


def test_r15_buying_the_revealed_top_card_costs_its_value(rpg):
    s = reveal(rpg, "spade:9", 9)
    assert rpg.legal(s) == {PASS, act(K.BUY, 0, 0)}
    kernel.apply_action(s, act(K.BUY, 0, 0))
    assert (rpg.zone(s, "inv"), int(s["hero"]["gold"])) == (["spade:9"], 0)
    assert rpg.draw_pile(s) == ["club:2"]
    assert s["meta"]["phase"] == Phase.BETWEEN


def test_r15_a_card_not_bought_is_discarded(rpg):
    s = reveal(rpg, "spade:9", 8)
    assert rpg.legal(s) == {PASS}
    kernel.apply_action(s, PASS)
    assert rpg.zone(s, "discard")[-1] == "spade:9"
    assert rpg.draw_pile(s) == ["club:2"]
    assert int(s["hero"]["gold"]) == 8


@pytest.mark.parametrize(("gold", "can"), [(19, False), (20, True)])
def test_r15_an_ace_costs_20(rpg, gold, can):
    s = reveal(rpg, "heart:ace", gold)
    assert (act(K.BUY, 0, 0) in rpg.legal(s)) == can
    if can:
        kernel.apply_action(s, act(K.BUY, 0, 0))
        assert (rpg.zone(s, "inv"), int(s["hero"]["gold"])) == (["heart:ace"], 0)


@pytest.mark.parametrize("top", ["heart:king", "club:jack", "joker:1"])
def test_r15_face_cards_and_jokers_cannot_be_bought_and_are_discarded_without_effect(rpg, top):
    s = reveal(rpg, top, 50)
    assert rpg.legal(s) == {PASS}
    discards = len(rpg.zone(s, "discard"))
    kernel.apply_action(s, PASS)
    assert rpg.zone(s, "discard")[-1] == top
    assert len(rpg.zone(s, "discard")) == discards + 1  # a Joker shuffles nothing
    assert (rpg.zone(s, "inv"), int(s["hero"]["gold"])) == ([], 50)


def test_r15_the_top_card_can_be_bought_between_battles_only(rpg):
    _, s = rpg.make_state(gold=30, hand=("spade:2",), monster="club:10", draw=("spade:9",))
    assert not any(a >> 12 in (K.REVEAL, K.BUY) for a in rpg.legal(s))


def test_r1_r15_gold_level_and_stats_carry_into_the_next_session(rpg):
    _, s = rpg.make_state(Params(n_sessions=2), gold=5, level=3, xp=7, strength=6, hp_max=11, inv=("spade:4",))
    s["meta"]["phase"] = Phase.SESSION_END
    kernel.close_session(s)
    kernel.store_session(s)
    s["meta"]["session"] = 1
    kernel.start_session(s)
    h = s["hero"]
    assert (int(h["gold"]), int(h["level"]), int(h["xp"]), int(h["str"]), int(h["hp_max"])) == (5, 3, 7, 6, 11)
    assert rpg.zone(s, "inv") == []  # the Inventory was discarded at the session's end
    assert len(rpg.zone(s, "hand")) == 3  # ceil(6/2)
    assert len(rpg.draw_pile(s)) == 50
    assert kernel.conserved(s)


# -- R19: tallies --------------------------------------------------------------------------------------------------


def test_r19_kills_deaths_and_jokers_are_counted_from_the_bone_pile(rpg):
    bones = (("spade:5", True), ("joker:1", True), ("heart:king", False), ("joker:2", False), ("club:3", True))
    _, s = rpg.make_state(bone=bones, hand=("spade:2",), inv=("club:9",), draw=("heart:4",))
    kernel.apply_action(s, QUIT)
    g = s["tally"]["games"][0]
    assert (int(g["kills"]), int(g["deaths"]), int(g["jokers_killed"])) == (3, 2, 1)
    assert int(g["end_reason"]) == EndReason.VOLUNTARY
    assert rpg.draw_pile(s) == ["heart:4"]
    assert len(rpg.zone(s, "discard")) == 52
    assert kernel.conserved(s)


def rows_by_session(out: dict):
    """Yield ``(games row, its battle rows)`` of a chunk."""
    games, turns = out["games"], out["turns"]
    for g in games:
        yield g, turns[turns["game"] == g["game"]]


@pytest.mark.parametrize("bot", ["random", "greedy", "planner"])
def test_r16_r19_session_rows_agree_with_their_battles(rpg, bot):
    out = rpg.chunk(Params(), bot, n=12, seed=7)
    assert len(out["games"]) == 12
    for g, rows in rows_by_session(out):
        outcomes = rows["outcome"]
        assert len(rows) == g["battles"]
        assert (outcomes == Outcome.WON).sum() == g["kills"]
        assert ((outcomes == Outcome.DIED) | (outcomes == Outcome.FORFEIT)).sum() == g["deaths"]
        won_jokers = (outcomes == Outcome.WON) & (rows["monster_kind"] == MonsterKind.JOKER)
        assert won_jokers.sum() == g["jokers_killed"]
        assert (outcomes[:-1] != Outcome.ABANDONED).all()
        assert g["battles_abandoned"] == int(len(rows) > 0 and outcomes[-1] == Outcome.ABANDONED)
        if g["battles_abandoned"]:
            assert g["end_reason"] <= EndReason.DRAW_FAILED_DICE


# -- R1, R22: runs, classes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", ["random", "greedy", "planner"])
def test_r1_bots_play_on_after_deaths_and_never_quit(rpg, bot):
    out = rpg.chunk(Params(), bot, n=12, seed=3)
    assert EndReason.VOLUNTARY not in set(out["games"]["end_reason"].tolist())
    played_on = False
    for _, rows in rows_by_session(out):
        died = np.flatnonzero(rows["outcome"] == Outcome.DIED)
        played_on |= len(died) > 0 and died[0] < len(rows) - 1
    assert played_on


def test_r1_campaign_sessions_carry_the_character(rpg):
    out = rpg.chunk(Params(n_sessions=3), "greedy", n=6, seed=2)
    games = out["games"]
    assert len(games) == 18
    for ch in range(6):
        rows = games[games["character_id"] == ch]
        assert rows["session_index"].tolist() == [0, 1, 2]
        assert rows["game"].tolist() == [3 * ch, 3 * ch + 1, 3 * ch + 2]
        assert rows["level_start"][1:].tolist() == rows["level_end"][:-1].tolist()
        assert len(set(rows["class_card"].tolist())) == 1


def test_r1_max_battles_caps_each_session(rpg):
    out = rpg.chunk(Params(max_battles=2), "greedy", n=12, seed=2)
    games = out["games"]
    assert (games["battles"] <= 2).all()
    capped = games["end_reason"] == EndReason.BATTLE_CAP
    assert capped.any()
    assert (games["battles"][capped] == 2).all()


def test_r1_one_life_sessions_end_at_the_first_death(rpg):
    out = rpg.chunk(rpg.GAME.make_params("adventure"), "greedy", n=12, seed=2)
    games = out["games"]
    assert (games["deaths"] <= 1).all()
    died = games["deaths"] == 1
    assert died.any()
    assert set(games["end_reason"][died].tolist()) <= {EndReason.DEATH_ONE_LIFE, EndReason.FORFEIT_ONE_LIFE}


def test_r22_the_sweep_plays_class_g_mod_12(rpg):
    out = rpg.chunk(Params(), "greedy", n=24, seed=1, tables=("games",))
    games = out["games"]
    assert games["character_id"].tolist() == list(range(24))
    for g in games:
        k = int(g["character_id"]) % 12
        assert int(g["class_card"]) == 1 + k
        assert (int(g["class_suit"]), int(g["class_rank"])) == (k // 3, 11 + k % 3)  # J, Q, K of each suit
    assert ClassCard(int(games["class_card"][0])) == ClassCard.SPADE_JACK


def test_r22_a_chosen_class_is_played_by_every_character(rpg):
    out = rpg.chunk(Params(class_card=ClassCard.HEART_KING), "greedy", n=5, seed=1, tables=("games",))
    assert set(out["games"]["class_card"].tolist()) == {ClassCard.HEART_KING}


@pytest.mark.parametrize("character", [0, 4, 11])
def test_r22_the_class_card_is_out_of_the_deck(rpg, character):
    _, s = rpg.new_character(seed=3, character=character)
    h = s["hero"]
    assert int(h["class_card"]) == 1 + character % 12
    name = rpg.NAMES[h["class_id"]]
    assert name.split(":")[1] in ("jack", "queen", "king")
    zones = [rpg.draw_pile(s), rpg.mpile(s), [n for n, _ in rpg.bone(s)]]
    zones += [rpg.zone(s, z) for z in ("hand", "inv", "discard", "bonus", "play")]
    everywhere = [c for z in zones for c in z]
    if s["monster"]["card"] >= 0:
        everywhere.append(rpg.NAMES[s["monster"]["card"]])
    assert name not in everywhere
    assert sorted(everywhere) == sorted(set(rpg.NAMES) - {name})  # the other 53, each once


# -- classic (a labelled approximation, Variants table) -------------------------------------------------------------


def test_classic_sweeps_16_classes_aces_included(rpg):
    out = rpg.chunk(rpg.GAME.make_params("classic"), "greedy", n=16, seed=1, tables=("games",))
    games = out["games"]
    assert games["class_card"].tolist() == list(range(1, 17))
    aces = games[games["class_card"] >= ClassCard.SPADE_ACE]
    assert aces["class_rank"].tolist() == [1, 1, 1, 1]
    assert aces["class_suit"].tolist() == [0, 1, 2, 3]


def test_classic_stats_are_each_a_d6_with_1s_and_2s_rolled_again(rpg):
    params = rpg.GAME.make_params("classic")
    stats = set()
    for seed in range(1, 80):
        _, s = created(rpg, params, seed)
        stats.add((int(s["hero"]["str"]), int(s["hero"]["hp_max"])))
    assert {st for st, _ in stats} == {3, 4, 5, 6}
    assert {hp for _, hp in stats} == {3, 4, 5, 6}


def test_classic_sessions_gain_no_inventory_and_no_gold(rpg):
    out = rpg.chunk(rpg.GAME.make_params("classic"), "greedy", n=12, seed=2)
    assert out["games"]["kills"].sum() > 0
    assert (out["turns"]["inventory_size"] == 0).all()
    assert (out["games"]["gold_end"] == 0).all()
    assert (out["games"]["jokers_killed"] == 0).all()


# -- the no_ace_* counterfactuals switch one Ace power off -----------------------------------------------------------


def test_no_ace_hearts_the_ace_of_hearts_no_longer_survives_a_joker(rpg):
    params = rpg.GAME.make_params("no_ace_hearts")
    _, s = rpg.make_state(params, monster="club:10", mpile=("joker:1",), inv=("heart:ace",), phase=Phase.MONSTER)
    kernel.monster_turn(s)
    assert rpg.bone(s) == [("club:10", False)]


def test_no_ace_diamonds_no_free_buyback_and_the_ace_is_lost_at_death(rpg):
    params = rpg.GAME.make_params("no_ace_diamonds")
    _, s = rpg.make_state(params, monster="club:10", hand=("spade:2",), inv=("diamond:ace",), discard=("heart:9",))
    assert not any(a >> 12 == K.BUYBACK for a in rpg.legal(s))
    kernel.death(s)
    assert rpg.zone(s, "inv") == []


def test_no_ace_clubs_no_blitz(rpg):
    params = rpg.GAME.make_params("no_ace_clubs")
    _, s = rpg.make_state(params, monster="club:10", hand=("spade:2", "heart:5"), inv=("club:ace",))
    assert not any(a >> 12 == K.ACE_CLUB for a in rpg.legal(s))
    _, s = rpg.make_state(monster="club:10", hand=("spade:2", "heart:5"), inv=("club:ace",))
    assert act(K.ACE_CLUB, 0, 0) in rpg.legal(s)
