"""CardRPG: the settled questions revised in rules_version 2 (RULES.md §7), each reading and its old value.

Q1 the A-club plays any set of hand cards (R14); Q4 after both sides run out the turns go
on alternating; Q9 a Jack's two victory cards are drawn one at a time (R13); Q13 an empty
hand may buy a card back ("at any time"); the A-diamond pays any number of buy-backs (the
rulebook sets no limit; the R15 ruling's one per battle is ``luck_gem_once``). The old
readings together are the ``first_reading`` variant.
"""

import pytest

from sims.cardrpg import bots, estimates, kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import (
    AceClubSet,
    BothOutOrder,
    BuybackDestination,
    EmptyHand,
    EndReason,
    JackDraws,
    Phase,
)
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import EventKind as E
from sims.cardrpg.state import encode as act

END = act(K.END, 0, 0)


def attack(rank: int, count: int = 1) -> int:
    """Return the ATTACK action of ``count`` cards of ``rank`` (in BLITZ: add them to the A-club's attack)."""
    return act(K.ATTACK, rank, count)


def choose(rpg, s, bot: str) -> int:
    """Return the bot's choice in ``s``, with the legal list filled in as ``play_character`` fills it."""
    s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
    return bots.choose(rpg.GAME.bots.index(bot), s)


def test_rules_version_2_and_the_first_reading_variant(rpg):
    assert rpg.GAME.rules_version == "2"
    old = rpg.GAME.make_params("first_reading")
    assert (old.ace_club_set, old.empty_hand, old.both_out_order, old.jack_draws, old.ace_diamond_buybacks) == (
        AceClubSet.WHOLE_HAND, EmptyHand.LOSE_TURN, BothOutOrder.FIRST_STRIKER, JackDraws.BOTH_OR_NONE, 1,
    )  # fmt: skip
    new = rpg.GAME.make_params("advanced")
    assert (new.ace_club_set, new.empty_hand, new.both_out_order, new.jack_draws, new.ace_diamond_buybacks) == (
        AceClubSet.ANY_SET, EmptyHand.BUY_BACK, BothOutOrder.ALTERNATE, JackDraws.ONE_AT_A_TIME, -1,
    )  # fmt: skip
    assert rpg.GAME.make_params("luck_gem_once") == new._replace(ace_diamond_buybacks=1)


# -- Q1: the A-club plays any set of hand cards (R14) ----------------------------------------------------------------


def test_q1_the_ace_of_clubs_lets_the_player_choose_any_set_as_one_attack(rpg):
    hand = ("spade:7", "heart:2", "diamond:9")
    _, s = rpg.make_state(hand=hand, inv=("club:ace",), monster="club:10", monster_hp=50)
    kernel.apply_action(s, act(K.ACE_CLUB, 0, 0))
    assert s["meta"]["phase"] == Phase.BLITZ
    assert rpg.legal(s) == {attack(2), attack(7), attack(9)}  # no END before a card is chosen
    kernel.apply_action(s, attack(7))
    kernel.apply_action(s, attack(9))
    assert rpg.legal(s) == {attack(2), END}
    assert rpg.zone(s, "hand") == list(hand)  # chosen cards stay in hand until the attack
    kernel.apply_action(s, END)
    assert int(s["monster"]["hp"]) == 34
    (ev,) = rpg.events(s, E.PLAYER_ATTACK)
    assert int(ev["value"]) == 16
    assert rpg.zone(s, "hand") == ["heart:2"]
    assert rpg.draw_pile(s)[-1] == "club:ace"
    assert s["meta"]["phase"] == Phase.PLAYER
    assert int(s["meta"]["attacks_left"]) == 0  # the blitz was the turn's hand attack
    assert rpg.legal(s) == {END}


def test_q1_a_blitz_may_mix_face_cards_and_numbers_and_kill(rpg):
    _, s = rpg.make_state(
        hand=("heart:king", "spade:7", "club:7"), inv=("club:ace",), monster="club:10", monster_hp=12,
        draw=("club:5",), rest="draw",
    )  # fmt: skip
    kernel.apply_action(s, act(K.ACE_CLUB, 0, 0))
    kernel.apply_action(s, attack(13))
    kernel.apply_action(s, attack(7, 1))
    kernel.apply_action(s, END)
    assert rpg.bone(s) == [("club:10", True)]  # the King turned up the 5: 5 + 7 = 12
    assert rpg.zone(s, "hand") == ["club:7"]


def test_q1_several_cards_of_a_rank_are_chosen_in_one_step_or_more(rpg):
    _, s = rpg.make_state(hand=("spade:4", "heart:4", "club:4"), inv=("club:ace",), monster="club:10", monster_hp=50)
    kernel.apply_action(s, act(K.ACE_CLUB, 0, 0))
    assert rpg.legal(s) == {attack(4, 1), attack(4, 2), attack(4, 3)}
    kernel.apply_action(s, attack(4, 2))
    assert rpg.legal(s) == {attack(4, 1), END}
    kernel.apply_action(s, END)
    assert int(s["monster"]["hp"]) == 42
    assert rpg.zone(s, "hand") == ["club:4"]


def test_q1_whole_hand_reading_needs_no_choice(rpg):
    params = Params(ace_club_set=AceClubSet.WHOLE_HAND)
    _, s = rpg.make_state(params, hand=("spade:7", "heart:2"), inv=("club:ace",), monster="club:10", monster_hp=50)
    kernel.apply_action(s, act(K.ACE_CLUB, 0, 0))
    assert s["meta"]["phase"] == Phase.PLAYER
    assert int(s["monster"]["hp"]) == 41
    assert rpg.zone(s, "hand") == []


def test_q1_greedy_blitzes_with_every_card_and_the_planner_with_the_fewest_that_kill(rpg):
    hand = ("spade:10", "heart:9", "diamond:3")  # against a King of 13 HP: no single combo kills
    for bot, chosen, hp_left, kept in (("greedy", (3, 9, 10), -9, []), ("planner", (3, 10), 0, ["heart:9"])):
        _, s = rpg.make_state(hand=hand, inv=("club:ace",), monster="heart:king", monster_hp=13, rest="draw", bot=bot)
        assert choose(rpg, s, bot) == act(K.ACE_CLUB, 0, 0), bot
        kernel.apply_action(s, act(K.ACE_CLUB, 0, 0))
        for rank in chosen:
            assert choose(rpg, s, bot) == attack(rank), bot
            kernel.apply_action(s, attack(rank))
        assert choose(rpg, s, bot) == END, bot
        kernel.apply_action(s, END)
        assert rpg.bone(s) == [("heart:king", True)], bot
        assert int(s["monster"]["hp"]) == hp_left, bot
        assert rpg.zone(s, "hand") == kept, bot


@pytest.mark.parametrize(("hp", "target"), [(13, {10: 1, 3: 1}), (16, {10: 1, 9: 1}), (30, {10: 1, 9: 1, 3: 1, 13: 1})])
def test_q1_the_planners_blitz_target(rpg, hp, target):
    _, s = rpg.make_state(hand=("spade:10", "heart:9", "diamond:3", "club:king"), monster="heart:king", monster_hp=hp)
    assert {r: estimates.blitz_target(s, r) for r in range(1, 15) if estimates.blitz_target(s, r)} == target


# -- Q4: after both sides run out, the turns go on alternating (R11) ------------------------------------------------


@pytest.mark.parametrize(
    ("order", "phase"), [(BothOutOrder.ALTERNATE, Phase.PLAYER), (BothOutOrder.FIRST_STRIKER, Phase.MONSTER)]
)
def test_q4_after_both_out_against_a_jack_the_player_strikes_next(rpg, order, phase):
    """The monster's turn came up with no cards and is lost: fresh cards, then the player (not the Jack again)."""
    top = ("spade:2", "heart:3", "club:4", "spade:5", "heart:6", "club:7")
    _, s = rpg.make_state(
        Params(both_out_order=order), monster="heart:jack", monster_hp=50, strength=5, draw=top, rest="draw",
        phase=Phase.MONSTER,
    )  # fmt: skip
    assert s["meta"]["jack_first"] == 1
    kernel.monster_turn(s)
    assert rpg.zone(s, "hand") == list(top[:5])
    assert rpg.mpile(s) == ["club:7"]
    assert s["meta"]["phase"] == phase


def test_q4_against_other_monsters_both_readings_give_the_player_the_next_turn(rpg):
    for order in BothOutOrder:
        _, s = rpg.make_state(Params(both_out_order=order), monster="club:10", monster_hp=50, rest="draw")
        s["meta"]["phase"] = Phase.MONSTER
        kernel.monster_turn(s)
        assert s["meta"]["phase"] == Phase.PLAYER, order


# -- Q9: a Jack's two victory cards, one at a time (R13, R16) --------------------------------------------------------


def jack_kill(rpg, params: Params, last: str):
    """Return ``s`` after a Jack kills with a Spade, the draw pile holding only ``last`` (kernel.use_spade)."""
    _, s = rpg.make_state(
        params, hero="spade:jack", hand=("club:4",), inv=("spade:9",), monster="club:10", monster_hp=9, draw=(last,)
    )
    kernel.use_spade(s, 0)
    return s


def test_q9_a_face_card_first_goes_under_the_pile_and_is_drawn_again_as_the_second_card(rpg):
    s = jack_kill(rpg, Params(), "heart:king")
    assert s["meta"]["phase"] == Phase.BETWEEN
    assert rpg.draw_pile(s) == ["heart:king"]
    inventory = [rpg.NAMES[int(e["card"])] for e in rpg.events(s, E.INVENTORY)]
    assert inventory == ["heart:king", "heart:king"]


def test_q9_a_number_card_first_is_kept_when_the_second_draw_fails(rpg):
    s = jack_kill(rpg, Params(), "club:7")
    assert s["meta"]["phase"] == Phase.SESSION_END
    assert s["meta"]["end_reason"] == EndReason.DRAW_FAILED_INVENTORY
    assert rpg.zone(s, "inv") == ["club:7"]
    assert rpg.bone(s) == [("club:10", True)]


@pytest.mark.parametrize("last", ["heart:king", "club:7"])
def test_q9_both_or_none_reading_takes_neither_card(rpg, last):
    s = jack_kill(rpg, Params(jack_draws=JackDraws.BOTH_OR_NONE), last)
    assert s["meta"]["end_reason"] == EndReason.DRAW_FAILED_INVENTORY
    assert rpg.zone(s, "inv") == []
    assert rpg.draw_pile(s) == [last]


# -- Q13: an empty hand may buy a card back ("gold can be used at any time") ---------------------------------------


def empty_handed(rpg, params: Params, **kw):
    """Return ``s`` at the start of an empty-handed player turn (``begin_player_turn``)."""
    _, s = rpg.make_state(params, monster="club:10", monster_hp=30, discard=("heart:9",), rest="draw", **kw)
    kernel.begin_player_turn(s)
    return s


def test_q13_an_empty_hand_with_gold_keeps_the_turn_and_buys_back(rpg):
    s = empty_handed(rpg, Params(), gold=1)
    assert s["meta"]["phase"] == Phase.PLAYER
    assert rpg.legal(s) == {act(K.BUYBACK, 0, 0), END}
    kernel.apply_action(s, act(K.BUYBACK, 0, 0))
    assert rpg.legal(s) == {attack(9)}  # a card in hand must be played (R8)
    kernel.apply_action(s, attack(9))
    assert int(s["monster"]["hp"]) == 21


def test_q13_the_ace_of_diamonds_also_keeps_an_empty_handed_turn(rpg):
    s = empty_handed(rpg, Params(), inv=("diamond:ace",))
    assert s["meta"]["phase"] == Phase.PLAYER


@pytest.mark.parametrize(
    "params",
    [
        Params(empty_hand=EmptyHand.LOSE_TURN),  # rules_version 1
        Params(buyback_destination=BuybackDestination.DRAW_PILE_BOTTOM),  # a buy-back cannot refill the hand
    ],
)
def test_q13_the_turn_is_lost_when_no_buy_back_can_refill_the_hand(rpg, params):
    assert empty_handed(rpg, params, gold=1)["meta"]["phase"] == Phase.MONSTER


def test_q13_without_gold_or_the_ace_of_diamonds_the_turn_is_lost(rpg):
    assert empty_handed(rpg, Params())["meta"]["phase"] == Phase.MONSTER


# -- the A-diamond: any number of buy-backs (rulebook), one per battle (R15 ruling) ---------------------------------


@pytest.mark.parametrize(("variant", "free"), [("advanced", 3), ("luck_gem_once", 1)])
def test_the_ace_of_diamonds_pays_every_buy_back_unless_luck_gem_once(rpg, variant, free):
    params = rpg.GAME.make_params(variant)
    _, s = rpg.make_state(
        params, inv=("diamond:ace",), gold=5, hand=("spade:2",), monster="club:10", monster_hp=50,
        discard=("heart:9", "club:8", "club:6"), rest="draw",
    )  # fmt: skip
    for _ in range(3):
        kernel.apply_action(s, act(K.BUYBACK, 0, 0))
    assert int(s["hero"]["gold"]) == 5 - (3 - free)
    assert rpg.zone(s, "inv") == ["diamond:ace"]
    assert len(rpg.zone(s, "hand")) == 4
