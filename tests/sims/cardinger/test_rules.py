"""Cardinger rules on hand-built positions: worked examples E1-E20 and rulings R1-R21.

Every test builds its own cards (``card(...)`` specs for ``cg.make_cards``) with the stats
the rulings state, so no test depends on an inferred stat of cards.csv.
"""

import numpy as np
import pytest

import sims
from sims.cardinger import kernel
from sims.cardinger.params import Params
from sims.cardinger.state import (
    ALL_TARGETS,
    DECAY,
    DEVOUR,
    DOUBLE,
    END_TURN,
    FRAGILE,
    OMNI,
    PROSPERITY,
    READY,
    STEAL,
    EndReason,
    EventKind,
    Phase,
)
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act
from sims.core import ParamError

GAME = sims.load("cardinger")


def card(**stats) -> dict:
    """Return a card spec for ``cg.make_cards``: cost, hp, atk, def_, draw, score, keywords (else 0, HP 1)."""
    return stats


FILLER = card()  # a plain 0-cost, 1-HP card for hands and decks


def fillers(cards_before: int, n: int) -> list[int]:
    """Return the ids of ``n`` filler cards appended after ``cards_before`` specific cards."""
    return list(range(cards_before, cards_before + n))


def events(s, kind) -> list:
    """Return the logged events of ``kind`` (the test states log everything)."""
    log = s["scratch"]["log"][: s["meta"]["log_n"]]
    return [e for e in log if e["kind"] == kind]


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


# -- E6-E12, R11-R13: keywords ---------------------------------------------------------------


def test_fragile_score_action_scores_first_then_destroys_the_card(cg):
    cards = cg.make_cards(card(cost=1, hp=2, def_=1, score=2, keywords=FRAGILE))  # Elder Beetle, 1 HP left
    _, s = cg.make_state(cards, fields=([0], ()))
    s["field"]["hp"][0, 0] = 1
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert s["tally"]["score"][0] == 2
    assert cg.field_cards(s, 0) == []
    assert cg.pile(s, "discard", 0) == [0]
    assert s["tally"]["seats"][0]["own_fragile_losses"] == 1


def test_devour_draw_card_with_empty_deck_has_no_action_and_gains_no_hp(cg):
    cards = cg.make_cards(card(hp=2, draw=2, keywords=DEVOUR))
    _, s = cg.make_state(cards, fields=([0], ()))
    assert cg.legal(s) == {END_TURN}
    kernel.apply_action(s, END_TURN)
    assert s["field"]["hp"][0, 0] == 2


def test_devour_draw_action_gains_one_hp_never_above_four(cg):
    cards = cg.make_cards(card(hp=3, draw=1, keywords=DEVOUR), *[FILLER] * 3)
    _, s = cg.make_state(cards, fields=([0], ()), decks=([1, 2, 3], ()), hands=((), [1]))
    kernel.apply_action(s, act(K.DRAW, 0, 0))
    assert s["field"]["hp"][0, 0] == 4
    s["field"]["acts"][0, 0] = 1
    kernel.apply_action(s, act(K.DRAW, 0, 0))
    assert s["field"]["hp"][0, 0] == 4


def test_double_fragile_second_attack_resolves_then_destroys_the_attacker(cg):
    cards = cg.make_cards(card(hp=2, atk=2, def_=1, keywords=DOUBLE | FRAGILE), card(hp=2), card(hp=2))  # Demon Spawn
    _, s = cg.make_state(cards, fields=([0], [1, 2]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert (s["field"]["hp"][0, 0], s["field"]["hp"][1, 0]) == (1, 1)
    kernel.apply_action(s, act(K.ATTACK, 0, 1))
    assert s["field"]["hp"][1, 1] == 1  # the second attack's damage resolved
    assert cg.field_cards(s, 0) == []
    assert cg.pile(s, "discard", 0) == [0]


def test_double_steal_destroying_two_cards_scores_two_points(cg):
    cards = cg.make_cards(card(hp=2, atk=1, keywords=DOUBLE | STEAL), card(hp=1), card(hp=1))  # Pirate Twin
    _, s = cg.make_state(cards, fields=([0], [1, 2]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["tally"]["score"][0] == 2
    assert s["tally"]["seats"][0]["points_steal"] == 2
    assert cg.pile(s, "discard", 1) == [1, 2]


def test_omni_steal_destroys_every_eligible_card_and_scores_one_per_card(cg):
    cards = cg.make_cards(card(atk=1, keywords=OMNI | STEAL), card(), card(), card(), card(def_=1))  # Raids
    _, s = cg.make_state(cards, fields=([0], [1, 2, 3, 4]))
    attacks = {a for a in cg.legal(s) if a >> 12 == K.ATTACK}
    assert attacks == {act(K.ATTACK, 0, ALL_TARGETS)}
    kernel.apply_action(s, act(K.ATTACK, 0, ALL_TARGETS))
    assert cg.field_cards(s, 1) == [4]
    assert s["field"]["hp"][1, 0] == 1  # the DEF-1 card is untouched
    assert s["tally"]["score"][0] == 3
    assert s["tally"]["seats"][0]["attacks"] == 1


def test_omni_without_any_eligible_card_cannot_attack(cg):
    cards = cg.make_cards(card(atk=1, keywords=OMNI | STEAL), card(def_=1), card(def_=3))
    _, s = cg.make_state(cards, fields=([0], [1, 2]))
    assert cg.legal(s) == {END_TURN}


def test_ready_double_card_attacks_twice_on_the_turn_it_is_played(cg):
    cards = cg.make_cards(
        card(cost=0, hp=4, atk=4, keywords=READY | DOUBLE | STEAL), card(hp=3)
    )  # The Lion (cost set to 0)
    _, s = cg.make_state(cards, hands=([0], ()), fields=((), [1]))
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["field"]["hp"][1, 0] == 1
    assert cg.legal(s) == {END_TURN}


def test_devour_double_gains_one_hp_per_attack_capped_at_four(cg):
    cards = cg.make_cards(
        card(cost=3, hp=1, atk=2, def_=1, score=1, keywords=DEVOUR | DOUBLE | DECAY), card(hp=4)
    )  # Blood Lance
    _, s = cg.make_state(cards, fields=([0], [1]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["field"]["hp"][0, 0] == 2
    s["field"]["hp"][0, 0] = 4
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["field"]["hp"][0, 0] == 4


def test_decay_double_loses_one_def_per_attack_never_below_zero(cg):
    cards = cg.make_cards(card(atk=1, def_=1, keywords=DOUBLE | DECAY), card(hp=3))
    _, s = cg.make_state(cards, fields=([0], [1]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert s["field"]["def_"][0, 0] == 0


def test_self_effects_resolve_devour_then_decay_then_fragile(cg):
    cards = cg.make_cards(card(hp=1, def_=1, score=1, keywords=DEVOUR | DECAY | FRAGILE))
    _, s = cg.make_state(cards, fields=([0], ()))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    order = [e["kind"] for e in s["scratch"]["log"][: s["meta"]["log_n"]] if e["kind"] >= EventKind.DEVOUR]
    assert order[:3] == [EventKind.DEVOUR, EventKind.DECAY, EventKind.FRAGILE]
    assert cg.field_cards(s, 0) == [0]  # DEVOUR's +1 came first, so FRAGILE leaves it at 1 HP
    assert (s["field"]["hp"][0, 0], s["field"]["def_"][0, 0]) == (1, 0)


# -- E13, R14: PROSPERITY ------------------------------------------------------------------------


@pytest.mark.parametrize(("cards_in_hand", "points"), [(4, 1), (5, 2), (9, 2), (10, 3)])
def test_prosperity_adds_a_point_per_five_cards_in_hand(cg, cards_in_hand, points):
    cards = cg.make_cards(
        card(cost=4, hp=4, def_=1, draw=2, score=1, keywords=PROSPERITY), *[FILLER] * 10
    )  # Sea Dragon
    _, s = cg.make_state(cards, fields=([0], ()), hands=(fillers(1, cards_in_hand), ()))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert s["tally"]["score"][0] == points
    assert s["tally"]["seats"][0]["points_prosperity"] == points - 1


def test_prosperity_step_parameter_changes_the_divisor(cg):
    cards = cg.make_cards(card(score=1, keywords=PROSPERITY), *[FILLER] * 6)
    _, s = cg.make_state(cards, Params(prosperity_step=3), fields=([0], ()), hands=(fillers(1, 6), ()))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert s["tally"]["score"][0] == 3


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


# -- E20, R2: deck building ---------------------------------------------------------------------


def deck_lists(cg, params: Params, n_games: int, cards=None) -> np.ndarray:
    """Return the build-order deck lists [game, seat, card] of ``n_games`` set-ups."""
    cards = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params).table if cards is None else cards
    state = kernel.prepare(cards, params, np.stack([GAME.make_weights("greedy")] * 2), 0)
    out = np.zeros((n_games, 2, params.deck_size), np.int16)
    for g in range(n_games):
        kernel.set_up(state[0], np.zeros((2, params.deck_size), np.int16), g, np.uint64(1000 + g))
        out[g] = state[0]["piles"]["built"][:, : params.deck_size]
    return out


def check_recommended(deck, cost):
    """Assert the R2 recipe on one build-order deck list."""
    assert len(set(deck.tolist())) == len(deck)
    costs = cost[deck]
    assert (costs != 8).all()
    k = int(np.argmax(costs == 0)) if (costs == 0).any() else len(costs)
    head = costs[:k]  # the cost-1+ draw
    assert (head > 0).all()
    assert head.sum() >= 10
    assert head.sum() - head[-1] < 10
    rest = costs[k:]
    zeros = int((rest == 0).sum())
    assert (rest[:zeros] == 0).all()  # then 0-cost cards; cost-1+ again only once they ran out
    return zeros, len(rest) - zeros


def test_recommended_decks_follow_the_recipe_for_many_seeds(cg):
    params = Params()
    cards = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params).table
    cost = cards["cost"].astype(int)
    for deck in deck_lists(cg, params, 300).reshape(-1, params.deck_size):
        _, extra = check_recommended(deck, cost)
        assert extra == 0  # 29 zero-cost cards: never runs out with its own set


@pytest.mark.slow
def test_recommended_fallback_takes_all_sixteen_zero_cost_cards_and_one_more(cg):
    cards = cg.make_cards(card(cost=4), card(cost=3), card(cost=3), *[card(cost=1)] * 6, *[card(cost=0)] * 16)
    params = Params()
    cost = cards["cost"].astype(int)
    seen = 0
    for deck in deck_lists(cg, params, 600, cards).reshape(-1, params.deck_size):
        zeros, extra = check_recommended(deck, cost)
        drawn = 20 - zeros - extra  # the cost-1+ draw of step 2
        assert zeros == min(16, 20 - drawn)
        if set(deck[:3].tolist()) == {0, 1, 2}:  # the draw "Fallen Dragon plus two cost-3 cards"
            seen += 1
            assert (drawn, zeros, extra) == (3, 16, 1)
    assert seen > 0


def test_uniform_random_decks_are_unique_and_may_include_cost_eight_cards(cg):
    params = Params(deck_builder=1)
    cards = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params).table
    decks = deck_lists(cg, params, 200, cards)
    assert all(len(set(d.tolist())) == 20 for d in decks.reshape(-1, 20))
    assert (cards["cost"][decks] == 8).any()
    counts = np.bincount(decks.ravel(), minlength=len(cards))
    assert counts.min() > 0  # every card of the pool turns up


@pytest.mark.slow
def test_shared_set_decks_are_disjoint_and_neither_seat_is_favoured(cg):
    params = Params(deck_source=1)
    cards = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params).table
    decks = deck_lists(cg, params, 2000, cards)
    for g in decks:
        assert not set(g[0].tolist()) & set(g[1].tolist())
    cost = cards["cost"]
    costly = (cost[decks] > 0).sum(axis=2)  # [game, seat]: fallback cards make this seat-dependent
    diff = costly[:, 0] - costly[:, 1]
    assert abs(diff.mean()) < 4 * diff.std() / np.sqrt(len(diff))
    assert (diff != 0).any()  # the 0-cost pile does run out for someone


def test_fixed_decks_are_used_as_given(cg):
    cards = cg.make_cards(*[FILLER] * 40)
    params = Params(deck_builder=2)
    decks = np.arange(40, dtype=np.int16)[::-1].reshape(2, 20).copy()
    state = kernel.prepare(cards, params, np.stack([GAME.make_weights("greedy")] * 2), 0)
    kernel.set_up(state[0], decks, 0, np.uint64(1))
    assert (state[0]["piles"]["built"][:, :20] == decks).all()


# -- R3, R20, R21: first seat, timeouts, classic -------------------------------------------------


@pytest.mark.slow
def test_first_seat_is_a_fair_coin_by_default(cg):
    games = cg.chunk(Params(), n=2000)["games"]
    firsts = games["first_seat"].sum()
    assert abs(firsts - 1000) < 4 * np.sqrt(500)


def test_first_seat_alternate_gives_seat_g_mod_2(cg):
    games = cg.chunk(Params(first_seat=1), n=50)["games"]
    assert (games["first_seat"] == games["game"] % 2).all()


def test_game_without_scoring_cards_times_out_at_max_turns(cg):
    cards = cg.make_cards(*[card(atk=1)] * 40)
    params = Params(deck_builder=2, max_turns=30)
    state = kernel.prepare(cards, params, np.stack([GAME.make_weights("greedy")] * 2), 0)
    decks = np.arange(40, dtype=np.int16).reshape(2, 20)
    kernel.play_game(state[0], decks, np.array([1, 1]), 0, np.uint64(3), np.zeros(0, np.int64))
    meta = state[0]["meta"]
    assert (meta["winner"], meta["end_reason"], meta["turn"]) == (-1, EndReason.TIMEOUT, 30)


def test_classic_variant_is_not_runnable(cg):
    with pytest.raises(ParamError, match="Classic"):
        GAME.make_params("classic")


# -- R18: leaving the field ------------------------------------------------------------------------


def test_retired_damaged_card_returns_with_printed_stats(cg):
    cards = cg.make_cards(card(hp=3, def_=2, score=1), *[FILLER] * 4)
    _, s = cg.make_state(cards, fields=([0, 1, 2, 3, 4], ()))
    s["field"]["hp"][0, 0], s["field"]["def_"][0, 0] = 1, 0
    kernel.apply_action(s, act(K.RETIRE, 0, 0))
    s["piles"]["hand"][0, 0], s["piles"]["hand_n"][0] = 0, 1  # back in hand
    s["piles"]["discard_n"][0] = 0
    kernel.apply_action(s, act(K.PLAY, 0, 0))
    assert (s["field"]["hp"][0, 4], s["field"]["def_"][0, 4]) == (3, 2)


# -- whole games: drivers, audits, replay ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant", ["modern", "digital", "starter_pool", "shared_set", "with_gun_imp", "uniform_decks"]
)
def test_random_and_greedy_games_conserve_cards_in_every_variant(cg, variant):
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), np.int16)
    for bots in (("random", "random"), ("greedy", "tuned")):
        report = np.zeros(4, np.int64)
        ids = np.array([GAME.bots.index(b) for b in bots], np.int64)
        weights = np.stack([GAME.make_weights(b) for b in bots])
        GAME.check_games(params, pool.table, decks, ids, weights, np.uint64(2), 0, 150, report)
        assert report[0] > 150
        assert report[1:].tolist() == [0, 0, 0]


def test_replay_log_matches_the_recorded_game(cg):
    params = GAME.make_params()
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, 20), np.int16)
    bots, weights = np.array([1, 2]), np.stack([GAME.make_weights("greedy"), GAME.make_weights("tuned")])
    games = GAME.play_chunk(params, pool, decks, bots, weights, 8, 0, 5, ("games",))["games"]
    lines = GAME.replay(params, pool, decks, bots, weights, 8, 3)
    row = games[3]
    assert sum(line.startswith("-- turn") for line in lines) == row["turns"]
    assert lines[-1].endswith(
        f"WINS with {max(row['score_0'], row['score_1'])} points against {min(row['score_0'], row['score_1'])}"
    )
    assert lines[-1].startswith(f"[{row['turns']:3d}] P{row['winner']}")
    assert any("plays" in line for line in lines)
    assert any("attacks" in line for line in lines)


def test_double_omni_is_two_omni_actions(cg):
    cards = cg.make_cards(card(atk=1, keywords=DOUBLE | OMNI), card(hp=2), card(hp=2))  # Demon Whiptail
    _, s = cg.make_state(cards, fields=([0], [1, 2]))
    kernel.apply_action(s, act(K.ATTACK, 0, ALL_TARGETS))
    assert s["field"]["hp"][1, :2].tolist() == [1, 1]
    kernel.apply_action(s, act(K.ATTACK, 0, ALL_TARGETS))
    assert cg.field_cards(s, 1) == []
    assert s["tally"]["seats"][0]["attacks"] == 2


def test_double_fragile_card_destroyed_by_its_first_attack_loses_the_second(cg):
    cards = cg.make_cards(card(hp=1, atk=2, keywords=DOUBLE | FRAGILE), card(hp=3))
    _, s = cg.make_state(cards, fields=([0], [1]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert cg.field_cards(s, 0) == []
    assert cg.legal(s) == {END_TURN}


@pytest.mark.slow
def test_play_games_stops_before_a_game_that_does_not_fit_and_resumes_identically():
    params = GAME.make_params()
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    args = (
        params,
        pool.table,
        np.zeros((2, 20), np.int16),
        np.array([1, 2]),
        np.stack([GAME.make_weights("greedy"), GAME.make_weights("tuned")]),
        np.uint64(4),
    )

    def run(first, n, turn_rows):
        bufs = [np.zeros(n, GAME.tables["games"]), np.zeros(2 * n, GAME.tables["seats"])]
        bufs += [np.zeros(40 * n, GAME.tables["cards"]), np.zeros(turn_rows, GAME.tables["turns"])]
        counts = np.zeros(4, np.int64)
        done = kernel.play_games(*args, first, n, 1, 1, *bufs, counts)
        return done, [b[:c] for b, c in zip(bufs, counts, strict=True)]

    done, whole = run(0, 30, 30 * 200)
    assert done == 30
    done, part = run(0, 30, 100)  # room for the turn rows of a few games only
    assert 0 < done < 30
    _, rest = run(done, 30 - done, 30 * 200)
    for a, b, c in zip(whole, part, rest, strict=True):
        joined = np.concatenate([b, c])
        assert all(np.array_equal(joined[f], a[f]) for f in a.dtype.names)  # padding bytes aside
