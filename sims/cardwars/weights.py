"""Bot weights: one float vector per seat (``BotParams``), indexed by ``W`` in the kernels."""

from enum import IntEnum
from typing import NamedTuple

from sims.cardwars.layout import N_WEIGHTS


class BotParams(NamedTuple):
    """Bot weights (floats): shared by all bots, each bot has its own defaults."""

    hp: float = 1.0  # value of one Hit Point (own minus the opponent's)
    atk: float = 1.0  # value of one point of ATK of a Creature in play
    def_: float = 0.35  # value of one point of DEF left (DEF minus damage) of a Creature in play
    body: float = 1.0  # value of a Creature in play beyond its stats
    card: float = 1.4  # value of a card in hand
    action: float = 1.0  # cost of spending one Action (a draw gains ``card``)
    face: float = 1.0  # value per damage to the opponent's Hit Points
    hit: float = 0.35  # value per damage put on a Creature that survives it
    kill: float = 1.0  # value of destroying a Creature beyond its stats
    block: float = 0.6  # value per point of ATK an opposing Creature can no longer send to Hit Points
    building: float = 1.5  # value of a Building in play beyond its aura
    land: float = 1.2  # value of a face-up Landscape (each card relying on it adds one more)
    mill: float = 0.05  # value per card put into one's own discard pile (discard-count cards)
    play_min: float = 0.0  # play a card only if its value minus its Actions exceeds this
    floop_min: float = 0.0  # Floop only if the Floop's value beats the fight's by this much
    mulligan_below: float = 2.0  # mulligan an opening hand with fewer Creatures than this (R5)
    threat: float = 0.5  # planner: value per point of ATK facing an empty lane (next turn's damage)
    win: float = 1000.0  # planner: value of a won game


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    HP = 0
    ATK = 1
    DEF = 2
    BODY = 3
    CARD = 4
    ACTION = 5
    FACE = 6
    HIT = 7
    KILL = 8
    BLOCK = 9
    BUILDING = 10
    LAND = 11
    MILL = 12
    PLAY_MIN = 13
    FLOOP_MIN = 14
    MULLIGAN_BELOW = 15
    THREAT = 16
    WIN = 17


assert [m.name.lower() for m in W] == [f.rstrip("_") for f in BotParams._fields]
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {"random": BotParams(), "greedy": BotParams(), "planner": BotParams()}
