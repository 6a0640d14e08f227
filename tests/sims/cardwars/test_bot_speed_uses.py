"""Card Wars greedy: ``best_use`` values each Floop/ability option as ``use_value`` does, bit for bit.

``main_choice`` values a slot's options as they are enumerated (``greedy.best_use``), with the
amount of a damage row to one chosen Creature (The Mariachi) or to a chosen set (Patchy the
Pumpkin) counted once a slot instead of once an option. At every main-phase decision of games
over every deck pairing (greedy and random mirrors), every option of every usable slot is
valued alone by ``best_use`` and compared with ``use_value``; the shortcut's two cases must be met.
"""

import numpy as np
import pytest

from sims.cardwars import actions as act
from sims.cardwars import flow, greedy
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
            kind = greedy.use_kind(s, p, slot, floops)
            if kind == ActionKind.END:
                continue
            n = act.use_options(s, np.int64(p), np.int64(slot), np.int64(kind), work, np.int64(0))
            if n and not ready:
                greedy.context(s, np.int64(p))
                ready = True
            k = s.cards[greedy.use_card(s, p, kind, slot)]
            actions = [int(work[i]) for i in range(n)]
            for action in actions:
                seen["options"] += 1
                if k.e1_effect == Effect.DAMAGE and k.e2_effect == Effect.NONE:
                    seen["set" if k.e1_target == Target.DISTINCT_CREATURES else "one"] += 1
                want = greedy.use_value(s, p, kind, slot, act.a_of(action), act.b_of(action))
                work[0] = action
                got, got_a = greedy.best_use(s, p, kind, slot, 1, NEG, -1)
                if got != want or (got > NEG and got_a != action):
                    differ.append((int(s.meta.turn), slot, action, got, want))

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
