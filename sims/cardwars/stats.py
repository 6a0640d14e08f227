"""Counts and current stats: what a count (abilities.csv ``count``) is, and each Creature's ATK/DEF (R12).

``recompute`` computes every Creature's ATK and DEF from the printed stats, its own STAT rows, the
auras of other cards and the turn's bonuses; ``refresh`` runs it when an input changed since it last ran
(every writer of an input marks the stats: ``marks.py``); ``board.settle`` runs ``refresh`` before deaths.
"""

import numpy as np

from sims.cardwars.marks import (
    BOTH,
    SIDE,
    TURN_ALL,
    TURN_COUNTS,
    TURN_ENTERED,
    TURN_MOVED,
    reads_board,
    reads_piles,
    reads_turn,
)
from sims.cardwars.state import N_LANES, AuraTo, Count, Landscape, Mode, Special, Stat, Target
from sims.core.jit import hot, kernel

ANY = np.int64(Landscape.ANY)  # np.int64 globals type as int64, not as literals (one compiled count_of)
ADJACENT = np.int64(Count.ADJACENT_ENTERED)


@hot
def land_ok(card_land: int, filt: int) -> bool:
    """Return True if a card of Landscape ``card_land`` passes filter ``filt`` (Rainbow is no type, R7)."""
    return filt == ANY or card_land == filt


@hot
def count_landscapes(s, q: int, land: int) -> int:
    """Return the face-up Landscapes of type ``land`` on side ``q`` (face-down ones have no type, R7)."""
    n = 0
    for lane in range(N_LANES):
        n += s.board.up[q, lane] and s.board.land[q, lane] == land
    return n


@kernel
def count_types(s, q: int) -> int:
    """Return how many different face-up Landscape types side ``q`` controls (E7)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
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
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    n = 0
    for lane in range(N_LANES):
        c = s.board.cr_card[q, lane]
        if c >= 0 and lane != skip_lane and land_ok(s.cards[c].land, land):
            n += 1
    return n


@kernel
def count_of(s, kind: int, land: int, q: int, lane: int, c: int) -> int:
    """Return what ``kind`` (Count) counts for card ``c`` of side ``q`` in ``lane`` (-1: not on the board)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
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
        return count_creatures(s, q, land, np.int64(-1))
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
        return s.piles.hand_n[q ^ 1]
    if kind == Count.OPPOSING_IN_LANE:
        return 1 if 0 <= lane < N_LANES and b.cr_card[q ^ 1, lane] >= 0 else 0
    if kind == Count.OWN_SPELLS_THIS_TURN:
        return s.turnfx.spells[q]
    return _count_turn(s, kind, land, q, lane, c)


@hot
def _count_turn(s, kind: int, land: int, q: int, lane: int, c: int) -> int:
    """Return the counts about this turn's entries, empty lanes and Buildings (see ``count_of``)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
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


@hot
def factor(n: int, step: int, mode: int) -> int:
    """Return the multiplier of a count: ``n // step`` (per), or 1/0 by the threshold ``step``."""
    if mode == Mode.PER:
        return n // step
    if mode == Mode.AT_LEAST:
        return 1 if n >= step else 0
    return 1 if n <= step else 0


@hot
def row_value(s, amount: int, kind: int, land: int, step: int, mode: int, q: int, lane: int, c: int) -> int:
    """Return ``amount x factor(count)`` of one abilities.csv row for card ``c`` of side ``q`` in ``lane``."""
    if amount == 0:
        return 0
    if kind == Count.ONE:  # most effect rows: count_of's first case, without the call (RULES.md §13)
        n = 1
    elif kind == Count.OWN_LANDSCAPES:  # the commonest STAT count: count_of's case, without the call
        n = count_landscapes(s, q & 1, land)
    elif kind == Count.OWN_DISCARD:  # Dark Angel, Mouthball: count_of's case, without the call
        n = np.int64(s.piles.disc_n[q & 1])
    else:
        n = count_of(s, np.int64(kind), np.int64(land), np.int64(q), np.int64(lane), np.int64(c))  # compiled once
    return amount * factor(n, step, mode)  # one copy of factor's code (4 before: RULES.md §13)


@hot
def abilities_on(s, q: int, lane: int) -> bool:
    """Return True unless the Creature at ``(q, lane)`` lost its abilities to Schoolhouse this turn."""
    return s.board.cr_copy[q, lane] < 0


@kernel
def own_stats(s, q: int, lane: int, c: int) -> tuple[int, int]:
    """Return the (ATK, DEF) bonus of card ``c``'s own STAT rows at ``(q, lane)`` (each row counted once)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    k = s.cards[c]
    atk = df = 0
    if k.s1_stat != Stat.NONE:
        v = row_value(s, k.s1_amount, k.s1_count, k.s1_land, k.s1_n, k.s1_mode, q, lane, c)
        if k.s1_stat == Stat.ATK:
            atk += v
        else:
            df += v
    if k.s2_stat != Stat.NONE:
        v = row_value(s, k.s2_amount, k.s2_count, k.s2_land, k.s2_n, k.s2_mode, q, lane, c)
        if k.s2_stat == Stat.ATK:
            atk += v
        else:
            df += v
    return atk, df


@hot
def add_stat(stat: int, amount: int, atk: int, df: int) -> tuple[int, int]:
    """Return ``(atk, df)`` with ``amount`` added to the one ``stat`` names (neither for Stat.NONE)."""
    if stat == Stat.ATK:
        return atk + amount, df
    if stat == Stat.DEF:
        return atk, df + amount
    return atk, df


@hot
def local_auras(s, q: int, lane: int, c: int) -> tuple[int, int]:
    """Return the (ATK, DEF) that adjacent Creatures' and the lane's Building's AURA rows give ``c`` at its slot."""
    b = s.board
    atk = df = 0
    for m in (lane - 1, lane + 1):  # X-Large Spirit Soldier: adjacent, own side only (R13)
        if 0 <= m < N_LANES:
            d = b.cr_card[q, m]
            adjacent = d >= 0 and b.cr_copy[q, m] < 0 and s.cards[d].au_to == AuraTo.ADJACENT_OWN
            if adjacent and land_ok(s.cards[c].land, s.cards[d].au_land):
                atk, df = add_stat(s.cards[d].au_stat, s.cards[d].au_amount, atk, df)
    u = b.bu_card[q, lane]
    if u >= 0 and s.cards[u].au_to == AuraTo.OWN_IN_LANE:
        atk, df = add_stat(s.cards[u].au_stat, s.cards[u].au_amount, atk, df)
    return atk, df


@hot
def aura_sources(s) -> tuple[int, int, int, int, int]:
    """Return where the auras that reach beyond a lane's own Building are, in one pass over the slots.

    Returns ``(sources, near, shark, moved_atk, moved_def)``: ``sources``, the slots (bits
    ``4 q + lane``) of the Creatures whose auras reach anywhere (Punk Cat, Shark; not one that
    lost its abilities to Schoolhouse); ``near``, the slots next to a Creature that gives an aura
    to its neighbours (X-Large Spirit Soldier); ``shark``, the sides (bits ``q``) with a source
    reaching its own side's Creatures that entered this turn (Shark); ``moved_atk``/``moved_def``,
    what the sources reaching every Creature that changed Lanes (Punk Cat) give such a Creature
    together (``aura_pair``'s additions, summed).
    """
    b = s.board
    sources, near, shark, moved_atk, moved_def = 0, 0, 0, 0, 0
    for r in range(2):
        for m in range(N_LANES):
            d = b.cr_card[r, m]
            if d >= 0:
                to = s.cards[d].au_to
                if to >= AuraTo.OWN_ENTERED_THIS_TURN and b.cr_copy[r, m] < 0:
                    sources |= 1 << (N_LANES * r + m)
                    if to == AuraTo.MOVED_CREATURES:
                        moved_atk, moved_def = add_stat(s.cards[d].au_stat, s.cards[d].au_amount, moved_atk, moved_def)
                    else:
                        shark |= 1 << r
                elif to == AuraTo.ADJACENT_OWN:
                    if m > 0:
                        near |= 1 << (N_LANES * r + m - 1)
                    if m < N_LANES - 1:
                        near |= 1 << (N_LANES * r + m + 1)
    return sources, near, shark, moved_atk, moved_def


@kernel
def aura_pair(s, q: int, lane: int, c: int, sources: int) -> tuple[int, int]:
    """Return the (ATK, DEF) other cards' AURA rows give the Creature ``c`` at ``(q, lane)``, in one scan.

    ``sources``: the slots of the Creatures whose auras reach anywhere (``aura_sources``);
    only those are visited, none when it is 0.
    """
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    atk, df = local_auras(s, q, lane, c)
    if sources == 0:
        return atk, df
    entered = b.cr_entered[q, lane] == s.meta.turn and s.meta.mover == q
    i, rest = 0, sources
    while rest:  # Punk Cat (any side), Shark (own side)
        if rest & 1:
            r, m = i // N_LANES, i % N_LANES
            d = b.cr_card[r, m]
            to = s.cards[d].au_to
            moved = to == AuraTo.MOVED_CREATURES and b.cr_moved[q, lane]  # Punk Cat
            shark = to == AuraTo.OWN_ENTERED_THIS_TURN and r == q and entered  # Shark
            if moved or (shark and land_ok(s.cards[c].land, s.cards[d].au_land)):
                atk, df = add_stat(s.cards[d].au_stat, s.cards[d].au_amount, atk, df)
        i += 1
        rest >>= 1
    return atk, df


@kernel
def group_hit(s, p: int, q: int, lane: int, target: int, land: int) -> bool:
    """Return True if seat ``p``'s ATK-this-turn group effect (``target``, ``land``) reaches ``(q, lane)``."""
    p, q = p & 1, q & 1  # seats as non-negative indexes (RULES.md §13)
    d = s.board.cr_card[q, lane]
    if d < 0:
        return False
    if target == Target.MOVED_CREATURES:
        return s.board.cr_moved[q, lane] > 0
    return q == p and (target == Target.OWN_CREATURES or land_ok(s.cards[d].land, land))


@kernel
def spell_bonus(s, q: int, lane: int, c: int) -> int:
    """Return the continuous "this turn" Spell bonuses on the Creature ``c`` at ``(q, lane)`` (RULES.md §8 Q2)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
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
def refresh(s) -> bool:
    """Bring every Creature's ATK and DEF up to date in place (R12); return True if one has damage >= DEF.

    ``recompute`` runs only when an input changed since it last ran (``board.st_fresh`` is 0,
    RULES.md §13). Otherwise the stats are current and so is ``board.st_dying``, the answer:
    ``recompute`` sets it, ``board.deal_damage`` sets it when it brings a Creature to its DEF,
    ``board.destroy_dead`` clears it once it has taken every dying Creature off, and a heal or a
    Creature leaving play while it is set marks the stats stale (the next recompute finds out).
    """
    if s.board.st_fresh:
        return s.board.st_dying != 0
    return recompute(s)


@kernel
def recompute(s) -> bool:
    """Recompute every Creature's ATK and DEF into ``board.cr_atk``/``cr_def`` in place (R12).

    ATK = printed + this turn's bonus + auras + its own STAT rows (unless Schoolhouse took
    its abilities) + ZaZo's + the turn's Spells; DEF = printed + "gains 1 DEF" + auras + own
    rows. A first pass finds which kinds of aura are in play (``aura_sources``), so the scans
    they need are skipped when none is (the common case). Returns True if some Creature's
    damage reaches its DEF (``board.settle`` then destroys it). Marks the stats fresh
    (``board.st_fresh``), notes whether a Creature is dying (``board.st_dying``) and whether a stat
    in play reads the turn's state (``board.st_turn``: what of it, ``TURN_*`` bits by side), a pile size
    (``st_piles``) or which Creatures are in play, and on which side (``st_board``: bits; see
    ``marks.py``).
    """
    b, t = s.board, s.turnfx
    sources, near, shark, moved_atk, moved_def = aura_sources(s)
    dying = False
    piles = 0
    spells = t.aura_n[0] + t.aura_n[1] > 0
    turn = TURN_ALL * BOTH if spells else 0
    if moved_atk != 0 or moved_def != 0:
        turn |= TURN_MOVED * BOTH  # Punk Cat: every Creature that changed Lanes, either side
    for r in range(2):
        if (shark >> r) & 1:
            turn |= TURN_ENTERED << (SIDE * r)  # Shark reaches its own side's Creatures that entered
    board = 3 if spells else 0  # the sides whose Creatures in play a stat reads (bits)
    for q in range(2):
        for lane in range(N_LANES):
            c = b.cr_card[q, lane]
            if c < 0:
                continue
            k = s.cards[c]
            atk = k.atk + b.cr_tatk[q, lane]
            df = k.def_ + b.cr_pdef[q, lane]
            sharks = (shark >> q) & 1 and b.cr_entered[q, lane] == s.meta.turn and s.meta.mover == q
            if sharks or (near >> (N_LANES * q + lane)) & 1:
                da, dd = aura_pair(s, q, lane, c, np.int64(sources))
                atk += da
                df += dd
            else:  # no neighbour's or Shark's aura reaches it: the lane's Building's, and Punk Cat's if it moved
                u = b.bu_card[q, lane]
                if u >= 0 and s.cards[u].au_to == AuraTo.OWN_IN_LANE:
                    if s.cards[u].au_stat == Stat.ATK:
                        atk += s.cards[u].au_amount
                    elif s.cards[u].au_stat == Stat.DEF:
                        df += s.cards[u].au_amount
                if b.cr_moved[q, lane]:
                    atk += moved_atk
                    df += moved_def
            if k.s1_stat != Stat.NONE and b.cr_copy[q, lane] < 0:
                da, dd = own_stats(s, q, lane, c)
                atk += da
                df += dd
                piles |= reads_piles(k.s1_count, q) | (reads_piles(k.s2_count, q) if k.s2_stat != Stat.NONE else 0)
                turn |= reads_turn(k.s1_count, q) | (reads_turn(k.s2_count, q) if k.s2_stat != Stat.NONE else 0)
                board |= reads_board(k.s1_count, q) | (reads_board(k.s2_count, q) if k.s2_stat != Stat.NONE else 0)
            if b.cr_zazo[q, lane]:
                turn |= TURN_COUNTS << (SIDE * q)  # its own side's entries beside it
                atk += b.cr_zazo[q, lane] * count_of(s, ADJACENT, ANY, np.int64(q), np.int64(lane), np.int64(c))
            if spells:
                atk += spell_bonus(s, q, lane, c)
            b.cr_atk[q, lane], b.cr_def[q, lane] = atk, df
            dying = dying or b.cr_dmg[q, lane] >= b.cr_def[q, lane]
    if spells:
        for r in range(2):
            for i in range(t.aura_n[r]):
                piles |= reads_piles(s.cards[t.aura_card[r, i]].e1_count, r)
    b.st_fresh, b.st_dying, b.st_turn, b.st_piles, b.st_board = True, dying, turn, piles, board
    return dying


@hot
def multiplier(s, q: int, lane: int) -> int:
    """Return 3 for Immortal Maize Walker on a face-up Cornfield (R22), else 1."""
    b = s.board
    k = s.cards[b.cr_card[q, lane]]
    on = k.special == Special.TRIPLE_ON_CORNFIELD and abilities_on(s, q, lane)
    return 3 if on and b.up[q, lane] and b.land[q, lane] == k.sp_land else 1


@hot
def damage_dealt(s, q: int, lane: int) -> int:
    """Return the damage the Creature at ``(q, lane)`` deals in a fight: ATK (0 if negative) x multiplier."""
    atk = s.board.cr_atk[q, lane]
    return atk * multiplier(s, q, lane) if atk > 0 else 0
