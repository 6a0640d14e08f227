"""CardRPG Advanced rules, part 2: worked examples E15-E19 and rulings R3, R12, R13, R17, R18 (rulings/cardrpg.md).

Cards entering the Inventory, theft, death, XP and levels, Aces outside the Inventory. Positions are
built by hand on the real 54-card deck (``conftest.py``), piles listed top first; the shared helpers are
in ``rules_helpers.py``.
"""

import pytest

from sims.cardrpg import kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import (
    XP_NEXT,
    EndReason,
    MonsterHp,
    MonsterKind,
    Phase,
    XpOverflow,
)
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import EventKind as E
from sims.cardrpg.state import encode as act
from tests.sims.cardrpg.rules_helpers import (
    END,
    PASS,
    attack,
    battle_at,
    hit,
    index_of,
    monster_attack,
)

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
