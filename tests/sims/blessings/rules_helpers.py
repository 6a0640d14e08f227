"""Shared helpers of the Blessings & Curses rule tests (``test_rules*.py``): readings, hands, positions.

Positions come from the ``bl`` fixture (``conftest.py``); these name the first reading's
parameters, a few hands and decks, the rulebook's printed values (E1), and read battle rows
and event logs.
"""

from __future__ import annotations

import numpy as np

from sims.blessings import kernel
from sims.blessings.params import Params
from sims.blessings.state import ActionKind as K
from sims.blessings.state import (
    Phase,
    PoolTarget,
    Surrender,
)
from sims.blessings.state import encode as act

FIRST_READING = Params(pool_target=PoolTarget.FRESH_HAND, surrender=Surrender.TURN_START)  # the rules_version 1 default

FIVE = ("spade:2", "spade:3", "spade:4", "spade:5", "spade:6")  # a hand for the pool examples
DECK0 = ("heart:2", "heart:3", "heart:4", "heart:5", "heart:6", "heart:7", "heart:8", "heart:9")
DECK1 = ("club:2", "club:3", "club:4", "club:5", "club:6", "club:7", "club:8", "club:9")
IMPACT = {"heart": 3, "diamond": 2, "spade": 1, "club": 1}
FACES = ("jack", "queen", "king", "ace")


def printed(name: str) -> tuple[int, int, bool]:
    """Return (Attack, Impact, face) of a card as the rulebook's generating rule gives them (E1)."""
    suit, rank = name.split(":")
    face = rank in FACES
    return (0 if face else int(rank)), (4 if face else IMPACT[suit]), face


def battle_row(s, b: int = 1):
    """Return the tally row of battle ``b`` (1-based): the pools it left and what they did at the next start."""
    return s["tally"]["battles"][b - 1]


def ended_battle(s, b: int = 1):
    """Return the row of battle ``b``, checking its end was recorded (a zeroed row reads as a win for seat 0)."""
    row = battle_row(s, b)
    assert row["turn"] == b, "battle not ended"
    return row


def replay(params: Params, bots, seed: int, game: int, bl):
    """Return the event log of game ``game`` of root seed ``seed``, played as ``play_games`` plays it."""
    ids = np.array([bl.GAME.bots.index(b) for b in bots], np.int64)
    weights = np.stack([bl.GAME.make_weights(b) for b in bots])
    decks = np.zeros((2, 52), np.int16)
    return kernel.replay_game(params, bl.POOL.table, decks, ids, weights, np.uint64(seed), game)


def discard_turn(s) -> tuple[int, int, int, int]:
    """Play on, discard every card held, pass; return (battle, mover, cards held, opposing hand size)."""
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    m = s["meta"]
    p = int(m["mover"])
    seen = (int(m["battle"]), p, int(m["to_play"]), int(s["piles"]["hand_n"][1 - p]))
    for _ in range(seen[2]):
        kernel.apply_action(s, act(K.DISCARD, 0, 0))
    if m["phase"] == Phase.SURRENDER_END:  # R13 own_turn: the end-of-turn decision
        kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    return seen


def attack_position(bl, attacker: str, params: Params | None = None):
    """Seat 0 holds ``attacker``; seat 1 holds spade:2 (the target) and club:2, with a deck."""
    return bl.make_state(params, hands=([attacker], ["spade:2", "club:2"]), decks=(["heart:2"], ["club:4"]))
