"""Card Wars: the ATK/DEF on the board are current at every decision (what ``board.destroy_dead`` relies on).

``flow.fight`` deals damage and then destroys the dead without recomputing the stats first
(damage is no input of ``stats.refresh``), so the stats must be current when a fight begins.
These tests play whole games decision by decision, as ``kernel.play_game`` does, and at every
decision compare the board's ATK/DEF with a full ``stats.recompute`` of a copy of the state.
"""

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import bots, flow, kernel, stats
from sims.cardwars.layout import STATE_DTYPE, Phase
from sims.core import rng

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)


def stale_slots(state) -> list[tuple[int, int]]:
    """Return the occupied slots whose ATK/DEF differ from a full recompute of a copy of ``state``."""
    fresh = state.copy()
    stats.recompute(fresh[0])  # refresh would skip it: the copy carries board.st_fresh
    b, f = state[0]["board"], fresh[0]["board"]
    return [
        (q, lane)
        for q in range(2)
        for lane in range(4)
        if b["cr_card"][q, lane] >= 0
        and (b["cr_atk"][q, lane], b["cr_def"][q, lane]) != (f["cr_atk"][q, lane], f["cr_def"][q, lane])
    ]


def play_checking(bot_a: str, bot_b: str, games: range, overrides=None) -> tuple[int, list]:
    """Play ``games`` decision by decision; return (decisions, [(game, turn, slot) of every stale stat])."""
    params = GAME.make_params(None, overrides or {})
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights(bot_a), GAME.make_weights(bot_b)])
    ids = [bots.Bot[bot_a.upper()], bots.Bot[bot_b.upper()]]
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    decisions, stale = 0, []
    for g in games:
        s, sim = state[0], state[1]
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(7), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            stale += [(g, int(s.meta.turn), slot) for slot in stale_slots(state)]
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            if bots.needs_legal(ids[who]):
                s.scratch.n_legal = act.legal_actions(s, s.scratch.legal)
            act.apply_action(s, np.int64(bots.choose(ids[who], s, sim, who)))
            decisions += 1
    return decisions, stale


@pytest.mark.parametrize(("bot_a", "bot_b", "n"), [("greedy", "greedy", 40), ("random", "random", 40)])
def test_stats_are_current_at_every_decision(bot_a, bot_b, n):
    decisions, stale = play_checking(bot_a, bot_b, range(n))
    assert decisions > 50 * n
    assert stale == []


def test_stats_are_current_at_every_decision_of_a_planner_game():
    decisions, stale = play_checking("planner", "greedy", range(2))
    assert decisions > 100
    assert stale == []


def test_stale_stats_are_seen():
    """The check itself: a Creature's ATK changed behind ``refresh``'s back is reported."""
    params = GAME.make_params()
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    s = state[0]
    flow.set_up(s, decks, 0, np.uint64(rng.game_seed(np.uint64(7), 0)), -1)
    while s.meta.phase != Phase.OVER and (s["board"]["cr_card"] < 0).all():
        who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
        act.apply_action(s, np.int64(bots.choose(bots.Bot.GREEDY, s, state[1], who)))
    q, lane = np.argwhere(s["board"]["cr_card"] >= 0)[0]
    assert stale_slots(state) == []
    s["board"]["cr_atk"][q, lane] += 1
    assert stale_slots(state) == [(q, lane)]
