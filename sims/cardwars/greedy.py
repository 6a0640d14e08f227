"""The greedy bot: every candidate action of this decision gets a value; the best one is taken.

Values are in "cards" (``BotParams``): a Creature in play is worth its ATK, DEF left and
body; a fight is worth the Creatures it destroys and the damage it deals, less what it
loses; an Action spent costs ``action`` and a drawn card gains ``card``. A play is taken
when its value, less the Actions it costs, beats drawing with those Actions; a Floop when
its value beats the fight the Creature would make instead. Spare Actions draw (never
thrown away while the deck has cards); the fight order follows each fight's value.
"""

import numpy as np

from sims.cardwars import actions as act
from sims.cardwars import board as bd
from sims.cardwars import effects as fx
from sims.cardwars import flow
from sims.cardwars.layout import PENDING_SRC, ActionKind, Choice, Phase
from sims.cardwars.state import N_LANES, CardType, Cost, Count, Effect, Landscape, Part, Special, Stat, Target
from sims.cardwars.weights import W
from sims.core.jit import kernel

NEG = -1e9


@kernel
def wt(s, p: int, i: int) -> float:
    """Return seat ``p``'s weight ``i`` (W)."""
    return s.scratch.weights[p, i]


@kernel
def cval(s, p: int, atk: int, left: int) -> float:
    """Return seat ``p``'s value of a Creature with ATK ``atk`` and DEF left ``left``."""
    return wt(s, p, W.ATK) * max(atk, 0) + wt(s, p, W.DEF) * max(left, 0) + wt(s, p, W.BODY)


@kernel
def creature_value(s, p: int, q: int, lane: int) -> float:
    """Return seat ``p``'s value of the Creature at ``(q, lane)`` (0 if none)."""
    b = s.board
    if b.cr_card[q, lane] < 0:
        return 0.0
    return cval(s, p, b.cr_atk[q, lane], b.cr_def[q, lane] - b.cr_dmg[q, lane])


@kernel
def fight_value(s, p: int, lane: int, atk: int, left: int, mult: int, opp_delta: int) -> float:
    """Return seat ``p``'s value of its Creature (ATK ``atk``, DEF left ``left``) fighting in ``lane`` now.

    ``opp_delta`` changes the opposing Creature's ATK (Uni-Knight's -10).
    """
    b = s.board
    dealt = max(atk, 0) * mult
    if b.cr_card[1 - p, lane] < 0:
        return dealt * wt(s, p, W.FACE)
    back = max(b.cr_atk[1 - p, lane] + opp_delta, 0) * bd.multiplier(s, 1 - p, lane)
    opp_left = b.cr_def[1 - p, lane] - b.cr_dmg[1 - p, lane]
    v = wt(s, p, W.KILL) + creature_value(s, p, 1 - p, lane) if dealt >= opp_left else dealt * wt(s, p, W.HIT)
    if back >= left:
        v -= wt(s, p, W.KILL) + cval(s, p, atk, left)
    else:
        v -= back * wt(s, p, W.HIT)
    return v


@kernel
def current_fight(s, p: int, lane: int) -> float:
    """Return the value of seat ``p``'s Creature in ``lane`` fighting this turn (0 if it cannot)."""
    b = s.board
    if flow.first_turn_rule(s) or not flow.can_fight(s, p, lane):
        return 0.0
    return fight_value(
        s, p, lane, b.cr_atk[p, lane], b.cr_def[p, lane] - b.cr_dmg[p, lane], bd.multiplier(s, p, lane), 0
    )


@kernel
def static_value(s, p: int, c: int) -> float:
    """Return seat ``p``'s value of card ``c`` out of play (discards, Ogre Gas)."""
    k = s.cards[c]
    if k.type == CardType.CREATURE:
        return cval(s, p, k.atk, k.def_) + 0.5 * (k.trigger != Part.NONE)
    if k.type == CardType.BUILDING:
        return wt(s, p, W.BUILDING)
    return wt(s, p, W.CARD) * (1 + (k.e1_amount if k.e1_effect == Effect.DRAW else 0))  # Gnome Snot: 3 cards


# -- placing a Creature ------------------------------------------------------------------------


@kernel
def estimate(s, p: int, lane: int, c: int, stat: int) -> int:
    """Return card ``c``'s ATK or DEF if it entered ``(p, lane)`` now (its own rows and others' auras)."""
    k = s.cards[c]
    v = (k.atk if stat == Stat.ATK else k.def_) + bd.aura_bonus(s, p, lane, c, stat, False)
    if k.s1_stat != Stat.NONE:
        v += bd.own_stat(s, p, lane, c, stat)
    if k.s1_stat == stat and k.s1_count == Count.OWN_COPIES:
        v += k.s1_amount  # itself included
    return v


@kernel
def place_value(s, p: int, lane: int, c: int) -> float:
    """Return seat ``p``'s value of Creature ``c`` entering ``(p, lane)`` now (its Actions aside; needs ``context``)."""
    b, sc = s.board, s.scratch
    atk, df = estimate(s, p, lane, c, Stat.ATK), estimate(s, p, lane, c, Stat.DEF)
    if df <= 0:
        return NEG  # it would die at once (Husker Knight without Cornfields)
    k = s.cards[c]
    mult = 3 if k.special == Special.TRIPLE_ON_CORNFIELD and b.up[p, lane] and b.land[p, lane] == k.sp_land else 1
    v = cval(s, p, atk, df)
    opp = b.cr_card[1 - p, lane]
    if sc.g_attack[lane]:
        v += fight_value(s, p, lane, atk, df, mult, 0)
    elif opp < 0:
        v += 0.5 * max(atk, 0) * mult * wt(s, p, W.FACE)  # it hits next turn
    if b.cr_card[p, lane] >= 0:
        v -= creature_value(s, p, p, lane) + sc.g_fight[lane]
    else:
        v += sc.g_block[lane]
    return v


@kernel
def context(s, p: int) -> None:
    """Fill the per-decision facts the valuations share (``scratch.g_*``) for seat ``p``."""
    b, sc = s.board, s.scratch
    first = flow.first_turn_rule(s)
    for lane in range(N_LANES):
        sc.g_fight[lane] = current_fight(s, p, lane) if b.cr_card[p, lane] >= 0 else 0.0
        opp = b.cr_card[1 - p, lane] >= 0
        sc.g_block[lane] = wt(s, p, W.BLOCK) * bd.damage_dealt(s, 1 - p, lane) if opp else 0.0
        sc.g_attack[lane] = not first and (not opp or not flow.protected(s, 1 - p, lane))
    for land in range(sc.g_ally.shape[0]):
        sc.g_ally[land] = 0.0
    for m in range(N_LANES):
        d = b.cr_card[p, m]
        if d < 0 or not bd.abilities_on(s, p, m):
            continue
        k = s.cards[d]
        if k.trigger == Part.ANY_ENTERS or k.trigger == Part.ALLY_ENTERS:
            g = effect_gain(s, p, m, d, 0, 0)
            for land in range(sc.g_ally.shape[0]):
                if k.trigger == Part.ANY_ENTERS or bd.land_ok(land, k.tland):
                    sc.g_ally[land] += g


# -- effects ---------------------------------------------------------------------------------------


@kernel
def damage_value(s, p: int, q: int, lane: int, take: int) -> float:
    """Return seat ``p``'s value of ``take`` damage on the Creature at ``(q, lane)``."""
    b = s.board
    if b.cr_card[q, lane] < 0 or take <= 0:
        return 0.0
    left = b.cr_def[q, lane] - b.cr_dmg[q, lane]
    v = wt(s, p, W.KILL) + creature_value(s, p, q, lane) if take >= left else take * wt(s, p, W.HIT)
    return v if q != p else -v


@kernel
def atk_gain(s, p: int, q: int, lane: int, delta: int) -> float:
    """Return seat ``p``'s value of the Creature at ``(q, lane)`` having ``delta`` more ATK this turn."""
    b = s.board
    if b.cr_card[q, lane] < 0 or b.cr_card[p, lane] < 0 or flow.first_turn_rule(s) or not flow.can_fight(s, p, lane):
        return 0.0  # "this turn": only a Creature of ours that fights now gains from it
    left = b.cr_def[p, lane] - b.cr_dmg[p, lane]
    mult = bd.multiplier(s, p, lane)
    now = fight_value(s, p, lane, b.cr_atk[p, lane], left, mult, 0)
    if q == p:
        return fight_value(s, p, lane, b.cr_atk[p, lane] + delta, left, mult, 0) - now
    return fight_value(s, p, lane, b.cr_atk[p, lane], left, mult, delta) - now


@kernel
def land_dependents(s, q: int, land: int) -> int:
    """Return how many of side ``q``'s Creatures count face-up Landscapes of ``land`` (stat rows)."""
    n = 0
    for lane in range(N_LANES):
        d = s.board.cr_card[q, lane]
        if d >= 0:
            k = s.cards[d]
            uses = k.s1_count == Count.OWN_LANDSCAPES or k.s1_count == Count.ADJACENT_LANDSCAPES
            n += uses and k.s1_land == land
    return n


@kernel
def row_gain(s, p, lane, c, eff, target, amount, count, land, step, mode, choice, tgt) -> float:
    """Return seat ``p``'s value of one effect row of card ``c`` used from ``lane`` with ``choice``/``tgt``."""
    b = s.board
    v = bd.row_value(s, amount, count, land, step, mode, p, lane, c)
    if eff == Effect.DAMAGE:
        if target == Target.OPPONENT:
            return v * wt(s, p, W.FACE) + (wt(s, p, W.WIN) if v >= b.hp[1 - p] else 0.0)
        g = 0.0
        for q in range(2):
            for m in range(N_LANES):
                if target == Target.OPPOSING_CREATURES:
                    take = v if q != p else 0
                elif target == Target.ALL_CREATURES:
                    take = v
                elif target == Target.OPPOSING_IN_LANE:
                    take = v if q != p and m == lane else 0
                elif target == Target.DISTINCT_CREATURES:
                    take = amount if tgt & (1 << (4 * q + m)) else 0
                else:
                    take = v if tgt == 4 * q + m else 0
                g += damage_value(s, p, q, m, take)
        return g
    if eff == Effect.DRAW:
        return 0.0 if target == Target.EACH_PLAYER else v * wt(s, p, W.CARD)
    if eff == Effect.MILL:
        return v * wt(s, p, W.MILL)
    if eff == Effect.DISCARD:
        return min(v, s.piles.hand_n[1 - p]) * wt(s, p, W.CARD)
    if eff == Effect.TURN_ATK:
        return turn_atk_gain(s, p, lane, c, target, v, land, tgt)
    if eff == Effect.HEAL:
        return wt(s, p, W.DEF)
    if eff == Effect.GAIN_ACTION:
        return v * wt(s, p, W.CARD)
    if eff == Effect.RETURN_RANDOM:
        return wt(s, p, W.CARD) if v > 0 and fx.picks(s, p, target, land, -1) > 0 else 0.0
    return unique_gain(s, p, lane, c, eff, target, amount, land, choice, tgt)


@kernel
def turn_atk_gain(s, p, lane, c, target, v, land, tgt) -> float:
    """Return the value of an ATK-this-turn effect (itself, one target, or a group)."""
    b = s.board
    if target == Target.SELF:
        return atk_gain(s, p, p, lane, v) if lane >= 0 else 0.0
    if target == Target.OWN_LAND_CREATURE or target == Target.CREATURE_IN_LANE or target == Target.LAND_CREATURE:
        return atk_gain(s, p, tgt >> 2, tgt & 3, v)
    g = 0.0
    for q in range(2):
        for m in range(N_LANES):
            d = b.cr_card[q, m]
            if d < 0:
                continue
            if target == Target.MOVED_CREATURES:
                ok = b.cr_moved[q, m] > 0
            else:
                ok = q == p and (target == Target.OWN_CREATURES or bd.land_ok(s.cards[d].land, land))
            if ok:
                g += atk_gain(s, p, q, m, v)
    return g


@kernel
def unique_gain(s, p, lane, c, eff, target, amount, land, choice, tgt) -> float:
    """Return the value of the effects with rules of their own (see ``effects.resolve_unique``)."""
    b = s.board
    card, bld, face = wt(s, p, W.CARD), wt(s, p, W.BUILDING), wt(s, p, W.FACE)
    if eff == Effect.BOUNCE:
        q, m = fx.bounce_slot(s, p, lane, c, target, choice, tgt)
        if q < 0 or b.cr_card[q, m] < 0:
            return 0.0
        g = creature_value(s, p, q, m) - card
        return g if q != p else -g - current_fight(s, p, m)
    if eff == Effect.DESTROY:
        if target == Target.BUILDING_IN_LANE:
            return bld if tgt != p else -bld
        return wt(s, p, W.KILL) + creature_value(s, p, 1 - p, lane)
    if eff == Effect.FLIP_DOWN or eff == Effect.FLIP_UP:
        q, m = (tgt, lane) if target == Target.LANDSCAPE_IN_LANE else (p, choice if eff == Effect.FLIP_DOWN else tgt)
        if m >= N_LANES:
            return 0.0
        g = wt(s, p, W.LAND) * (1 + land_dependents(s, q, b.land[q, m]))
        return g if (q != p) == (eff == Effect.FLIP_DOWN) else -g
    if eff == Effect.MOVE_OWN:
        return move_gain(s, p, tgt >> 2, tgt & 3)
    if eff == Effect.READY_FLOOPED:
        return 0.5 * card if choice < N_LANES else 0.0
    if eff == Effect.FIELD_REAPER:
        d = lane - 1 if choice == 0 else lane + 1
        if b.cr_card[1 - p, lane] >= 0 and 0 <= d < N_LANES and b.cr_card[p, d] < 0:
            return 2.0 * creature_value(s, p, 1 - p, lane)
        return 0.0
    if eff == Effect.SILO:
        return 2.0 * card
    if eff == Effect.RECLAIM:
        up = tgt // 17
        return wt(s, p, W.LAND) * (1 + land_dependents(s, p, b.land[p, up])) if up < N_LANES else 0.0
    if eff == Effect.GREEN_MERMAN:
        g = 0.0
        for m in range(N_LANES):
            g += damage_value(s, p, 1 - p, m, 1)
        return g
    if eff == Effect.OGRE_GAS:
        return 2.0 * wt(s, p, W.MILL)
    if eff == Effect.SCHOOLHOUSE:
        return 0.5 * card
    if eff == Effect.MOVE_INTO_LANE:
        q, m = tgt >> 2, tgt & 3
        return move_gain(s, p, m, lane) if q == p else 0.5 * wt(s, p, W.BLOCK) * bd.damage_dealt(s, q, m)
    if eff == Effect.SPIRIT_TOWER:
        if b.cr_card[p, lane] >= 0 or b.cr_card[1 - p, lane] < 0:
            return 0.0
        return bd.damage_dealt(s, 1 - p, lane) * face
    if eff == Effect.COFFIN:
        return coffin_gain(s, p)
    if eff == Effect.ZAZO:
        n = bd.count_of(s, Count.ADJACENT_ENTERED, Landscape.ANY, tgt >> 2, tgt & 3, c)
        return atk_gain(s, p, tgt >> 2, tgt & 3, amount * n)
    if eff == Effect.RETURN_COST0:
        return card if tgt < s.piles.disc_n[p] else 0.0
    if eff == Effect.SPELL_TO_DECK_TOP:
        return 0.5 * card if tgt < s.piles.disc_n[p] else 0.0
    return 0.0


@kernel
def move_gain(s, p: int, src: int, dst: int) -> float:
    """Return the value of moving seat ``p``'s Creature from lane ``src`` to the empty lane ``dst``."""
    b = s.board
    if b.cr_card[p, src] < 0:
        return 0.0
    atk, left, mult = b.cr_atk[p, src], b.cr_def[p, src] - b.cr_dmg[p, src], bd.multiplier(s, p, src)
    ready = not b.cr_exh[p, src] and not flow.first_turn_rule(s)
    after = fight_value(s, p, dst, atk, left, mult, 0) if ready else 0.0
    if b.cr_card[1 - p, dst] >= 0:
        after += wt(s, p, W.BLOCK) * bd.damage_dealt(s, 1 - p, dst)
    before = current_fight(s, p, src)
    if b.cr_card[1 - p, src] >= 0:
        before += wt(s, p, W.BLOCK) * bd.damage_dealt(s, 1 - p, src)
    g = after - before
    if s.cards[b.cr_card[p, src]].trigger == Part.MOVES:
        g += wt(s, p, W.CARD)  # Woadic Marauder draws
    return g


@kernel
def coffin_gain(s, p: int) -> float:
    """Return the value of Unempty Coffin: the Actions it saves on the best Creature in hand."""
    best = 0
    for i in range(s.piles.hand_n[p]):
        c = s.piles.hand[p, i]
        if s.cards[c].type == CardType.CREATURE:
            best = max(best, min(act.paid_cost(s, p, c), 2))
    return (best - 0.5) * wt(s, p, W.ACTION)


@kernel
def effect_gain(s, p: int, lane: int, c: int, choice: int, tgt: int) -> float:
    """Return seat ``p``'s value of card ``c``'s effect rows used from ``lane`` with ``choice``/``tgt``."""
    k = s.cards[c]
    if k.e1_effect == Effect.NONE:
        return 0.0
    g = row_gain(s, p, lane, c, k.e1_effect, k.e1_target, k.e1_amount, k.e1_count, k.e1_land, k.e1_n, k.e1_mode,
                 choice, tgt)  # fmt: skip
    if k.e2_effect != Effect.NONE:
        g += row_gain(s, p, lane, c, k.e2_effect, k.e2_target, k.e2_amount, k.e2_count, k.e2_land, k.e2_n,
                      k.e2_mode, 0, 0)  # fmt: skip
    return g


# -- valuing one action -------------------------------------------------------------------------


@kernel
def play_value(s, p: int, src: int, a: int, tgt: int) -> float:
    """Return the value of playing hand card ``src`` (or Silo's card) with arguments ``a``/``tgt``."""
    free = src == PENDING_SRC
    c = s.meta.pend_card if free else s.piles.hand[p, src]
    k = s.cards[c]
    lane = a & 3
    cost = 0.0 if free else act.paid_cost(s, p, c) * wt(s, p, W.ACTION)
    if k.type == CardType.CREATURE:
        v = place_value(s, p, lane, c)
        if k.trigger == Part.ENTERS or k.trigger == Part.ANY_ENTERS:
            v += effect_gain(s, p, lane, c, a >> 2, tgt)
        v += allies_gain(s, p, lane, c)
        if k.xcost == Cost.DISCARD_CARD:
            v -= static_value(s, p, s.piles.hand[p, tgt]) if tgt < s.piles.hand_n[p] else 0.0
    elif k.type == CardType.BUILDING:
        v = building_value(s, p, lane, c)
    else:
        v = effect_gain(s, p, -1, c, a, tgt) + 0.2 * wt(s, p, W.CARD) * woadic_chiefs(s, p)
    return v - cost


@kernel
def allies_gain(s, p: int, lane: int, c: int) -> float:
    """Return the value of the other Creatures' "whenever a Creature enters" triggers (SandWitch ...; ``context``)."""
    return s.scratch.g_ally[s.cards[c].land]


@kernel
def woadic_chiefs(s, p: int) -> int:
    """Return how many of seat ``p``'s Creatures gain ATK from Spells played this turn (Woadic Chief)."""
    n = 0
    for m in range(N_LANES):
        d = s.board.cr_card[p, m]
        n += d >= 0 and s.cards[d].s1_count == Count.OWN_SPELLS_THIS_TURN
    return n


@kernel
def building_value(s, p: int, lane: int, c: int) -> float:
    """Return the value of Building ``c`` in ``(p, lane)``: its aura on the Creature there, replacing none."""
    b = s.board
    k = s.cards[c]
    v = wt(s, p, W.BUILDING)
    if b.bu_card[p, lane] >= 0:
        v -= wt(s, p, W.BUILDING) + 0.5
    if k.au_to != 0 and b.cr_card[p, lane] >= 0:
        if k.au_stat == Stat.ATK:
            v += atk_gain(s, p, p, lane, k.au_amount) + k.au_amount * wt(s, p, W.ATK)
        else:
            v += k.au_amount * wt(s, p, W.DEF)
    if k.trigger == Part.FLOOP or k.trigger == Part.ACTIVATE:
        v += 0.3 * (b.cr_card[p, lane] >= 0 or b.cr_card[1 - p, lane] >= 0)
    if k.special == Special.PALACE_OF_BONE:
        v += 0.3 * (b.cr_card[1 - p, lane] >= 0)
    return v


@kernel
def use_value(s, p: int, kind: int, slot: int, a: int, tgt: int) -> float:
    """Return the value of a Floop or activation: its effect, less its costs and the fight it gives up."""
    b = s.board
    lane = slot % N_LANES
    if slot < N_LANES:
        c = act.floop_card(s, p, slot) if kind == ActionKind.FLOOP else b.cr_card[p, lane]
    else:
        c = b.bu_card[p, lane]
    k = s.cards[c]
    v = effect_gain(s, p, lane, c, a, tgt) - k.act_cost * wt(s, p, W.ACTION)
    if kind == ActionKind.FLOOP and slot < N_LANES:
        v -= current_fight(s, p, lane) + wt(s, p, W.FLOOP_MIN)
    if k.xcost == Cost.DESTROY_SELF:
        v -= creature_value(s, p, p, lane) + current_fight(s, p, lane)
    elif k.xcost == Cost.DESTROY_OWN_CREATURE:
        v -= creature_value(s, p, p, a) + (current_fight(s, p, a) if a != lane else 0.0)
    if k.trigger == Part.FLOOP:
        v += 0.1 * wt(s, p, W.ATK) * struzanns(s, p)
    return v


@kernel
def struzanns(s, p: int) -> int:
    """Return the ATK per Flooped Creature seat ``p``'s Creatures get (Struzann Jinn: +2 each)."""
    n = 0
    for m in range(N_LANES):
        d = s.board.cr_card[p, m]
        if d >= 0 and s.cards[d].s1_count == Count.OWN_FLOOPED:
            n += s.cards[d].s1_amount
    return n


@kernel
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


@kernel
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
    """Return the greedy action of seat ``who`` (the decider) in position ``s``."""
    m = s.meta
    if m.phase == Phase.FIGHT:
        best, best_a = NEG, 0
        for lane in range(N_LANES):
            if flow.can_fight(s, who, lane):
                v = current_fight(s, who, lane)
                if v > best:
                    best, best_a = v, act.encode(ActionKind.FIGHT, lane, 0, 0)
        return best_a
    if m.phase == Phase.CHOOSE:
        return decide_choice(s, who)
    return main_choice(s, who)


@kernel
def main_choice(s, p: int) -> int:
    """Return the greedy main-phase action: the best play, Floop or ability, a draw with spare Actions, or END."""
    context(s, p)
    pl = s.piles
    best, best_a = 0.0, act.encode(ActionKind.END, 0, 0, 0)
    if s.meta.actions > 0 and pl.deck_n[p] > 0:
        best, best_a = wt(s, p, W.CARD) - wt(s, p, W.ACTION), act.encode(ActionKind.DRAW, 0, 0, 0)
    for i in range(pl.hand_n[p]):
        c = pl.hand[p, i]
        if act.seen_before(s, p, i, -1) or not act.playable(s, p, c, False):
            continue
        v, a = best_play(s, p, i, c)
        if v > best:
            best, best_a = v, a
    work = s.scratch.work
    n = 0
    for slot in range(2 * N_LANES):
        n = act.use_options(s, p, slot, ActionKind.FLOOP, work, n)
        n = act.use_options(s, p, slot, ActionKind.ACTIVATE, work, n)
    for i in range(n):
        v = action_value(s, p, work[i])
        if v > best:
            best, best_a = v, work[i]
    return best_a


@kernel
def best_play(s, p: int, src: int, c: int) -> tuple[float, int]:
    """Return (value, action) of the best way to play hand card ``src`` (card ``c``), its Actions paid."""
    k = s.cards[c]
    b, sc = s.board, s.scratch
    cost = act.paid_cost(s, p, c) * wt(s, p, W.ACTION) + wt(s, p, W.PLAY_MIN)
    best, best_a = NEG, 0
    if k.type == CardType.SPELL:
        m = fx.options(s, p, -1, c, sc.opts, 0)
        bonus = 0.2 * wt(s, p, W.CARD) * woadic_chiefs(s, p)
        for i in range(m):
            v = effect_gain(s, p, -1, c, 0, sc.opts[i]) + bonus
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
    for lane in range(N_LANES):
        if b.cr_card[p, lane] >= 0 and b.cr_exh[p, lane]:
            continue
        v = place_value(s, p, lane, c)
        if v <= NEG:
            continue
        v += allies_gain(s, p, lane, c) - loss
        sub = 0
        if etb:
            m = fx.enter_options(s, p, lane, c, sc.subs, 0)
            gain = NEG
            for i in range(m):
                g = effect_gain(s, p, lane, c, sc.subs[i], discard)
                if g > gain:
                    gain, sub = g, sc.subs[i]
            v += gain
        if v > best:
            best, best_a = v, act.encode(ActionKind.PLAY, src, lane | (sub << 2), discard)
    return best - cost, best_a


@kernel
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


@kernel
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
