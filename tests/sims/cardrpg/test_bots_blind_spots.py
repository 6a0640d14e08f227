"""CardRPG bots: the blind spots of issue 8 §2, each on a hand-built position (every test failed before its fix).

- a face card is not worth ``face_value`` when its random attack cannot be drawn;
- between battles the bots reveal the top card only when a purchase is likely and no
  Joker can be burned, and they buy a revealed Diamond (free: the gold comes back);
- the random bot is uniform over the legal actions other than quitting;
- a Diamond character sells an Inventory card to fund good buy-backs;
- the planner uses the A-spade before a Jack's first strike when its hand cannot win;
- with an empty hand (or only undrawable random attacks) the bots buy a card back;
- the A-club's blitz (any set, R14): greedy plays what is worth playing, the planner the
  fewest cards that kill.
"""

import numpy as np
import pytest

from sims.cardrpg import bots, estimates, kernel
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import Phase
from sims.cardrpg.state import encode as act

END, PASS, REVEAL = act(K.END, 0, 0), act(K.PASS, 0, 0), act(K.REVEAL, 0, 0)
HEURISTIC = ("greedy", "planner")


def choose(rpg, s, bot: str) -> int:
    """Return the bot's choice in ``s``, with the legal list filled in as ``play_character`` fills it."""
    s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
    return bots.choose(rpg.GAME.bots.index(bot), s)


def discard_index(rpg, s, name: str) -> int:
    """Return the discard-pile index of card ``name``."""
    return rpg.zone(s, "discard").index(name)


def bone_all_but(rpg, *names: str, hero: str = "spade:queen") -> tuple[tuple[str, bool], ...]:
    """Return every card except ``names`` and the class card as face-up bone-pile cards (out of the way)."""
    keep = {*names, hero}
    return tuple((n, True) for n in rpg.NAMES if n not in keep)


# -- face cards and the draw pile -------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", HEURISTIC)
def test_with_an_empty_draw_pile_the_bots_play_a_number_card_not_a_face_card(rpg, bot):
    """The issue's probe: empty pile, hand K-heart + 3-club. A King would end the session (R16)."""
    _, s = rpg.make_state(hand=("heart:king", "club:3"), monster="club:10", monster_hp=10, bot=bot)
    assert int(s["piles"]["draw_n"]) == 0
    assert choose(rpg, s, bot) == act(K.ATTACK, 3, 1)


@pytest.mark.parametrize("bot", HEURISTIC)
def test_with_a_long_draw_pile_a_face_card_is_still_worth_its_weight(rpg, bot):
    _, s = rpg.make_state(hand=("heart:king", "club:3"), monster="club:10", monster_hp=30, rest="draw", bot=bot)
    assert choose(rpg, s, bot) == act(K.ATTACK, 13, 1)  # 6 expected beats 3


def test_with_one_card_left_greedy_plays_one_face_card_not_two(rpg):
    """Two random attacks need two draws: with one card left (no face card unseen) one King is played, not both."""
    _, s = rpg.make_state(hand=("heart:king", "club:king"), monster="club:10", monster_hp=5, draw=("spade:9",))
    assert choose(rpg, s, "greedy") == act(K.ATTACK, 13, 1)


def test_the_chance_of_drawing_random_attacks_follows_the_pile_and_the_unseen_face_cards(rpg):
    """The pile is a random part of the unseen cards: draws complete if it holds k cards that are not face cards."""
    _, s = rpg.make_state(hand=("heart:king",), monster="club:10", draw=("spade:9", "heart:jack"))
    assert estimates.unseen_faces(s) == 1  # the Jack; every other face card is in sight
    assert estimates.draws_ok(s, 0) == estimates.draws_ok(s, 1) == 1.0  # at least one of the 2 is not a face
    assert estimates.draws_ok(s, 2) == 0.0  # the Jack asks for a third card
    assert estimates.draws_ok(s, 3) == 0.0
    _, s = rpg.make_state(
        hand=("heart:king",), monster="club:10", draw=("spade:9", "club:2"), mpile=("heart:jack", "club:jack")
    )
    assert estimates.unseen_faces(s) == 2  # 4 unseen cards, 2 of them Jacks, 2 in the pile
    assert estimates.draws_ok(s, 1) == pytest.approx(5 / 6)  # only a pile of both Jacks fails: 1 in C(4, 2)
    assert estimates.draws_ok(s, 2) == pytest.approx(1 / 6)  # only a pile of both numbers succeeds
    _, s = rpg.make_state(hand=("heart:king",), monster="club:10", rest="draw")
    assert estimates.draws_ok(s, 3) == 1.0  # 51 cards: at most 12 are face cards


# -- between battles: revealing, buying, selling -------------------------------------------------------------------


GOOD = tuple(f"{suit}:{v}" for suit in ("spade", "heart", "club") for v in (6, 7, 8, 9, 10))[:12]


def mostly_buyable_pile(rpg, *extra: str) -> dict:
    """Return make_state keywords: 12 gold, a draw pile of 12 good non-Diamond number cards (and ``extra``).

    The other cards are in the bone pile, so no discarded card tempts a buy-back.
    """
    return {"gold": 12, "draw": (*GOOD, *extra), "bone": bone_all_but(rpg, *GOOD, *extra)}


@pytest.mark.parametrize("bot", HEURISTIC)
def test_the_bots_reveal_when_most_of_the_pile_is_worth_buying_and_no_joker_is_in_it(rpg, bot):
    _, s = rpg.make_state(bot=bot, **mostly_buyable_pile(rpg))
    assert choose(rpg, s, bot) == REVEAL


@pytest.mark.parametrize("bot", HEURISTIC)
def test_the_bots_never_reveal_while_a_joker_could_be_burned(rpg, bot):
    _, s = rpg.make_state(bot=bot, **mostly_buyable_pile(rpg, "joker:1"))
    assert choose(rpg, s, bot) == END


@pytest.mark.parametrize("bot", HEURISTIC)
def test_the_bots_do_not_reveal_when_a_purchase_is_unlikely(rpg, bot):
    """Gold 12, but the pile (Jokers out of it) is mostly cards the bot would not buy: revealing would burn them."""
    _, s = rpg.make_state(gold=12, bone=(("joker:1", True), ("joker:2", True)), rest="draw", bot=bot)
    assert choose(rpg, s, bot) == END


@pytest.mark.parametrize("bot", HEURISTIC)
def test_the_bots_buy_a_revealed_diamond(rpg, bot):
    """Buying a revealed Diamond costs nothing net (its gold comes back) and keeps the card out of the discard pile."""
    _, s = rpg.make_state(gold=7, draw=("diamond:7", "club:2"), bot=bot)
    kernel.apply_action(s, REVEAL)
    assert choose(rpg, s, bot) == act(K.BUY, 0, 0)
    kernel.apply_action(s, act(K.BUY, 0, 0))
    assert int(s["hero"]["gold"]) == 7
    assert rpg.draw_pile(s) == ["club:2", "diamond:7"]


@pytest.mark.parametrize("bot", HEURISTIC)
def test_a_diamond_character_sells_a_club_to_buy_back_good_cards(rpg, bot):
    _, s = rpg.make_state(
        hero="diamond:queen", inv=("club:3", "heart:5"), discard=("spade:10", "heart:9", "club:8"), bot=bot
    )
    assert choose(rpg, s, bot) == act(K.SELL, 0, 0)  # the Club (not the Heart): 3 gold for three good buy-backs
    kernel.apply_action(s, act(K.SELL, 0, 0))
    assert choose(rpg, s, bot) >> 12 == K.BUYBACK


@pytest.mark.parametrize("bot", HEURISTIC)
def test_a_diamond_character_keeps_its_cards_when_nothing_is_worth_buying_back(rpg, bot):
    _, s = rpg.make_state(
        hero="diamond:queen", inv=("club:3", "spade:6"), discard=("spade:2", "heart:3"), rest="draw", bot=bot
    )
    assert choose(rpg, s, bot) == END


def test_a_diamond_character_does_not_sell_a_big_spade_for_one_buyback(rpg):
    _, s = rpg.make_state(hero="diamond:queen", inv=("spade:10",), discard=("heart:9",), rest="draw")
    assert choose(rpg, s, "greedy") == END  # 10 damage kept beats one 9 bought back


# -- the random bot ------------------------------------------------------------------------------------------------


def test_the_random_bot_is_uniform_over_the_actions_other_than_quitting(rpg):
    """Legal: END, QUIT, REVEAL. Before the fix a QUIT pick went to REVEAL (2/3); now each of the two has 1/2."""
    _, s = rpg.make_state(draw=("heart:8", "club:2"), bot="random")
    assert rpg.legal(s) == {END, act(K.QUIT, 0, 0), REVEAL}
    n = 4000
    reveals = sum(choose(rpg, s, "random") == REVEAL for _ in range(n))
    assert abs(reveals / n - 0.5) < 4 * np.sqrt(0.25 / n)  # 2/3 is 21 standard errors away


# -- the A-spade before a Jack's first strike ----------------------------------------------------------------------


def test_the_planner_uses_the_ace_of_spades_before_a_jack_strikes_when_its_hand_cannot_win(rpg):
    _, s = rpg.make_state(
        hand=("club:6",), inv=("spade:ace",), monster="heart:jack", monster_hp=15, phase=Phase.PRE_STRIKE
    )
    assert choose(rpg, s, "planner") == act(K.ACE_SPADE, 0, 0)


def test_the_planner_keeps_the_ace_of_spades_when_its_hand_beats_the_jack(rpg):
    _, s = rpg.make_state(
        hand=("club:8", "heart:8"), inv=("spade:ace",), monster="heart:jack", monster_hp=15, phase=Phase.PRE_STRIKE
    )
    assert choose(rpg, s, "planner") == PASS


# -- buying back into an empty or useless hand (RULES.md §7 Q13) ------------------------------------------------------


@pytest.mark.parametrize("bot", HEURISTIC)
def test_with_an_empty_hand_and_gold_the_bots_buy_back_the_best_number_card(rpg, bot):
    discard = ("heart:9", "spade:king", "club:4")
    _, s = rpg.make_state(gold=1, monster="club:10", monster_hp=20, discard=discard, rest="draw", bot=bot)
    assert choose(rpg, s, bot) == act(K.BUYBACK, discard_index(rpg, s, "heart:9"), 0)
    kernel.apply_action(s, choose(rpg, s, bot))
    assert choose(rpg, s, bot) == act(K.ATTACK, 9, 1)


@pytest.mark.parametrize("bot", HEURISTIC)
def test_with_only_an_undrawable_face_card_the_bots_buy_back_a_number_card(rpg, bot):
    placed = ("heart:king", "club:10", "heart:5")
    _, s = rpg.make_state(
        gold=1, hand=placed[:1], monster="club:10", monster_hp=20, discard=placed[2:], bone=bone_all_but(rpg, *placed),
        bot=bot,
    )  # fmt: skip
    assert int(s["piles"]["draw_n"]) == 0
    assert choose(rpg, s, bot) == act(K.BUYBACK, discard_index(rpg, s, "heart:5"), 0)
