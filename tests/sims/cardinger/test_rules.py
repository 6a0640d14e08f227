"""Cardinger rules, part 1: worked examples E1-E5 and rulings R4-R8, R12, R16.

Attack legality and damage, the play allowance and the turn-start draw, costs, the field limit and
retiring, and who may act when.
Positions are hand-built (``conftest.py``); the shared helpers are in ``rules_helpers.py``.
"""

import numpy as np
import pytest

from sims.cardinger import kernel
from sims.cardinger.params import Params
from sims.cardinger.state import (
    DECAY,
    DOUBLE,
    END_TURN,
    READY,
    STATE_DTYPE,
    Phase,
    opponent,
)
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act
from tests.sims.cardinger.rules_helpers import FILLER, GAME, card

# -- E1, R8: attack legality and damage --------------------------------------------------


def chef_position(cg):
    cards = cg.make_cards(
        card(atk=1), card(hp=1), card(hp=2), card(hp=1, def_=1)
    )  # Chef, Bumblebee, Big Bee, Armor Bee
    return cg.make_state(cards, fields=([0], [1, 2, 3]))


def test_attack_the_chef_targets_only_cards_with_def_below_its_atk(cg):
    _, s = chef_position(cg)
    attacks = {a for a in cg.legal(s) if a >> 12 == K.ATTACK}
    assert attacks == {act(K.ATTACK, 0, 0), act(K.ATTACK, 0, 1)}  # Armor Bee (DEF 1) never


def test_attack_destroys_bumblebee_into_its_owners_discard_pile(cg):
    _, s = chef_position(cg)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert cg.field_cards(s, 1) == [2, 3]
    assert cg.pile(s, "discard", 1) == [1]
    assert cg.pile(s, "discard", 0) == []


def test_attack_big_bee_survives_one_hit_and_falls_to_the_next_turns_attack(cg):
    _, s = chef_position(cg)
    s["piles"]["hand"][1, :1], s["piles"]["hand_n"][1] = [0], 1  # something to hold during turns
    kernel.apply_action(s, act(K.ATTACK, 0, 1))
    assert cg.field_cards(s, 1) == [1, 2, 3]
    assert s["field"]["hp"][1, 1] == 1
    kernel.apply_action(s, END_TURN)  # seat 1's turn
    kernel.apply_action(s, END_TURN)  # seat 0 again, The Chef untapped
    kernel.apply_action(s, act(K.ATTACK, 0, 1))
    assert cg.field_cards(s, 1) == [1, 3]
    assert cg.pile(s, "discard", 1) == [2]


def test_attack_deals_exactly_one_damage_whatever_the_atk(cg):
    cards = cg.make_cards(card(atk=9), card(hp=3))
    _, s = cg.make_state(cards, fields=([0], [1]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["field"]["hp"][1, 0] == 2


def test_attack_checks_current_def_after_decay(cg):
    cards = cg.make_cards(card(atk=1), card(hp=2, def_=1, draw=1, keywords=DECAY), FILLER)
    _, s = cg.make_state(cards, fields=([0], [1]), decks=((), [2]))
    assert act(K.ATTACK, 0, 0) not in cg.legal(s)
    s["field"]["def_"][1, 0] = 0  # what the card's own DECAY leaves after one action
    assert act(K.ATTACK, 0, 0) in cg.legal(s)


def test_attack_without_any_legal_target_cannot_be_declared(cg):
    cards = cg.make_cards(card(atk=1, score=1), card(hp=1, def_=2))
    _, s = cg.make_state(cards, fields=([0], [1]))
    assert not any(a >> 12 == K.ATTACK for a in cg.legal(s))


# -- E2, R4, R16: play allowance and the turn-start draw ----------------------------------


@pytest.mark.parametrize(("cards_in_hand", "plays"), [(10, 5), (3, 2), (1, 1), (4, 2), (5, 3)])
def test_play_allowance_is_half_the_hand_rounded_up(cg, cards_in_hand, plays):
    cards = cg.make_cards(*[FILLER] * 10)
    _, s = cg.make_state(cards, hands=(list(range(cards_in_hand)), ()), turn=4)
    s["meta"]["turn"] = 4  # start_turn makes it 5: not the first turn, deck empty: no draw
    kernel.start_turn(s)
    assert s["meta"]["plays_left"] == plays


def fixed_game(cg, params: Params):
    """Return ``s`` right after set-up of a game between two fixed 20-card decks of fillers."""
    cards = cg.make_cards(*[FILLER] * 40)
    params = params._replace(deck_builder=2)
    state = kernel.prepare(cards, params, np.stack([GAME.make_weights("greedy")] * 2), 1)
    decks = np.arange(40, dtype=np.int16).reshape(2, 20)
    kernel.set_up(state[0], decks, 0, np.uint64(5))
    return state[0]


def test_play_allowance_first_player_turn_one_has_four_cards_two_plays(cg):
    s = fixed_game(cg, Params())
    p = s["meta"]["mover"]
    assert (s["meta"]["turn"], s["piles"]["hand_n"][p], s["meta"]["plays_left"]) == (1, 4, 2)


def test_play_allowance_second_player_draws_a_fifth_card_three_plays(cg):
    s = fixed_game(cg, Params())
    first = s["meta"]["mover"]
    kernel.apply_action(s, END_TURN)  # idle: the first player draws an extra card
    assert s["meta"]["mover"] == 1 - first
    assert (s["piles"]["hand_n"][1 - first], s["meta"]["plays_left"]) == (5, 3)


def test_the_seat_to_move_is_unsigned_and_opponent_swaps_the_seats(cg):
    assert STATE_DTYPE["meta"]["mover"].kind == "u"  # an index the compiled rules need not fix up (RULES.md §11)
    assert [opponent(np.uint8(0)), opponent(np.uint8(1)), opponent(0), opponent(1)] == [1, 0, 1, 0]
    s = fixed_game(cg, Params())
    first = s["meta"]["mover"]
    kernel.apply_action(s, END_TURN)
    assert s["meta"]["mover"] == opponent(first)


def test_first_turn_draw_variant_lets_the_first_player_draw(cg):
    s = fixed_game(cg, Params(first_turn_draw=1))
    assert s["piles"]["hand_n"][s["meta"]["mover"]] == 5


def test_turn_start_draw_skipped_with_a_full_hand(cg):
    cards = cg.make_cards(*[FILLER] * 12)
    _, s = cg.make_state(cards, hands=(list(range(10)), ()), decks=([10, 11], ()))
    kernel.start_turn(s)
    assert s["piles"]["hand_n"][0] == 10
    assert s["piles"]["deck_n"][0] == 2


def test_turn_start_draw_skipped_with_an_empty_deck(cg):
    cards = cg.make_cards(*[FILLER] * 3)
    _, s = cg.make_state(cards, hands=([0, 1, 2], ()))
    kernel.start_turn(s)
    assert s["piles"]["hand_n"][0] == 3


def test_play_allowance_is_not_lowered_by_paying_costs(cg):
    cards = cg.make_cards(card(cost=2), *[FILLER] * 4)
    _, s = cg.make_state(cards, hands=([0, 1, 2, 3, 4], ()), plays_left=3)
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    kernel.apply_action(s, act(K.PAY, 0, 0))
    kernel.apply_action(s, act(K.PAY, 0, 0))
    assert s["meta"]["plays_left"] == 2
    assert cg.hand(s, 0) == [3, 4]


def test_play_limit_unlimited_variant_allows_every_card(cg):
    cards = cg.make_cards(*[FILLER] * 6)
    _, s = cg.make_state(cards, Params(play_limit=1, field_limit=8), hands=(list(range(6)), ()))
    kernel.start_turn(s)
    for _ in range(6):
        kernel.apply_action(s, act(K.PLAY, 0, 0))
    assert len(cg.field_cards(s, 0)) == 6


# -- E3, R5: costs ------------------------------------------------------------------------


def test_cost_two_card_is_paid_with_two_chosen_hand_cards(cg):
    cards = cg.make_cards(card(cost=2), *[FILLER] * 3)
    _, s = cg.make_state(cards, hands=([0, 1, 2, 3], ()))
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    assert s["meta"]["phase"] == Phase.PAY
    assert cg.legal(s) == {act(K.PAY, i, 0) for i in range(3)}  # never the card being played
    kernel.apply_action(s, act(K.PAY, 2, 0))  # card 3
    kernel.apply_action(s, act(K.PAY, 0, 0))  # card 1
    assert (cg.field_cards(s, 0), cg.hand(s, 0), cg.pile(s, "discard", 0)) == ([0], [2], [3, 1])
    assert s["meta"]["phase"] == Phase.PLAY


def test_cost_two_card_with_one_other_card_is_not_a_legal_play(cg):
    cards = cg.make_cards(card(cost=2), FILLER)
    _, s = cg.make_state(cards, hands=([0, 1], ()))
    assert act(K.PLAY, 0, 0) not in cg.legal(s)
    assert act(K.PLAY, 1, 0) in cg.legal(s)


# -- E4, R6: field limit and retiring ---------------------------------------------------------


def test_full_field_blocks_plays_until_a_retire_makes_room(cg):
    cards = cg.make_cards(*[FILLER] * 7)
    _, s = cg.make_state(cards, hands=([5, 6], ()), fields=([0, 1, 2, 3, 4], ()), plays_left=1)
    assert not any(a >> 12 == K.PLAY for a in cg.legal(s))
    assert {act(K.RETIRE, i, 0) for i in range(5)} <= cg.legal(s)
    kernel.apply_action(s, act(K.RETIRE, 2, 0))
    assert cg.pile(s, "discard", 0) == [2]
    assert cg.field_cards(s, 0) == [0, 1, 3, 4]
    assert act(K.PLAY, 0, 0) in cg.legal(s)
    assert s["meta"]["plays_left"] == 1


def test_retire_is_legal_for_a_card_played_this_turn(cg):
    cards = cg.make_cards(*[FILLER] * 6)
    _, s = cg.make_state(cards, hands=([5], ()), fields=([0, 1, 2, 3], ()))
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    assert act(K.RETIRE, 4, 0) in cg.legal(s)


def test_retire_is_illegal_below_a_full_field_and_after_an_action(cg):
    cards = cg.make_cards(*[card(score=1)] * 5)
    _, s = cg.make_state(cards, fields=([0, 1, 2, 3], ()))
    assert not any(a >> 12 == K.RETIRE for a in cg.legal(s))
    _, s = cg.make_state(cards, fields=([0, 1, 2, 3, 4], ()))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert not any(a >> 12 in (K.RETIRE, K.PLAY) for a in cg.legal(s))


# -- E5, R7, R12: who may act, and when -------------------------------------------------------


def test_card_played_this_turn_has_no_action(cg):
    cards = cg.make_cards(card(atk=1, draw=1, score=1), card(hp=1), FILLER)
    _, s = cg.make_state(cards, hands=([0], ()), fields=((), [1]), decks=([2], ()))
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    assert cg.legal(s) == {END_TURN}


def test_ready_card_may_attack_draw_or_score_on_the_turn_it_is_played(cg):
    cards = cg.make_cards(card(atk=1, draw=1, score=1, keywords=READY), card(hp=1), FILLER)
    _, s = cg.make_state(cards, hands=([0], ()), fields=((), [1]), decks=([2], ()))
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    assert {act(K.ATTACK, 0, 0), act(K.DRAW, 0, 0), act(K.SCORE, 0, 0)} <= cg.legal(s)


def test_first_action_closes_the_playing_phase(cg):
    cards = cg.make_cards(card(score=1), FILLER)
    _, s = cg.make_state(cards, hands=([1], ()), fields=([0], ()))
    assert act(K.PLAY, 0, 0) in cg.legal(s)
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert s["meta"]["phase"] == Phase.ACTION
    assert cg.legal(s) == {END_TURN}


def test_double_second_attack_may_come_after_other_cards_acted(cg):
    cards = cg.make_cards(card(atk=1, keywords=DOUBLE), card(score=1), card(hp=3))
    _, s = cg.make_state(cards, fields=([0, 1], [2]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    kernel.apply_action(s, act(K.SCORE, 1, 0))
    assert act(K.ATTACK, 0, 0) in cg.legal(s)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["field"]["hp"][1, 0] == 1
    assert cg.legal(s) == {END_TURN}


def test_double_card_cannot_score_after_attacking_nor_attack_after_scoring(cg):
    cards = cg.make_cards(card(atk=1, score=1, keywords=DOUBLE), card(hp=3))
    _, s = cg.make_state(cards, fields=([0], [1]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert act(K.SCORE, 0, 0) not in cg.legal(s)
    _, s = cg.make_state(cards, fields=([0], [1]))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert not any(a >> 12 == K.ATTACK for a in cg.legal(s))


def test_every_action_is_optional_end_is_always_legal(cg):
    cards = cg.make_cards(card(atk=1, score=1), card(hp=1))
    _, s = cg.make_state(cards, fields=([0], [1]))
    assert END_TURN in cg.legal(s)
