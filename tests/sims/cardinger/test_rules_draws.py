"""Cardinger rules, part 3: worked examples E14-E19 and rulings R9, R10, R15, R17.

Draw actions, the idle draw, replenishing and the immediate win.
Positions are hand-built (``conftest.py``); the shared helpers are in ``rules_helpers.py``.
"""

import pytest

from sims.cardinger import kernel
from sims.cardinger.params import Params
from sims.cardinger.state import (
    ALL_TARGETS,
    END_TURN,
    FRAGILE,
    OMNI,
    PROSPERITY,
    STEAL,
    EndReason,
    EventKind,
    Phase,
)
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act
from tests.sims.cardinger.rules_helpers import FILLER, GAME, card, events, fillers

# -- E14, R9: draw actions --------------------------------------------------------------------


def test_draw_action_with_one_card_left_draws_one(cg):
    cards = cg.make_cards(card(draw=3), FILLER)
    _, s = cg.make_state(cards, fields=([0], ()), decks=([1], ()))
    kernel.apply_action(s, act(K.DRAW, 0, 0))
    assert cg.hand(s, 0) == [1]


def test_draw_action_with_nine_cards_in_hand_draws_one(cg):
    cards = cg.make_cards(card(draw=3), *[FILLER] * 12)
    _, s = cg.make_state(cards, fields=([0], ()), hands=(fillers(1, 9), ()), decks=(fillers(10, 3), ()))
    kernel.apply_action(s, act(K.DRAW, 0, 0))
    assert (s["piles"]["hand_n"][0], s["piles"]["deck_n"][0]) == (10, 2)


def test_draw_action_is_illegal_with_an_empty_deck_or_a_full_hand(cg):
    cards = cg.make_cards(card(draw=3), *[FILLER] * 11)
    _, s = cg.make_state(cards, fields=([0], ()))
    assert cg.legal(s) == {END_TURN}
    _, s = cg.make_state(cards, fields=([0], ()), hands=(fillers(1, 10), ()), decks=([11], ()))
    assert act(K.DRAW, 0, 0) not in cg.legal(s)


def test_draw_action_never_replenishes_mid_turn(cg):
    cards = cg.make_cards(card(draw=3), card(score=1), FILLER, FILLER)
    _, s = cg.make_state(cards, fields=([0, 1], ()), decks=([2], ()), discards=([3], ()))
    kernel.apply_action(s, act(K.DRAW, 0, 0))
    assert s["piles"]["deck_n"][0] == 0
    kernel.apply_action(s, act(K.SCORE, 1, 0))
    assert (s["piles"]["deck_n"][0], s["piles"]["discard_n"][0]) == (0, 1)


# -- E16, R17: idle draw -------------------------------------------------------------------------


def test_idle_turn_ends_with_one_extra_card(cg):
    cards = cg.make_cards(*[FILLER] * 4)
    _, s = cg.make_state(cards, hands=([0], [1]), decks=([2, 3], ()))
    kernel.apply_action(s, END_TURN)
    assert cg.hand(s, 0) == [0, 3]


def test_turn_with_a_play_gets_no_extra_card(cg):
    cards = cg.make_cards(*[FILLER] * 4)
    _, s = cg.make_state(cards, hands=([0], [1]), decks=([2, 3], ()))
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    kernel.apply_action(s, END_TURN)
    assert cg.hand(s, 0) == []


def test_retirement_only_turn_still_counts_as_idle(cg):
    cards = cg.make_cards(*[FILLER] * 7)
    _, s = cg.make_state(cards, fields=([0, 1, 2, 3, 4], ()), decks=([5, 6], ()))
    kernel.apply_action(s, act(K.RETIRE, 0, 0))
    kernel.apply_action(s, END_TURN)
    assert cg.hand(s, 0) == [6]


def test_idle_draw_is_skipped_when_the_variant_is_off(cg):
    cards = cg.make_cards(*[FILLER] * 3)
    _, s = cg.make_state(cards, Params(idle_extra_draw=0), decks=([1, 2], ()), hands=((), [0]))
    kernel.apply_action(s, END_TURN)
    assert cg.hand(s, 0) == []


def test_idle_draw_that_empties_the_deck_is_followed_by_a_replenish(cg):
    cards = cg.make_cards(*[FILLER] * 3)
    _, s = cg.make_state(cards, decks=([0], ()), discards=([1, 2], ()))
    kernel.apply_action(s, END_TURN)
    assert cg.hand(s, 0) == [0]
    assert sorted(cg.pile(s, "deck", 0)) == [1, 2]
    assert s["tally"]["replenished"][0] == 1


# -- E17, E18, R15: replenishing -----------------------------------------------------------------


def replenish_position(cg, params: Params):
    """Seat 0 ends its turn with an empty deck and 6 discards; seat 1 can destroy seat 0's card."""
    cards = cg.make_cards(card(hp=1), card(atk=1), *[FILLER] * 8)
    return cg.make_state(cards, params, fields=([0], [1]), discards=(fillers(2, 6), ()), hands=([8], [9]))


def test_replenish_end_of_turn_then_destroyed_card_to_discard_then_point_and_draw(cg):
    _, s = replenish_position(cg, Params())
    kernel.apply_action(s, END_TURN)
    assert (s["piles"]["deck_n"][0], s["piles"]["discard_n"][0]) == (6, 0)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))  # seat 1 destroys seat 0's card
    assert cg.pile(s, "discard", 0) == [0]
    kernel.apply_action(s, END_TURN)
    assert s["tally"]["score"][0] == 1
    assert (s["piles"]["deck_n"][0], s["piles"]["hand_n"][0], s["piles"]["discard_n"][0]) == (5, 2, 1)
    assert s["tally"]["seats"][0]["points_replenish"] == 1


def test_replenish_digital_shuffles_the_destroyed_card_in_at_turn_start(cg):
    _, s = replenish_position(cg, Params(replenish_timing=1))
    kernel.apply_action(s, END_TURN)
    assert (s["piles"]["deck_n"][0], s["piles"]["discard_n"][0]) == (0, 6)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    kernel.apply_action(s, END_TURN)
    assert s["tally"]["score"][0] == 1
    assert (s["piles"]["deck_n"][0], s["piles"]["hand_n"][0], s["piles"]["discard_n"][0]) == (6, 2, 0)


def test_replenish_with_an_empty_discard_pile_scores_nothing(cg):
    cards = cg.make_cards(*[FILLER] * 2)
    _, s = cg.make_state(cards, hands=([0], [1]))
    kernel.apply_action(s, END_TURN)
    kernel.apply_action(s, END_TURN)
    assert s["tally"]["score"][0] == 0
    assert s["tally"]["seats"][0]["replenishes"] == 0


def test_replenish_point_zero_still_replenishes_without_a_point(cg):
    _, s = replenish_position(cg, Params(replenish_point=0))
    kernel.apply_action(s, END_TURN)
    kernel.apply_action(s, END_TURN)
    assert s["tally"]["score"][0] == 0
    assert s["tally"]["seats"][0]["replenishes"] == 1


# -- E19, R10: immediate win ----------------------------------------------------------------------


def test_win_by_score_action_ends_the_game_before_fragile(cg):
    cards = cg.make_cards(card(score=1, keywords=FRAGILE | PROSPERITY), *[FILLER] * 5)
    _, s = cg.make_state(cards, fields=([0], ()), hands=(fillers(1, 5), ()))
    s["tally"]["score"][0] = 19
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert (s["meta"]["winner"], s["meta"]["end_reason"], s["meta"]["phase"]) == (0, EndReason.TARGET_SCORE, Phase.OVER)
    assert s["tally"]["score"][0] == 21  # R10 (revised): SCORE and its PROSPERITY bonus are one gain
    assert s["tally"]["seats"][0]["points_prosperity"] == 1
    assert s["tally"]["cards"][0, 0]["points_scored"] == 2
    assert [e["kind"] for e in events(s, EventKind.WIN)] == [EventKind.WIN]
    assert cg.field_cards(s, 0) == [0]  # no FRAGILE loss
    assert cg.legal(s) == set()


def test_win_by_score_action_second_gain_reading_drops_the_prosperity_bonus(cg):
    cards = cg.make_cards(card(score=1, keywords=FRAGILE | PROSPERITY), *[FILLER] * 5)
    params = GAME.make_params(overrides={"prosperity_gain": "second_gain"})  # rules_version 1's reading
    _, s = cg.make_state(cards, params, fields=([0], ()), hands=(fillers(1, 5), ()))
    s["tally"]["score"][0] = 19
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert (s["meta"]["winner"], s["meta"]["phase"]) == (0, Phase.OVER)
    assert s["tally"]["score"][0] == 20  # no PROSPERITY bonus after the winning point
    assert s["tally"]["seats"][0]["points_prosperity"] == 0
    assert events(s, EventKind.PROSPERITY) == []
    assert cg.field_cards(s, 0) == [0]  # no FRAGILE loss


@pytest.mark.parametrize("reading", ["one_gain", "second_gain"])
def test_prosperity_bonus_that_reaches_the_target_wins_under_either_reading(cg, reading):
    cards = cg.make_cards(card(score=1, keywords=FRAGILE | PROSPERITY), *[FILLER] * 5)
    params = GAME.make_params(overrides={"prosperity_gain": reading})
    _, s = cg.make_state(cards, params, fields=([0], ()), hands=(fillers(1, 5), ()))
    s["tally"]["score"][0] = 18
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert (s["meta"]["winner"], s["tally"]["score"][0]) == (0, 20)
    assert cg.field_cards(s, 0) == [0]  # the game ended before FRAGILE


def test_prosperity_score_below_the_target_gains_both_parts_then_fragile(cg):
    cards = cg.make_cards(card(score=2, keywords=FRAGILE | PROSPERITY), *[FILLER] * 10)
    _, s = cg.make_state(cards, fields=([0], ()), hands=(fillers(1, 10), ()))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert s["tally"]["score"][0] == 4
    assert [e["value"] for e in events(s, EventKind.SCORE_ACTION)] == [2]
    assert [(e["value"], e["extra"]) for e in events(s, EventKind.PROSPERITY)] == [(2, 4)]
    assert s["meta"]["winner"] == -1
    assert cg.field_cards(s, 0) == []  # FRAGILE after the action


def test_win_by_steal_point_stops_in_the_middle_of_an_omni_attack(cg):
    cards = cg.make_cards(card(atk=1, keywords=OMNI | STEAL | FRAGILE), card(), card(), card())
    _, s = cg.make_state(cards, fields=([0], [1, 2, 3]))
    s["tally"]["score"][0] = 19
    kernel.apply_action(s, act(K.ATTACK, 0, ALL_TARGETS))
    assert s["meta"]["winner"] == 0
    assert s["tally"]["score"][0] == 20
    assert cg.field_cards(s, 1) == []  # destructions are simultaneous
    assert cg.field_cards(s, 0) == [0]


def test_win_by_replenish_point_comes_before_the_draw(cg):
    cards = cg.make_cards(*[FILLER] * 4)
    _, s = cg.make_state(cards, hands=([0], [1]), decks=([2, 3], ()), mover=1)
    s["tally"]["score"][0], s["tally"]["replenished"][0] = 19, 1
    kernel.apply_action(s, END_TURN)  # seat 1 ends; seat 0 starts
    assert s["meta"]["winner"] == 0
    assert cg.hand(s, 0) == [0]
