"""Card Wars greedy: an effect row's amount and a use slot's damage computed once, the same floats as in full.

``gains.row_amount`` skips ``stats.count_of`` for rows that count nothing (``Count.ONE``);
``gains.row_gain`` reads the amount only for the shared effects that use it. ``greedy.best_use``
values a Floop or ability slot's DAMAGE row once (``gains.damage_rows``: its amount, or its
damage on each Creature) and each target from that (``gains.use_pick``). These tests play
whole games decision by decision and, at every greedy main-phase decision, compare each
option's shortcut value with ``greedy.use_value``'s full one (bit for bit) and the action
chosen with the shortcut on and off (``scratch.g_exact``); and each hand card's ``best_play`` (a
Spell that moves a Creature is valued by ``gains.move_gain`` directly) with it on and off.
"""

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import bots, flow, gains, greedy, kernel
from sims.cardwars import stats as sx
from sims.cardwars.layout import STATE_DTYPE, ActionKind, Phase
from sims.cardwars.state import N_LANES, CardType, Effect
from sims.core import rng

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)


def new_state(bot_a: str, bot_b: str):
    """Return a prepared state for the two bots and their ids."""
    params = GAME.make_params()
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights(bot_a), GAME.make_weights(bot_b)])
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    return state, decks, [bots.Bot[bot_a.upper()], bots.Bot[bot_b.upper()]]


def check_uses(s, p: int, seen: dict, wrong: list, g: int) -> None:
    """Compare the shortcut and the full value of every Floop/ability option of seat ``p`` now."""
    work = s.scratch.work
    greedy.context(s, p)
    n = 0
    for slot in range(2 * N_LANES):
        for kind in (ActionKind.FLOOP, ActionKind.ACTIVATE):
            if kind == ActionKind.FLOOP and flow.first_turn_rule(s):
                continue
            n = act.use_options(s, p, slot, kind, work, n)
    for i in range(n):
        w = int(work[i])
        kind, slot, a, tgt = act.kind_of(w), act.src_of(w), act.a_of(w), act.b_of(w)
        c = greedy.use_card(s, p, kind, slot)
        how, amt = gains.damage_rows(s, np.int64(p), np.int64(slot % N_LANES), np.int64(c))
        seen[int(how)] = seen.get(int(how), 0) + 1
        full = greedy.use_value(s, p, kind, slot, a, tgt)
        if how:
            short = greedy.use_rest(s, p, kind, slot, a, c, gains.use_pick(s, p, how, amt, tgt))
            if np.float64(short).tobytes() != np.float64(full).tobytes():
                wrong.append((g, int(s.meta.turn), w, short, full))


def check_plays(s, p: int, seen: dict, wrong: list, g: int) -> None:
    """Compare ``best_play`` of every playable hand card with the shortcuts on and off (Teleport's moves)."""
    greedy.context(s, p)
    for i in range(int(s.piles.hand_n[p])):
        c = int(s.piles.hand[p, i])
        if not act.playable(s, p, c, False):
            continue
        if s.cards[c].e1_effect == Effect.MOVE_OWN and s.cards[c].type == CardType.SPELL:
            seen["move"] = seen.get("move", 0) + 1
        got = []
        for exact in (0, 1):
            s.scratch.g_exact = exact
            v, a = greedy.best_play(s, p, i, c)
            got.append((np.float64(v).tobytes(), int(a)))
        s.scratch.g_exact = 0
        if got[0] != got[1]:
            wrong.append((g, int(s.meta.turn), c, got))


def play_checking(bot_a: str, bot_b: str, games: range) -> tuple[int, dict, list]:
    """Play ``games``; return (greedy main decisions, option counts by shortcut kind, [differences])."""
    state, decks, ids = new_state(bot_a, bot_b)
    decisions, seen, wrong = 0, {}, []
    for g in games:
        s, sim = state[0], state[1]
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(17), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            if s.meta.phase == Phase.MAIN and ids[who] == bots.Bot.GREEDY:
                check_uses(s, who, seen, wrong, g)
                check_plays(s, who, seen, wrong, g)
                s.scratch.g_exact = 1
                full = int(greedy.main_choice(s, who))
                s.scratch.g_exact = 0
                short = int(greedy.main_choice(s, who))
                if short != full:
                    wrong.append((g, int(s.meta.turn), full, short))
                decisions += 1
            if bots.needs_legal(ids[who]):
                s.scratch.n_legal = act.legal_actions(s, s.scratch.legal)
            act.apply_action(s, np.int64(bots.choose(ids[who], s, sim, who)))
    return decisions, seen, wrong


@pytest.mark.parametrize(("bot_a", "bot_b", "n"), [("greedy", "greedy", 60), ("greedy", "random", 40)])
def test_use_shortcut_gives_the_full_values_and_decision(bot_a, bot_b, n):
    decisions, seen, wrong = play_checking(bot_a, bot_b, range(n))
    assert decisions > 10 * n
    assert seen.get(1, 0) > 50  # both shortcuts are exercised: one target ...
    assert seen.get(2, 0) > 10  # ... and Patchy's sets
    assert seen.get(0, 0) > 50  # and options valued in full
    assert seen.get("move", 0) > 5  # Teleport valued by move_gain directly
    assert wrong == []


def test_row_amount_is_row_value():
    """Every effect row of the pool, from every lane of both seats, on boards of real games."""
    state, decks, ids = new_state("greedy", "greedy")
    s = state[0]
    cards = s["cards"]
    rows = []
    for c in range(len(cards)):
        for e in ("e1", "e2"):
            if cards[c][f"{e}_effect"] != Effect.NONE:
                rows.append((c, *(int(cards[c][f"{e}_{f}"]) for f in ("amount", "count", "land", "n", "mode"))))
    assert len(rows) > 40
    checked, ones = 0, 0
    for g in range(6):
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(23), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            if s.meta.phase == Phase.MAIN and s.meta.turn % 3 == 0:
                for c, amount, count, land, step, mode in rows:
                    for q in range(2):
                        for lane in (-1, *range(N_LANES)):
                            args = [np.int64(x) for x in (amount, count, land, step, mode, q, lane, c)]
                            assert gains.row_amount(s, *args) == sx.row_value(s, *args)
                            checked += 1
                            ones += count == 0
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            act.apply_action(s, np.int64(bots.choose(ids[who], s, state[1], who)))
    assert checked > 1000
    assert 0 < ones < checked
