"""The board: counts, current ATK/DEF (R12), damage, deaths, entering, leaving and moving.

Every function mutates or reads the state record ``s`` in place. ``refresh`` recomputes
each Creature's ATK and DEF from the printed stats, its own STAT rows, the auras of other
cards and the turn's bonuses; ``settle`` runs it and destroys every Creature whose damage
reaches its DEF (R12), until nothing changes. A card's triggered effects (leaves play,
changes lanes, enters play) are never resolved here: ``queue_trigger`` puts them in the
trigger queue, in lane order when several arise together (R19), and ``effects.run_queue``
resolves them one by one. No rule function calls back into the one that called it.
"""

from sims.cardwars.layout import MAX_EVENTS, NO_CARD, EventKind, Phase
from sims.cardwars.state import (
    N_LANES,
    AuraTo,
    CardType,
    Count,
    EndReason,
    Landscape,
    Mode,
    Part,
    Special,
    Stat,
    Target,
)
from sims.core.jit import kernel
from sims.core.piles import push
from sims.core.records import NEVER, NO_WINNER

ANY = int(Landscape.ANY)


@kernel
def log_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op unless ``meta.log_on`` (and when full)."""
    m = s.meta
    k = m.log_n
    if not m.log_on or k >= MAX_EVENTS:
        return
    e = s.scratch.log[k]
    e.turn, e.seat, e.kind, e.card, e.target, e.value, e.extra = m.turn, seat, kind, card, target, value, extra
    m.log_n = k + 1


@kernel
def land_ok(card_land: int, filt: int) -> bool:
    """Return True if a card of Landscape ``card_land`` passes filter ``filt`` (Rainbow is no type, R7)."""
    return filt == ANY or card_land == filt


# -- counts (abilities.csv ``count``) ----------------------------------------------------


@kernel
def count_landscapes(s, q: int, land: int) -> int:
    """Return the face-up Landscapes of type ``land`` on side ``q`` (face-down ones have no type, R7)."""
    n = 0
    for lane in range(N_LANES):
        n += s.board.up[q, lane] and s.board.land[q, lane] == land
    return n


@kernel
def count_types(s, q: int) -> int:
    """Return how many different face-up Landscape types side ``q`` controls (E7)."""
    seen = 0
    for lane in range(N_LANES):
        if s.board.up[q, lane]:
            seen |= 1 << s.board.land[q, lane]
    n = 0
    while seen:
        n += seen & 1
        seen >>= 1
    return n


@kernel
def count_creatures(s, q: int, land: int, skip_lane: int) -> int:
    """Return side ``q``'s Creatures of ``land`` (Rainbow never a type), leaving out lane ``skip_lane``."""
    n = 0
    for lane in range(N_LANES):
        c = s.board.cr_card[q, lane]
        if c >= 0 and lane != skip_lane and land_ok(s.cards[c].land, land):
            n += 1
    return n


@kernel
def count_of(s, kind: int, land: int, q: int, lane: int, c: int) -> int:
    """Return what ``kind`` (Count) counts for card ``c`` of side ``q`` in ``lane`` (-1: not on the board)."""
    b = s.board
    if kind == Count.ONE:
        return 1
    if kind == Count.OWN_LANDSCAPES:
        return count_landscapes(s, q, land)
    if kind == Count.ALL_LANDSCAPES:
        return count_landscapes(s, 0, land) + count_landscapes(s, 1, land)
    if kind == Count.ADJACENT_LANDSCAPES:
        n = 0
        for m in (lane - 1, lane + 1):
            if 0 <= m < N_LANES and b.up[q, m] and b.land[q, m] == land:
                n += 1
        return n
    if kind == Count.LANDSCAPE_TYPES:
        return count_types(s, q)
    if kind == Count.OWN_OTHER_CREATURES:
        return count_creatures(s, q, land, lane)
    if kind == Count.OWN_LAND_CREATURES:
        return count_creatures(s, q, land, -1)
    if kind == Count.OWN_COPIES:
        n = 0
        for m in range(N_LANES):
            n += b.cr_card[q, m] == c
        return n
    if kind == Count.OWN_FLOOPED:
        n = 0
        for m in range(N_LANES):
            n += b.cr_card[q, m] >= 0 and b.cr_floop[q, m] > 0
        return n
    if kind == Count.OWN_DISCARD:
        return s.piles.disc_n[q]
    if kind == Count.OPPONENT_HAND:
        return s.piles.hand_n[1 - q]
    if kind == Count.OPPOSING_IN_LANE:
        return 1 if 0 <= lane < N_LANES and b.cr_card[1 - q, lane] >= 0 else 0
    if kind == Count.OWN_SPELLS_THIS_TURN:
        return s.turnfx.spells[q]
    return _count_turn(s, kind, land, q, lane, c)


@kernel
def _count_turn(s, kind: int, land: int, q: int, lane: int, c: int) -> int:
    """Return the counts about this turn's entries, empty lanes and Buildings (see ``count_of``)."""
    b, t = s.board, s.turnfx
    if kind == Count.OWN_OTHER_ENTERED_THIS_TURN:
        if s.meta.mover != q:
            return 0  # "during your turn": nothing on the opponent's turn
        n = t.entered[q] if land == ANY else t.entered_land[q, land]
        if 0 <= lane < N_LANES and b.cr_entered[q, lane] == s.meta.turn and land_ok(s.cards[c].land, land):
            n -= 1  # "other": not itself
        return n
    if kind == Count.OWN_EMPTY_LANES:
        n = 0
        for m in range(N_LANES):
            n += b.cr_card[q, m] < 0
        return n
    if kind == Count.ENTERED_THIS_TURN:
        return t.entered[0] + t.entered[1]
    if kind == Count.ADJACENT_ENTERED:
        n = 0
        for m in (lane - 1, lane + 1):
            if 0 <= m < N_LANES:
                n += t.entered_lane[q, m]
        return n
    if kind == Count.OWN_BUILDINGS_IN_LANE:
        return 1 if 0 <= lane < N_LANES and b.bu_card[q, lane] >= 0 else 0
    if kind == Count.OWN_CREATURES_PLAYED:
        return t.played_cr[q]
    return 0


@kernel
def factor(n: int, step: int, mode: int) -> int:
    """Return the multiplier of a count: ``n // step`` (per), or 1/0 by the threshold ``step``."""
    if mode == Mode.PER:
        return n // step
    if mode == Mode.AT_LEAST:
        return 1 if n >= step else 0
    return 1 if n <= step else 0


@kernel
def row_value(s, amount: int, kind: int, land: int, step: int, mode: int, q: int, lane: int, c: int) -> int:
    """Return ``amount x factor(count)`` of one abilities.csv row for card ``c`` of side ``q`` in ``lane``."""
    if amount == 0:
        return 0
    return amount * factor(count_of(s, kind, land, q, lane, c), step, mode)


# -- current ATK and DEF (R12) --------------------------------------------------------------


@kernel
def abilities_on(s, q: int, lane: int) -> bool:
    """Return True unless the Creature at ``(q, lane)`` lost its abilities to Schoolhouse this turn."""
    return s.board.cr_copy[q, lane] < 0


@kernel
def own_stat(s, q: int, lane: int, c: int, stat: int) -> int:
    """Return the bonus of card ``c``'s own STAT rows for ``stat`` at ``(q, lane)``."""
    k = s.cards[c]
    v = 0
    if k.s1_stat == stat:
        v += row_value(s, k.s1_amount, k.s1_count, k.s1_land, k.s1_n, k.s1_mode, q, lane, c)
    if k.s2_stat == stat:
        v += row_value(s, k.s2_amount, k.s2_count, k.s2_land, k.s2_n, k.s2_mode, q, lane, c)
    return v


@kernel
def aura_bonus(s, q: int, lane: int, c: int, stat: int, glob: bool) -> int:
    """Return what other cards' AURA rows give the Creature ``c`` at ``(q, lane)`` for ``stat``.

    ``glob``: some Creature in play gives an aura to Creatures anywhere (Punk Cat, Shark);
    without one the scan over the board is skipped.
    """
    b = s.board
    v = 0
    for m in (lane - 1, lane + 1):  # X-Large Spirit Soldier: adjacent, own side only (R13)
        if 0 <= m < N_LANES:
            d = b.cr_card[q, m]
            adjacent = d >= 0 and b.cr_copy[q, m] < 0 and s.cards[d].au_to == AuraTo.ADJACENT_OWN
            if adjacent and s.cards[d].au_stat == stat and land_ok(s.cards[c].land, s.cards[d].au_land):
                v += s.cards[d].au_amount
    u = b.bu_card[q, lane]
    if u >= 0 and s.cards[u].au_to == AuraTo.OWN_IN_LANE and s.cards[u].au_stat == stat:
        v += s.cards[u].au_amount
    if not glob:
        return v
    entered = b.cr_entered[q, lane] == s.meta.turn and s.meta.mover == q
    for r in range(2):  # Punk Cat (any side), Shark (own side)
        for m in range(N_LANES):
            d = b.cr_card[r, m]
            if d < 0 or b.cr_copy[r, m] >= 0 or s.cards[d].au_stat != stat:
                continue
            to = s.cards[d].au_to
            moved = to == AuraTo.MOVED_CREATURES and b.cr_moved[q, lane]  # Punk Cat
            shark = to == AuraTo.OWN_ENTERED_THIS_TURN and r == q and entered  # Shark
            if moved or (shark and land_ok(s.cards[c].land, s.cards[d].au_land)):
                v += s.cards[d].au_amount
    return v


@kernel
def spell_bonus(s, q: int, lane: int, c: int) -> int:
    """Return the continuous "this turn" Spell bonuses on the Creature ``c`` at ``(q, lane)`` (RULES.md §8 Q2)."""
    v = 0
    for r in range(2):
        for k in range(s.turnfx.aura_n[r]):
            sc = s.cards[s.turnfx.aura_card[r, k]]
            target = sc.e1_target
            hit = (target == Target.OWN_CREATURES and r == q) or (
                target == Target.MOVED_CREATURES and s.board.cr_moved[q, lane]
            )
            hit = hit or (target == Target.OWN_LAND_CREATURES and r == q and land_ok(s.cards[c].land, sc.e1_land))
            if hit:
                v += row_value(s, sc.e1_amount, sc.e1_count, sc.e1_land, sc.e1_n, sc.e1_mode, r, -1, c)
    return v


@kernel
def refresh(s) -> None:
    """Recompute every Creature's ATK and DEF into ``board.cr_atk``/``cr_def`` in place (R12).

    ATK = printed + this turn's bonus + auras + its own STAT rows (unless Schoolhouse took
    its abilities) + ZaZo's + the turn's Spells; DEF = printed + "gains 1 DEF" + auras + own
    rows. A first pass finds which kinds of aura are in play, so the scans they need are
    skipped when none is (the common case).
    """
    b, t = s.board, s.turnfx
    glob = False  # Punk Cat, Shark: auras that reach anywhere
    adj = False  # X-Large Spirit Soldier: auras to neighbours
    for q in range(2):
        for lane in range(N_LANES):
            d = b.cr_card[q, lane]
            if d >= 0:
                to = s.cards[d].au_to
                glob = glob or to >= AuraTo.OWN_ENTERED_THIS_TURN
                adj = adj or to == AuraTo.ADJACENT_OWN
    spells = t.aura_n[0] + t.aura_n[1] > 0
    for q in range(2):
        for lane in range(N_LANES):
            c = b.cr_card[q, lane]
            if c < 0:
                continue
            k = s.cards[c]
            atk = k.atk + b.cr_tatk[q, lane]
            df = k.def_ + b.cr_pdef[q, lane]
            if adj or glob:
                atk += aura_bonus(s, q, lane, c, Stat.ATK, glob)
                df += aura_bonus(s, q, lane, c, Stat.DEF, glob)
            else:  # only a Building's aura can apply
                u = b.bu_card[q, lane]
                if u >= 0 and s.cards[u].au_to == AuraTo.OWN_IN_LANE:
                    if s.cards[u].au_stat == Stat.ATK:
                        atk += s.cards[u].au_amount
                    elif s.cards[u].au_stat == Stat.DEF:
                        df += s.cards[u].au_amount
            if k.s1_stat != Stat.NONE and b.cr_copy[q, lane] < 0:
                atk += own_stat(s, q, lane, c, Stat.ATK)
                df += own_stat(s, q, lane, c, Stat.DEF)
            if b.cr_zazo[q, lane]:
                atk += b.cr_zazo[q, lane] * count_of(s, Count.ADJACENT_ENTERED, ANY, q, lane, c)
            if spells:
                atk += spell_bonus(s, q, lane, c)
            b.cr_atk[q, lane], b.cr_def[q, lane] = atk, df


@kernel
def multiplier(s, q: int, lane: int) -> int:
    """Return 3 for Immortal Maize Walker on a face-up Cornfield (R22), else 1."""
    b = s.board
    k = s.cards[b.cr_card[q, lane]]
    on = k.special == Special.TRIPLE_ON_CORNFIELD and abilities_on(s, q, lane)
    return 3 if on and b.up[q, lane] and b.land[q, lane] == k.sp_land else 1


@kernel
def damage_dealt(s, q: int, lane: int) -> int:
    """Return the damage the Creature at ``(q, lane)`` deals in a fight: ATK (0 if negative) x multiplier."""
    atk = s.board.cr_atk[q, lane]
    return atk * multiplier(s, q, lane) if atk > 0 else 0


# -- tallies --------------------------------------------------------------------------------


@kernel
def credit(s, q: int, lane: int, to_hero: int, amount: int) -> None:
    """Count ``amount`` damage dealt by the card at ``(q, lane)`` for its owner while it controls it."""
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
    if amount <= 0:
        return
    s.board.hp[q] -= amount
    s.tally.seats[1 - q].damage_to_hero += amount
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
        log_event(s, EventKind.WIN, w, NO_CARD, NO_CARD, hp[w], hp[1 - w])
    return True


@kernel
def deal_damage(s, q: int, lane: int, amount: int, src: int, by: int) -> None:
    """Put ``amount`` damage on the Creature at ``(q, lane)`` in place (deaths wait for ``settle``)."""
    if amount <= 0 or s.board.cr_card[q, lane] < 0:
        return
    b = s.board
    b.cr_dmg[q, lane] += amount
    b.cr_hit_by[q, lane] = by
    log_event(s, EventKind.DAMAGE, q, src, b.cr_card[q, lane], amount, b.cr_dmg[q, lane])


@kernel
def heal(s, q: int, lane: int) -> None:
    """ "Gains 1 DEF" in place: remove 1 damage, or +1 DEF for good when undamaged (R12, E11)."""
    b = s.board
    if b.cr_card[q, lane] < 0:
        return
    if b.cr_dmg[q, lane] > 0:
        b.cr_dmg[q, lane] -= 1
        log_event(s, EventKind.HEAL, q, NO_CARD, b.cr_card[q, lane], 1, 0)
    else:
        b.cr_pdef[q, lane] += 1
        log_event(s, EventKind.HEAL, q, NO_CARD, b.cr_card[q, lane], 0, 0)


# -- entering, leaving and moving -----------------------------------------------------------


@kernel
def suppressed(s, q: int, lane: int) -> bool:
    """Return True if the Creature at ``(q, lane)`` triggers none of its own enters/leaves effects.

    Palace of Bone (R22) in the opposing slot of its lane, or Schoolhouse's copy this turn.
    """
    u = s.board.bu_card[1 - q, lane]
    if u >= 0 and s.cards[u].special == Special.PALACE_OF_BONE:
        return True
    return not abilities_on(s, q, lane)


@kernel
def place(s, q: int, lane: int, c: int, owner: int) -> None:
    """Put Creature ``c`` (of ``owner``) into the empty slot ``(q, lane)``: Ready, no damage (R8, R9)."""
    b = s.board
    b.cr_card[q, lane], b.cr_owner[q, lane], b.cr_dmg[q, lane] = c, owner, 0
    b.cr_exh[q, lane] = b.cr_floop[q, lane] = b.cr_pdef[q, lane] = 0
    b.cr_tatk[q, lane] = b.cr_zazo[q, lane] = b.cr_moved[q, lane] = b.cr_stolen[q, lane] = 0
    b.cr_entered[q, lane] = s.meta.turn
    b.cr_copy[q, lane] = NO_CARD
    b.cr_hit_by[q, lane] = q


@kernel
def take_off(s, q: int, lane: int, to_hand: int) -> int:
    """Remove the Creature at ``(q, lane)`` to its owner's discard pile (or hand) in place; return it.

    Its damage and turn state go with it (R8). Leaves-play effects are the caller's.
    """
    b = s.board
    c = b.cr_card[q, lane]
    owner = b.cr_owner[q, lane]
    b.cr_card[q, lane] = NO_CARD
    if to_hand:
        n = s.piles.hand_n[owner]
        s.piles.hand[owner, n], s.piles.hand_own[owner, n] = c, owner
        s.piles.hand_n[owner] = n + 1
    else:
        push(s.piles.disc, s.piles.disc_n, owner, c)
    log_event(s, EventKind.LEAVE, q, c, NO_CARD, lane, to_hand)
    return c


@kernel
def leave_play(s, q: int, lane: int, to_hand: int) -> None:
    """Take the Creature at ``(q, lane)`` out of play and resolve its leaves-play effect (R8, R22)."""
    fires = not suppressed(s, q, lane)
    owner = s.board.cr_owner[q, lane]
    c = take_off(s, q, lane, to_hand)
    if fires and s.cards[c].trigger == Part.LEAVES:
        queue_trigger(s, c, q, lane, owner, 0, 0)
        close_batch(s)


@kernel
def destroy_building(s, q: int, lane: int) -> None:
    """Put the Building at ``(q, lane)`` into its owner's discard pile in place."""
    u = s.board.bu_card[q, lane]
    if u < 0:
        return
    s.board.bu_card[q, lane] = NO_CARD
    push(s.piles.disc, s.piles.disc_n, s.board.bu_owner[q, lane], u)
    log_event(s, EventKind.DESTROY, q, NO_CARD, u, lane, 1)


@kernel
def move(s, q: int, lane: int, q2: int, lane2: int) -> None:
    """Move the Creature at ``(q, lane)`` to the empty slot ``(q2, lane2)`` with its damage and state.

    A change of lane index is "changing Lanes" (Punk Cat, Woad Blood, Woadic Marauder);
    a change of side only (Spirit Tower) is not.
    """
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
    log_event(s, EventKind.MOVE, q2, c, NO_CARD, lane, lane2 + (4 if q2 != q else 0))
    if lane2 != lane and s.cards[c].trigger == Part.MOVES and abilities_on(s, q2, lane2):
        queue_trigger(s, c, q2, lane2, b.cr_owner[q2, lane2], 0, 0)
        close_batch(s)


# -- the trigger queue (R19) --------------------------------------------------------------------


@kernel
def queue_trigger(s, c: int, q: int, lane: int, owner: int, choice: int, tgt: int) -> None:
    """Queue card ``c``'s triggered effect for controller ``q`` at ``lane`` (resolved by effects.run_queue)."""
    t = s.queue
    k = t.tail
    if k >= t.card.shape[0]:
        return  # cannot happen with these decks (a handful at most); dropped rather than overflow
    t.card[k], t.side[k], t.lane[k], t.owner[k], t.choice[k], t.tgt[k] = c, q, lane, owner, choice, tgt
    t.batch[k] = t.next_batch
    t.tail = k + 1


@kernel
def close_batch(s) -> None:
    """End the batch of triggers being queued: the next ones belong to a later moment."""
    s.queue.next_batch += 1


# -- deaths (R11, R12, R19) -------------------------------------------------------------------


@kernel
def settle(s) -> None:
    """Recompute stats and destroy every Creature with damage >= DEF, repeatedly, in place (R12).

    Creatures that die together leave play together; their leaves-play effects are queued
    in lane order, the mover's side first in each lane (R19).
    """
    b, sc = s.board, s.scratch
    while True:
        refresh(s)
        n = 0
        for lane in range(N_LANES):
            for k in range(2):
                q = s.meta.mover if k == 0 else 1 - s.meta.mover
                if b.cr_card[q, lane] >= 0 and b.cr_dmg[q, lane] >= b.cr_def[q, lane]:
                    sc.dying_side[n], sc.dying_lane[n] = q, lane
                    n += 1
        if n == 0:
            return
        for k in range(n):
            q, lane = sc.dying_side[k], sc.dying_lane[k]
            sc.dying_on[k] = not suppressed(s, q, lane)
            sc.dying_owner[k] = b.cr_owner[q, lane]
            killer = b.cr_hit_by[q, lane] if b.cr_dmg[q, lane] > 0 else s.meta.mover
            if killer != q:
                s.tally.seats[killer].creatures_destroyed += 1
            c = take_off(s, q, lane, 0)
            sc.dying_card[k] = c
            s.tally.cards[sc.dying_owner[k], c].times_died += 1
            log_event(s, EventKind.DESTROY, q, NO_CARD, c, lane, 0)
        for k in range(n):
            c = sc.dying_card[k]
            if sc.dying_on[k] and s.cards[c].trigger == Part.LEAVES:
                queue_trigger(s, c, sc.dying_side[k], sc.dying_lane[k], sc.dying_owner[k], 0, 0)
        close_batch(s)


@kernel
def destroy_creature(s, q: int, lane: int, by: int) -> None:
    """Destroy the Creature at ``(q, lane)`` in place (a cost or an effect, not damage), then settle."""
    b = s.board
    if b.cr_card[q, lane] < 0:
        return
    fires = not suppressed(s, q, lane)
    if by != q:
        s.tally.seats[by].creatures_destroyed += 1
    owner = b.cr_owner[q, lane]
    c = take_off(s, q, lane, 0)
    s.tally.cards[owner, c].times_died += 1
    log_event(s, EventKind.DESTROY, q, NO_CARD, c, lane, 0)
    if fires and s.cards[c].trigger == Part.LEAVES:
        queue_trigger(s, c, q, lane, owner, 0, 0)
        close_batch(s)
    settle(s)


# -- piles ------------------------------------------------------------------------------------


@kernel
def draw(s, p: int) -> int:
    """Move seat ``p``'s top deck card to its hand in place; return it (NO_CARD: empty deck, R20)."""
    pl = s.piles
    n = pl.deck_n[p]
    if n == 0:
        return NO_CARD
    c = pl.deck[p, n - 1]
    pl.deck_n[p] = n - 1
    h = pl.hand_n[p]
    pl.hand[p, h], pl.hand_own[p, h] = c, p
    pl.hand_n[p] = h + 1
    r = s.tally.cards[p, c]
    r.times_drawn += 1
    if r.first_drawn_turn == NEVER:
        r.first_drawn_turn = s.meta.turn
    log_event(s, EventKind.DRAW, p, c, NO_CARD, 0, 0)
    return c


@kernel
def take_from_hand(s, p: int, i: int) -> int:
    """Remove hand entry ``i`` of seat ``p`` in place (order kept); return the card id."""
    pl = s.piles
    c = pl.hand[p, i]
    n = pl.hand_n[p]
    for k in range(i, n - 1):
        pl.hand[p, k], pl.hand_own[p, k] = pl.hand[p, k + 1], pl.hand_own[p, k + 1]
    pl.hand_n[p] = n - 1
    return c


@kernel
def discard_from_hand(s, p: int, i: int) -> int:
    """Discard hand entry ``i`` of seat ``p`` to its owner's discard pile in place; return the card."""
    owner = s.piles.hand_own[p, i]
    c = take_from_hand(s, p, i)
    push(s.piles.disc, s.piles.disc_n, owner, c)
    log_event(s, EventKind.DISCARD, p, c, NO_CARD, 0, 0)
    return c


@kernel
def mill(s, p: int) -> int:
    """Put seat ``p``'s top deck card into its discard pile in place; return it (NO_CARD if empty)."""
    n = s.piles.deck_n[p]
    if n == 0:
        return NO_CARD
    c = s.piles.deck[p, n - 1]
    s.piles.deck_n[p] = n - 1
    push(s.piles.disc, s.piles.disc_n, p, c)
    log_event(s, EventKind.MILL, p, c, NO_CARD, 0, 0)
    return c


@kernel
def is_creature(s, c: int) -> bool:
    """Return True if card ``c`` is a Creature."""
    return s.cards[c].type == CardType.CREATURE
