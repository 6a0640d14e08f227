"""Card Wars greedy: ``best_use`` picks among a slot's Floop/ability options as ``use_value`` over ``use_options``.

``main_choice`` values a slot's options without ``actions.use_options``' list: ``uses.best_use``
makes them from ``options.options``' targets in the same order (each cost choice, each target),
with the amount of a damage row to one chosen Creature (The Mariachi) or to a chosen set (Patchy
the Pumpkin) counted once a slot instead of once an option. At every main-phase decision of games
over every deck pairing (greedy and random mirrors), for every usable slot, ``best_use`` must
return what the earlier loop returned (each ``use_options`` action valued by ``use_value``, the
first best kept) from a start below every option and from each option's own value, so every
option's value is checked against every other's; the shortcut's two cases must be met.
"""

import numpy as np
import pytest

from sims.cardwars import actions as act
from sims.cardwars import flow, greedy, uses
from sims.cardwars import options as opt
from sims.cardwars.layout import ActionKind
from sims.cardwars.state import N_LANES, Effect, Target
from sims.cardwars.values import NEG
from tests.sims.cardwars.test_bot_speed_filters import DECKS, play


@pytest.mark.parametrize("deck_0", DECKS)
def test_best_use_values_each_option_as_use_value(deck_0):
    seen = {"options": 0, "one": 0, "set": 0}
    differ = []

    def at_main(s):
        p = s.meta.mover
        floops = not flow.first_turn_rule(s)
        work = s.scratch.work
        ready = False
        for slot in range(2 * N_LANES):
            kind = uses.use_kind(s, p, slot, floops)
            if kind == ActionKind.END:
                continue
            n = act.use_options(s, np.int64(p), np.int64(slot), np.int64(kind), work, np.int64(0))
            if n and not ready:
                greedy.context(s, np.int64(p))
                ready = True
            c = uses.use_card(s, p, kind, slot)
            k = s.cards[c]
            actions = [int(work[i]) for i in range(n)]
            values = [uses.use_value(s, p, kind, slot, act.a_of(a), act.b_of(a)) for a in actions]
            m = opt.options(s, np.int64(p), np.int64(slot % N_LANES), np.int64(c), np.int64(0))
            seen["options"] += n
            if k.e1_effect == Effect.DAMAGE and k.e2_effect == Effect.NONE:
                seen["set" if k.e1_target == Target.DISTINCT_CREATURES else "one"] += n
            for start in [(NEG, -1)] + [(v, -7) for v in values]:
                want = start
                for a, v in zip(actions, values, strict=True):
                    if v > want[0]:
                        want = (v, a)
                got = uses.best_use(s, p, kind, slot, m, *start)
                if (float(got[0]), int(got[1])) != want:
                    differ.append((int(s.meta.turn), slot, start, got, want))

    for deck_1 in DECKS:
        overrides = {"deck_0": deck_0, "deck_1": deck_1}
        play("greedy", "greedy", range(3), overrides, at_main)
        play("random", "random", range(3, 6), overrides, at_main)
    assert differ == []
    assert seen["options"] > 0
    if deck_0 == "jake":  # Patchy the Pumpkin's sets
        assert seen["set"] > 0
    if deck_0 == "rainicorn":  # The Mariachi's one target
        assert seen["one"] > 0
