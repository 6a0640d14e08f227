"""The greedy bot's value of a Floop or an activated ability (``greedy.main_choice``, ``action_value``).

A use is worth its effect (``gains.effect_gain``; a lone damage row's amount counted once a slot
in ``best_use``), less the Actions it costs, the fight its Creature gives up (a Floop), a
Creature destroyed as its cost, and ``W.FLOOP_MIN``; Struzann Jinn adds ATK per Flooped
Creature. The fight given up is read from the board, not from ``greedy.context``: a decision
valuing only Floops and abilities fills none.
"""

import numpy as np

from sims.cardwars import actions as act
from sims.cardwars import stats as sx
from sims.cardwars.gains import damage_value, effect_gain
from sims.cardwars.layout import ActionKind
from sims.cardwars.state import N_LANES, Cost, Count, Effect, Part, Target
from sims.cardwars.values import creature_value, current_fight, wt
from sims.cardwars.weights import W
from sims.core.jit import hot


@hot
def use_value(s, p: int, kind: int, slot: int, a: int, tgt: int) -> float:
    """Return the value of a Floop or activation: its effect, less costs and the fight given up (no ``context``)."""
    lane = slot % N_LANES
    c = use_card(s, p, kind, slot)
    g = effect_gain(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(a), np.int64(tgt))
    given = lane_fight(s, p, lane) if fight_read(s, kind, slot, c) else 0.0
    own = lane_fight(s, p, a) if s.cards[c].xcost == Cost.DESTROY_OWN_CREATURE and a != lane else 0.0
    return use_rest(s, p, kind, slot, c, a, g, given, own)


@hot
def lane_fight(s, p: int, lane: int) -> float:
    """Return ``context``'s ``g_fight[lane]``: the fight of seat ``p``'s Creature in ``lane`` (0 if none)."""
    return current_fight(s, p, lane) if s.board.cr_card[p, lane] >= 0 else 0.0


@hot
def fight_read(s, kind: int, slot: int, c: int) -> bool:
    """Return True if ``use_rest`` reads the fight of the slot's own lane (a Creature's Floop, or destroying itself)."""
    return (kind == ActionKind.FLOOP and slot < N_LANES) or s.cards[c].xcost == Cost.DESTROY_SELF


@hot
def use_card(s, p: int, kind: int, slot: int) -> int:
    """Return the card whose Floop or ability ``slot`` uses (a FLOOP: ``actions.floop_card``, Schoolhouse's copy)."""
    b = s.board
    lane = slot % N_LANES
    if slot < N_LANES:  # an option of ``use_options``
        return b.cr_copy[p, lane] if kind == ActionKind.FLOOP and b.cr_copy[p, lane] >= 0 else b.cr_card[p, lane]
    return b.bu_card[p, lane]


@hot
def use_rest(s, p: int, kind: int, slot: int, c: int, a: int, g: float, given: float, own: float) -> float:
    """Return ``use_value`` from the effect's value ``g``: less the Actions, the fight given up and other costs.

    ``given``: the fight of the slot's lane (``lane_fight``) when ``fight_read``; ``own``: that of
    lane ``a``, the Creature destroyed as a cost (Cost.DESTROY_OWN_CREATURE) when ``a`` is not the
    slot's lane. Computed by the caller once a slot (and ``a``), not once a target, and read from
    the board, not from ``context``: a decision valuing only Floops and abilities needs none.
    """
    lane = slot % N_LANES
    k = s.cards[c]
    v = g - k.act_cost * wt(s, p, W.ACTION)
    if kind == ActionKind.FLOOP and slot < N_LANES:
        v -= given + wt(s, p, W.FLOOP_MIN)
    if k.xcost == Cost.DESTROY_SELF:
        v -= creature_value(s, np.int64(p), np.int64(p), lane) + given
    elif k.xcost == Cost.DESTROY_OWN_CREATURE:
        v -= creature_value(s, np.int64(p), np.int64(p), a) + own  # own: 0.0 when a is the slot's lane
    if k.trigger == Part.FLOOP:
        v += 0.1 * wt(s, p, W.ATK) * struzanns(s, p)
    return v


@hot
def best_use(s, p: int, kind: int, slot: int, m: int, best: float, best_a: int) -> tuple[float, int]:
    """Return the better of (``best``, ``best_a``) and the best use of ``slot`` with the targets ``scratch.opts[:m]``.

    The options are ``actions.use_options``' in its order (each cost choice, each target), made
    here from ``options.options``' targets: ``main_choice`` calls it once ``use_kind`` has named
    the kind, which passes ``use_options``' own early returns. Each option's value is
    ``use_value``'s, the same float: a first row that deals damage to one chosen Creature (The
    Mariachi) or to a chosen set (Patchy the Pumpkin), with no second row, has its amount counted
    once for the slot, not once an option (``gains.row_gain``'s own arithmetic: ``damage_value``
    of the target, or of each slot in the set in slot order; the slots a set leaves out add 0.0
    there). Reads no ``context``.
    """
    b = s.board
    opts = s.scratch.opts
    lane = slot % N_LANES
    c = use_card(s, p, kind, slot)
    k = s.cards[c]
    pick, amt = 0, np.int64(0)
    if k.e1_effect == Effect.DAMAGE and k.e2_effect == Effect.NONE:
        t = k.e1_target
        if t == Target.DISTINCT_CREATURES:
            pick, amt = 2, np.int64(k.e1_amount)
        elif not (
            t == Target.OPPONENT
            or t == Target.OPPOSING_IN_LANE
            or t == Target.OPPOSING_CREATURES
            or t == Target.ALL_CREATURES
        ):
            pick = 1
            amt = sx.row_value(s, np.int64(k.e1_amount), np.int64(k.e1_count), np.int64(k.e1_land),
                               np.int64(k.e1_n), np.int64(k.e1_mode), np.int64(p), np.int64(lane),
                               np.int64(c))  # fmt: skip
    own_cost = k.xcost == Cost.DESTROY_OWN_CREATURE
    given = lane_fight(s, p, lane) if fight_read(s, kind, slot, c) else 0.0
    for a in range(N_LANES if own_cost else 1):  # the Creature destroyed as a cost, as use_options
        if own_cost and b.cr_card[p, a] < 0:
            continue
        own = lane_fight(s, p, a) if own_cost and a != lane else 0.0
        for i in range(m):
            tgt = opts[i] & 255  # the target as the encoded action carries it (``actions.b_of``)
            if pick == 1:
                g = damage_value(s, p, tgt >> 2, tgt & 3, amt) if 0 <= tgt < 2 * N_LANES else 0.0
            elif pick == 2:
                g = 0.0
                for x in range(2 * N_LANES):
                    if tgt & (1 << x):
                        g += damage_value(s, p, x >> 2, x & 3, amt)
            else:
                g = effect_gain(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(a), np.int64(tgt))
            v = use_rest(s, p, kind, slot, c, a, g, given, own)
            if v > best:
                best, best_a = v, act.encode(kind, slot, a, tgt)
    return best, best_a


@hot
def struzanns(s, p: int) -> int:
    """Return the ATK per Flooped Creature seat ``p``'s Creatures get (Struzann Jinn: +2 each)."""
    n = 0
    for m in range(N_LANES):
        d = s.board.cr_card[p, m]
        if d >= 0 and s.cards[d].s1_count == Count.OWN_FLOOPED:
            n += s.cards[d].s1_amount
    return n


@hot
def use_kind(s, p: int, slot: int, floops: bool) -> int:
    """Return the one kind (FLOOP or ACTIVATE) ``actions.use_options`` may add for seat ``p``'s ``slot`` now, else END.

    Its tests are ``use_options``' own early returns (the card whose FLOOP the slot would use,
    an ACTIVATE trigger, Schoolhouse's loss of abilities, the Actions it costs), so END is a
    call that would add nothing (124 calls a game became 44, RULES.md §13). A card has one
    trigger, and a Creature with a Schoolhouse copy has no ability of its own: at most one kind.
    """
    b = s.board
    lane = slot % N_LANES
    if slot < N_LANES:
        c = b.cr_card[p, lane]
        if c < 0:
            return ActionKind.END
        x = b.cr_copy[p, lane]
        exh = b.cr_exh[p, lane]
        if x >= 0:  # Schoolhouse: only the copy's FLOOP (``actions.floop_card``)
            c = x
            if s.cards[c].trigger != Part.FLOOP:
                return ActionKind.END
        t = s.cards[c].trigger
    else:
        c = b.bu_card[p, lane]
        if c < 0:
            return ActionKind.END
        exh = b.bu_exh[p, lane]
        t = s.cards[c].trigger
    if t == Part.FLOOP:
        ok = floops and not exh
        kind = ActionKind.FLOOP
    elif t == Part.ACTIVATE:
        ok, kind = True, ActionKind.ACTIVATE
    else:
        return ActionKind.END
    return kind if ok and s.cards[c].act_cost <= s.meta.actions else ActionKind.END
