"""Cardinger rules, part 4: worked example E20 and rulings R2, R3, R18, R20, R21; whole games.

Deck building, the first seat, timeouts, the classic variant, leaving the field, and whole games
(drivers, audits, replay).
Positions are hand-built (``conftest.py``); the shared helpers are in ``rules_helpers.py``.
"""

import numpy as np
import pytest

from sims.cardinger import kernel
from sims.cardinger.params import Params
from sims.cardinger.state import (
    ALL_TARGETS,
    DOUBLE,
    END_TURN,
    FRAGILE,
    OMNI,
    EndReason,
)
from sims.cardinger.state import ActionKind as K
from sims.cardinger.state import encode as act
from sims.core import ParamError
from tests.sims.cardinger.rules_helpers import FILLER, GAME, card

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
    state[0]["scratch"]["bots"][:] = 1  # greedy in both seats
    kernel.set_up(state[0], decks, 0, np.uint64(3))
    kernel.play_game(state[0], False)
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
