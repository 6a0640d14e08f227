"""What an ability may target: the legal choices of a Spell, Floop, activation or enters-play effect (R13, R15).

Each ``*_options`` writes encoded choices into ``scratch.opts`` (``enter_options``: ``scratch.subs``)
from index ``n`` and returns the new count. The buffer is read from the state, not passed: an array
argument costs a reference count pair at every call (RULES.md §13).
"""

import numpy as np

from sims.cardwars import stats as sx
from sims.cardwars.effects import NO_MOVE, floop_creatures_in_discard, picks
from sims.cardwars.layout import NO_LANE
from sims.cardwars.state import N_LANES, AdjacentTargets, CardType, Effect, EmptyPick, Part, RepeatTargets, Target
from sims.core.jit import hot, kernel


@hot
def add(out, n: int, code: int) -> int:
    """Write ``code`` at ``out[n]``; return ``n + 1``."""
    out[n] = code
    return n + 1


@hot
def adjacent_sides(s, p: int) -> int:
    """Return how many sides "a Creature in an adjacent Lane" reaches: 2 (both, R13) or 1 (own)."""
    return 1 if s.params.adjacent_lane_targets == AdjacentTargets.OWN_SIDE else 2


@kernel
def options(s, p: int, lane: int, c: int, n: int) -> int:
    """Append the legal target codes of card ``c``'s first effect, used from ``(p, lane)``, to ``scratch.opts[n:]``.

    Return the new length; an effect that needs a target and has none adds nothing, so it
    cannot be used (R15). Untargeted effects add the single code 0 when usable.
    """
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    k = s.cards[c]
    eff, target = k.e1_effect, k.e1_target
    b = s.board
    if eff == Effect.MOVE_OWN:
        for f in range(N_LANES):
            for t in range(N_LANES):
                if b.cr_card[p, f] >= 0 and b.cr_card[p, t] < 0:
                    n = add(s.scratch.opts, n, 4 * f + t)
        return n
    if eff == Effect.RECLAIM:
        return reclaim_options(s, p, n)
    if eff == Effect.RETURN_COST0 or eff == Effect.SPELL_TO_DECK_TOP:
        return discard_options(s, p, eff, n)
    if eff == Effect.SILO:
        return add(s.scratch.opts, n, 0) if s.piles.hand_n[p ^ 1] > 0 else n
    if eff == Effect.SCHOOLHOUSE:
        ok = b.cr_card[p, lane] >= 0 and not b.cr_exh[p, lane] and floop_creatures_in_discard(s, p, np.int64(-1)) > 0
        return add(s.scratch.opts, n, 0) if ok else n
    if eff == Effect.RETURN_RANDOM and s.params.empty_pick == EmptyPick.FORBIDDEN:
        return (
            add(s.scratch.opts, n, 0)
            if picks(s, np.int64(p), np.int64(target), np.int64(k.e1_land), np.int64(-1)) > 0
            else n
        )
    if eff == Effect.MOVE_INTO_LANE:
        return creature_options(s, p, lane, c, target, n, True)
    return target_options(s, p, lane, c, target, n)


@hot
def target_options(s, p: int, lane: int, c: int, target: int, n: int) -> int:
    """Append the codes of ``target`` (Target) for card ``c`` at ``(p, lane)``; see ``options``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    k = s.cards[c]
    if target == Target.OPPOSING_IN_LANE:
        return add(s.scratch.opts, n, 0) if b.cr_card[p ^ 1, lane] >= 0 else n
    if target == Target.OWN_IN_LANE:
        return add(s.scratch.opts, n, 0) if b.cr_card[p, lane] >= 0 else n
    if target == Target.BUILDING_IN_LANE:
        for q in range(2):
            if b.bu_card[q, lane] >= 0:
                n = add(s.scratch.opts, n, q)
        return n
    if target == Target.LANDSCAPE_IN_LANE:
        for q in range(2):
            if b.up[q, lane] and sx.land_ok(b.land[q, lane], k.e1_land):
                n = add(s.scratch.opts, n, q)
        return n
    if target == Target.OWN_FACE_DOWN or target == Target.OWN_LANDSCAPE:
        for m in range(N_LANES):
            down = target == Target.OWN_FACE_DOWN and not b.up[p, m]
            if down or (target == Target.OWN_LANDSCAPE and b.up[p, m] and b.land[p, m] == k.e1_land):
                n = add(s.scratch.opts, n, m)
        return n
    if target == Target.DISTINCT_CREATURES:
        return mask_options(s, p, lane, c, n)
    chosen = target == Target.CREATURE or target == Target.CREATURE_IN_LANE or target == Target.OWN_LAND_CREATURE
    if chosen or target == Target.LAND_CREATURE or target == Target.CREATURE_ADJACENT_LANE:
        return creature_options(s, p, lane, c, target, n, False)
    return add(s.scratch.opts, n, 0)


@hot
def creature_options(s, p: int, lane: int, c: int, target: int, n: int, into_lane: bool) -> int:
    """Append the slots of the Creatures ``target`` may choose (``into_lane``: Woad Mobile Home's room check)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    land = s.cards[c].e1_land
    for q in range(2):
        for m in range(N_LANES):
            d = b.cr_card[q, m]
            if d < 0:
                continue
            if target == Target.CREATURE_IN_LANE:
                ok = m == lane
            elif target == Target.OWN_LAND_CREATURE:
                ok = q == p and sx.land_ok(s.cards[d].land, land)
            elif target == Target.LAND_CREATURE:
                ok = sx.land_ok(s.cards[d].land, land)
            elif target == Target.CREATURE_ADJACENT_LANE:
                ok = (m == lane - 1 or m == lane + 1) and (q == p or adjacent_sides(s, p) == 2)
                ok = ok and (not into_lane or b.cr_card[q, lane] < 0)
            else:
                ok = True
            if ok:
                n = add(s.scratch.opts, n, 4 * q + m)
    return n


@kernel
def mask_options(s, p: int, lane: int, c: int, n: int) -> int:
    """Append Patchy the Pumpkin's target sets as slot masks (R15: mandatory repeats or up to)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    k = s.cards[c]
    avail = 0
    for q in range(2):
        for m in range(N_LANES):
            if b.cr_card[q, m] >= 0:
                avail |= 1 << (4 * q + m)
    if avail == 0:
        return n  # no target at all: cannot be used (R15)
    creatures = popcount(avail)
    times = sx.factor(
        sx.count_of(s, np.int64(k.e1_count), np.int64(k.e1_land), np.int64(p), np.int64(lane), np.int64(c)),
        k.e1_n,
        k.e1_mode,
    )
    want = min(times, creatures)
    if want == 0:
        return add(s.scratch.opts, n, 0)  # no Cornfield: the Floop deals nothing
    mask = 0
    while True:  # the nonzero subsets of ``avail`` in increasing order (those of 1..255 with no other slot)
        mask = (mask - avail) & avail
        if mask == 0:
            break
        size = popcount(mask)
        if size == want or (s.params.repeat_targets == RepeatTargets.UP_TO and size < want):
            n = add(s.scratch.opts, n, mask)
    return n


@hot
def popcount(x: int) -> int:
    """Return the number of set bits of ``x``."""
    n = 0
    while x:  # one step a set bit
        x &= x - 1
        n += 1
    return n


@kernel
def reclaim_options(s, p: int, n: int) -> int:
    """Append Reclaim Landscape's codes: each face-down Landscape or none, times each Building move or none."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    for up in range(N_LANES + 1):
        if up < N_LANES and b.up[p, up]:
            continue
        for mv in range(NO_MOVE + 1):
            if mv < NO_MOVE and (b.bu_card[p, mv >> 2] < 0 or b.bu_card[p, mv & 3] >= 0):
                continue
            n = add(s.scratch.opts, n, 17 * up + mv)
    return n


@kernel
def discard_options(s, p: int, eff: int, n: int) -> int:
    """Append the discard-pile indexes a chosen-card effect may take (one per distinct card)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    pl = s.piles
    start = n
    for i in range(pl.disc_n[p]):
        x = pl.disc[p, i]
        ok = s.cards[x].cost == 0 if eff == Effect.RETURN_COST0 else s.cards[x].type == CardType.SPELL
        for j in range(i):
            if pl.disc[p, j] == x:
                ok = False
        if ok:
            n = add(s.scratch.opts, n, i)
    if n == start and s.params.empty_pick == EmptyPick.ALLOWED:
        return add(s.scratch.opts, n, 255)  # nothing to take: usable, does nothing (RULES.md §8 Q1)
    return n


@kernel
def enter_options(s, p: int, lane: int, c: int, n: int) -> int:
    """Append the enters-play choices of Creature ``c`` entering ``(p, lane)`` (always at least one)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    k = s.cards[c]
    b = s.board
    start = n
    if k.trigger == Part.ENTERS:
        eff = k.e1_effect
        if eff == Effect.READY_FLOOPED:
            for m in range(N_LANES):
                if m != lane and b.cr_card[p, m] >= 0 and b.cr_floop[p, m]:
                    n = add(s.scratch.subs, n, m)
            n = add(s.scratch.subs, n, NO_LANE)
        elif eff == Effect.BOUNCE:
            n = add(s.scratch.subs, n, 0)
            if b.cr_card[p ^ 1, lane] >= 0:
                n = add(s.scratch.subs, n, 1)
            n = add(s.scratch.subs, n, 2)
        elif eff == Effect.FIELD_REAPER:
            for d in range(2):
                m = lane - 1 if d == 0 else lane + 1
                if 0 <= m < N_LANES and b.cr_card[p, m] < 0:
                    n = add(s.scratch.subs, n, d)
        elif eff == Effect.FLIP_DOWN:
            for m in range(N_LANES):
                if b.up[p, m] and b.land[p, m] == k.e1_land:
                    n = add(s.scratch.subs, n, m)
    if n == start:  # no choice to make (Husker Worm without a face-up Cornfield: none)
        n = add(s.scratch.subs, n, NO_LANE if k.trigger == Part.ENTERS and k.e1_effect == Effect.FLIP_DOWN else 0)
    return n
