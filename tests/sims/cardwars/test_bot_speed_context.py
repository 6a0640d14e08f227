"""Card Wars greedy: ``main_choice`` fills the shared facts (``greedy.context``) only when a valuation reads them.

The facts (``scratch.g_fight``, ``g_block``, ``g_attack``, ``g_ally``) are read by a
Creature's placement (``values.place_value``, ``greedy.allies_gain``) only (a Floop or
ability reads the fight it gives up from the board: ``uses.use_rest``), so ``main_choice``
computes them before the first Creature it values and not at all in a decision that values
none (then also when it values Floops or abilities). These tests play whole games decision by
decision and, at every greedy main-phase decision, poison the facts with values no real
position gives before calling ``main_choice``: if a valuation read them without their
being filled, the poisoned candidate would win (or lose) and the action would differ from
the one chosen with the facts filled first.
"""

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import bots, flow, greedy, kernel
from sims.cardwars.layout import STATE_DTYPE, ActionKind, Phase
from sims.core import rng

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)
POISON = {"g_fight": -1e9, "g_block": 1e9, "g_ally": 1e9}  # a fight given up, a block, an ally trigger: huge


def poison(s, attack: int) -> None:
    """Overwrite the shared facts with values that would decide any valuation reading them."""
    sc = s["scratch"]
    for field, value in POISON.items():
        sc[field][:] = value
    sc["g_attack"][:] = attack


def filled(s) -> bool:
    """Return True if ``main_choice`` filled the facts (they are no longer the poison)."""
    return bool((s["scratch"]["g_fight"] != POISON["g_fight"]).any() or (s["scratch"]["g_ally"] != 1e9).any())


def play_checking(bot_a: str, bot_b: str, games: range) -> tuple[int, int, list]:
    """Play ``games``; return (greedy main decisions, those that skipped ``context``, [differences])."""
    params = GAME.make_params()
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights(bot_a), GAME.make_weights(bot_b)])
    ids = [bots.Bot[bot_a.upper()], bots.Bot[bot_b.upper()]]
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    decisions, skipped, wrong = 0, 0, []
    for g in games:
        s, sim = state[0], state[1]
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(11), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            if s.meta.phase == Phase.MAIN and ids[who] == bots.Bot.GREEDY:
                greedy.context(s, who)
                sc = s["scratch"]
                eager = (sc["g_fight"].copy(), sc["g_block"].copy(), sc["g_attack"].copy(), sc["g_ally"].copy())
                full = int(greedy.main_choice(s, who))
                for attack in (0, 1):
                    poison(state[0], attack)
                    lazy = int(greedy.main_choice(s, who))
                    if lazy != full:
                        wrong.append((g, int(s.meta.turn), full, lazy))
                    if filled(state[0]):  # what it filled is the full computation's facts
                        got = (sc["g_fight"], sc["g_block"], sc["g_attack"], sc["g_ally"])
                        if not all(np.array_equal(x, y) for x, y in zip(got, eager, strict=True)):
                            wrong.append((g, int(s.meta.turn), "facts", attack))
                    else:
                        skipped += attack == 0
                decisions += 1
            if bots.needs_legal(ids[who]):
                s.scratch.n_legal = act.legal_actions(s, s.scratch.legal)
            act.apply_action(s, np.int64(bots.choose(ids[who], s, sim, who)))
    return decisions, skipped, wrong


@pytest.mark.parametrize(("bot_a", "bot_b", "n"), [("greedy", "greedy", 40), ("greedy", "random", 40)])
def test_lazy_context_gives_the_full_decision(bot_a, bot_b, n):
    decisions, skipped, wrong = play_checking(bot_a, bot_b, range(n))
    assert decisions > 10 * n
    assert 0.05 * decisions < skipped < decisions  # both ways are exercised
    assert wrong == []


def test_poisoned_facts_change_a_decision_that_reads_them():
    """The check itself: a decision valuing a Creature with poisoned facts and no ``context`` goes wrong."""
    params = GAME.make_params()
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    s = state[0]
    flow.set_up(s, decks, 0, np.uint64(rng.game_seed(np.uint64(11), 0)), -1)
    while s.meta.phase != Phase.MAIN:
        act.apply_action(s, np.int64(bots.choose(bots.Bot.GREEDY, s, state[1], s.meta.decider)))
    p = s.meta.mover
    full = int(greedy.main_choice(s, p))
    assert act.kind_of(full) == ActionKind.PLAY  # a Creature is placed at the first decision
    src = act.src_of(full)
    for attack in (0, 1):
        poison(s, attack)
        assert greedy.best_play(s, p, src, s["piles"]["hand"][p, src])[0] > 1e8
