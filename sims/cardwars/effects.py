"""Effects: resolving a card's effect rows (the targets each may take: ``options.py``, R13, R15).

``resolve_all(s, p, lane, c, owner, choice, tgt)`` resolves card ``c``'s two effect rows
for its controller ``p`` (``lane`` = where it is, -1 for a Spell). ``choice`` is the
enters-play choice packed into a PLAY action (or a Floop's cost choice), ``tgt`` the target
code of the action (``options.options`` lists the legal ones). Triggered effects reach it through the trigger queue
(``run_queue``); an action's own effect (a Spell, a Floop, an activation) directly. Target
codes:

- a Creature slot: ``side * 4 + lane``; a set of Creatures (Patchy): a bit mask of slots;
- a side (Building or Landscape "in this Lane"); a lane (your Landscapes);
- a move: ``from * 4 + to``; Reclaim Landscape: ``flip * 17 + move`` (4 / 16 = none);
- a card of your discard pile: its index there.

Every effect ends with ``board.settle`` (R12: deaths as soon as damage >= DEF).
"""

import numpy as np

from sims.cardwars import board as bd
from sims.cardwars import marks as mk
from sims.cardwars import stats as sx
from sims.cardwars.layout import NO_CARD, Choice, EventKind, Lane, Phase, Resume
from sims.cardwars.state import N_LANES, CardType, Effect, Target, TurnBonus
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.piles import push, remove_at

NO_MOVE = 16  # Reclaim Landscape: no Building moved
NO_FLIP = 4  # Reclaim Landscape: no Landscape flipped


@kernel
def run_queue(s) -> None:
    """Resolve the queued triggers in order, each followed by ``settle`` (R19), in place.

    Triggers queued by one event (Creatures dying together, one Creature entering) form a
    batch resolved as one moment; the game ends after the batch if a player is at 0 (R21).
    Stops early when the game ends or a pending choice waits (the choice's action resumes it).
    """
    t = s.queue
    while t.head < t.tail and s.meta.phase != Phase.OVER and s.meta.phase != Phase.CHOOSE:
        batch = t.batch[t.head]
        while t.head < t.tail and t.batch[t.head] == batch and s.meta.phase != Phase.CHOOSE:
            k = t.head
            t.head = k + 1
            resolve_all(
                s, np.int64(t.side[k]), np.int64(t.lane[k]), np.int64(t.card[k]), np.int64(t.owner[k]),
                np.int64(t.choice[k]), np.int64(t.tgt[k]),
            )  # fmt: skip
        bd.check_end(s)  # one batch is one moment: both players may reach 0 together (R21)
    if t.head >= t.tail:
        t.head = t.tail = 0


@kernel
def resolve_all(s, p: int, lane: int, c: int, owner: int, choice: int, tgt: int) -> None:
    """Resolve card ``c``'s effect rows in order for controller ``p`` in place (see module doc)."""
    p, owner = p & 1, owner & 1  # seats as non-negative indexes (RULES.md §13)
    k = s.cards[c]
    resolve(s, p, lane, c, owner, k.e1_effect, k.e1_target, k.e1_amount, k.e1_count, k.e1_land, k.e1_n, k.e1_mode,
            choice, tgt)  # fmt: skip
    if k.e2_effect != Effect.NONE and s.meta.phase != Phase.OVER:
        resolve(s, p, lane, c, owner, k.e2_effect, k.e2_target, k.e2_amount, k.e2_count, k.e2_land, k.e2_n,
                k.e2_mode, np.int64(0), np.int64(0))  # fmt: skip


@kernel
def resolve(s, p, lane, c, owner, eff, target, amount, count, land, step, mode, choice, tgt) -> None:
    """Resolve one effect row in place; ``amount x factor(count)`` is its size (RULES.md §3)."""
    p, owner = p & 1, owner & 1  # seats as non-negative indexes (RULES.md §13)
    v = sx.row_value(s, amount, count, land, step, mode, p, lane, c)
    if eff == Effect.DAMAGE:
        damage(s, p, lane, c, owner, target, amount, v, tgt)
    elif eff == Effect.DRAW:
        for _ in range(v):
            bd.draw(s, p)
            if target == Target.EACH_PLAYER:
                bd.draw(s, p ^ 1)
    elif eff == Effect.MILL:
        for _ in range(v):
            bd.mill(s, p)
    elif eff == Effect.DISCARD:
        ask_discard(s, p ^ 1, v)
    elif eff == Effect.TURN_ATK:
        turn_atk(s, p, lane, c, target, v, tgt)
    elif eff == Effect.HEAL:
        if target == Target.SELF and lane >= 0 and s.board.cr_card[p, lane] == c:
            bd.heal(s, p, lane)
    elif eff == Effect.GAIN_ACTION:
        s.meta.actions += v
        bd.log_event(s, EventKind.GAIN_ACTION, p, c, NO_CARD, s.meta.actions, 0)
    elif eff == Effect.RETURN_RANDOM:
        for _ in range(v):
            return_random(s, p, target, land)
    else:
        resolve_unique(s, p, lane, c, eff, target, amount, land, choice, tgt)
    if s.meta.phase != Phase.OVER:
        bd.settle(s)


@hot
def resolve_unique(s, p, lane, c, eff, target, amount, land, choice, tgt) -> None:
    """Resolve the effects with rules of their own (moves, bounces, flips, single cards) in place."""
    b = s.board
    if eff == Effect.BOUNCE:
        q, m = bounce_slot(s, p, lane, c, np.int64(target), choice, tgt)
        if q >= 0 and b.cr_card[q, m] >= 0:
            bd.leave_play(s, q, m, np.int64(1))
    elif eff == Effect.DESTROY:
        if target == Target.BUILDING_IN_LANE:
            bd.destroy_building(s, tgt, lane)
        elif b.cr_card[p ^ 1, lane] >= 0:
            bd.destroy_creature(s, p ^ 1, lane, p)
    elif eff == Effect.FLIP_DOWN:
        q, m = (tgt, lane) if target == Target.LANDSCAPE_IN_LANE else (p, choice)
        if m < N_LANES and b.up[q, m] and sx.land_ok(b.land[q, m], land):
            flip(s, q, m, np.int64(0))
    elif eff == Effect.FLIP_UP:
        if tgt < N_LANES and not b.up[p, tgt]:
            flip(s, p, tgt, np.int64(1))
    elif eff == Effect.MOVE_OWN:
        if b.cr_card[p, tgt >> 2] >= 0 and b.cr_card[p, tgt & 3] < 0:
            bd.move(s, p, tgt >> 2, p, tgt & 3)
    elif eff == Effect.READY_FLOOPED:
        if choice < N_LANES and b.cr_card[p, choice] >= 0 and b.cr_floop[p, choice]:
            b.cr_exh[p, choice] = b.cr_floop[p, choice] = 0
            mk.stale_turn(s, mk.TURN_FLOOPED)
            bd.log_event(s, EventKind.READY, p, b.cr_card[p, choice], NO_CARD, choice, 0)
    elif eff == Effect.FIELD_REAPER:
        field_reaper(s, p, lane, choice)
    else:
        resolve_card(s, p, lane, c, eff, target, amount, tgt)


@hot
def resolve_card(s, p, lane, c, eff, target, amount, tgt) -> None:
    """Resolve the single-card effects (Silo of Truth, Reclaim Landscape, Buildings' Floops ...) in place."""
    b = s.board
    if eff == Effect.SILO:
        silo(s, p)
    elif eff == Effect.RECLAIM:
        reclaim(s, p, tgt)
    elif eff == Effect.GREEN_MERMAN:
        x = bd.mill(s, p)
        if x >= 0:
            for m in range(N_LANES):
                cost = np.int64(s.cards[x].cost)
                bd.deal_damage(s, p ^ 1, m, cost, c, p)
                bd.credit(s, p, lane, np.int64(0), cost if b.cr_card[p ^ 1, m] >= 0 else 0)
    elif eff == Effect.OGRE_GAS:
        ogre_gas(s, p, amount)
    elif eff == Effect.SCHOOLHOUSE:
        schoolhouse(s, p, lane)
    elif eff == Effect.MOVE_INTO_LANE:
        q, m = tgt >> 2, tgt & 3
        if b.cr_card[q, m] >= 0 and b.cr_card[q, lane] < 0:
            bd.move(s, q, m, q, lane)
    elif eff == Effect.SPIRIT_TOWER:
        if b.cr_card[p, lane] < 0 and b.cr_card[p ^ 1, lane] >= 0:
            bd.move(s, p ^ 1, lane, p, lane)
            b.cr_exh[p, lane] = b.cr_floop[p, lane] = 0
            mk.stale_turn(s, mk.TURN_FLOOPED)
            b.cr_stolen[p, lane] = 1
            bd.log_event(s, EventKind.STEAL, p, b.cr_card[p, lane], NO_CARD, lane, 0)
    elif eff == Effect.COFFIN:
        s.turnfx.coffins[p] += amount  # Actions off the next Creature (two Coffins: both apply, R22)
    elif eff == Effect.ZAZO:
        q, m = tgt >> 2, tgt & 3
        if b.cr_card[q, m] >= 0:
            b.cr_zazo[q, m] += amount
            mk.stale(s)
    elif (eff == Effect.RETURN_COST0 or eff == Effect.SPELL_TO_DECK_TOP) and tgt < s.piles.disc_n[p]:
        x = remove_at(s.piles.disc, s.piles.disc_n, p, tgt)
        mk.stale_piles(s, mk.DISC << p)
        if eff == Effect.RETURN_COST0:
            to_hand(s, p, x, p)
        else:
            push(s.piles.deck, s.piles.deck_n, p, x)
            bd.log_event(s, EventKind.DECK_TOP, p, x, NO_CARD, 0, 0)


# -- the shared effects ------------------------------------------------------------------------


@hot
def damage(s, p, lane, c, owner, target, amount, v, tgt) -> None:
    """Deal an effect's damage in place: to the opponent or to Creatures (R11: damage, then deaths)."""
    if target == Target.OPPONENT:
        bd.hero_damage(s, p ^ 1, np.int64(v), c)
        hit(s, p, lane, c, owner, np.int64(1), np.int64(v))
        return
    for q in range(2):
        for m in range(N_LANES):
            if s.board.cr_card[q, m] < 0:
                continue
            if target == Target.OPPOSING_CREATURES:
                take = v if q != p else 0
            elif target == Target.ALL_CREATURES:
                take = v
            elif target == Target.OPPOSING_IN_LANE:
                take = v if q != p and m == lane else 0
            elif target == Target.DISTINCT_CREATURES:
                take = amount if tgt & (1 << (4 * q + m)) else 0
            else:  # one chosen Creature
                take = v if tgt == 4 * q + m else 0
            if take > 0:
                bd.deal_damage(s, q, m, np.int64(take), c, p)
                hit(s, p, lane, c, owner, np.int64(0), np.int64(take))


@kernel
def hit(s, p, lane, c, owner, to_hero, amount) -> None:
    """Credit ``amount`` damage to card ``c`` of ``owner`` when it acted for its owner (cards table)."""
    p, owner = p & 1, owner & 1  # seats as non-negative indexes (RULES.md §13)
    if owner != p:
        return
    if lane >= 0 and s.board.cr_card[p, lane] == c:
        bd.credit(s, p, lane, to_hero, amount)
    else:
        bd.credit_card(s, owner, c, to_hero, amount)


@hot
def turn_atk(s, p, lane, c, target, v, tgt) -> None:
    """Give ATK for this turn in place: to itself, a chosen Creature, or a group (RULES.md §8 Q2)."""
    b = s.board
    mk.stale(s)
    if target == Target.SELF:
        if lane >= 0 and b.cr_card[p, lane] == c:
            b.cr_tatk[p, lane] += v
            bd.log_event(s, EventKind.TURN_ATK, p, c, c, v, 0)
        return
    if target == Target.OWN_LAND_CREATURE or target == Target.CREATURE_IN_LANE:
        q, m = tgt >> 2, tgt & 3
        if b.cr_card[q, m] >= 0:
            b.cr_tatk[q, m] += v
            bd.log_event(s, EventKind.TURN_ATK, q, c, b.cr_card[q, m], v, 0)
        return
    t = s.turnfx
    if s.params.turn_bonus == TurnBonus.CONTINUOUS:
        if t.aura_n[p] < t.aura_card.shape[1]:
            t.aura_card[p, t.aura_n[p]] = c
            t.aura_n[p] += 1
        return
    land = s.cards[c].e1_land
    for q in range(2):
        for m in range(N_LANES):
            if sx.group_hit(s, p, q, m, np.int64(target), np.int64(land)):
                b.cr_tatk[q, m] += v


@hot
def ask_discard(s, q: int, n: int) -> None:
    """Make seat ``q`` discard ``n`` cards of its choice: a pending choice (Glossary *Discard*)."""
    n = min(n, np.int64(s.piles.hand_n[q]))
    if n <= 0:
        return
    m = s.meta
    m.phase, m.pending, m.decider, m.pend_left, m.resume = Phase.CHOOSE, Choice.DISCARD, q, n, Resume.MAIN


@kernel
def to_hand(s, p: int, c: int, owner: int) -> None:
    """Put card ``c`` (of ``owner``) into seat ``p``'s hand in place."""
    p, owner = p & 1, owner & 1  # seats as non-negative indexes (RULES.md §13)
    n = s.piles.hand_n[p]
    s.piles.hand[p, n], s.piles.hand_own[p, n] = c, owner
    s.piles.hand_n[p] = n + 1
    mk.stale_piles(s, mk.HAND << p)
    bd.log_event(s, EventKind.TO_HAND, p, c, NO_CARD, 0, 0)


@kernel
def picks(s, p: int, target: int, land: int, k: int) -> int:
    """Return the discard index of the ``k``-th card of ``p``'s pile passing a pick filter (-1: count them).

    With ``k = -1`` return how many pass. Filters: Creature cards or any card, of ``land``.
    """
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    n = 0
    for i in range(s.piles.disc_n[p]):
        x = s.piles.disc[p, i]
        if target == Target.CREATURE_CARD and s.cards[x].type != CardType.CREATURE:
            continue
        if not sx.land_ok(s.cards[x].land, land):
            continue
        if n == k:
            return i
        n += 1
    return n if k < 0 else -1


@hot
def return_random(s, p: int, target: int, land: int) -> None:
    """Return a uniformly random card passing the filter from ``p``'s discard pile to its hand (R19)."""
    n = picks(s, np.int64(p), np.int64(target), np.int64(land), np.int64(-1))
    if n == 0:
        return
    k = np.int64(rng.randint(s.scratch.rng, Lane.EFFECT + p, n))
    i = picks(s, np.int64(p), np.int64(target), np.int64(land), k)
    x = remove_at(s.piles.disc, s.piles.disc_n, p, i)
    mk.stale_piles(s, mk.DISC << p)
    to_hand(s, p, x, p)


@kernel
def flip(s, q: int, lane: int, up: int) -> None:
    """Turn the Landscape at ``(q, lane)`` face up (1) or down (0) in place."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    s.board.up[q, lane] = up
    mk.stale(s)
    bd.log_event(s, EventKind.FLIP, q, NO_CARD, NO_CARD, lane, up)


@kernel
def bounce_slot(s, p, lane, c, target, choice, tgt) -> tuple[int, int]:
    """Return the slot a BOUNCE effect returns to hand, or (-1, 0) for none."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    if target == Target.CREATURE_IN_LANE_OPTIONAL:  # Legion of Earlings: 0 none, 1 opposing, 2 itself
        if choice == 1:
            return p ^ 1, lane
        if choice == 2 and s.board.cr_card[p, lane] == c:
            return p, lane
        return -1, 0
    if target == Target.OWN_IN_LANE:
        return p, lane
    return tgt >> 2, tgt & 3


# -- single cards ---------------------------------------------------------------------------


@hot
def field_reaper(s, p: int, lane: int, choice: int) -> None:
    """Field Reaper enters (R17, E9): take the opposing Creature in its lane into the adjacent empty lane
    ``choice`` (0 left, 1 right); with none there, move the Reaper itself there."""
    b = s.board
    d = lane - 1 if choice == 0 else lane + 1
    if not 0 <= d < N_LANES or b.cr_card[p, d] >= 0:
        return
    if b.cr_card[p ^ 1, lane] >= 0:
        bd.move(s, p ^ 1, lane, p, d)
        b.cr_exh[p, d], b.cr_floop[p, d] = 1, 0  # readies at its new controller's next Ready step
        mk.stale_turn(s, mk.TURN_FLOOPED)
        bd.log_event(s, EventKind.STEAL, p, b.cr_card[p, d], NO_CARD, d, 0)
    elif b.cr_card[p, lane] >= 0:
        bd.move(s, p, lane, p, d)


@hot
def silo(s, p: int) -> None:
    """Silo of Truth (R18): take a random card of the opponent's hand; the thief plays it (a pending choice)."""
    q = p ^ 1
    n = s.piles.hand_n[q]
    if n == 0:
        return
    i = rng.randint(s.scratch.rng, Lane.EFFECT + p, np.int64(n))
    owner = s.piles.hand_own[q, i]
    x = bd.take_from_hand(s, q, i)
    m = s.meta
    m.pend_card, m.pend_owner = x, owner
    m.phase, m.pending, m.decider, m.resume = Phase.CHOOSE, Choice.SILO, p, Resume.MAIN
    bd.log_event(s, EventKind.STEAL, p, x, NO_CARD, -1, 0)


@hot
def reclaim(s, p: int, tgt: int) -> None:
    """Reclaim Landscape: flip one of your Landscapes face up, move one of your Buildings (both optional)."""
    b = s.board
    up, mv = tgt // 17, tgt % 17
    if up < N_LANES and not b.up[p, up]:
        flip(s, p, up, np.int64(1))
    if mv != NO_MOVE:
        src, dst = mv >> 2, mv & 3
        if b.bu_card[p, src] >= 0 and b.bu_card[p, dst] < 0:
            b.bu_card[p, dst], b.bu_owner[p, dst], b.bu_exh[p, dst] = (
                b.bu_card[p, src],
                b.bu_owner[p, src],
                b.bu_exh[p, src],
            )
            b.bu_card[p, src] = NO_CARD
            mk.stale(s)
            bd.log_event(s, EventKind.MOVE, p, b.bu_card[p, dst], NO_CARD, src, dst)


@hot
def ogre_gas(s, p: int, amount: int) -> None:
    """Ogre Gas: reveal the top ``amount`` cards; one goes to the bottom (chosen if several), the others to discard."""
    m = s.meta
    m.reveal_n = 0
    for k in range(min(np.int64(amount), np.int64(s.piles.deck_n[p]))):
        n = s.piles.deck_n[p] - 1
        m.reveal[k] = s.piles.deck[p, n]
        s.piles.deck_n[p] = n
        m.reveal_n = k + 1
    if m.reveal_n == 1:
        keep_bottom(s, p, np.int64(0))
    elif m.reveal_n > 1:
        m.phase, m.pending, m.decider, m.resume = Phase.CHOOSE, Choice.OGRE, p, Resume.MAIN


@kernel
def keep_bottom(s, p: int, k: int) -> None:
    """Put revealed card ``k`` on the bottom of ``p``'s deck and discard the other revealed cards (Ogre Gas)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    m = s.meta
    pl = s.piles
    for i in range(pl.deck_n[p], 0, -1):
        pl.deck[p, i] = pl.deck[p, i - 1]
    pl.deck[p, 0] = m.reveal[k]
    pl.deck_n[p] += 1
    bd.log_event(s, EventKind.BOTTOM, p, m.reveal[k], NO_CARD, 0, 0)
    for i in range(m.reveal_n):
        if i != k:
            push(pl.disc, pl.disc_n, p, m.reveal[i])
            mk.stale_piles(s, mk.DISC << p)
            bd.log_event(s, EventKind.MILL, p, m.reveal[i], NO_CARD, 0, 0)
    m.reveal_n = 0


@kernel
def floop_creatures_in_discard(s, p: int, k: int) -> int:
    """Return the ``k``-th Floop Creature card of ``p``'s discard pile (k = -1: how many there are)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    n = 0
    for i in range(s.piles.disc_n[p]):
        x = s.piles.disc[p, i]
        if s.cards[x].type == CardType.CREATURE and s.cards[x].floop:
            if n == k:
                return x
            n += 1
    return n if k < 0 else -1


@hot
def schoolhouse(s, p: int, lane: int) -> None:
    """Schoolhouse (R22): your Creature in this lane loses its abilities and gains a random discarded Floop."""
    b = s.board
    n = floop_creatures_in_discard(s, p, np.int64(-1))
    if n == 0 or b.cr_card[p, lane] < 0:
        return
    x = floop_creatures_in_discard(s, p, rng.randint(s.scratch.rng, Lane.EFFECT + p, n))
    b.cr_copy[p, lane] = x
    mk.stale(s)
    bd.log_event(s, EventKind.COPY, p, x, b.cr_card[p, lane], lane, 0)
