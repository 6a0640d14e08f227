"""What an ability's effects are worth to the greedy bot: one value per effect row, shared and unique effects."""

import numpy as np

from sims.cardwars import actions as act
from sims.cardwars import effects as fx
from sims.cardwars import flow
from sims.cardwars import stats as sx
from sims.cardwars.state import N_LANES, CardType, Count, Effect, Part, Target
from sims.cardwars.values import creature_value, current_fight, fight_value, wt
from sims.cardwars.weights import W
from sims.core.jit import hot, kernel


@hot
def damage_value(s, p: int, q: int, lane: int, take: int) -> float:
    """Return seat ``p``'s value of ``take`` damage on the Creature at ``(q, lane)``."""
    b = s.board
    if b.cr_card[q, lane] < 0 or take <= 0:
        return 0.0
    left = b.cr_def[q, lane] - b.cr_dmg[q, lane]
    v = wt(s, p, W.KILL) + creature_value(s, np.int64(p), np.int64(q), lane) if take >= left else take * wt(s, p, W.HIT)
    return v if q != p else -v


@kernel
def atk_gain(s, p: int, q: int, lane: int, delta: int) -> float:
    """Return seat ``p``'s value of the Creature at ``(q, lane)`` having ``delta`` more ATK this turn."""
    p, q = p & 1, q & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if b.cr_card[q, lane] < 0 or b.cr_card[p, lane] < 0 or flow.first_turn_rule(s) or not flow.can_fight(s, p, lane):
        return 0.0  # "this turn": only a Creature of ours that fights now gains from it
    left = b.cr_def[p, lane] - b.cr_dmg[p, lane]
    mult = sx.multiplier(s, p, lane)
    now = fight_value(s, p, lane, np.int64(b.cr_atk[p, lane]), left, mult, np.int64(0))
    if q == p:
        return fight_value(s, p, lane, b.cr_atk[p, lane] + delta, left, mult, np.int64(0)) - now
    return fight_value(s, p, lane, np.int64(b.cr_atk[p, lane]), left, mult, delta) - now


@kernel
def land_dependents(s, q: int, land: int) -> int:
    """Return how many of side ``q``'s Creatures count face-up Landscapes of ``land`` (stat rows)."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
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
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    v = sx.row_value(s, amount, count, land, step, mode, p, lane, c)
    if eff == Effect.DAMAGE:
        if target == Target.OPPONENT:
            return v * wt(s, p, W.FACE) + (wt(s, p, W.WIN) if v >= b.hp[p ^ 1] else 0.0)
        # only the slots the damage reaches are valued, in slot order: the sum is the one over
        # all eight slots (every other slot's value is 0.0; RULES.md §13)
        if target == Target.OPPOSING_IN_LANE:
            return damage_value(s, p, p ^ 1, lane, v) if 0 <= lane < N_LANES else 0.0
        g = 0.0
        if target == Target.OPPOSING_CREATURES:
            for m in range(N_LANES):
                g += damage_value(s, p, p ^ 1, m, v)
            return g
        if target == Target.ALL_CREATURES or target == Target.DISTINCT_CREATURES:
            for q in range(2):
                for m in range(N_LANES):
                    take = v if target == Target.ALL_CREATURES else (amount if tgt & (1 << (4 * q + m)) else 0)
                    g += damage_value(s, p, q, m, take)
            return g
        return damage_value(s, p, tgt >> 2, tgt & 3, v) if 0 <= tgt < 2 * N_LANES else 0.0  # one target
    if eff == Effect.DRAW:
        return 0.0 if target == Target.EACH_PLAYER else v * wt(s, p, W.CARD)
    if eff == Effect.MILL:
        return v * wt(s, p, W.MILL)
    if eff == Effect.DISCARD:
        return min(v, np.int64(s.piles.hand_n[p ^ 1])) * wt(s, p, W.CARD)
    if eff == Effect.TURN_ATK:
        return turn_atk_gain(s, p, lane, c, target, v, land, tgt)
    if eff == Effect.HEAL:
        return wt(s, p, W.DEF)
    if eff == Effect.GAIN_ACTION:
        return v * wt(s, p, W.CARD)
    if eff == Effect.RETURN_RANDOM:
        some = v > 0 and fx.picks(s, np.int64(p), np.int64(target), np.int64(land), np.int64(-1)) > 0
        return wt(s, p, W.CARD) if some else 0.0
    return unique_gain(s, p, lane, c, eff, target, amount, land, choice, tgt)


@hot
def turn_atk_gain(s, p, lane, c, target, v, land, tgt) -> float:
    """Return the value of an ATK-this-turn effect (itself, one target, or a group)."""
    if target == Target.SELF:
        return atk_gain(s, p, p, lane, v) if lane >= 0 else 0.0
    if target == Target.OWN_LAND_CREATURE or target == Target.CREATURE_IN_LANE or target == Target.LAND_CREATURE:
        return atk_gain(s, p, tgt >> 2, tgt & 3, v)
    g = 0.0
    for q in range(2):
        for m in range(N_LANES):
            if sx.group_hit(s, p, q, m, target, land):
                g += atk_gain(s, p, q, m, v)
    return g


@hot
def unique_gain(s, p, lane, c, eff, target, amount, land, choice, tgt) -> float:
    """Return the value of the effects with rules of their own (see ``effects.resolve_unique``)."""
    b = s.board
    card, bld, face = wt(s, p, W.CARD), wt(s, p, W.BUILDING), wt(s, p, W.FACE)
    if eff == Effect.BOUNCE:
        q, m = fx.bounce_slot(s, p, lane, c, target, choice, tgt)
        if q < 0 or b.cr_card[q, m] < 0:
            return 0.0
        g = creature_value(s, np.int64(p), np.int64(q), m) - card
        return g if q != p else -g - current_fight(s, p, m)
    if eff == Effect.DESTROY:
        if target == Target.BUILDING_IN_LANE:
            return bld if tgt != p else -bld
        return wt(s, p, W.KILL) + creature_value(s, np.int64(p), np.int64(p ^ 1), lane)
    if eff == Effect.FLIP_DOWN or eff == Effect.FLIP_UP:
        q, m = (tgt, lane) if target == Target.LANDSCAPE_IN_LANE else (p, choice if eff == Effect.FLIP_DOWN else tgt)
        if m >= N_LANES:
            return 0.0
        g = wt(s, p, W.LAND) * (1 + land_dependents(s, q, np.int64(b.land[q, m])))
        return g if (q != p) == (eff == Effect.FLIP_DOWN) else -g
    if eff == Effect.MOVE_OWN:
        return move_gain(s, p, tgt >> 2, tgt & 3)
    if eff == Effect.READY_FLOOPED:
        return 0.5 * card if choice < N_LANES else 0.0
    if eff == Effect.FIELD_REAPER:
        d = lane - 1 if choice == 0 else lane + 1
        if b.cr_card[p ^ 1, lane] >= 0 and 0 <= d < N_LANES and b.cr_card[p, d] < 0:
            return 2.0 * creature_value(s, np.int64(p), np.int64(p ^ 1), lane)
        return 0.0
    if eff == Effect.SILO:
        return 2.0 * card
    if eff == Effect.RECLAIM:
        up = tgt // 17
        return wt(s, p, W.LAND) * (1 + land_dependents(s, p, np.int64(b.land[p, up]))) if up < N_LANES else 0.0
    if eff == Effect.GREEN_MERMAN:
        g = 0.0
        for m in range(N_LANES):
            g += damage_value(s, p, p ^ 1, m, 1)
        return g
    if eff == Effect.OGRE_GAS:
        return 2.0 * wt(s, p, W.MILL)
    if eff == Effect.SCHOOLHOUSE:
        return 0.5 * card
    if eff == Effect.MOVE_INTO_LANE:
        q, m = tgt >> 2, tgt & 3
        return move_gain(s, p, m, lane) if q == p else 0.5 * wt(s, p, W.BLOCK) * sx.damage_dealt(s, q, m)
    if eff == Effect.SPIRIT_TOWER:
        if b.cr_card[p, lane] >= 0 or b.cr_card[p ^ 1, lane] < 0:
            return 0.0
        return sx.damage_dealt(s, p ^ 1, lane) * face
    if eff == Effect.COFFIN:
        return coffin_gain(s, p)
    if eff == Effect.ZAZO:
        n = sx.count_of(s, sx.ADJACENT, sx.ANY, tgt >> 2, tgt & 3, c)
        return atk_gain(s, p, tgt >> 2, tgt & 3, amount * n)
    if eff == Effect.RETURN_COST0:
        return card if tgt < s.piles.disc_n[p] else 0.0
    if eff == Effect.SPELL_TO_DECK_TOP:
        return 0.5 * card if tgt < s.piles.disc_n[p] else 0.0
    return 0.0


@kernel
def move_gain(s, p: int, src: int, dst: int) -> float:
    """Return the value of moving seat ``p``'s Creature from lane ``src`` to the empty lane ``dst``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if b.cr_card[p, src] < 0:
        return 0.0
    atk, left, mult = b.cr_atk[p, src], b.cr_def[p, src] - b.cr_dmg[p, src], sx.multiplier(s, p, src)
    ready = not b.cr_exh[p, src] and not flow.first_turn_rule(s)
    after = fight_value(s, p, dst, np.int64(atk), left, mult, np.int64(0)) if ready else 0.0
    if b.cr_card[p ^ 1, dst] >= 0:
        after += wt(s, p, W.BLOCK) * sx.damage_dealt(s, p ^ 1, dst)
    before = current_fight(s, p, src)
    if b.cr_card[p ^ 1, src] >= 0:
        before += wt(s, p, W.BLOCK) * sx.damage_dealt(s, p ^ 1, src)
    g = after - before
    if s.cards[b.cr_card[p, src]].trigger == Part.MOVES:
        g += wt(s, p, W.CARD)  # Woadic Marauder draws
    return g


@hot
def coffin_gain(s, p: int) -> float:
    """Return the value of Unempty Coffin: the Actions it saves on the best Creature in hand."""
    best = 0
    for i in range(s.piles.hand_n[p]):
        c = s.piles.hand[p, i]
        if s.cards[c].type == CardType.CREATURE:
            best = max(best, min(act.paid_cost(s, p, c), 2))
    return (best - 0.5) * wt(s, p, W.ACTION)


@hot
def effect_gain(s, p: int, lane: int, c: int, choice: int, tgt: int) -> float:
    """Return seat ``p``'s value of card ``c``'s effect rows used from ``lane`` with ``choice``/``tgt``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    k = s.cards[c]
    if k.e1_effect == Effect.NONE:
        return 0.0
    if k.e1_effect == Effect.MOVE_OWN and k.e2_effect == Effect.NONE:  # Teleport, Dragon Claw: row_gain's value
        return move_gain(s, np.int64(p), np.int64(tgt >> 2), np.int64(tgt & 3))
    # one integer type at every call: row_gain and everything below it compile once
    g = row_gain(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(k.e1_effect), np.int64(k.e1_target),
                 np.int64(k.e1_amount), np.int64(k.e1_count), np.int64(k.e1_land), np.int64(k.e1_n),
                 np.int64(k.e1_mode), np.int64(choice), np.int64(tgt))  # fmt: skip
    if k.e2_effect != Effect.NONE:
        g += row_gain(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(k.e2_effect), np.int64(k.e2_target),
                      np.int64(k.e2_amount), np.int64(k.e2_count), np.int64(k.e2_land), np.int64(k.e2_n),
                      np.int64(k.e2_mode), np.int64(0), np.int64(0))  # fmt: skip
    return g
