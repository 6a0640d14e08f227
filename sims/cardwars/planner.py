"""The planner bot: a one-turn look-ahead over the main phase's actions.

For each legal main-phase action, the position is copied into the scratch record ``sim``
(``state[1]``), the action is made, the rest of the turn is played out by the greedy
policy (both seats, for the choices an opponent makes), and the position after the
opponent's start-of-turn is scored by ``evaluate``. The best-scored action is taken (the
first on ties). Fights and pending choices are the greedy bot's.

Hidden information stays hidden (R20): in each copy the planner's own deck is shuffled, the
opponent's unseen cards (its own cards in its hand, and its deck) are pooled in a fixed
order and dealt again at random (``redeal_unseen``), and the random effects draw from lanes
seeded on the planner's own RNG lane. A copy therefore never reveals the real next card, a
random pick, or what the opponent holds (Silo of Truth takes a card of the dealt hand):
the planner's choice depends only on what it may see (RULES.md §9).
"""

import numpy as np

from sims.cardwars import actions as act
from sims.cardwars import greedy, values
from sims.cardwars import stats as sx
from sims.cardwars.layout import N_RNG, Lane, Phase
from sims.cardwars.state import N_LANES
from sims.cardwars.weights import W
from sims.core import rng
from sims.core.jit import hot

ROLLOUT_STEPS = 256  # decisions of one look-ahead before it stops (a turn has far fewer)


@hot
def copy_position(sim, s, p: int, seed) -> None:
    """Copy the position of ``s`` into ``sim`` with seat ``p``'s hidden information reshuffled."""
    sim.meta = s.meta
    sim.board = s.board
    sim.piles = s.piles
    sim.turnfx = s.turnfx
    sim.queue = s.queue
    sim.meta.log_on = 0
    for lane in range(N_RNG):
        sim.scratch.rng[lane] = rng.mix64(seed + np.uint64(lane))
    rng.shuffle(sim.piles.deck[p], np.int64(sim.piles.deck_n[p]), sim.scratch.rng, Lane.SHUFFLE + p)
    redeal_unseen(sim, p ^ 1)


@hot
def redeal_unseen(sim, q: int) -> None:
    """Deal seat ``q``'s unseen cards in ``sim`` again: its own hand cards and its deck, pooled and shuffled.

    The pool (the deck, then the hand cards ``q`` owns) is sorted by card id before the shuffle
    (``Lane.SHUFFLE + q`` of the copy's lanes), so the deal depends on which cards are unseen,
    never on where they really are; the hand's slots are refilled from the pool's top and the
    rest is the deck. Stolen cards in ``q``'s hand (owned by the other seat) stay: their owner
    knows them. Pile sizes, which every seat sees, do not change.
    """
    pl = sim.piles
    deck = pl.deck[q]
    n = pl.deck_n[q]
    for i in range(pl.hand_n[q]):
        if pl.hand_own[q, i] == q:
            deck[n] = pl.hand[q, i]
            n += 1
    deck[:n].sort()
    rng.shuffle(deck, np.int64(n), sim.scratch.rng, Lane.SHUFFLE + q)
    for i in range(pl.hand_n[q]):
        if pl.hand_own[q, i] == q:
            n -= 1
            pl.hand[q, i] = deck[n]


@hot
def evaluate(s, p: int) -> float:
    """Return seat ``p``'s score of position ``s``: Hit Points, Creatures, threats, cards, Landscapes."""
    m, b = s.meta, s.board
    if m.phase == Phase.OVER:
        if m.winner == p:
            return values.wt(s, p, W.WIN)
        return -values.wt(s, p, W.WIN) if m.winner == (p ^ 1) else 0.0
    v = values.wt(s, p, W.HP) * (b.hp[p] - b.hp[p ^ 1])
    threat = values.wt(s, p, W.THREAT)
    for lane in range(N_LANES):
        v += values.creature_value(s, np.int64(p), np.int64(p), lane) - values.creature_value(
            s, np.int64(p), np.int64(p ^ 1), lane
        )
        if b.cr_card[p ^ 1, lane] >= 0 and b.cr_card[p, lane] < 0:
            v -= threat * sx.damage_dealt(s, p ^ 1, lane)
        if b.cr_card[p, lane] >= 0 and b.cr_card[p ^ 1, lane] < 0:
            v += 0.5 * threat * sx.damage_dealt(s, p, lane)
        mine, theirs = 1 if b.bu_card[p, lane] >= 0 else 0, 1 if b.bu_card[p ^ 1, lane] >= 0 else 0
        v += values.wt(s, p, W.BUILDING) * (mine - theirs)
        v += values.wt(s, p, W.LAND) * (int(b.up[p, lane]) - int(b.up[p ^ 1, lane]))
    v += values.wt(s, p, W.CARD) * (s.piles.hand_n[p] - s.piles.hand_n[p ^ 1])
    return v


@hot
def rollout(sim, turn: int) -> None:
    """Play ``sim`` on with the greedy policy until turn ``turn`` is over (or the game).

    ``@hot``: copied into ``plan``, its one caller, so the greedy and rules tree below it is
    not linked, optimised and emitted by one more compiled level (RULES.md §13).
    """
    m = sim.meta
    steps = ROLLOUT_STEPS
    while m.phase != Phase.OVER and m.turn == turn and steps > 0:
        who = m.decider if m.phase == Phase.CHOOSE else m.mover
        act.apply_action(sim, greedy.decide(sim, np.int64(who)))
        steps -= 1


@hot
def plan(s, sim, who: int) -> int:
    """Return the planner's action for seat ``who`` in position ``s`` (using ``sim`` as scratch).

    ``@hot``: copied (through ``bots.choose``) into the one compiled game loop, ``kernel.drive``.
    """
    if s.meta.phase != Phase.MAIN:
        return greedy.decide(s, np.int64(who))
    work = s.scratch.work
    n = act.legal_actions(s, work)
    if n == 1:
        return work[0]
    seed = rng.next_u64(s.scratch.rng, Lane.BOT + who)
    best, best_a = -1e18, work[0]
    for i in range(n):
        copy_position(sim, s, who, seed)
        act.apply_action(sim, np.int64(work[i]))
        rollout(sim, s.meta.turn)
        v = evaluate(sim, who)
        if v > best:
            best, best_a = v, work[i]
    return best_a
