"""The board: damage, deaths, entering, leaving and moving (counts and ATK/DEF: ``stats.py``).

Every function mutates or reads the state record ``s`` in place. ``settle`` runs
``stats.refresh`` (each Creature's ATK and DEF, R12) and destroys every Creature whose damage
reaches its DEF (R12, ``destroy_dead``), until nothing changes. A card's triggered effects (leaves play,
changes lanes, enters play) are never resolved here: ``queue_trigger`` puts them in the
trigger queue, in lane order when several arise together (R19), and ``effects.run_queue``
resolves them one by one. No rule function calls back into the one that called it.
"""

import numpy as np

from sims.cardwars.layout import MAX_EVENTS, NO_CARD, EventKind, Phase
from sims.cardwars.marks import DISC, HAND, stale, stale_board, stale_piles
from sims.cardwars.state import N_LANES, CardType, EndReason, Part, Special
from sims.cardwars.stats import abilities_on, refresh
from sims.core.jit import hot, kernel
from sims.core.piles import push
from sims.core.records import NEVER, NO_WINNER


@hot
def log_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op unless ``meta.log_on`` (and when full).

    Only the test of ``log_on`` is copied into each of the ~50 callers; the write is one
    compiled function, called with int64 arguments so that it is compiled once (RULES.md §13).
    """
    if s.meta.log_on:
        write_event(
            s, np.int64(kind), np.int64(seat), np.int64(card), np.int64(target), np.int64(value), np.int64(extra)
        )


@kernel
def write_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place (not when full)."""
    m = s.meta
    k = m.log_n
    if k >= MAX_EVENTS:
        return
    e = s.scratch.log[k]
    e.turn, e.seat, e.kind, e.card, e.target, e.value, e.extra = m.turn, seat, kind, card, target, value, extra
    m.log_n = k + 1


# -- tallies --------------------------------------------------------------------------------


@kernel
def credit(s, q: int, lane: int, to_hero: int, amount: int) -> None:
    """Count ``amount`` damage dealt by the card at ``(q, lane)`` for its owner while it controls it."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    if amount <= 0 or lane < 0:
        return
    c = s.board.cr_card[q, lane]
    if c < 0 or s.board.cr_owner[q, lane] != q:
        return
    r = s.tally.cards[q, c]
    if to_hero:
        r.damage_to_hero += amount
    else:
        r.damage_to_creatures += amount


@kernel
def credit_card(s, p: int, c: int, to_hero: int, amount: int) -> None:
    """Count ``amount`` damage dealt by a card of seat ``p``'s deck not on the board (a Spell, a leaving card)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    if amount <= 0 or c < 0:
        return
    r = s.tally.cards[p, c]
    if r.copies == 0:
        return  # not from p's deck (a card Silo of Truth took): no row for it
    if to_hero:
        r.damage_to_hero += amount
    else:
        r.damage_to_creatures += amount


# -- damage, Hit Points and the end of the game (R21) ---------------------------------------


@kernel
def hero_damage(s, q: int, amount: int, src: int) -> None:
    """Take ``amount`` from side ``q``'s Hit Points in place (``src`` = card dealing it, for the log).

    The game does not end here: ``check_end`` runs once the event is over (a fight, an
    action's effect, a batch of simultaneous triggers), so both players can reach 0 at the
    same moment (R21).
    """
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    if amount <= 0:
        return
    s.board.hp[q] -= amount
    s.tally.seats[q ^ 1].damage_to_hero += amount
    log_event(s, EventKind.HERO_DAMAGE, q, src, NO_CARD, amount, s.board.hp[q])


@kernel
def check_end(s) -> bool:
    """End the game in place if a player has 0 or fewer Hit Points (R21); return True if it is over."""
    m = s.meta
    if m.phase == Phase.OVER:
        return True
    hp = s.board.hp
    if hp[0] > 0 and hp[1] > 0:
        return False
    m.phase = Phase.OVER
    if hp[0] <= 0 and hp[1] <= 0:
        m.winner, m.end_reason = NO_WINNER, EndReason.MUTUAL_HP_ZERO
        log_event(s, EventKind.DRAWN_GAME, 0, NO_CARD, NO_CARD, hp[0], hp[1])
    else:
        w = 0 if hp[1] <= 0 else 1
        m.winner, m.end_reason = w, EndReason.HP_ZERO
        log_event(s, EventKind.WIN, w, NO_CARD, NO_CARD, hp[w], hp[w ^ 1])
    return True


@kernel
def deal_damage(s, q: int, lane: int, amount: int, src: int, by: int) -> None:
    """Put ``amount`` damage on the Creature at ``(q, lane)`` in place (deaths wait for ``settle``)."""
    q, by = q & 1, by & 1  # seats as non-negative indexes (RULES.md §13)
    if amount <= 0 or s.board.cr_card[q, lane] < 0:
        return
    b = s.board
    b.cr_dmg[q, lane] += amount
    b.cr_hit_by[q, lane] = by
    if b.cr_dmg[q, lane] >= b.cr_def[q, lane]:
        b.st_dying = 1  # the next refresh reports it (stats.refresh); damage is no input of a stat
    log_event(s, EventKind.DAMAGE, q, src, b.cr_card[q, lane], amount, b.cr_dmg[q, lane])


@kernel
def heal(s, q: int, lane: int) -> None:
    """ "Gains 1 DEF" in place: remove 1 damage, or +1 DEF for good when undamaged (R12, E11)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if b.cr_card[q, lane] < 0:
        return
    if b.cr_dmg[q, lane] > 0:
        b.cr_dmg[q, lane] -= 1
        if b.st_dying:  # it may no longer be dying: the next refresh recomputes
            b.st_fresh = 0
        log_event(s, EventKind.HEAL, q, NO_CARD, b.cr_card[q, lane], 1, 0)
    else:
        b.cr_pdef[q, lane] += 1
        stale(s)
        log_event(s, EventKind.HEAL, q, NO_CARD, b.cr_card[q, lane], 0, 0)


# -- entering, leaving and moving -----------------------------------------------------------


@kernel
def suppressed(s, q: int, lane: int) -> bool:
    """Return True if the Creature at ``(q, lane)`` triggers none of its own enters/leaves effects.

    Palace of Bone (R22) in the opposing slot of its lane, or Schoolhouse's copy this turn.
    """
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    u = s.board.bu_card[q ^ 1, lane]
    if u >= 0 and s.cards[u].special == Special.PALACE_OF_BONE:
        return True
    return not abilities_on(s, q, lane)


@kernel
def place(s, q: int, lane: int, c: int, owner: int) -> None:
    """Put Creature ``c`` (of ``owner``) into the empty slot ``(q, lane)``: Ready, no damage (R8, R9)."""
    q, owner = q & 1, owner & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    b.cr_card[q, lane], b.cr_owner[q, lane], b.cr_dmg[q, lane] = c, owner, 0
    b.cr_exh[q, lane] = b.cr_floop[q, lane] = b.cr_pdef[q, lane] = 0
    b.cr_tatk[q, lane] = b.cr_zazo[q, lane] = b.cr_moved[q, lane] = b.cr_stolen[q, lane] = 0
    b.cr_entered[q, lane] = s.meta.turn
    b.cr_copy[q, lane] = NO_CARD
    b.cr_hit_by[q, lane] = q
    stale(s)


@kernel
def take_off(s, q: int, lane: int, to_hand: int) -> int:
    """Remove the Creature at ``(q, lane)`` to its owner's discard pile (or hand) in place; return it.

    Its damage and turn state go with it (R8). Leaves-play effects are the caller's.
    """
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    c = b.cr_card[q, lane]
    owner = b.cr_owner[q, lane]
    b.cr_card[q, lane] = NO_CARD
    stale_board(s, q, c, (HAND if to_hand else DISC) << owner)
    if to_hand:
        n = s.piles.hand_n[owner]
        s.piles.hand[owner, n], s.piles.hand_own[owner, n] = c, owner
        s.piles.hand_n[owner] = n + 1
    else:
        push(s.piles.disc, s.piles.disc_n, np.int64(owner), c)
    log_event(s, EventKind.LEAVE, q, c, NO_CARD, lane, to_hand)
    return c


@kernel
def leave_play(s, q: int, lane: int, to_hand: int) -> None:
    """Take the Creature at ``(q, lane)`` out of play and resolve its leaves-play effect (R8, R22)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    fires = not suppressed(s, q, lane)
    owner = s.board.cr_owner[q, lane]
    c = take_off(s, q, lane, to_hand)
    if fires and s.cards[c].trigger == Part.LEAVES:
        queue_trigger(s, c, q, lane, owner, np.int64(0), np.int64(0))
        close_batch(s)


@kernel
def destroy_building(s, q: int, lane: int) -> None:
    """Put the Building at ``(q, lane)`` into its owner's discard pile in place."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    u = s.board.bu_card[q, lane]
    if u < 0:
        return
    s.board.bu_card[q, lane] = NO_CARD
    stale(s)
    push(s.piles.disc, s.piles.disc_n, np.int64(s.board.bu_owner[q, lane]), u)
    log_event(s, EventKind.DESTROY, q, NO_CARD, u, lane, 1)


@kernel
def move(s, q: int, lane: int, q2: int, lane2: int) -> None:
    """Move the Creature at ``(q, lane)`` to the empty slot ``(q2, lane2)`` with its damage and state.

    A change of lane index is "changing Lanes" (Punk Cat, Woad Blood, Woadic Marauder);
    a change of side only (Spirit Tower) is not.
    """
    q, q2 = q & 1, q2 & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    c = b.cr_card[q, lane]
    b.cr_card[q2, lane2], b.cr_owner[q2, lane2], b.cr_dmg[q2, lane2] = c, b.cr_owner[q, lane], b.cr_dmg[q, lane]
    b.cr_exh[q2, lane2], b.cr_floop[q2, lane2], b.cr_pdef[q2, lane2] = (
        b.cr_exh[q, lane],
        b.cr_floop[q, lane],
        b.cr_pdef[q, lane],
    )
    b.cr_tatk[q2, lane2], b.cr_zazo[q2, lane2] = b.cr_tatk[q, lane], b.cr_zazo[q, lane]
    b.cr_moved[q2, lane2] = b.cr_moved[q, lane] or lane2 != lane
    b.cr_entered[q2, lane2], b.cr_copy[q2, lane2] = b.cr_entered[q, lane], b.cr_copy[q, lane]
    b.cr_stolen[q2, lane2], b.cr_hit_by[q2, lane2] = b.cr_stolen[q, lane], b.cr_hit_by[q, lane]
    b.cr_card[q, lane] = NO_CARD
    stale(s)
    log_event(s, EventKind.MOVE, q2, c, NO_CARD, lane, lane2 + (4 if q2 != q else 0))
    if lane2 != lane and s.cards[c].trigger == Part.MOVES and abilities_on(s, q2, lane2):
        queue_trigger(s, c, q2, lane2, b.cr_owner[q2, lane2], np.int64(0), np.int64(0))
        close_batch(s)


# -- the trigger queue (R19) --------------------------------------------------------------------


@kernel
def queue_trigger(s, c: int, q: int, lane: int, owner: int, choice: int, tgt: int) -> None:
    """Queue card ``c``'s triggered effect for controller ``q`` at ``lane`` (resolved by effects.run_queue)."""
    q, owner = q & 1, owner & 1  # seats as non-negative indexes (RULES.md §13)
    t = s.queue
    k = t.tail
    if k >= t.card.shape[0]:
        return  # cannot happen with these decks (a handful at most); dropped rather than overflow
    t.card[k], t.side[k], t.lane[k], t.owner[k], t.choice[k], t.tgt[k] = c, q, lane, owner, choice, tgt
    t.batch[k] = t.next_batch
    t.tail = k + 1


@hot
def close_batch(s) -> None:
    """End the batch of triggers being queued: the next ones belong to a later moment."""
    s.queue.next_batch += 1


# -- deaths (R11, R12, R19) -------------------------------------------------------------------


@kernel
def settle(s) -> None:
    """Recompute stats and destroy every Creature with damage >= DEF, repeatedly, in place (R12)."""
    if refresh(s):
        destroy_dead(s)


@kernel
def destroy_dead(s) -> None:
    """Destroy every Creature with damage >= DEF in place, recomputing stats after each wave (R12).

    The stats must be current when it is called: ``settle`` recomputes them first; a fight
    calls it directly, since damage is no input of any ATK or DEF (RULES.md §13). Creatures
    that die together leave play together; their leaves-play effects are queued in lane
    order, the mover's side first in each lane (R19).
    """
    b, sc = s.board, s.scratch
    while True:
        n = 0
        for lane in range(N_LANES):
            for k in range(2):
                q = s.meta.mover if k == 0 else s.meta.mover ^ 1
                if b.cr_card[q, lane] >= 0 and b.cr_dmg[q, lane] >= b.cr_def[q, lane]:
                    sc.dying_side[n], sc.dying_lane[n] = q, lane
                    n += 1
        b.st_dying = 0  # every dying Creature is taken off now (a stat change after it: the next refresh)
        if n == 0:
            return
        for k in range(n):
            q, lane = sc.dying_side[k], sc.dying_lane[k]
            sc.dying_on[k] = not suppressed(s, np.int64(q), np.int64(lane))
            sc.dying_owner[k] = b.cr_owner[q, lane]
            killer = b.cr_hit_by[q, lane] if b.cr_dmg[q, lane] > 0 else s.meta.mover
            if killer != q:
                s.tally.seats[killer].creatures_destroyed += 1
            c = take_off(s, np.int64(q), np.int64(lane), np.int64(0))
            sc.dying_card[k] = c
            s.tally.cards[sc.dying_owner[k], c].times_died += 1
            log_event(s, EventKind.DESTROY, q, NO_CARD, c, lane, 0)
        for k in range(n):
            c = sc.dying_card[k]
            if sc.dying_on[k] and s.cards[c].trigger == Part.LEAVES:
                queue_trigger(
                    s,
                    c,
                    np.int64(sc.dying_side[k]),
                    np.int64(sc.dying_lane[k]),
                    sc.dying_owner[k],
                    np.int64(0),
                    np.int64(0),
                )
        close_batch(s)
        if not refresh(s):
            return


@kernel
def destroy_creature(s, q: int, lane: int, by: int) -> None:
    """Destroy the Creature at ``(q, lane)`` in place (a cost or an effect, not damage), then settle."""
    q, by = q & 1, by & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if b.cr_card[q, lane] < 0:
        return
    fires = not suppressed(s, q, lane)
    if by != q:
        s.tally.seats[by].creatures_destroyed += 1
    owner = b.cr_owner[q, lane]
    c = take_off(s, q, lane, np.int64(0))
    s.tally.cards[owner, c].times_died += 1
    log_event(s, EventKind.DESTROY, q, NO_CARD, c, lane, 0)
    if fires and s.cards[c].trigger == Part.LEAVES:
        queue_trigger(s, c, q, lane, owner, np.int64(0), np.int64(0))
        close_batch(s)
    settle(s)


# -- piles ------------------------------------------------------------------------------------


@kernel
def draw(s, p: int) -> int:
    """Move seat ``p``'s top deck card to its hand in place; return it (NO_CARD: empty deck, R20)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    pl = s.piles
    n = pl.deck_n[p]
    if n == 0:
        return NO_CARD
    c = pl.deck[p, n - 1]
    pl.deck_n[p] = n - 1
    h = pl.hand_n[p]
    pl.hand[p, h], pl.hand_own[p, h] = c, p
    pl.hand_n[p] = h + 1
    stale_piles(s, HAND << p)
    r = s.tally.cards[p, c]
    r.times_drawn += 1
    if r.first_drawn_turn == NEVER:
        r.first_drawn_turn = s.meta.turn
    log_event(s, EventKind.DRAW, p, c, NO_CARD, 0, 0)
    return c


@kernel
def take_from_hand(s, p: int, i: int) -> int:
    """Remove hand entry ``i`` of seat ``p`` in place (order kept); return the card id."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    pl = s.piles
    c = pl.hand[p, i]
    n = pl.hand_n[p]
    for k in range(i, n - 1):
        pl.hand[p, k], pl.hand_own[p, k] = pl.hand[p, k + 1], pl.hand_own[p, k + 1]
    pl.hand_n[p] = n - 1
    stale_piles(s, HAND << p)
    return c


@kernel
def discard_from_hand(s, p: int, i: int) -> int:
    """Discard hand entry ``i`` of seat ``p`` to its owner's discard pile in place; return the card."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    owner = s.piles.hand_own[p, i]
    c = take_from_hand(s, p, i)
    push(s.piles.disc, s.piles.disc_n, np.int64(owner), c)
    stale_piles(s, DISC << owner)
    log_event(s, EventKind.DISCARD, p, c, NO_CARD, 0, 0)
    return c


@kernel
def mill(s, p: int) -> int:
    """Put seat ``p``'s top deck card into its discard pile in place; return it (NO_CARD if empty)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    n = s.piles.deck_n[p]
    if n == 0:
        return NO_CARD
    c = s.piles.deck[p, n - 1]
    s.piles.deck_n[p] = n - 1
    push(s.piles.disc, s.piles.disc_n, p, c)
    stale_piles(s, DISC << p)
    log_event(s, EventKind.MILL, p, c, NO_CARD, 0, 0)
    return c


@hot
def is_creature(s, c: int) -> bool:
    """Return True if card ``c`` is a Creature."""
    return s.cards[c].type == CardType.CREATURE
