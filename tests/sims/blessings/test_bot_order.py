"""Blessings & Curses bots choose which card to play next (R7: every card, in any order): hand-built turns.

``order`` (a bot weight): 0 plays the leftmost card (the bots before rules_version 3),
1 the card whose best action is worth the most (the tactician's default), 2 the most
valued card whose best action is an attack before any other (greedy's default). Ties
go to the leftmost card; only the cards still to play are candidates.
"""

import hashlib

import numpy as np
import pytest

from sims.blessings import bots
from sims.blessings.bots import Bot
from sims.blessings.state import ActionKind as K
from sims.blessings.state import Phase, action_i, action_kind
from sims.blessings.state import encode as act
from sims.blessings.weights import ORDER_ATTACKS_FIRST, ORDER_BEST, ORDER_LEFTMOST, W

DECKS = (["heart:2", "heart:3", "heart:4"], ["club:4"])
ORDERS = [ORDER_LEFTMOST, ORDER_BEST, ORDER_ATTACKS_FIRST]


def position(bl, mine, theirs, bot: str, order: float | None = None, **kw):
    """Seat 0 (``bot``, with ``order`` if given) to play ``mine`` against ``theirs``; replacements in its deck."""
    weights = ({} if order is None else {"order": float(order)}, {})
    return bl.make_state(hands=(mine, theirs), decks=DECKS, bots=(bot, bot), weights=weights, **kw)


def play_turn(bl, s, bot: str) -> list[tuple[str, int]]:
    """Let seat 0's bot play every card of its turn; return (card played, action kind) in order."""
    played = []
    while s["meta"]["phase"] == Phase.PLAY and s["meta"]["mover"] == 0:
        a = bots.choose(Bot[bot.upper()], s)
        played.append((bl.POOL.names[s["piles"]["hand"][0, action_i(a)]], action_kind(a)))
        bl.kernel.apply_action(s, a)
    return played


def test_defaults_choose_the_order_and_zero_is_the_leftmost_card(bl):
    assert bl.GAME.make_weights("greedy")[W.ORDER] == ORDER_ATTACKS_FIRST
    assert bl.GAME.make_weights("tactician")[W.ORDER] == ORDER_BEST
    _, s = position(bl, ["spade:4", "diamond:8"], ["diamond:5"], "greedy", ORDER_LEFTMOST)
    outlook = bots.outlook(s, 0, False)
    assert bots.choose(Bot.GREEDY, s) == bots.best_for_card(s, 0, 0, False, *outlook)[0] == act(K.CURSE, 0, 0)


@pytest.mark.parametrize("order", [ORDER_BEST, ORDER_ATTACKS_FIRST])
def test_greedy_opens_with_the_big_attack_and_finishes_the_card_with_the_small_one(bl, order):
    """spade:4 alone would curse (5 > 2 for 4 damage); after diamond:8's 16 it kills the card left at 4."""
    _, s = position(bl, ["spade:4", "diamond:8"], ["diamond:5"], "greedy", order)
    assert bots.choose(Bot.GREEDY, s) == act(K.ATTACK, 1, 0)
    assert play_turn(bl, s, "greedy") == [("diamond:8", K.ATTACK), ("spade:4", K.ATTACK)]
    assert bl.hand(s, 1) == []
    assert bl.pile(s, "gone", 1) == ["diamond:5"]

    _, s = position(bl, ["spade:4", "diamond:8"], ["diamond:5"], "greedy", ORDER_LEFTMOST)  # the old bot
    assert play_turn(bl, s, "greedy") == [("spade:4", K.CURSE), ("diamond:8", K.ATTACK)]
    assert bl.hand(s, 1) == ["diamond:5"]
    assert bl.health(s, 1, "diamond:5") == 4


@pytest.mark.parametrize("bot", ["greedy", "tactician"])
def test_both_bots_wound_with_heart6_then_finish_with_spade2_instead_of_cursing_3(bl, bot):
    mine, theirs = ["spade:2", "heart:6"], ["diamond:6", "spade:5"]
    _, s = position(bl, mine, theirs, bot)
    assert bots.choose(Bot[bot.upper()], s) == act(K.ATTACK, 1, 1)  # heart:6's 18 on spade:5
    assert play_turn(bl, s, bot) == [("heart:6", K.ATTACK), ("spade:2", K.ATTACK)]
    assert bl.hand(s, 1) == ["diamond:6"]
    assert int(s["pools"]["curse"][1]) == 0

    _, s = position(bl, mine, theirs, bot, ORDER_LEFTMOST)
    assert play_turn(bl, s, bot) == [("spade:2", K.CURSE), ("heart:6", K.ATTACK)]
    assert bl.hand(s, 1) == theirs
    assert bl.health(s, 1, "spade:5") == 2
    assert int(s["pools"]["curse"][1]) == 3


def test_tactician_kills_with_its_big_card_first_and_finishes_the_second_card_with_two_small_ones(bl):
    """heart:9 (27) kills club:jack; diamond:7 (14) and heart:4 (12) then kill heart:3. Left to right: one kill."""
    mine, theirs = ["heart:4", "diamond:7", "heart:9"], ["club:jack", "heart:3"]
    _, s = position(bl, mine, theirs, "tactician")
    assert bots.choose(Bot.TACTICIAN, s) == act(K.ATTACK, 2, 0)
    assert [c for c, _ in play_turn(bl, s, "tactician")] == ["heart:9", "diamond:7", "heart:4"]
    assert bl.hand(s, 1) == []
    assert sorted(bl.pile(s, "gone", 1)) == sorted(theirs)

    _, s = position(bl, mine, theirs, "tactician", ORDER_LEFTMOST)
    play_turn(bl, s, "tactician")
    assert bl.hand(s, 1) == ["heart:3"]
    assert bl.health(s, 1, "heart:3") == 6


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("bot", ["greedy", "tactician"])
def test_ties_go_to_the_leftmost_card(bl, bot, order):
    """spade:queen and club:king both curse for 9 and attack for 0: the same value, so the leftmost goes first."""
    _, s = position(bl, ["spade:queen", "club:king"], ["club:2", "heart:2"], bot, order)
    assert bots.choose(Bot[bot.upper()], s) == act(K.CURSE, 0, 0)
    _, s = position(bl, ["club:king", "spade:queen"], ["club:2", "heart:2"], bot, order)
    assert bots.choose(Bot[bot.upper()], s) == act(K.CURSE, 0, 0)


@pytest.mark.parametrize("order", ORDERS)
def test_greedy_plays_the_leftmost_card_when_a_later_one_is_worth_no_more(bl, order):
    """heart:10 and diamond:10 both kill club:2 (greedy: 6 + 10 each, overkill is not counted)."""
    _, s = position(bl, ["heart:10", "diamond:10"], ["club:2"], "greedy", order)
    assert bots.choose(Bot.GREEDY, s) == act(K.ATTACK, 0, 0)


def test_tactician_kills_with_the_card_that_wastes_less_and_keeps_the_big_one(bl):
    """diamond:10 deals 20 (no overkill), heart:10 30 (10 lost): the tactician opens with diamond:10."""
    _, s = position(bl, ["heart:10", "diamond:10"], ["club:2"], "tactician")
    assert bots.choose(Bot.TACTICIAN, s) == act(K.ATTACK, 1, 0)
    _, s = position(bl, ["heart:10", "diamond:10"], ["club:2"], "tactician", ORDER_LEFTMOST)
    assert bots.choose(Bot.TACTICIAN, s) == act(K.ATTACK, 0, 0)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("bot", ["greedy", "tactician"])
def test_replacements_drawn_this_turn_are_kept_for_the_next(bl, bot, order):
    """R7: only the first ``to_play`` cards are played; heart:10 (a replacement, the best card) waits."""
    _, s = position(bl, ["spade:2", "club:3", "heart:10"], ["club:2"], bot, order, to_play=2)
    a = bots.choose(Bot[bot.upper()], s)
    assert action_i(a) < 2
    assert a in bl.legal(s)
    played = play_turn(bl, s, bot)
    assert [c for c, _ in played] in (["spade:2", "club:3"], ["club:3", "spade:2"])
    assert "heart:10" in bl.hand(s, 0)


@pytest.mark.parametrize("bot", ["greedy", "tactician"])
def test_the_choice_is_deterministic_and_leaves_the_position_unchanged(bl, bot):
    state, s = position(bl, ["spade:2", "heart:6", "club:9", "diamond:king"], ["diamond:6", "spade:5"], bot)
    before = state.tobytes()
    assert len({bots.choose(Bot[bot.upper()], s) for _ in range(5)}) == 1
    assert bl.without_cache(state).tobytes() == before


@pytest.mark.parametrize("variant", ["modern", "hidden_hands", "arranged_hands", "blessing_first"])
def test_greedy_choices_from_kept_card_values_are_the_choices_valued_afresh(bl, variant):
    """After a curse, bless or discard greedy reuses its card values of the decision before; at every decision of
    real games the choice equals the one made with nothing kept."""
    params = bl.GAME.make_params(variant, {"max_battles": 4})
    reused = 0
    for game in range(12):
        state, s = bl.new_game(params, ("greedy", "greedy"), seed=7, game=game)
        for _ in range(3000):
            if s["meta"]["phase"] == Phase.OVER:
                break
            fresh = bl.without_cache(state)
            m, sc = s["meta"], s["scratch"]
            key = (sc["cand_game"], sc["cand_turn"], sc["cand_left"]) == (m["game"], m["turn"], m["to_play"])
            reused += m["phase"] == Phase.PLAY and key
            a = bots.choose(Bot.GREEDY, s)
            assert a == bots.choose(Bot.GREEDY, fresh[0])
            bl.kernel.apply_action(s, a)
    assert reused > 50


def test_random_bot_ignores_order_and_draws_its_card_uniformly(bl):
    """The random bot plays a uniform card of those still to play, so a uniform order; ``order`` changes nothing."""
    mine = ["spade:2", "heart:6", "club:9", "diamond:king", "heart:10"]
    picks = {}
    for order in ORDERS:
        _, s = position(bl, mine, ["diamond:6", "spade:5"], "random", order, seed=3, to_play=4)
        picks[order] = [bots.choose(Bot.RANDOM, s) for _ in range(200)]
    assert picks[ORDER_LEFTMOST] == picks[ORDER_BEST] == picks[ORDER_ATTACKS_FIRST]
    counts = np.bincount([action_i(a) for a in picks[ORDER_BEST]], minlength=5)
    assert counts[4] == 0
    assert counts[:4].min() > 25


RULES_V2_GAMES = {  # digests of 300 games (max_battles 10, seed 11) played by the rules_version 2 code (cc99c83)
    ("modern", ("greedy", "greedy")): "561b98f452dfe2d8",
    ("modern", ("tactician", "greedy")): "99d670bd85de9ae5",
    ("blessing_first", ("tactician", "tactician")): "d232e9a4f9c4c8c1",
    ("first_reading", ("greedy", "tactician")): "0bff4e4fb3a43c75",
}


@pytest.mark.parametrize(("variant", "pair"), list(RULES_V2_GAMES), ids=["-".join((v, *p)) for v, p in RULES_V2_GAMES])
def test_order_zero_plays_the_rules_version_2_games(bl, variant, pair):
    """``order`` = 0 is the old bots: the same games, so the ablation's baseline is rules_version 2's bots."""

    def digest(order: float | None) -> str:
        params = bl.GAME.make_params(variant, {"max_battles": 10})
        pool = bl.GAME.prepare_pool(bl.POOL, params)
        ids = np.array([bl.GAME.bots.index(b) for b in pair], np.int64)
        w = np.stack([bl.GAME.make_weights(b, {} if order is None else {"order": order}) for b in pair])
        g = bl.GAME.play_chunk(params, pool, np.zeros((2, 0), np.int16), ids, w, 11, 0, 300, ("games",))["games"]
        h = hashlib.sha256()
        for f in ("winner", "end_reason", "turns", "battles", "first_seat", "score_0", "score_1"):
            h.update(np.ascontiguousarray(g[f]).astype(np.int64).tobytes())
        return h.hexdigest()[:16]

    assert digest(ORDER_LEFTMOST) == RULES_V2_GAMES[(variant, pair)]
    assert digest(None) != RULES_V2_GAMES[(variant, pair)]  # the default bots choose their order: other games
