"""Cardinger bots: legal and pure choices, R19 information limits, and the skill gradient."""

import itertools
import math

import numpy as np
import pytest

import sims
from sims.cardinger import bots, kernel
from sims.cardinger.bots import Bot
from sims.cardinger.state import END_TURN, MAX_ACTIONS, STEAL, Phase
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act

GAME = sims.load("cardinger")


def wilson_low(wins: int, n: int, z: float = 1.96) -> float:
    """Return the lower end of the Wilson 95 % interval of ``wins`` out of ``n``."""
    p = wins / n
    d = 1 + z * z / n
    return (p + z * z / (2 * n) - z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / d


def win_count(bot: str, rival: str, n_games: int, seed: int) -> int:
    """Return how many of ``n_games`` (half with ``bot`` in each seat, same seeds) ``bot`` wins."""
    params = GAME.make_params()
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, 20), np.int16)
    wins = 0
    for seat in (0, 1):
        lineup = (bot, rival) if seat == 0 else (rival, bot)
        ids = np.array([GAME.bots.index(b) for b in lineup], np.int64)
        weights = np.stack([GAME.make_weights(b) for b in lineup])
        games = GAME.play_chunk(params, pool, decks, ids, weights, seed, 0, n_games // 2, ("games",))["games"]
        wins += int((games["winner"] == seat).sum())
    return wins


def midgame_positions(n: int, seed: int = 5):
    """Yield ``n`` (state, s) positions reached by random play from real set-ups (logging off)."""
    params = GAME.make_params()
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    weights = np.stack([GAME.make_weights("greedy"), GAME.make_weights("tuned")])
    rng = np.random.default_rng(seed)
    out = np.zeros(256, np.int32)
    for g in range(n):
        state = kernel.prepare(pool.table, params, weights, 0)
        s = state[0]
        kernel.set_up(s, np.zeros((2, 20), np.int16), g, np.uint64(seed * 1000 + g))
        for _ in range(int(rng.integers(5, 120))):
            k = kernel.legal_actions(s, out)
            if k == 0:
                break
            kernel.apply_action(s, int(out[rng.integers(k)]))
        if s["meta"]["phase"] != Phase.OVER:
            yield state, s


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b"), list(itertools.product(GAME.bots, repeat=2)))
def test_every_pairing_takes_only_legal_actions_and_conserves_cards(a, b):
    params = GAME.make_params()
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    report = np.zeros(4, np.int64)
    ids = np.array([GAME.bots.index(a), GAME.bots.index(b)], np.int64)
    weights = np.stack([GAME.make_weights(a), GAME.make_weights(b)])
    GAME.check_games(params, pool.table, np.zeros((2, 20), np.int16), ids, weights, np.uint64(31), 0, 300, report)
    assert report[0] > 300 * 20
    assert report[1:].tolist() == [0, 0, 0]


def same_position(a: np.ndarray, b: np.ndarray) -> bool:
    """Return True if ``a`` and ``b`` agree field by field, padding bytes and the bots' work buffer
    ``scratch.hand_values`` (sorted hand values) aside."""
    for name in a.dtype.names:
        if name == "hand_values":
            continue
        x, y = a[name], b[name]
        if not (same_position(x, y) if x.dtype.names else np.array_equal(x, y)):
            return False
    return True


def test_heuristic_bots_are_pure_and_choose_a_legal_action():
    out = np.zeros(256, np.int32)
    for state, s in midgame_positions(60):
        n = kernel.legal_actions(s, out)
        before = state.copy()
        for bot in (Bot.GREEDY, Bot.TUNED):
            assert bots.choose(bot, s) in set(out[:n].tolist())
        assert same_position(state, before)


def test_greedys_compiled_field_valuation_is_the_tuned_one_without_its_terms():
    """``greedy_field_action`` (compiled with threat, hold and cycle at 0) returns exactly what the
    tuned bot's ``best_field_action`` returns with those terms 0, for both seats of mid-game positions."""
    from sims.cardinger import appraise

    seen = set()
    for _, s in midgame_positions(80, seed=11):
        for p in range(2):
            a, v = appraise.greedy_field_action(s, p)
            b, w = appraise.best_field_action(s, p, 0.0, False, 0.0)
            assert (a, v) == (b, w)
            seen.add(a >> 12)
    assert {K.ATTACK, K.DRAW, K.SCORE} <= seen  # the positions reach every kind of field action


def test_random_bot_only_advances_its_own_rng_lane():
    out = np.zeros(256, np.int32)
    for _, s in midgame_positions(20):
        s["scratch"]["n_legal"] = kernel.legal_actions(s, out)
        s["scratch"]["legal"][:] = out[:MAX_ACTIONS]
        lanes = s["scratch"]["rng"].copy()
        choice = bots.choose(Bot.RANDOM, s)
        assert choice in set(out[: s["scratch"]["n_legal"]].tolist())
        changed = np.flatnonzero(s["scratch"]["rng"] != lanes).tolist()
        assert changed == [3 + s["meta"]["mover"]]


def test_heuristic_bots_ignore_the_opponents_hand_and_deck_order():
    rng = np.random.default_rng(2)
    for state, s in midgame_positions(60, seed=9):
        p = s["meta"]["mover"]
        choices = [bots.choose(b, s) for b in (Bot.GREEDY, Bot.TUNED)]
        other = state.copy()
        o = other[0]
        n = o["piles"]["hand_n"][1 - p]
        o["piles"]["hand"][1 - p, :n] = rng.integers(0, o["meta"]["n_cards"], n)  # R19: hidden
        for seat in (0, 1):
            k = o["piles"]["deck_n"][seat]
            o["piles"]["deck"][seat, :k] = rng.permutation(o["piles"]["deck"][seat, :k])
        assert [bots.choose(b, o) for b in (Bot.GREEDY, Bot.TUNED)] == choices


@pytest.mark.slow
def test_greedy_beats_random_decisively():
    wins = win_count("greedy", "random", 1000, seed=41)
    assert wilson_low(wins, 1000) > 0.95


@pytest.mark.slow
def test_tuned_beats_greedy_significantly():
    n = 6000
    wins = win_count("tuned", "greedy", n, seed=43)
    assert wilson_low(wins, n) > 0.60


def test_heuristic_bots_take_a_winning_score_action(cg):
    cards = cg.make_cards({"atk": 3}, {"score": 2}, {"hp": 1})
    for bot in (Bot.GREEDY, Bot.TUNED):
        _, s = cg.make_state(cards, fields=([0, 1], [2]))
        s["tally"]["score"][0] = 18
        assert bots.choose(bot, s) == act(K.SCORE, 1, 0)


def test_tuned_takes_the_last_point_with_a_steal_kill(cg):
    cards = cg.make_cards({"atk": 1, "keywords": STEAL}, {"hp": 1}, {"hp": 1, "score": 2})
    _, s = cg.make_state(cards, fields=([0], [1, 2]), bot="tuned")
    s["tally"]["score"][0] = 19
    assert bots.choose(Bot.TUNED, s) == act(K.ATTACK, 0, 0)


def test_heuristic_bots_pay_with_their_lowest_valued_card(cg):
    cards = cg.make_cards({"cost": 1, "score": 2, "atk": 2}, {"score": 2, "draw": 2}, {})
    for bot, name in ((Bot.GREEDY, "greedy"), (Bot.TUNED, "tuned")):
        _, s = cg.make_state(cards, hands=([0, 1, 2], ()), bot=name)
        kernel.apply_action(s, act(K.PLAY, 0, 0))
        assert bots.choose(bot, s) == act(K.PAY, 1, 0)  # the blank card (now at hand index 1)


def test_greedy_ends_the_turn_when_nothing_is_left_to_do(cg):
    cards = cg.make_cards({"score": 1})
    _, s = cg.make_state(cards, fields=([0], ()))
    kernel.apply_action(s, act(K.SCORE, 0, 0))
    assert bots.choose(Bot.GREEDY, s) == END_TURN


def test_bot_names_and_weights_are_exposed_through_the_game_spec():
    assert GAME.bots == ("random", "greedy", "tuned")
    assert set(GAME.bot_params) == set(GAME.bots)
    fields = type(GAME.bot_params["greedy"])._fields
    assert all(type(w)._fields == fields for w in GAME.bot_params.values())
    w = GAME.make_weights("tuned", {"threat": 9.5})
    assert w[fields.index("threat")] == 9.5
