"""What the greedy bot's valuations share: weights, a Creature's worth, a fight's worth, placing a Creature.

Values are in "cards" (``BotParams``); see ``greedy.py``.
"""

import numpy as np

from sims.cardwars import flow
from sims.cardwars import stats as sx
from sims.cardwars.state import CardType, Count, Effect, Part, Special, Stat
from sims.cardwars.weights import W
from sims.core.jit import hot, inlined

NEG = -1e9


@hot
def wt(s, p: int, i: int) -> float:
    """Return seat ``p``'s weight ``i`` (W)."""
    return s.scratch.weights[p, i]


@inlined
def cval(s, p: int, atk: int, left: int) -> float:
    """Return seat ``p``'s value of a Creature with ATK ``atk`` and DEF left ``left``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    return wt(s, p, W.ATK) * max(atk, 0) + wt(s, p, W.DEF) * max(left, 0) + wt(s, p, W.BODY)


@inlined
def creature_value(s, p: int, q: int, lane: int) -> float:
    """Return seat ``p``'s value of the Creature at ``(q, lane)`` (0 if none)."""
    p, q = p & 1, q & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if b.cr_card[q, lane] < 0:
        return 0.0
    return cval(s, p, np.int64(b.cr_atk[q, lane]), np.int64(b.cr_def[q, lane] - b.cr_dmg[q, lane]))


@inlined
def fight_value(s, p: int, lane: int, atk: int, left: int, mult: int, opp_delta: int) -> float:
    """Return seat ``p``'s value of its Creature (ATK ``atk``, DEF left ``left``) fighting in ``lane`` now.

    ``opp_delta`` changes the opposing Creature's ATK (Uni-Knight's -10).
    """
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    dealt = max(atk, 0) * mult
    if b.cr_card[p ^ 1, lane] < 0:
        return dealt * wt(s, p, W.FACE)
    back = max(b.cr_atk[p ^ 1, lane] + opp_delta, 0) * sx.multiplier(s, p ^ 1, lane)
    opp_left = b.cr_def[p ^ 1, lane] - b.cr_dmg[p ^ 1, lane]
    v = wt(s, p, W.KILL) + creature_value(s, p, p ^ 1, lane) if dealt >= opp_left else dealt * wt(s, p, W.HIT)
    if back >= left:
        v -= wt(s, p, W.KILL) + cval(s, p, atk, left)
    else:
        v -= back * wt(s, p, W.HIT)
    return v


@inlined
def current_fight(s, p: int, lane: int) -> float:
    """Return the value of seat ``p``'s Creature in ``lane`` fighting this turn (0 if it cannot)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if flow.first_turn_rule(s) or not flow.can_fight(s, p, lane):
        return 0.0
    return fight_value(
        s,
        p,
        lane,
        np.int64(b.cr_atk[p, lane]),
        b.cr_def[p, lane] - b.cr_dmg[p, lane],
        sx.multiplier(s, p, lane),
        np.int64(0),
    )


@inlined
def static_value(s, p: int, c: int) -> float:
    """Return seat ``p``'s value of card ``c`` out of play (discards, Ogre Gas)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    k = s.cards[c]
    if k.type == CardType.CREATURE:
        return cval(s, p, np.int64(k.atk), np.int64(k.def_)) + 0.5 * (k.trigger != Part.NONE)
    if k.type == CardType.BUILDING:
        return wt(s, p, W.BUILDING)
    return wt(s, p, W.CARD) * (1 + (k.e1_amount if k.e1_effect == Effect.DRAW else 0))  # Gnome Snot: 3 cards


@hot
def lane_free(kind: int) -> bool:
    """Return True if a count of ``kind`` is the same whichever lane a card not on the board is valued in.

    A list of the kinds ``stats.count_of`` reads no lane for (any other kind: False).
    """
    return (
        kind == Count.ONE
        or kind == Count.OWN_LANDSCAPES
        or kind == Count.ALL_LANDSCAPES
        or kind == Count.LANDSCAPE_TYPES
        or kind == Count.OWN_LAND_CREATURES
        or kind == Count.OWN_COPIES
        or kind == Count.OWN_FLOOPED
        or kind == Count.OWN_DISCARD
        or kind == Count.OPPONENT_HAND
        or kind == Count.OWN_SPELLS_THIS_TURN
        or kind == Count.ENTERED_THIS_TURN
        or kind == Count.OWN_EMPTY_LANES
        or kind == Count.OWN_CREATURES_PLAYED
    )


@hot
def own_lane_free(s, c: int) -> bool:
    """Return True if card ``c``'s own STAT rows count the same in every lane (``own_estimate`` once a card)."""
    k = s.cards[c]
    return k.s1_stat == Stat.NONE or (lane_free(k.s1_count) and (k.s2_stat == Stat.NONE or lane_free(k.s2_count)))


@hot
def own_estimate(s, p: int, lane: int, c: int) -> tuple[int, int]:
    """Return the (ATK, DEF) card ``c``'s own STAT rows would give it if it entered ``(p, lane)`` now."""
    k = s.cards[c]
    if k.s1_stat == Stat.NONE:
        return 0, 0
    oa, od = sx.own_stats(s, p, np.int64(lane), c)
    if k.s1_count == Count.OWN_COPIES:
        oa, od = sx.add_stat(k.s1_stat, k.s1_amount, oa, od)  # itself included
    return oa, od


@hot
def estimate(s, p: int, lane: int, c: int, oa: int, od: int) -> tuple[int, int]:
    """Return card ``c``'s (ATK, DEF) if it entered ``(p, lane)`` now: others' auras, its own rows (own_estimate)."""
    k = s.cards[c]
    da, dd = sx.local_auras(s, p, lane, c)
    return k.atk + da + oa, k.def_ + dd + od


@hot
def place_value(s, p: int, lane: int, c: int, oa: int, od: int) -> float:
    """Return seat ``p``'s value of Creature ``c`` entering ``(p, lane)`` now (its Actions aside; needs ``context``).

    ``oa``/``od``: what its own rows give it there (``own_estimate``).
    """
    b, sc = s.board, s.scratch
    atk, df = estimate(s, p, lane, c, oa, od)
    if df <= 0:
        return NEG  # it would die at once (Husker Knight without Cornfields)
    k = s.cards[c]
    mult = 3 if k.special == Special.TRIPLE_ON_CORNFIELD and b.up[p, lane] and b.land[p, lane] == k.sp_land else 1
    v = cval(s, p, atk, df)
    opp = b.cr_card[p ^ 1, lane]
    if sc.g_attack[lane]:
        v += fight_value(s, p, lane, atk, df, mult, np.int64(0))
    elif opp < 0:
        v += 0.5 * max(atk, 0) * mult * wt(s, p, W.FACE)  # it hits next turn
    if b.cr_card[p, lane] >= 0:
        v -= creature_value(s, p, p, lane) + sc.g_fight[lane]
    else:
        v += sc.g_block[lane]
    return v
