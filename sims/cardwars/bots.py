"""Card Wars bots: one pure policy per ``Bot``, dispatched by ``choose``.

- ``random``: uniform over the legal actions (lane BOT + seat).
- ``greedy``: one pass of heuristics (``greedy.py``): the best-valued play, Floop or ability
  this decision, its value set against what the Actions or the fight would give instead;
  spare Actions draw; the fight order by each fight's value.
- ``planner``: a one-turn look-ahead (``planner.py``): every legal main-phase action is
  tried on a copy of the position, the rest of the turn is played out greedily, and the
  position is scored (``planner.evaluate``); fights and choices are greedy's.

Every policy sees what R20 allows: the board, discard piles, Hit Points and pile sizes,
and its own hand; never the opponent's hand or any deck order (the planner shuffles its
own deck and deals the opponent's unseen cards again in its copies, and draws its copies'
random picks on its own lane). Policies read
the state and return one encoded action; they never change the position (the random bot
and the planner only advance their own RNG lane; the planner writes only to ``sim``).
"""

from enum import IntEnum

import numpy as np

from sims.cardwars import greedy, planner
from sims.cardwars.layout import Lane
from sims.cardwars.weights import DEFAULTS, BotParams, W  # noqa: F401  (re-exported)
from sims.core import rng
from sims.core.jit import hot


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0
    GREEDY = 1
    PLANNER = 2


@hot
def needs_legal(bot_id: int) -> bool:
    """Return True if policy ``bot_id`` chooses from the enumerated legal actions."""
    return bot_id == Bot.RANDOM


@hot
def choose(bot_id: int, s, sim, who: int) -> int:
    """Return the action of policy ``bot_id`` for seat ``who`` (the decider) in position ``s``."""
    if bot_id == Bot.RANDOM:
        return s.scratch.legal[rng.randint(s.scratch.rng, Lane.BOT + who, np.int64(s.scratch.n_legal))]
    if bot_id == Bot.PLANNER:
        return planner.plan(s, sim, who)
    return greedy.decide(s, np.int64(who))
