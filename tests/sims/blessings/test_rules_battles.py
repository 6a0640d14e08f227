"""Blessings & Curses rules, part 2: worked examples E7-E11, E13, E14 and rulings R10-R19 (rulings/blessings.md).

Destroyed cards, empty decks and battle loss by exhaustion, battle loss, surrender, the
winner's bonus, the start-of-battle pools, Health and caps. Positions are built by hand on
the real card table (``conftest.py``); shared helpers: ``rules_helpers.py``.
"""

import pytest

from sims.blessings import kernel
from sims.blessings.params import Params
from sims.blessings.state import ActionKind as K
from sims.blessings.state import (
    BattleEnd,
    DestroyedCards,
    EndReason,
    EventKind,
    Phase,
    PoolTarget,
    Surrender,
    action_kind,
)
from sims.blessings.state import encode as act
from tests.sims.blessings.rules_helpers import (
    DECK0,
    DECK1,
    FIRST_READING,
    FIVE,
    attack_position,
    battle_row,
    ended_battle,
)

# -- R10, R11, E11: destroyed cards, empty decks, battle loss by exhaustion ----------------------------------------


def test_r10_out_for_battle_an_attacked_card_goes_to_the_destroyed_pile(bl):
    _, s = attack_position(bl, "heart:10")
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert bl.pile(s, "gone", 1) == ["spade:2"]
    assert bl.pile(s, "discard", 1) == []
    assert bl.pile(s, "discard", 0) == ["heart:10"]  # the attacker is discarded as played


def test_r10_recycle_an_attacked_card_goes_to_the_discard_pile(bl):
    _, s = attack_position(bl, "heart:10", Params(destroyed_cards=DestroyedCards.RECYCLE))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert bl.pile(s, "discard", 1) == ["spade:2"]
    assert bl.pile(s, "gone", 1) == []


@pytest.mark.parametrize(
    ("mode", "zone"), [(DestroyedCards.OUT_FOR_BATTLE, "gone"), (DestroyedCards.RECYCLE, "discard")]
)
def test_r10_cards_destroyed_by_curses_go_to_the_destroyed_pile_or_recycle(bl, mode, zone):
    _, s = bl.make_state(Params(destroyed_cards=mode), hands=((), FIVE), curse=(0, 45))
    kernel.apply_pools(s, 1)
    assert bl.pile(s, zone, 1) == ["spade:2", "spade:3"]


def test_r10_destroyed_cards_come_back_at_the_next_battle(bl):
    _, s = bl.make_state(
        hands=(["heart:2"], ["club:2"]),
        decks=(DECK0[1:], DECK1[1:]),
        gone=(["diamond:5", "diamond:6"], ["spade:5"]),
        phase=Phase.BATTLE_START,
    )
    kernel.start_battle(s)
    q = s["piles"]
    assert q["gone_n"].tolist() == [0, 0]
    for p in range(2):
        held = sorted([*bl.pile(s, "deck", p), *bl.hand(s, p)])
        assert held == sorted(bl.POOL.names[c] for c in q["owned"][p, : q["owned_n"][p]])
    assert "spade:5" in [*bl.pile(s, "deck", 1), *bl.hand(s, 1)]


def exhaustion_position(bl, params: Params | None = None):
    """Seat 0's heart:10 is about to destroy seat 1's last card (no deck, no discard pile)."""
    return bl.make_state(params, hands=(["heart:10"], ["spade:2"]), decks=(["club:5", "diamond:8"], []))


def test_e11_out_for_battle_a_seat_left_without_cards_after_a_turn_loses_the_battle(bl):
    _, s = exhaustion_position(bl)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"]) == (0, BattleEnd.EXHAUSTION)
    assert row["winner_bonus"] == 8  # the replacement diamond:8 is rightmost (E9)
    assert s["pools"]["wins"].tolist() == [1, 0]
    assert s["meta"]["battle"] == 2  # play went on to the next battle


def test_e11_recycle_the_same_kill_leaves_the_card_in_play_and_the_battle_goes_on(bl):
    _, s = exhaustion_position(bl, Params(destroyed_cards=DestroyedCards.RECYCLE))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert (s["meta"]["battle"], s["meta"]["mover"], s["meta"]["phase"]) == (1, 0, Phase.SURRENDER_END)
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))  # pass the turn
    assert (s["meta"]["battle"], s["meta"]["mover"], s["meta"]["phase"]) == (1, 1, Phase.SURRENDER)
    assert bl.pile(s, "discard", 1) == ["spade:2"]
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))  # the turn draw reshuffles it back
    assert bl.hand(s, 1) == ["spade:2"]


def test_e11_recycle_battles_end_only_by_surrender_or_the_turn_cap(bl):
    params = Params(destroyed_cards=DestroyedCards.RECYCLE, max_turns_per_battle=40, max_battles=4)
    battles = bl.chunk(params, ("random", "random"), n=8, seed=3)["turns"]
    hows = set(battles["how"].tolist())
    assert BattleEnd.EXHAUSTION not in hows
    assert hows == {BattleEnd.SURRENDER, BattleEnd.TURN_CAP}


def test_e11_recycle_hand_deck_and_discard_always_hold_every_card(bl):
    from sims.blessings import bots

    params = Params(destroyed_cards=DestroyedCards.RECYCLE, surrender=Surrender.NEVER, max_turns_per_battle=60)
    _state, s = bl.new_game(params, bots=("greedy", "tactician"), seed=12)
    q = s["piles"]
    steps = 0
    while s["meta"]["phase"] != Phase.OVER and steps < 2000:
        kernel.apply_action(s, bots.choose(int(s["meta"]["bots"][s["meta"]["mover"]]), s))
        steps += 1
        for p in range(2):
            assert q["gone_n"][p] == 0
            assert q["hand_n"][p] + q["deck_n"][p] + q["discard_n"][p] == 52
    assert s["tally"]["seats"]["cards_destroyed"].sum() > 0  # attacks did destroy cards
    assert steps > 100


def test_r11_an_empty_deck_is_refilled_from_the_discard_pile_never_the_destroyed_pile(bl):
    _, s = bl.make_state(
        hands=(["spade:2"], ["club:2"]),
        discards=(["heart:4", "heart:5", "heart:6"], []),
        gone=(["heart:7"], []),
    )
    c = kernel.draw(s, 0)
    assert bl.POOL.names[c] in {"heart:4", "heart:5", "heart:6"}
    assert bl.hand(s, 0) == ["spade:2", bl.POOL.names[c]]
    assert sorted([*bl.pile(s, "deck", 0), bl.POOL.names[c]]) == ["heart:4", "heart:5", "heart:6"]
    assert bl.pile(s, "discard", 0) == []
    assert bl.pile(s, "gone", 0) == ["heart:7"]
    assert [int(e["value"]) for e in bl.events(s, EventKind.RESHUFFLE)] == [3]


def test_r11_without_midbattle_reshuffle_an_empty_deck_is_not_refilled(bl):
    _, s = bl.make_state(Params(midbattle_reshuffle=0), hands=(["spade:2"], ["club:2"]), discards=(["heart:4"], []))
    assert kernel.draw(s, 0) == -1
    assert bl.hand(s, 0) == ["spade:2"]
    assert bl.pile(s, "discard", 0) == ["heart:4"]


def test_r11_a_draw_with_deck_and_discard_pile_empty_is_skipped(bl):
    _, s = bl.make_state(hands=(["spade:2"], ["club:2"]), gone=(["heart:7"], []))
    assert kernel.draw(s, 0) == -1
    assert bl.hand(s, 0) == ["spade:2"]
    assert bl.pile(s, "gone", 0) == ["heart:7"]


# -- R12: battle loss ----------------------------------------------------------------------------------------------


def test_r12_a_seat_with_no_cards_in_hand_deck_or_discard_loses_the_battle_after_any_turn(bl):
    _, s = bl.make_state(hands=(["diamond:8"], []), decks=(["spade:2"], []), phase=Phase.TURN_END, mover=0)
    kernel.end_turn(s)
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (0, BattleEnd.EXHAUSTION, 8)
    assert s["pools"]["blessing"].tolist() == [8, 0]
    assert s["meta"]["phase"] == Phase.BATTLE_START


def test_r12_the_mover_itself_can_lose_by_running_out(bl):
    _, s = bl.make_state(hands=((), ["diamond:8"]), decks=((), ["spade:2"]), phase=Phase.TURN_END, mover=0)
    kernel.end_turn(s)
    assert (ended_battle(s)["winner"], ended_battle(s)["how"]) == (1, BattleEnd.EXHAUSTION)


def test_r12_both_seats_out_of_cards_draw_the_battle_with_no_bonus(bl):
    _, s = bl.make_state(phase=Phase.TURN_END, blessing=(3, 4), curse=(5, 6))
    kernel.end_turn(s)
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (-1, BattleEnd.EXHAUSTION, 0)
    assert s["pools"]["blessing"].tolist() == [3, 4]
    assert s["pools"]["curse"].tolist() == [5, 6]
    assert s["pools"]["wins"].tolist() == [0, 0]


@pytest.mark.parametrize(
    ("surrender", "after"),
    [(Surrender.OWN_TURN, (Phase.SURRENDER_END, 0, 1)), (Surrender.TURN_START, (Phase.TURN_START, 1, 1))],
    ids=["own_turn", "turn_start"],
)
def test_r12_a_discard_pile_keeps_a_seat_in_the_battle_while_it_reshuffles(bl, surrender, after):
    params = Params(surrender=surrender)
    _, s = bl.make_state(params, hands=(["diamond:8"], []), discards=((), ["spade:2"]), phase=Phase.TURN_END, mover=0)
    kernel.end_turn(s)
    assert (s["meta"]["phase"], s["meta"]["mover"], s["meta"]["battle"]) == after


def test_r12_without_midbattle_reshuffle_empty_hand_and_deck_lose_despite_a_discard_pile(bl):
    params = Params(midbattle_reshuffle=0)
    _, s = bl.make_state(params, hands=(["diamond:8"], []), discards=((), ["spade:2"]), phase=Phase.TURN_END)
    kernel.end_turn(s)
    assert (ended_battle(s)["winner"], ended_battle(s)["how"]) == (0, BattleEnd.EXHAUSTION)


# -- R13: surrender --------------------------------------------------------------------------------------------------


def test_r13_the_surrender_decision_comes_at_turn_start_before_the_draw(bl):
    _, s = bl.make_state(
        hands=(["spade:2"], ["club:2"]), decks=(["heart:4", "heart:5"], ["club:4"]), phase=Phase.TURN_START
    )
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.SURRENDER
    assert bl.legal(s) == {act(K.PLAY_ON, 0, 0), act(K.SURRENDER, 0, 0)}
    assert bl.hand(s, 0) == ["spade:2"]  # not drawn yet
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    assert bl.hand(s, 0) == ["spade:2", "heart:5", "heart:4"]
    assert s["meta"]["phase"] == Phase.PLAY


@pytest.mark.parametrize(
    ("params", "hand0", "targets"),
    [  # R15 carryover_hand: 30 destroys spade:2, leaves heart:4 at 10 (+4 = 14); 12 leaves spade:3 at 8
        pytest.param(Params(), ["spade:2", "heart:4"], {(0, "heart:4", 14), (1, "diamond:8", 28)}, id="modern"),
        pytest.param(FIRST_READING, ["spade:2"], None, id="first_reading"),  # the new hands, drawn at random
    ],
)
def test_r13_surrender_gives_the_opponent_the_battle_and_the_bonus_and_pools_stand(bl, params, hand0, targets):
    _, s = bl.make_state(
        params,
        hands=(hand0, ["spade:3", "diamond:8"]),
        decks=(DECK0, DECK1),
        curse=(30, 12),
        blessing=(4, 0),
        phase=Phase.SURRENDER,
    )
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (1, BattleEnd.SURRENDER, 8)
    assert (row["curse_pool_0"], row["curse_pool_1"]) == (30, 12)
    assert (row["blessing_pool_0"], row["blessing_pool_1"]) == (4, 8)
    assert s["pools"]["wins"].tolist() == [0, 1]
    assert s["tally"]["seats"][0]["battles_surrendered"] == 1
    assert (row["lost_to_curses_0"], row["lost_to_curses_1"]) == (1, 0)  # the pools hit at the next start
    blessed = bl.events(s, EventKind.BLESSED)
    assert {(int(e["seat"]), int(e["value"])) for e in blessed} == {(0, 4), (1, 8)}
    if targets is not None:
        assert {(int(e["seat"]), bl.POOL.names[e["target"]], int(e["extra"])) for e in blessed} == targets
    assert s["meta"]["battle"] == 2


def test_r13_own_turn_the_mover_may_surrender_at_the_end_of_its_turn_after_its_last_card(bl):
    _, s = bl.make_state(hands=(["spade:2", "heart:4"], ["club:2"]), decks=(DECK0, DECK1), battle_turn=3)
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert s["meta"]["phase"] == Phase.PLAY  # not before every card is played (R7)
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER_END, 0)
    assert bl.legal(s) == {act(K.PLAY_ON, 0, 0), act(K.SURRENDER, 0, 0)}
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["turns"]) == (1, BattleEnd.SURRENDER, 3)  # the played turn counts
    (e,) = bl.events(s, EventKind.SURRENDER)
    assert (int(e["seat"]), int(e["value"])) == (0, 1)  # logged as an end-of-turn surrender


def test_r13_turn_start_variant_has_no_end_of_turn_decision(bl):
    params = Params(surrender=Surrender.TURN_START)
    _, s = bl.make_state(params, hands=(["spade:2"], ["club:2"]), decks=(DECK0, DECK1))
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER, 1)  # straight to the opponent


def test_r13_a_turn_that_is_only_a_surrender_is_not_counted(bl):
    """RULES.md §8.2: games.turns and turns.turns count turns played; a surrender at a turn start plays none."""
    _, s = bl.make_state(hands=(["spade:2"], ["club:2"]), decks=(DECK0, DECK1), phase=Phase.TURN_START, battle_turn=4)
    s["meta"]["turn"] = 9
    kernel.advance(s)
    assert (s["meta"]["turn"], s["meta"]["battle_turn"]) == (10, 5)  # begun
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    assert ended_battle(s)["turns"] == 4
    assert (s["meta"]["battle"], s["meta"]["turn"]) == (2, 10)  # battle 2's first turn is turn 10, not 11
    (e,) = bl.events(s, EventKind.SURRENDER)
    assert int(e["value"]) == 0  # at the start of the turn


def test_e15_surrender_at_the_end_of_ones_own_turn_wipes_out_the_opponent_before_it_replies(bl):
    """E15: seat 0's last card takes seat 1's curse past its hand; seat 0 surrenders before seat 1 moves."""
    _, s = bl.make_state(
        hands=(["spade:queen"], ["club:2", "club:4"]), decks=(DECK0, DECK1), curse=(0, 35), battle_turn=3
    )
    kernel.apply_action(s, act(K.CURSE, 0, 0))  # +9: 44 curse against a 40-Health hand
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER_END, 0)
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (1, BattleEnd.SURRENDER, 4)  # club:4 rightmost
    assert (row["wiped_0"], row["wiped_1"]) == (0, 1)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, 0, EndReason.WIPEOUT)


def test_e15_under_turn_start_the_same_player_can_surrender_only_after_the_opponents_reply(bl):
    params = Params(surrender=Surrender.TURN_START)
    _, s = bl.make_state(
        params, hands=(["spade:queen"], ["club:2", "club:4"]), decks=(DECK0, DECK1), curse=(0, 35), battle_turn=3
    )
    kernel.apply_action(s, act(K.CURSE, 0, 0))
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER, 1)  # seat 1 moves next
    assert s["pools"]["curse"][1] == 44


def test_r13_surrender_never_skips_the_decision(bl):
    params = Params(surrender=Surrender.NEVER)
    _, s = bl.make_state(params, hands=(["spade:2"], ["club:2"]), decks=(["heart:4"], []), phase=Phase.TURN_START)
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.PLAY
    assert all(action_kind(a) != K.SURRENDER for a in bl.legal(s))


# -- R14, E9: the winner's bonus -----------------------------------------------------------------------------------


def test_e9_the_winner_adds_the_attack_of_its_rightmost_card(bl):
    _, s = bl.make_state(hands=(["heart:10", "diamond:8"], ["spade:9"]), blessing=(5, 2))
    kernel.end_battle(s, 0, BattleEnd.EXHAUSTION)
    assert s["pools"]["blessing"].tolist() == [13, 2]
    assert s["pools"]["bonus"] == 8
    assert s["tally"]["seats"][0]["bonus_gained"] == 8


@pytest.mark.parametrize("winner_hand", [["diamond:8", "heart:queen"], ["diamond:8", "club:ace"], []])
def test_e9_a_rightmost_face_card_or_an_empty_hand_adds_0(bl, winner_hand):
    _, s = bl.make_state(hands=(winner_hand, ["spade:9"]), blessing=(5, 2))
    kernel.end_battle(s, 0, BattleEnd.SURRENDER)
    assert s["pools"]["blessing"].tolist() == [5, 2]
    assert ended_battle(s)["winner_bonus"] == 0
    assert s["pools"]["wins"].tolist() == [1, 0]


# -- R15, R16, R17, E7, E8, E13: the start-of-battle pools --------------------------------------------------------


def test_e7_curse_45_destroys_two_leaves_the_third_at_15_and_blessing_12_puts_the_rightmost_at_32(bl):
    _, s = bl.make_state(hands=((), FIVE), curse=(0, 45), blessing=(0, 12))
    assert not kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == ["spade:4", "spade:5", "spade:6"]
    assert [bl.health(s, 1, c) for c in bl.hand(s, 1)] == [15, 20, 32]
    assert bl.pile(s, "gone", 1) == ["spade:2", "spade:3"]
    assert s["tally"]["seats"][1]["cards_lost_to_curses"] == 2


def test_e7_curse_100_destroys_all_five_and_the_seat_is_wiped_out(bl):
    _, s = bl.make_state(hands=((), FIVE), curse=(0, 100), blessing=(0, 12))
    assert kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == []
    assert len(bl.events(s, EventKind.CURSED_AWAY)) == 5
    assert battle_row(s)["wiped_1"] == 1


def test_e7_curse_99_leaves_the_rightmost_at_1_which_then_gets_the_blessing(bl):
    _, s = bl.make_state(hands=((), FIVE), curse=(0, 99), blessing=(0, 12))
    assert not kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == ["spade:6"]
    (hit,) = bl.events(s, EventKind.CURSE_HIT)
    assert (bl.POOL.names[hit["target"]], int(hit["value"]), int(hit["extra"])) == ("spade:6", 19, 1)
    assert bl.health(s, 1, "spade:6") == 13


def test_e8_blessing_first_the_rightmost_goes_to_32_then_is_left_at_12_and_the_seat_survives(bl):
    _, s = bl.make_state(Params(blessing_before_curses=1), hands=((), FIVE), curse=(0, 100), blessing=(0, 12))
    assert not kernel.apply_pools(s, 1)
    (blessed,) = bl.events(s, EventKind.BLESSED)
    assert (bl.POOL.names[blessed["target"]], int(blessed["extra"])) == ("spade:6", 32)
    assert bl.hand(s, 1) == ["spade:6"]
    assert bl.health(s, 1, "spade:6") == 12


def battle_start_position(bl, params: Params | None = None, **kw):
    """A position between battles 1 and 2: both seats hold 2 cards left from battle 1 (40 Health) and own 8 more."""
    return bl.make_state(
        params,
        hands=(["diamond:2", "diamond:4"], ["diamond:3", "diamond:5"]),
        decks=(DECK0, DECK1),
        phase=Phase.BATTLE_START,
        **kw,
    )


READINGS = [  # (params, the curse that wipes out a seat of battle_start_position)
    pytest.param(Params(), 40, id="modern"),  # R15 carryover_hand: the 2 cards left from battle 1
    pytest.param(FIRST_READING, 100, id="first_reading"),  # R15 fresh_hand: the new 5-card hand
]


@pytest.mark.parametrize(("params", "line"), READINGS)
def test_e13_only_seat_1_wiped_out_seat_0_wins_by_wipeout(bl, params, line):
    _, s = battle_start_position(bl, params, curse=(0, line))
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, 0, EndReason.WIPEOUT)
    assert (battle_row(s)["wiped_0"], battle_row(s)["wiped_1"]) == (0, 1)
    (end,) = bl.events(s, EventKind.GAME_END)
    assert (int(end["seat"]), int(end["value"])) == (0, EndReason.WIPEOUT)


@pytest.mark.parametrize(("params", "line"), READINGS)
def test_e13_only_seat_0_wiped_out_seat_1_wins_by_wipeout(bl, params, line):
    _, s = battle_start_position(bl, params, curse=(line, line - 1))
    kernel.start_battle(s)
    assert (s["meta"]["winner"], s["meta"]["end_reason"]) == (1, EndReason.WIPEOUT)


@pytest.mark.parametrize(("params", "line"), READINGS)
def test_e13_both_wiped_out_at_the_same_battle_start_is_a_draw(bl, params, line):
    _, s = battle_start_position(bl, params, curse=(line, line + 40))
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, -1, EndReason.MUTUAL_WIPEOUT)


@pytest.mark.parametrize(
    ("params", "hands"), [(Params(), [5, 5]), (FIRST_READING, [4, 5])], ids=["modern", "first_reading"]
)
def test_r17_pools_reset_to_0_after_a_battle_start(bl, params, hands):
    _, s = battle_start_position(bl, params, curse=(30, 10), blessing=(7, 3))
    kernel.start_battle(s)
    assert s["pools"]["curse"].tolist() == [0, 0]
    assert s["pools"]["blessing"].tolist() == [0, 0]
    assert (s["meta"]["phase"], s["meta"]["battle"]) == (Phase.TURN_START, 2)
    assert (battle_row(s)["lost_to_curses_0"], battle_row(s)["lost_to_curses_1"]) == (1, 0)  # 30 takes one card
    assert s["piles"]["hand_n"].tolist() == hands  # carryover: the new hands are drawn after the pools


def test_r15_fresh_hand_the_pools_hit_the_new_opening_hand(bl):
    _, s = battle_start_position(bl, Params(pool_target=PoolTarget.FRESH_HAND), curse=(0, 25))
    kernel.start_battle(s)
    q = s["piles"]
    assert q["hand_n"].tolist() == [5, 4]  # 5 drawn, then the curse destroyed one of them
    assert q["hp"][1, q["hand"][1, 0]] == 15
    (away,) = bl.events(s, EventKind.CURSED_AWAY)
    assert bl.pile(s, "gone", 1) == [bl.POOL.names[away["target"]]]  # out for this battle (R10)
    deal = [e for e in bl.events(s) if e["kind"] in (EventKind.DEAL, EventKind.CURSED_AWAY)]
    assert [int(e["kind"]) for e in deal] == [EventKind.DEAL, EventKind.DEAL, EventKind.CURSED_AWAY]


def test_r15_fresh_hand_a_seat_that_ran_out_is_not_wiped_by_a_small_curse(bl):
    params = Params(pool_target=PoolTarget.FRESH_HAND)
    _, s = bl.make_state(
        params, hands=(["diamond:2"], []), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(0, 1)
    )
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.TURN_START
    assert s["piles"]["hp"][1, s["piles"]["hand"][1, 0]] == 19


def test_r15_carryover_hand_the_pools_hit_the_hand_left_from_the_last_battle(bl):
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND)
    _, s = bl.make_state(
        params, hands=((), ["spade:2", "spade:3"]), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(0, 25)
    )
    kernel.start_battle(s)
    (away,) = bl.events(s, EventKind.CURSED_AWAY)
    (hit,) = bl.events(s, EventKind.CURSE_HIT)
    assert bl.POOL.names[away["target"]] == "spade:2"
    assert (bl.POOL.names[hit["target"]], int(hit["extra"])) == ("spade:3", 15)
    q = s["piles"]
    assert q["hand_n"].tolist() == [5, 5]  # the new hands are drawn after the pools, untouched
    assert all(q["hp"][1, c] == 20 for c in q["hand"][1, :5])
    assert q["gone_n"].tolist() == [0, 0]
    assert (s["meta"]["phase"], s["meta"]["battle"]) == (Phase.TURN_START, 2)


def test_r15_carryover_hand_a_seat_with_an_empty_hand_is_wiped_by_any_curse(bl):
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND)
    _, s = bl.make_state(
        params, hands=(["diamond:2"], []), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(0, 1)
    )
    kernel.start_battle(s)
    assert (s["meta"]["winner"], s["meta"]["end_reason"]) == (0, EndReason.WIPEOUT)


def e14_position(bl, params: Params | None = None):
    """E14: seat 1 ended the battle holding 3 cards at Health 20, 8 and 20, with a 30 curse and a 6 blessing."""
    _, s = bl.make_state(
        params,
        hands=(["diamond:2"], ["spade:2", "spade:3", "spade:4"]),
        decks=(DECK0, DECK1),
        phase=Phase.BATTLE_START,
        curse=(0, 30),
        blessing=(0, 6),
    )
    s["piles"]["hp"][1, bl.card("spade:3")] = 8
    return s


def test_e14_carryover_hand_curses_take_the_20_and_the_8_card_and_the_blessing_lands_on_the_third(bl):
    """E14, with the rulebook's overflow arithmetic: 30 = 20 + 8 + 2, so the third card takes the last 2.

    The rulings' text says the third card is "untouched" and ends at 26; that contradicts the
    rulebook ("If there is still damage left, it moves to the next card"), R16 and E7 (45
    curse: 20 + 20 + 5). We follow the rulebook: 18 + 6 = 24 (RULES.md §8, reported).
    """
    s = e14_position(bl)
    assert not kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == ["spade:4"]
    away = [(bl.POOL.names[e["target"]], int(e["value"])) for e in bl.events(s, EventKind.CURSED_AWAY)]
    assert away == [("spade:2", 20), ("spade:3", 8)]  # 20 destroys the first, the overflow the 8-Health card
    (hit,) = bl.events(s, EventKind.CURSE_HIT)
    assert (bl.POOL.names[hit["target"]], int(hit["value"]), int(hit["extra"])) == ("spade:4", 2, 18)
    assert bl.health(s, 1, "spade:4") == 24  # then the 6 blessing on the rightmost survivor


def test_e14_carryover_hand_the_survivor_then_draws_a_fresh_5_card_hand_at_20(bl):
    s = e14_position(bl)
    kernel.start_battle(s)
    m, q = s["meta"], s["piles"]
    assert (m["phase"], m["battle"], m["winner"]) == (Phase.TURN_START, 2, -1)
    assert q["hand_n"].tolist() == [5, 5]
    assert all(q["hp"][1, c] == 20 for c in q["hand"][1, :5])  # the 26 went with the old hand (R18)
    assert q["gone_n"].tolist() == [0, 0]  # the cursed cards are back in the deck for this battle
    assert (battle_row(s)["lost_to_curses_1"], battle_row(s)["wiped_1"]) == (2, 0)
    kinds = [int(e["kind"]) for e in bl.events(s) if e["kind"] in (EventKind.CURSED_AWAY, EventKind.DEAL)]
    assert kinds == [EventKind.CURSED_AWAY, EventKind.CURSED_AWAY, EventKind.DEAL, EventKind.DEAL]  # pools first


def test_e14_a_seat_that_ran_out_of_cards_is_wiped_out_by_a_curse_of_1(bl):
    _, s = bl.make_state(
        hands=((), ["spade:2", "spade:3", "spade:4"]), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(1, 30)
    )
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, 1, EndReason.WIPEOUT)
    assert (battle_row(s)["wiped_0"], battle_row(s)["wiped_1"]) == (1, 0)


def test_e14_under_fresh_hand_the_same_pools_hit_the_new_5_card_hand(bl):
    s = e14_position(bl, Params(pool_target=PoolTarget.FRESH_HAND))
    kernel.start_battle(s)
    q = s["piles"]
    assert q["hand_n"].tolist() == [5, 4]  # 30: the first new card destroyed, the second left at 10
    assert q["hp"][1, q["hand"][1, 0]] == 10
    assert q["hp"][1, q["hand"][1, 3]] == 26  # the blessing on the new rightmost card
    kinds = [int(e["kind"]) for e in bl.events(s) if e["kind"] in (EventKind.CURSED_AWAY, EventKind.DEAL)]
    assert kinds == [EventKind.DEAL, EventKind.DEAL, EventKind.CURSED_AWAY]  # the deal first


def test_r17_carryover_hand_a_seat_with_an_empty_hand_and_no_curse_survives(bl):
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND)
    _, s = bl.make_state(
        params, hands=(["diamond:2"], []), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, blessing=(0, 9)
    )
    kernel.start_battle(s)
    assert (s["meta"]["phase"], s["meta"]["battle"], s["meta"]["winner"]) == (Phase.TURN_START, 2, -1)
    assert battle_row(s)["wiped_1"] == 0


# -- R18, E10: Health ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("before", [5, 32])
def test_e10_a_damaged_or_blessed_card_played_and_redrawn_comes_back_at_20(bl, before):
    _, s = bl.make_state(hands=(["heart:10"], ["club:2"]))
    s["piles"]["hp"][0, bl.card("heart:10")] = before
    kernel.apply_action(s, act(K.DISCARD, 0, 0))  # discarded, then drawn again through the reshuffle
    assert bl.hand(s, 0) == ["heart:10"]
    assert bl.health(s, 0, "heart:10") == 20


def test_r18_a_destroyed_card_returns_at_20_in_the_next_battle(bl):
    _, s = bl.make_state(hands=((), ["spade:2"]), gone=((), ["club:2"]), decks=(DECK0, ()), phase=Phase.BATTLE_START)
    s["piles"]["hp"][1, bl.card("club:2")] = 0
    s["piles"]["hp"][1, bl.card("spade:2")] = 3
    kernel.start_battle(s)
    assert sorted(bl.hand(s, 1)) == ["club:2", "spade:2"]
    assert (bl.health(s, 1, "club:2"), bl.health(s, 1, "spade:2")) == (20, 20)


# -- R19: caps -----------------------------------------------------------------------------------------------------


def test_r19_the_turn_cap_draws_the_battle_without_a_bonus_and_the_pools_still_apply(bl):
    params = Params(max_turns_per_battle=10)
    _, s = bl.make_state(
        params,
        hands=(["diamond:8"], ["spade:2", "club:3"]),
        decks=(DECK0, DECK1),
        curse=(0, 25),
        blessing=(6, 0),
        phase=Phase.TURN_END,
        battle_turn=10,
    )
    kernel.end_turn(s)
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (-1, BattleEnd.TURN_CAP, 0)
    assert s["pools"]["blessing"].tolist() == [6, 0]
    assert s["pools"]["wins"].tolist() == [0, 0]
    kernel.advance(s)
    assert (row["lost_to_curses_0"], row["lost_to_curses_1"]) == (0, 1)
    assert [int(e["value"]) for e in bl.events(s, EventKind.BLESSED)] == [6]
    assert (s["meta"]["battle"], s["meta"]["phase"]) == (2, Phase.SURRENDER)


def test_r19_below_the_turn_cap_the_battle_goes_on(bl):
    params = Params(max_turns_per_battle=10)
    _, s = bl.make_state(params, hands=(["diamond:8"], ["spade:2"]), phase=Phase.TURN_END, battle_turn=9)
    kernel.end_turn(s)
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER_END, 0)  # then the opponent's turn


def test_r19_the_battle_cap_leaves_the_game_unresolved_after_applying_the_last_pools(bl):
    _, s = battle_start_position(bl, Params(max_battles=3), curse=(25, 0), battle=3)
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"], m["battle"]) == (Phase.OVER, -1, EndReason.BATTLE_CAP, 3)
    assert battle_row(s, 3)["lost_to_curses_0"] == 1


def test_r19_caps_in_played_games(bl):
    params = Params(surrender=Surrender.NEVER, max_turns_per_battle=6, max_battles=3)
    out = bl.chunk(params, ("random", "random"), n=15, seed=3, tables=("games", "turns"))
    games, battles = out["games"], out["turns"]
    capped = battles[battles["how"] == BattleEnd.TURN_CAP]
    assert len(capped) > 0
    assert (capped["turns"] == 6).all()
    assert (capped["winner"] == -1).all()
    assert (capped["winner_bonus"] == 0).all()
    assert (battles["turns"] <= 6).all()
    unresolved = games[games["end_reason"] == EndReason.BATTLE_CAP]
    assert len(unresolved) > 0
    assert (unresolved["battles"] == 3).all()
    assert (unresolved["winner"] == -1).all()
    assert (games["battles"] <= 3).all()


def test_r9_one_sided_face_rule_gives_the_bonus_only_to_the_listed_seats(bl):
    """R9 counterfactual: with face_bonus_seats = seat_1, seat 0's face cards get neither +5 nor -5."""
    _, s = bl.make_state(bl.Params(face_bonus_seats=2), hands=(["spade:queen"], ["spade:queen"]))
    queen = bl.card("spade:queen")
    assert (kernel.pool_value(s, 0, queen), kernel.pool_value(s, 1, queen)) == (4, 9)
    assert (kernel.discard_value(s, 0, queen), kernel.discard_value(s, 1, queen)) == (4, 0)
    kernel.apply_action(s, act(K.CURSE, 0, 0))  # seat 0 curses with its queen
    assert s["pools"]["curse"][1] == 4
