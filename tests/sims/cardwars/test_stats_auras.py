"""Card Wars stats: ``recompute``'s aura shortcut gives every Creature the ATK/DEF of a full aura scan.

``stats.recompute`` calls ``aura_pair`` (the scan of the lane's Building, the neighbours and every
aura that reaches anywhere) only for a slot next to X-Large Spirit Soldier or a Creature that
entered this turn on a side with a Shark; elsewhere it adds the Building's aura and, for a
Creature that changed Lanes, the Punk Cats' summed aura (``aura_sources``). At every decision of
games over every deck pairing (greedy and random mirrors, planner games), a copy of the state is
recomputed and each Creature's ATK/DEF compared with the earlier formula, which scanned with
``aura_pair`` for every Creature whenever such an aura was in play.
"""

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import bots, flow, kernel, stats
from sims.cardwars.layout import STATE_DTYPE, Phase
from sims.cardwars.state import N_LANES, AuraTo, Stat
from sims.core import rng

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)
DECKS = ("finn", "jake", "bmo", "rainicorn")


def full_scan(s) -> dict:
    """Return {(q, lane): (ATK, DEF)} by the formula with ``aura_pair`` for every Creature when an aura reaches far."""
    b, t = s.board, s.turnfx
    sources, adj = 0, False
    for r in range(2):
        for m in range(N_LANES):
            d = b.cr_card[r, m]
            if d >= 0:
                to = s.cards[d].au_to
                if to >= AuraTo.OWN_ENTERED_THIS_TURN and b.cr_copy[r, m] < 0:
                    sources |= 1 << (N_LANES * r + m)
                adj = adj or to == AuraTo.ADJACENT_OWN
    spells = t.aura_n[0] + t.aura_n[1] > 0
    out = {}
    for q in range(2):
        for lane in range(N_LANES):
            c = int(b.cr_card[q, lane])
            if c < 0:
                continue
            k = s.cards[c]
            atk = int(k.atk) + int(b.cr_tatk[q, lane])
            df = int(k.def_) + int(b.cr_pdef[q, lane])
            if adj or sources:
                da, dd = stats.aura_pair(s, np.int64(q), np.int64(lane), np.int64(c), np.int64(sources))
            else:
                da, dd = stats.local_auras(s, q, lane, c)
            atk, df = atk + da, df + dd
            if k.s1_stat != Stat.NONE and b.cr_copy[q, lane] < 0:
                da, dd = stats.own_stats(s, np.int64(q), np.int64(lane), np.int64(c))
                atk, df = atk + da, df + dd
            if b.cr_zazo[q, lane]:
                n = stats.count_of(s, stats.ADJACENT, stats.ANY, np.int64(q), np.int64(lane), np.int64(c))
                atk += int(b.cr_zazo[q, lane]) * n
            if spells:
                atk += stats.spell_bonus(s, np.int64(q), np.int64(lane), np.int64(c))
            out[(q, lane)] = (atk, df)
    return out


def play_checking(bot_a: str, bot_b: str, games: range, overrides: dict) -> tuple[int, int, list]:
    """Play ``games``; return (decisions, decisions with a far-reaching aura in play, [differing slots])."""
    params = GAME.make_params(None, overrides)
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights(bot_a), GAME.make_weights(bot_b)])
    ids = [bots.Bot[bot_a.upper()], bots.Bot[bot_b.upper()]]
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    decisions, auras, differ = 0, 0, []
    for g in games:
        s, sim = state[0], state[1]
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(7), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            fresh = state.copy()
            f = fresh[0]
            stats.recompute(f)
            want = full_scan(f)
            auras += any(s.cards[d].au_to in (1, 3, 4) for d in f["board"]["cr_card"].ravel() if d >= 0)
            for (q, lane), stat in want.items():
                got = (int(f["board"]["cr_atk"][q, lane]), int(f["board"]["cr_def"][q, lane]))
                if got != stat:
                    differ.append((g, int(s.meta.turn), q, lane, got, stat))
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            if bots.needs_legal(ids[who]):
                s.scratch.n_legal = act.legal_actions(s, s.scratch.legal)
            act.apply_action(s, np.int64(bots.choose(ids[who], s, sim, who)))
            decisions += 1
    return decisions, auras, differ


@pytest.mark.parametrize("deck_0", DECKS)
def test_recompute_auras_equal_a_full_scan(deck_0):
    seen = 0
    for deck_1 in DECKS:
        overrides = {"deck_0": deck_0, "deck_1": deck_1}
        for bot_a, bot_b, games in (("greedy", "greedy", range(3)), ("random", "random", range(3, 6))):
            decisions, auras, differ = play_checking(bot_a, bot_b, games, overrides)
            assert differ == []
            assert decisions > 0
            seen += auras
    if deck_0 in ("finn", "rainicorn"):  # Punk Cat and X-Large Spirit Soldier; Shark
        assert seen > 0


def test_recompute_auras_equal_a_full_scan_in_planner_games():
    decisions, _, differ = play_checking("planner", "greedy", range(2), {"deck_0": "finn", "deck_1": "rainicorn"})
    assert decisions > 100
    assert differ == []
