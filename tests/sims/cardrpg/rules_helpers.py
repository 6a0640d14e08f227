"""Shared helpers of the CardRPG rule tests (``test_rules*.py``): actions, positions and dice.

Positions come from the ``rpg`` fixture (``conftest.py``); these build the common ones (a
created character, a battle against a chosen monster, a monster's attack, a player's hit)
and read what the tests check.
"""

from __future__ import annotations

import math

import numpy as np

from sims.cardrpg import kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import ActionKind as K
from sims.cardrpg.state import (
    Lane,
    Phase,
)
from sims.cardrpg.state import encode as act
from sims.core import rng

HAND5 = ("spade:2", "heart:3", "club:4", "spade:5", "heart:6")  # a full hand for STR 5: no refill draws
END, QUIT, PASS = act(K.END, 0, 0), act(K.QUIT, 0, 0), act(K.PASS, 0, 0)


def attack(rank: int, count: int = 1) -> int:
    """Return the ATTACK action playing ``count`` hand cards of ``rank``."""
    return act(K.ATTACK, rank, count)


def die_of(name: str) -> int | None:
    """Return the die a card shows in diceless play (R20, E8), or None for a King or Joker (drawn again)."""
    rank = name.split(":")[1]
    if rank in ("jack", "queen"):
        return 6
    if rank in ("king", "joker") or name.startswith("joker"):
        return None
    return math.ceil((1 if rank == "ace" else int(rank)) / 2)


def battle_row(s):
    """Return the battle tally row of the current (or last) battle."""
    return s["tally"]["battles"][s["tally"]["row"]]


def finish(s) -> None:
    """Run the phases that need no decision (closing the session once it has ended)."""
    kernel.advance(s)


def index_of(s, zone: str, name: str, rpg) -> int:
    """Return the index of card ``name`` in ``zone`` (``inv`` or ``discard``)."""
    return rpg.zone(s, zone).index(name)


def setup_dice(seed: int) -> tuple[int, int]:
    """Return the first two d6 of the SETUP lane of a character seeded with ``seed``."""
    lanes = np.zeros(len(Lane), np.uint64)
    rng.seed_lanes(lanes, np.uint64(seed))
    return int(rng.randint(lanes, Lane.SETUP, 6)) + 1, int(rng.randint(lanes, Lane.SETUP, 6)) + 1


def created(rpg, params: Params, seed: int):
    """Return ``s`` after ``create_character`` for character 0 seeded with ``seed``."""
    state = kernel.prepare(rpg.POOL.table, params, rpg.GAME.make_weights("greedy")[None, :], 1)
    s = state[0]
    kernel.reset(s, 0, np.uint64(seed))
    assert kernel.create_character(s, 0)
    return state, s


def battle_at(rpg, params: Params, top: tuple[str, ...], level: int = 1, **kw):
    """Return ``(state, s)`` about to start a battle: a full hand, ``top`` on the draw pile, the rest under it."""
    kw.setdefault("hand", HAND5)
    return rpg.make_state(params, level=level, draw=top, rest="draw", phase=Phase.BATTLE_START, **kw)


def monster_attack(rpg, pile, **kw):
    """Return ``s`` after the monster (a club:10, never a thief) attacks once from ``pile`` (top first)."""
    kw.setdefault("hp_max", 30)
    kw.setdefault("hand", ("spade:2",))
    _, s = rpg.make_state(monster=kw.pop("monster", "club:10"), mpile=pile, phase=Phase.MONSTER, **kw)
    kernel.monster_turn(s)
    return s


def hit(rpg, hand, rank: int, count: int = 1, top=(), params=None, **kw):
    """Return ``s`` after the player attacks a 50-HP monster with ``count`` hand cards of ``rank``."""
    _, s = rpg.make_state(params, hand=hand, draw=top, monster=kw.pop("monster", "club:10"), monster_hp=50, **kw)
    kernel.hand_attack(s, rank, count, False)
    return s
