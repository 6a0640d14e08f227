"""Cardinger rules, part 2: worked examples E6-E13 and rulings R11-R14 (keywords and PROSPERITY).

FRAGILE, DEVOUR, DOUBLE, STEAL, OMNI, READY and DECAY alone and combined, and PROSPERITY.
Positions are hand-built (``conftest.py``); the shared helpers are in ``rules_helpers.py``.
"""

import pytest

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
    EventKind,
)
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act
from tests.sims.cardinger.rules_helpers import FILLER, card, fillers

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
