"""Blessings & Curses bot weights: ``BotParams`` (one float per field), their indices ``W`` and each bot's defaults."""

from enum import IntEnum
from typing import NamedTuple

from sims.blessings.state import N_WEIGHTS


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    surrender_rate: float = 0.05  # random: chance of surrendering at each surrender decision
    attack: float = 0.5  # value per point of Health an attack removes
    kill: float = 6.0  # value per opposing card an attack destroys
    curse: float = 1.0  # value per curse point sent
    bless: float = 0.2  # value per blessing point from a bless action
    discard: float = 0.1  # value per blessing point from a discard
    deny: float = 0.0  # tactician: value per curse point of a destroyed opposing curse-type card
    focus: float = 0.0  # tactician: share of a kill's value credited to damage the hand can finish
    overkill: float = 0.0  # tactician: value lost per point of wasted damage on a kill
    excess: float = 0.0  # tactician: share of curse value kept past the opponent's wipe-out line
    guard: float = 0.0  # tactician: blessing value per point while it is applied before curses (R16)
    race: float = 0.0  # greedy, tactician: > 0 = give up a battle whose curse race it is losing (R13)
    expect: float = 1.0  # tactician: share of the opponent's expected next-turn curse and damage it counts
    press: float = 0.0  # tactician: value per point of Health removed when this turn can end the game (R15)
    order: float = 0.0  # greedy, tactician: which card next (R7); 0 leftmost, 1 most valued, 2 attacks first (ORDER_*)


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    SURRENDER_RATE = 0
    ATTACK = 1
    KILL = 2
    CURSE = 3
    BLESS = 4
    DISCARD = 5
    DENY = 6
    FOCUS = 7
    OVERKILL = 8
    EXCESS = 9
    GUARD = 10
    RACE = 11
    EXPECT = 12
    PRESS = 13
    ORDER = 14


ORDER_LEFTMOST = 0  # ``order`` codes (R7): the leftmost card, as every bot before rules_version 3 played
ORDER_BEST = 1  # the card whose best action is worth the most (ties: the leftmost)
ORDER_ATTACKS_FIRST = 2  # the most valued card whose best action is an attack; none: as ORDER_BEST


assert [m.name.lower() for m in W] == list(BotParams._fields)
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(race=1.0, order=ORDER_ATTACKS_FIRST),
    # Weights from the ablations in RULES.md §9 (tactician vs greedy and the mirror, modern, paired seeds).
    # expect = 1 counts the opponent's expected next turn once: the honest estimate.
    "tactician": BotParams(
        deny=1.0, focus=1.0, overkill=0.05, excess=0.1, guard=1.0, race=1.0, press=1.0, order=ORDER_BEST
    ),
}
