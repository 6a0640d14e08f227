"""CardRPG Advanced rules, part 3: worked example E20 and rulings R1, R4-R6, R14-R16, R19, R22 (rulings/cardrpg.md).

Battle start, sessions ending on a draw that cannot be made in full, Aces in the Inventory, gold and
buying, tallies, runs and classes, the classic approximation and the no_ace_* counterfactuals.
Positions are built by hand on the real 54-card deck (``conftest.py``); the shared helpers are in
``rules_helpers.py``.
"""

import math

import numpy as np
import pytest

from sims.cardrpg import kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import (
    AceClubSet,
    ClassCard,
    EndReason,
    HandRefill,
    HpReset,
    MonsterKind,
    Outcome,
    Phase,
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
    index_of,
)

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
