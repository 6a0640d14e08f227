"""The greedy bot: every candidate action of this decision gets a value; the best one is taken.

Values are in "cards" (``BotParams``): a Creature in play is worth its ATK, DEF left and
body; a fight is worth the Creatures it destroys and the damage it deals, less what it
loses; an Action spent costs ``action`` and a drawn card gains ``card``. A play is taken
when its value, less the Actions it costs, beats drawing with those Actions; a Floop when
its value beats the fight the Creature would make instead. Spare Actions draw (never
thrown away while the deck has cards); the fight order follows each fight's value.
Shared valuations are in ``values.py``, what effects are worth in ``gains.py``, a Floop's or ability's
value in ``uses.py``.
"""

import numpy as np

from sims.cardwars import actions as act
from sims.cardwars import flow
from sims.cardwars import options as opt
from sims.cardwars import stats as sx
from sims.cardwars.gains import atk_gain, effect_gain
from sims.cardwars.layout import PENDING_SRC, ActionKind, Choice, Phase
from sims.cardwars.state import N_LANES, CardType, Cost, Count, Part, Special, Stat
from sims.cardwars.uses import best_use, use_card, use_kind, use_value
from sims.cardwars.values import (
    NEG,
    current_fight,
    fight_value,
    own_estimate,
    own_lane_free,
    place_value,
    static_value,
    wt,
)
from sims.cardwars.weights import W
from sims.core.jit import hot, kernel


@kernel
def context(s, p: int) -> None:
    """Fill the per-decision facts the valuations share (``scratch.g_*``) for seat ``p``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b, sc = s.board, s.scratch
    first = flow.first_turn_rule(s)
    for lane in range(N_LANES):
        sc.g_fight[lane] = current_fight(s, p, lane) if b.cr_card[p, lane] >= 0 else 0.0
        opp = b.cr_card[p ^ 1, lane] >= 0
        sc.g_block[lane] = wt(s, p, W.BLOCK) * sx.damage_dealt(s, p ^ 1, lane) if opp else 0.0
        sc.g_attack[lane] = not first and (not opp or not flow.protected(s, p ^ 1, lane))
    for land in range(sc.g_ally.shape[0]):
        sc.g_ally[land] = 0.0
    for m in range(N_LANES):
        d = b.cr_card[p, m]
        if d < 0 or not sx.abilities_on(s, p, m):
            continue
        k = s.cards[d]
        if k.trigger == Part.ANY_ENTERS or k.trigger == Part.ALLY_ENTERS:
            g = effect_gain(s, np.int64(p), np.int64(m), np.int64(d), np.int64(0), np.int64(0))
            for land in range(sc.g_ally.shape[0]):
                if k.trigger == Part.ANY_ENTERS or sx.land_ok(land, k.tland):
                    sc.g_ally[land] += g


# -- valuing one action -------------------------------------------------------------------------


@kernel
def play_value(s, p: int, src: int, a: int, tgt: int) -> float:
    """Return the value of playing hand card ``src`` (or Silo's card) with arguments ``a``/``tgt``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    free = src == PENDING_SRC
    c = s.meta.pend_card if free else s.piles.hand[p, src]
    k = s.cards[c]
    lane = a & 3
    cost = 0.0 if free else act.paid_cost(s, p, c) * wt(s, p, W.ACTION)
    if k.type == CardType.CREATURE:
        oa, od = own_estimate(s, p, lane, c)
        v = place_value(s, p, lane, c, oa, od)
        if k.trigger == Part.ENTERS or k.trigger == Part.ANY_ENTERS:
            v += effect_gain(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(a >> 2), np.int64(tgt))
        v += allies_gain(s, p, lane, c)
        if k.xcost == Cost.DISCARD_CARD:
            v -= static_value(s, p, s.piles.hand[p, tgt]) if tgt < s.piles.hand_n[p] else 0.0
    elif k.type == CardType.BUILDING:
        v = building_value(s, p, lane, c)
    else:
        v = effect_gain(s, np.int64(p), np.int64(-1), np.int64(c), np.int64(a), np.int64(tgt)) + 0.2 * wt(
            s, p, W.CARD
        ) * woadic_chiefs(s, p)
    return v - cost


@hot
def allies_gain(s, p: int, lane: int, c: int) -> float:
    """Return the value of the other Creatures' "whenever a Creature enters" triggers (SandWitch ...; ``context``)."""
    return s.scratch.g_ally[s.cards[c].land]


@hot
def woadic_chiefs(s, p: int) -> int:
    """Return how many of seat ``p``'s Creatures gain ATK from Spells played this turn (Woadic Chief)."""
    n = 0
    for m in range(N_LANES):
        d = s.board.cr_card[p, m]
        n += d >= 0 and s.cards[d].s1_count == Count.OWN_SPELLS_THIS_TURN
    return n


@hot
def building_value(s, p: int, lane: int, c: int) -> float:
    """Return the value of Building ``c`` in ``(p, lane)``: its aura on the Creature there, replacing none."""
    b = s.board
    k = s.cards[c]
    v = wt(s, p, W.BUILDING)
    if b.bu_card[p, lane] >= 0:
        v -= wt(s, p, W.BUILDING) + 0.5
    if k.au_to != 0 and b.cr_card[p, lane] >= 0:
        if k.au_stat == Stat.ATK:
            v += atk_gain(s, np.int64(p), np.int64(p), np.int64(lane), np.int64(k.au_amount)) + k.au_amount * wt(
                s, p, W.ATK
            )
        else:
            v += k.au_amount * wt(s, p, W.DEF)
    if k.trigger == Part.FLOOP or k.trigger == Part.ACTIVATE:
        v += 0.3 * (b.cr_card[p, lane] >= 0 or b.cr_card[p ^ 1, lane] >= 0)
    if k.special == Special.PALACE_OF_BONE:
        v += 0.3 * (b.cr_card[p ^ 1, lane] >= 0)
    return v


@hot
def action_value(s, p: int, action: int) -> float:
    """Return seat ``p``'s value of a main-phase ``action`` (END = 0)."""
    kind = act.kind_of(action)
    if kind == ActionKind.END:
        return 0.0
    if kind == ActionKind.DRAW:
        return wt(s, p, W.CARD) - wt(s, p, W.ACTION)
    if kind == ActionKind.PLAY:
        return play_value(s, p, act.src_of(action), act.a_of(action), act.b_of(action)) - wt(s, p, W.PLAY_MIN)
    return use_value(s, p, kind, act.src_of(action), act.a_of(action), act.b_of(action))


# -- deciding -------------------------------------------------------------------------------------------


@hot
def best_of(s, p: int, n: int) -> int:
    """Return the best-valued action of ``scratch.work[:n]`` (the first on ties)."""
    work = s.scratch.work
    best, best_a = NEG, work[0]
    for i in range(n):
        v = action_value(s, p, work[i])
        if v > best:
            best, best_a = v, work[i]
    return best_a


@kernel
def decide(s, who: int) -> int:
    """Return the greedy action of seat ``who`` (the decider) in position ``s``.

    The one compiled level of the greedy bot (``main_choice``, ``decide_choice`` and their
    single-caller helpers are copied into it): the game loop and the planner's look-ahead call
    it with an int64 ``who``, so it is compiled once (RULES.md §13).
    """
    who = who & 1  # seats as non-negative indexes (RULES.md §13)
    m = s.meta
    if m.phase == Phase.FIGHT:
        best, best_a = NEG, 0
        for lane in range(N_LANES):
            if flow.can_fight(s, who, lane):  # current_fight's own tests, once
                b = s.board
                left = b.cr_def[who, lane] - b.cr_dmg[who, lane]
                mult = sx.multiplier(s, who, lane)
                v = (
                    0.0
                    if flow.first_turn_rule(s)
                    else fight_value(s, who, lane, np.int64(b.cr_atk[who, lane]), left, mult, np.int64(0))
                )
                if v > best:
                    best, best_a = v, act.encode(ActionKind.FIGHT, lane, 0, 0)
        return best_a
    if m.phase == Phase.CHOOSE:
        return decide_choice(s, who)
    return main_choice(s, who)


@hot
def main_choice(s, p: int) -> int:
    """Return the greedy main-phase action: the best play, Floop or ability, a draw with spare Actions, or END.

    ``context`` is filled only when a valuation needs it: a Creature to place (31.9 % of
    greedy-mirror main-phase decisions value neither a Creature nor a Floop or ability, and 22.5 %
    only Floops or abilities, which read the fights they give up from the board: ``use_rest``).
    """
    pl = s.piles
    best, best_a = 0.0, act.encode(ActionKind.END, 0, 0, 0)
    if s.meta.actions > 0 and pl.deck_n[p] > 0:
        best, best_a = wt(s, p, W.CARD) - wt(s, p, W.ACTION), act.encode(ActionKind.DRAW, 0, 0, 0)
    ready = False  # ``context(s, p)`` filled
    for i in range(pl.hand_n[p]):
        c = pl.hand[p, i]
        if not act.playable(s, p, c, False) or act.seen_before(s, p, i, -1):  # cheaper, fails more
            continue
        if not ready and s.cards[c].type == CardType.CREATURE:
            context(s, p)
            ready = True
        v, a = best_play(s, p, i, c)
        if v > best:
            best, best_a = v, a
    floops = not flow.first_turn_rule(s)
    for slot in range(2 * N_LANES):  # each slot's options valued in use_options' order: that of one list of all
        kind = use_kind(s, p, slot, floops)
        if kind != ActionKind.END:
            c = use_card(s, p, kind, slot)
            m = opt.options(s, np.int64(p), np.int64(slot % N_LANES), np.int64(c), np.int64(0))
            if m > 0:
                best, best_a = best_use(s, p, kind, slot, m, best, best_a)
    return best_a


@hot
def best_play(s, p: int, src: int, c: int) -> tuple[float, int]:
    """Return (value, action) of the best way to play hand card ``src`` (card ``c``), its Actions paid."""
    k = s.cards[c]
    b, sc = s.board, s.scratch
    cost = act.paid_cost(s, p, c) * wt(s, p, W.ACTION) + wt(s, p, W.PLAY_MIN)
    best, best_a = NEG, 0
    if k.type == CardType.SPELL:
        m = opt.options(s, np.int64(p), np.int64(-1), np.int64(c), np.int64(0))
        bonus = 0.2 * wt(s, p, W.CARD) * woadic_chiefs(s, p)
        for i in range(m):
            v = effect_gain(s, np.int64(p), np.int64(-1), np.int64(c), np.int64(0), np.int64(sc.opts[i])) + bonus
            if v > best:
                best, best_a = v, act.encode(ActionKind.PLAY, src, 0, sc.opts[i])
        return best - cost, best_a
    if k.type == CardType.BUILDING:
        for lane in range(N_LANES):
            v = building_value(s, p, lane, c)
            if v > best:
                best, best_a = v, act.encode(ActionKind.PLAY, src, lane, 0)
        return best - cost, best_a
    discard, loss = 0, 0.0
    if k.xcost == Cost.DISCARD_CARD:  # Field Reaper: the least valuable other card
        loss = np.inf
        for i in range(s.piles.hand_n[p]):
            v = static_value(s, p, s.piles.hand[p, i])
            if i != src and v < loss:
                discard, loss = i, v
    etb = k.trigger == Part.ENTERS or k.trigger == Part.ANY_ENTERS
    once = own_lane_free(s, c)  # its own rows valued once, not in every lane (RULES.md §13)
    oa, od = own_estimate(s, p, 0, c) if once else (0, 0)
    ally = allies_gain(s, p, 0, c) - loss  # g_ally of its Landscape type: no lane read
    for lane in range(N_LANES):
        if b.cr_card[p, lane] >= 0 and b.cr_exh[p, lane]:
            continue
        if not once:
            oa, od = own_estimate(s, p, lane, c)
        v = place_value(s, p, lane, c, oa, od)
        if v <= NEG:
            continue
        v += ally  # allies_gain(s, p, lane, c) - loss: the same in every lane
        sub = 0
        if etb:
            m = opt.enter_options(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(0))
            gain = NEG
            for i in range(m):
                g = effect_gain(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(sc.subs[i]), np.int64(discard))
                if g > gain:
                    gain, sub = g, sc.subs[i]
            v += gain
        if v > best:
            best, best_a = v, act.encode(ActionKind.PLAY, src, lane | (sub << 2), discard)
    return best - cost, best_a


@hot
def decide_choice(s, q: int) -> int:
    """Return the greedy option of seat ``q`` for the pending choice."""
    m = s.meta
    pl = s.piles
    if m.pending == Choice.MULLIGAN:
        creatures = 0
        for i in range(pl.hand_n[q]):
            creatures += s.cards[pl.hand[q, i]].type == CardType.CREATURE
        return act.encode(ActionKind.CHOOSE, 1 if creatures < wt(s, q, W.MULLIGAN_BELOW) else 0, 0, 0)
    if m.pending == Choice.DISCARD:
        best, best_i = np.inf, 0
        for i in range(pl.hand_n[q]):
            v = static_value(s, q, pl.hand[q, i])
            if v < best:
                best, best_i = v, i
        return act.encode(ActionKind.CHOOSE, best_i, 0, 0)
    if m.pending == Choice.OGRE:
        best, best_k = -np.inf, 0
        for k in range(m.reveal_n):
            v = static_value(s, q, m.reveal[k])
            if v > best:
                best, best_k = v, k
        return act.encode(ActionKind.CHOOSE, best_k, 0, 0)
    if m.pending == Choice.MUMMY:
        return mummy_choice(s, q)
    context(s, q)  # Choice.SILO: play the card taken as well as possible
    n = act.choice_actions(s, s.scratch.work)
    return best_of(s, q, n)


@hot
def mummy_choice(s, p: int) -> int:
    """Return Ms. Mummy's choice: go back to hand (to enter again) when it heals or feeds "enters" triggers."""
    b = s.board
    lane = s.meta.sot_lane
    n = act.choice_actions(s, s.scratch.work)
    best, best_a = 0.0, s.scratch.work[0]
    synergy = 0.0
    for m in range(N_LANES):
        d = b.cr_card[p, m]
        if d >= 0 and m != lane and (s.cards[d].trigger == Part.ANY_ENTERS or s.cards[d].trigger == Part.ALLY_ENTERS):
            synergy += 0.5
    for i in range(1, n):
        t = act.src_of(s.scratch.work[i]) - 1
        v = synergy + (wt(s, p, W.DEF) if b.cr_dmg[p, t] > 0 else 0.0) + 0.1 * b.cr_dmg[p, lane]
        if v > best:
            best, best_a = v, s.scratch.work[i]
    return best_a
