"""Card Wars greedy: the shortcuts of ``main_choice`` and ``best_play`` skip only work that adds nothing.

- ``uses.use_kind`` says which one kind (FLOOP or ACTIVATE) ``actions.use_options`` may add
  options for in a slot, so ``main_choice`` calls it once or not at all: the kind it does not
  name, and both when it names none, must add no option.
- ``values.own_lane_free`` says a Creature's own STAT rows count the same whichever lane it is
  valued in, so ``best_play`` values them once a card: ``own_estimate`` must then give the same
  (ATK, DEF) in every lane.

Both are checked at every main-phase decision of whole games over every deck pairing (the
games are played decision by decision, as ``kernel.play_game``).
"""

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import bots, flow, kernel, uses, values
from sims.cardwars.layout import STATE_DTYPE, ActionKind, Phase
from sims.cardwars.state import N_LANES, CardType, Stat
from sims.core import rng

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)
DECKS = ("finn", "jake", "bmo", "rainicorn")
KINDS = (ActionKind.FLOOP, ActionKind.ACTIVATE)


def play(bot_a: str, bot_b: str, games: range, overrides: dict, at_main) -> int:
    """Play ``games`` decision by decision, calling ``at_main(s)`` at each main-phase decision; return those."""
    params = GAME.make_params(None, overrides)
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights(bot_a), GAME.make_weights(bot_b)])
    ids = [bots.Bot[bot_a.upper()], bots.Bot[bot_b.upper()]]
    decks = np.zeros((2, 1), np.int16)
    state = kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE)
    s, sim = state[0], state[1]
    mains = 0
    for g in games:
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(7), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            if s.meta.phase == Phase.MAIN:
                at_main(s)
                mains += 1
            if bots.needs_legal(ids[who]):
                s.scratch.n_legal = act.legal_actions(s, s.scratch.legal)
            act.apply_action(s, np.int64(bots.choose(ids[who], s, sim, who)))
    return mains


@pytest.mark.parametrize("deck_0", DECKS)
def test_use_kind_hides_no_floop_or_activation(deck_0):
    out = np.zeros(4096, np.int32)
    named, hidden = [0], []

    def at_main(s):
        p = s.meta.mover
        floops = not flow.first_turn_rule(s)
        for slot in range(2 * N_LANES):
            kind = uses.use_kind(s, p, slot, floops)
            named[0] += kind != ActionKind.END
            for other in KINDS:
                if other == kind or (other == ActionKind.FLOOP and not floops):
                    continue  # main_choice asks for FLOOPs only when Floops are allowed
                if act.use_options(s, np.int64(p), np.int64(slot), np.int64(other), out, np.int64(0)) > 0:
                    hidden.append((int(s.meta.turn), slot, int(other)))

    for deck_1 in DECKS:
        overrides = {"deck_0": deck_0, "deck_1": deck_1}
        play("greedy", "greedy", range(3), overrides, at_main)
        play("random", "random", range(3, 6), overrides, at_main)
    assert hidden == []
    assert named[0] > 0  # slots with something to use were met


@pytest.mark.parametrize("deck_0", DECKS)
def test_own_rows_valued_once_give_every_lane_s_figures(deck_0):
    once, differ = [0], []

    def at_main(s):
        p = s.meta.mover
        for i in range(s.piles.hand_n[p]):
            c = s.piles.hand[p, i]
            k = s.cards[c]
            if k.type != CardType.CREATURE or k.s1_stat == Stat.NONE or not values.own_lane_free(s, c):
                continue
            once[0] += 1
            first = values.own_estimate(s, p, 0, c)
            differ.extend((int(c), lane) for lane in range(1, N_LANES) if values.own_estimate(s, p, lane, c) != first)

    for deck_1 in DECKS:
        overrides = {"deck_0": deck_0, "deck_1": deck_1}
        play("greedy", "greedy", range(3), overrides, at_main)
    assert differ == []
    assert once[0] > 0  # Creatures with lane-free STAT rows were in hand
