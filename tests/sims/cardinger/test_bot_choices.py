"""Cardinger bots on hand-built positions: each keyword used when it clearly pays, and the blind spots fixed.

Every test builds its own cards (no inferred stat of cards.csv) and asks both heuristic
bots, each with its default weights, for their choice. The issue-8 fixes (best action over
the field, DOUBLE as two attacks, DEVOUR/DECAY valued, discards priced by value,
PROSPERITY-aware plays and draws) each have a position where the bots chose otherwise
before the fix.
"""

import pytest

from sims.cardinger import bots, kernel
from sims.cardinger.bots import Bot
from sims.cardinger.state import ALL_TARGETS, DECAY, DEVOUR, DOUBLE, FRAGILE, OMNI, PROSPERITY, READY, STEAL, Phase
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act

HEURISTIC = [pytest.param(Bot.GREEDY, "greedy", id="greedy"), pytest.param(Bot.TUNED, "tuned", id="tuned")]
FILLER = {}  # a blank 0-cost, 1-HP card


def position(cg, name: str, specs: list, **piles):
    """Return ``s`` for the cards ``specs`` and the piles/fields given (ids index ``specs``), ``name``'s weights."""
    _, s = cg.make_state(cg.make_cards(*specs), bot=name, **piles)
    return s


def play_out(bot: Bot, s, limit: int = 12) -> list[int]:
    """Apply the bot's choices until it ends its turn (or ``limit`` decisions); return them."""
    chosen = []
    for _ in range(limit):
        a = bots.choose(bot, s)
        chosen.append(a)
        if a == act(K.END, 0, 0) or s["meta"]["phase"] == Phase.OVER:
            break
        kernel.apply_action(s, a)
    return chosen


# -- fixes: each failed before (the bots chose the action named in the comment) -------------------


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_bots_act_with_the_best_action_on_the_field_not_the_first_card(cg, bot, name):
    cards = [{"draw": 1}, {"score": 3}, FILLER]
    s = position(cg, name, cards, fields=([0, 1], ()), decks=([2], ()), plays_left=0)
    assert bots.choose(bot, s) == act(K.SCORE, 1, 0)  # greedy drew with slot 0 first


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_double_attack_is_valued_as_two_attacks(cg, bot, name):
    cards = [{"atk": 1, "score": 2, "keywords": DOUBLE}, {"hp": 2, "atk": 1, "score": 2}]
    s = position(cg, name, cards, fields=([0], [1]), plays_left=0)
    assert play_out(bot, s)[:2] == [act(K.ATTACK, 0, 0)] * 2  # both scored: one hit looked worth less than 2 points
    assert cg.field_cards(s, 1) == []


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_devour_hp_gain_is_valued_the_damaged_devour_card_takes_the_kill(cg, bot, name):
    cards = [{"atk": 1, "score": 1}, {"atk": 1, "hp": 2, "keywords": DEVOUR}, {"atk": 1, "score": 2}]
    s = position(cg, name, cards, fields=([0, 1], [2]), plays_left=0)
    s["field"]["hp"][0, 1] = 1
    assert play_out(bot, s)[:2] == [act(K.ATTACK, 1, 0), act(K.SCORE, 0, 0)]  # slot 0 killed, slot 1 idled
    assert s["field"]["hp"][0, 1] == 2


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_decay_def_loss_is_valued_the_plain_card_takes_the_kill(cg, bot, name):
    cards = [{"atk": 1, "def_": 1, "score": 1, "keywords": DECAY}, {"atk": 1, "def_": 1}, {"atk": 1, "score": 2}]
    s = position(cg, name, cards, fields=([0, 1], [2]), plays_left=0)
    assert play_out(bot, s)[:2] == [act(K.ATTACK, 1, 0), act(K.SCORE, 0, 0)]  # the DECAY card killed, slot 1 idled


def test_greedy_prices_a_cost_by_the_card_it_discards(cg):
    cards = [{"cost": 1, "score": 3}, {"score": 2, "draw": 1}, FILLER]
    s = position(cg, "greedy", cards, hands=([0, 1], ()))
    assert bots.choose(Bot.GREEDY, s) == act(K.PLAY, 1, 0)  # played card 0, discarding the better card 1
    s = position(cg, "greedy", cards, hands=([0, 2], ()))
    assert bots.choose(Bot.GREEDY, s) == act(K.PLAY, 0, 0)  # a blank is cheap to discard


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_prosperity_keeps_a_hand_of_five_rather_than_play_a_weak_card(cg, bot, name):
    cards = [{"score": 1, "keywords": PROSPERITY}, {"score": 1, "keywords": PROSPERITY}, *[FILLER] * 5]
    s = position(cg, name, cards, fields=([0, 1], ()), hands=([2, 3, 4, 5, 6], ()), plays_left=3)
    assert play_out(bot, s)[:2] == [act(K.SCORE, 0, 0), act(K.SCORE, 1, 0)]  # played blanks down to 2 cards first
    assert s["tally"]["score"][0] == 4


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_prosperity_draws_before_scoring_when_the_draw_reaches_five_cards(cg, bot, name):
    cards = [{"score": 2, "keywords": PROSPERITY}, {"draw": 1}, *[FILLER] * 7]
    s = position(cg, name, cards, fields=([0, 1], ()), hands=([2, 3, 4, 5], ()), decks=([6, 7, 8], ()), plays_left=0)
    assert play_out(bot, s)[:2] == [act(K.DRAW, 1, 0), act(K.SCORE, 0, 0)]  # scored first with 4 cards
    assert s["tally"]["score"][0] == 3


def test_greedy_counts_one_attack_for_a_double_fragile_card_its_first_attack_destroys(cg):
    cards = [{"atk": 1, "score": 3, "keywords": DOUBLE | FRAGILE}, {"hp": 2, "atk": 1, "score": 2}]
    s = position(cg, "greedy", cards, fields=([0], [1]), plays_left=0)
    assert bots.choose(Bot.GREEDY, s) == act(K.SCORE, 0, 0)  # hit-then-kill would be worth more, but it dies first


# -- every keyword is used when it clearly pays ---------------------------------------------------


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_ready_card_is_played_and_scores_the_same_turn(cg, bot, name):
    s = position(cg, name, [{"score": 2, "keywords": READY}, FILLER], hands=([0, 1], ()), plays_left=1)
    assert play_out(bot, s)[:2] == [act(K.PLAY, 0, 0), act(K.SCORE, 0, 0)]


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_ready_double_card_attacks_twice_the_turn_it_is_played(cg, bot, name):
    cards = [{"atk": 2, "keywords": READY | DOUBLE}, FILLER, {"hp": 2, "score": 2}]
    s = position(cg, name, cards, hands=([0, 1], ()), fields=((), [2]), plays_left=1)
    assert play_out(bot, s)[:3] == [act(K.PLAY, 0, 0), act(K.ATTACK, 0, 0), act(K.ATTACK, 0, 0)]


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_fragile_card_scores_three_points_though_it_is_destroyed(cg, bot, name):
    s = position(cg, name, [{"score": 3, "keywords": FRAGILE}], fields=([0], ()), plays_left=0)
    assert bots.choose(bot, s) == act(K.SCORE, 0, 0)


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_omni_attack_destroys_three_cards_rather_than_score_one(cg, bot, name):
    cards = [{"atk": 1, "score": 1, "keywords": OMNI}, *[{"score": 1}] * 3]
    s = position(cg, name, cards, fields=([0], [1, 2, 3]), plays_left=0)
    assert bots.choose(bot, s) == act(K.ATTACK, 0, ALL_TARGETS)


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_steal_kill_scores_a_point_and_removes_a_card_rather_than_score_one(cg, bot, name):
    s = position(cg, name, [{"atk": 1, "score": 1, "keywords": STEAL}, FILLER], fields=([0], [1]), plays_left=0)
    assert bots.choose(bot, s) == act(K.ATTACK, 0, 0)


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_decay_card_still_scores_two_points(cg, bot, name):
    s = position(cg, name, [{"def_": 2, "score": 2, "keywords": DECAY}], fields=([0], ()), plays_left=0)
    assert bots.choose(bot, s) == act(K.SCORE, 0, 0)


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_prosperity_card_scores_its_bonus_with_a_full_hand(cg, bot, name):
    cards = [{"score": 1, "keywords": PROSPERITY}, *[FILLER] * 10]
    s = position(cg, name, cards, fields=([0], ()), hands=(list(range(1, 11)), ()), plays_left=0)
    assert bots.choose(bot, s) == act(K.SCORE, 0, 0)
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert s["tally"]["score"][0] == 3


@pytest.mark.parametrize(("bot", "name"), HEURISTIC)
def test_prosperity_does_not_stop_a_valuable_play(cg, bot, name):
    cards = [{"score": 1, "keywords": PROSPERITY}, {"score": 3, "atk": 1}, *[FILLER] * 4]
    s = position(cg, name, cards, fields=([0], ()), hands=([1, 2, 3, 4, 5], ()), plays_left=3)
    assert bots.choose(bot, s) == act(K.PLAY, 0, 0)
