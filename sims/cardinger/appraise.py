"""How the Cardinger bots value cards, plays and actions (R19: public information only).

Values are on two scales, both set by the weights (``weights.BotParams``):

- *card value*: a static value per card (``card_values``, once per batch) and a field
  card's value with its current HP and DEF (``field_value``);
- *action value*: what one decision is worth now; ``act_*`` weights convert points, cards
  drawn and card values into it.

A PLAY is worth the card's value less its price: ``cost`` per discarded card, ``discard``
times the value of the cards that would be discarded (the lowest-valued ones, as PAY does)
and ``act_score`` per PROSPERITY point the smaller hand would lose this turn (R14). An
action is worth its effect plus the change of value of the acting card (DEVOUR, DECAY,
FRAGILE, R11); a DOUBLE card's attack is worth up to two attacks (R12). Every function
reads the state and changes nothing.
"""

import numpy as np

from sims.cardinger.actions import SELF_EFFECTS, can_draw, can_retire, can_score, can_target
from sims.cardinger.state import (
    ALL_TARGETS,
    DECAY,
    DEVOUR,
    DOUBLE,
    FRAGILE,
    OMNI,
    PROSPERITY,
    READY,
    STEAL,
    ActionKind,
    encode,
    opponent,
)
from sims.cardinger.weights import W
from sims.core.jit import hot, kernel, nonzero_div

NO_ACTION = -1


@kernel
def card_values(s) -> None:
    """Fill ``scratch.values[p, c]`` (seat ``p``'s static value of card ``c``), ``net``, ``lowest`` and
    ``max_gain`` in place."""
    for p in range(2):
        w = s.scratch.weights[p]
        s.scratch.lowest[p] = np.inf
        for c in range(s.meta.n_cards):
            card = s.cards[c]
            kw = card.keywords
            v = w[W.SCORE] * card.score + w[W.DRAW] * card.draw + w[W.ATK] * card.atk
            v += w[W.DEF] * card.def_ + w[W.HP] * card.hp
            v += w[W.READY] * (kw & READY > 0) + w[W.DOUBLE] * (kw & DOUBLE > 0) + w[W.OMNI] * (kw & OMNI > 0)
            v += w[W.STEAL] * (kw & STEAL > 0) + w[W.PROSPERITY] * (kw & PROSPERITY > 0)
            v += w[W.FRAGILE] * (kw & FRAGILE > 0) + w[W.DECAY] * (kw & DECAY > 0) + w[W.DEVOUR] * (kw & DEVOUR > 0)
            s.scratch.values[p, c] = v
            s.scratch.lowest[p] = min(s.scratch.lowest[p], v)
            s.scratch.net[p, c] = v - w[W.COST] * card.cost  # value of playing it, its cost cards not yet priced
    gain = 0
    for c in range(s.meta.n_cards):  # most points one score action can make (R14: PROSPERITY at a full hand)
        bonus = s.params.hand_limit // s.params.prosperity_step if s.cards[c].keywords & PROSPERITY else 0
        gain = max(gain, s.cards[c].score + bonus)
    s.scratch.max_gain = gain


@kernel
def field_value(s, owner: int, slot: int, judge: int) -> float:
    """Return seat ``judge``'s value of ``owner``'s field card at ``slot``, with its current HP and DEF."""
    c = s.field.card[owner, slot]
    w = s.scratch.weights[judge]
    value = s.scratch.values[judge, c] + w[W.HP] * (s.field.hp[owner, slot] - s.cards[c].hp)
    return value + w[W.DEF] * (s.field.def_[owner, slot] - s.cards[c].def_)


# -- phase 2: pay, play, retire ------------------------------------------------------------


@hot
def cheapest_in_hand(s, p: int) -> int:
    """Return the hand index of seat ``p``'s lowest-valued card (first on ties)."""
    best, best_i = np.inf, 0
    for i in range(s.piles.hand_n[p]):
        v = s.scratch.values[p, s.piles.hand[p, i]]
        if v < best:
            best, best_i = v, i
    return best_i


@hot
def sort_hand(s, p: int) -> None:
    """Write the values of seat ``p``'s hand cards into ``scratch.hand_values[:hand_n]``, ascending, in place."""
    out = s.scratch.hand_values
    for i in range(s.piles.hand_n[p]):  # insertion sort: hands are short
        v = s.scratch.values[p, s.piles.hand[p, i]]
        j = i
        while j > 0 and out[j - 1] > v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = v


@hot
def sorted_discard_value(s, p: int, skip: int, k: int) -> float:
    """Return ``discard_value(s, p, skip, k)`` from the hand values ``sort_hand`` wrote (once per decision).

    PAY discards the lowest-valued cards one at a time, so the sum is that of the ``k`` lowest
    values without one copy of card ``skip``'s, added in ascending order as PAY would take them.
    """
    v_skip = s.scratch.values[p, s.piles.hand[p, skip]]
    skipped = False
    total = 0.0
    j = 0
    for _ in range(k):
        v = s.scratch.hand_values[j]
        if not skipped and v == v_skip:
            skipped = True
            j += 1
            v = s.scratch.hand_values[j]
        total += v
        j += 1
    return total


@kernel
def discard_value(s, p: int, skip: int, k: int) -> float:
    """Return the summed values of the ``k`` cards PAY would discard from seat ``p``'s hand without card ``skip``.

    Those are the lowest-valued cards, taken one at a time (first on ties) as
    ``cheapest_in_hand`` does; ``k`` <= hand size - 1 (R5). (Pricing every card of a hand,
    ``best_card_to_play`` sorts the hand once and calls ``sorted_discard_value`` itself.)
    """
    sort_hand(s, p)
    return sorted_discard_value(s, p, skip, k)


@nonzero_div
def prosperity_bonus(s, hand: int) -> int:
    """Return the PROSPERITY bonus a score action makes with ``hand`` cards in hand (R14).

    ``prosperity_step`` >= 1 (``pool.py`` validates it), so the division needs no zero test.
    """
    return hand // s.params.prosperity_step


@hot
def prosperity_outlook(s, p: int) -> tuple:
    """Return (PROSPERITY cards of seat ``p`` that can still score this turn, cards its other ready cards can draw).

    The drawers counted are the cards without PROSPERITY that can take a draw action; the
    total is capped by the deck and the room in hand (R9). (0, 0) without a PROSPERITY scorer.
    """
    scorers = 0
    for slot in range(s.field.n[p]):
        if s.cards[s.field.card[p, slot]].keywords & PROSPERITY and can_score(s, p, slot):
            scorers += 1
    if scorers == 0:
        return 0, 0  # the common case: nothing to count (this runs at every decision)
    drawable = 0
    for slot in range(s.field.n[p]):
        c = s.field.card[p, slot]
        if not s.cards[c].keywords & PROSPERITY and can_draw(s, p, slot):
            drawable += s.cards[c].draw
    room = min(s.piles.deck_n[p], s.params.hand_limit - s.piles.hand_n[p])
    return scorers, min(drawable, room)


@hot
def play_price(s, p: int, i: int, scorers: int) -> float:
    """Return what playing seat ``p``'s hand card ``i`` costs beyond ``cost`` per card: the value of the
    cards it discards and the PROSPERITY points of ``scorers`` that the smaller hand loses (R5, R14).

    Reads ``scratch.hand_values``: call ``sort_hand(s, p)`` first (once per decision)."""
    w = s.scratch.weights[p]
    n, k = s.piles.hand_n[p], s.cards[s.piles.hand[p, i]].cost
    price = 0.0
    if k > 0 and w[W.DISCARD] != 0.0:
        price += w[W.DISCARD] * sorted_discard_value(s, p, i, k)
    if scorers > 0:
        price += w[W.ACT_SCORE] * scorers * (prosperity_bonus(s, n) - prosperity_bonus(s, n - 1 - k))
    return price


@hot
def best_card_to_play(s, p: int) -> tuple:
    """Return (hand index, value less price) of seat ``p``'s best card the hand can pay for (-1 if none).

    When no price can be negative (the weights involved and every card value >= 0), a card
    whose value before its price is no better than the best so far cannot win and is not
    priced (same result; pricing every card took 1.4x as long on random mid-game positions).
    """
    w = s.scratch.weights[p]
    best, best_i = -np.inf, -1
    n = s.piles.hand_n[p]
    scorers, _ = prosperity_outlook(s, p)
    sorted_ = False  # scratch.hand_values, for the discard pricing: sorted at the first card with a cost
    nonneg = w[W.DISCARD] >= 0.0 and w[W.ACT_SCORE] >= 0.0 and s.scratch.lowest[p] >= 0.0
    for i in range(n):
        c = s.piles.hand[p, i]
        if n - 1 >= s.cards[c].cost and not (nonneg and s.scratch.net[p, c] <= best):  # R5: enough to pay
            if not sorted_ and s.cards[c].cost > 0:
                sort_hand(s, p)
                sorted_ = True
            v = s.scratch.net[p, c] - play_price(s, p, i, scorers)
            if v > best:
                best, best_i = v, i
    return best_i, best


@hot
def weakest_slot(s, p: int) -> tuple:
    """Return (slot, value) of seat ``p``'s lowest-valued field card."""
    best, best_slot = np.inf, 0
    for slot in range(s.field.n[p]):
        v = field_value(s, p, slot, p)
        if v < best:
            best, best_slot = v, slot
    return best_slot, best


@kernel
def play_or_retire(s, p: int) -> int:
    """Return the PLAY (or, with a full field, RETIRE) worth making for seat ``p`` now, or NO_ACTION."""
    if s.meta.plays_left <= 0:
        return NO_ACTION
    w = s.scratch.weights[p]
    full = can_retire(s, p)
    i, v = best_card_to_play(s, p)
    if i < 0 or v < w[W.PLAY_MIN]:
        return NO_ACTION
    if not full:
        return encode(ActionKind.PLAY, i, 0)
    slot, weak = weakest_slot(s, p)  # R6: retire only for a clearly better card
    if v - weak >= w[W.RETIRE_MARGIN]:
        return encode(ActionKind.RETIRE, slot, 0)
    return NO_ACTION


# -- phase 3: actions ------------------------------------------------------------------------


@kernel
def score_points(s, p: int, slot: int) -> int:
    """Return the points a score action of seat ``p``'s card at ``slot`` would make now (R14)."""
    c = s.field.card[p, slot]
    pts = s.cards[c].score
    if s.cards[c].keywords & PROSPERITY:
        pts += prosperity_bonus(s, s.piles.hand_n[p])
    return pts


@nonzero_div
def hit_value(s, p: int, steal: float, value: float, hp: int) -> float:
    """Return the value of one attack by seat ``p``'s card on a target worth ``value`` with ``hp`` HP.

    A kill is worth ``act_kill`` x value, plus ``steal`` (``act_steal`` for a STEAL card, else 0);
    a hit that leaves it alive ``act_hit`` x value / its HP (then HP >= 2: the division needs no
    zero test).
    """
    w = s.scratch.weights[p]
    return w[W.ACT_KILL] * value + steal if hp <= 1 else w[W.ACT_HIT] * value / hp


@hot
def best_attack(s, p: int, slot: int, threat: float) -> tuple:
    """Return (target, value, first target, value) of one attack and of two attacks of seat ``p``'s card at ``slot``.

    Target -1 = no attack. ``threat`` adds kill value per the target's SCORE. OMNI sums
    over its targets (R13). The two-attack plan (a DOUBLE card with both attacks left, R12)
    is the better of the two best targets or one target hit twice; value -inf without it.
    """
    o, c = opponent(p), s.field.card[p, slot]
    twice = s.field.acts[p, slot] >= 2
    hp_weight = s.scratch.weights[p, W.HP]
    steal = s.scratch.weights[p, W.ACT_STEAL] if s.cards[c].keywords & STEAL else 0.0  # once, not per target
    best, best_t, second, total, total2 = -np.inf, -1, -np.inf, 0.0, 0.0
    pair, pair_t = -np.inf, -1
    for t in range(s.field.n[o]):
        if can_target(s, p, slot, t):  # R8
            hp = s.field.hp[o, t]
            value = field_value(s, o, t, p)
            if threat != 0.0:  # tuned only: greedy (threat 0) skips the load, multiply and add per target
                value += threat * s.cards[s.field.card[o, t]].score
            v = hit_value(s, p, steal, value, hp)
            total += v
            if v > best:
                best, best_t, second = v, t, best
            else:
                second = max(second, v)  # max: a select, not a second data-dependent branch
            if twice and hp >= 2:  # the second attack hits it again, one HP lower
                v2 = hit_value(s, p, steal, value - hp_weight, hp - 1)
                total2 += v2
                both = v + max(v2, 0.0)  # the second attack is optional
                pair_t = t if both > pair else pair_t
                pair = max(pair, both)
    omni = s.cards[c].keywords & OMNI
    first = ALL_TARGETS if best_t >= 0 and omni else best_t
    one = total if omni else best
    if best_t < 0 or not twice:
        return first, one, -1, -np.inf
    if omni:  # two OMNI actions: the second hits the survivors
        return first, one, first, total + max(total2, 0.0)
    spread = best + max(second, 0.0)  # the second attack is optional
    if spread >= pair:
        return first, one, best_t, spread
    return first, one, pair_t, pair


@hot
def self_change(s, p: int, slot: int, times: int) -> float:
    """Return the action value of the change ``times`` actions make to seat ``p``'s card at ``slot`` (R11).

    DEVOUR, DECAY and FRAGILE change its HP and DEF (``act_self_loss`` x the change of its
    field value); destroyed, it loses its whole field value. -inf if it is destroyed before
    its last action (a DOUBLE card's second attack is lost, R12).
    """
    c = s.field.card[p, slot]
    kw = s.cards[c].keywords
    if not kw & SELF_EFFECTS:
        return 0.0
    w = s.scratch.weights[p]
    hp, def_ = s.field.hp[p, slot], s.field.def_[p, slot]
    for k in range(times):
        if kw & DEVOUR and hp < s.params.devour_hp_cap:
            hp += 1
        if kw & DECAY and def_ > 0:
            def_ -= 1
        if kw & FRAGILE:
            hp -= 1
        if hp <= 0:
            return -w[W.ACT_SELF_LOSS] * field_value(s, p, slot, p) if k == times - 1 else -np.inf
    return w[W.ACT_SELF_LOSS] * (w[W.HP] * (hp - s.field.hp[p, slot]) + w[W.DEF] * (def_ - s.field.def_[p, slot]))


@hot
def card_action(s, p: int, slot: int, threat: float, hold_score: bool, cycle: float, outlook: tuple) -> tuple:
    """Return (action, value) of the best action of seat ``p``'s card at ``slot`` (NO_ACTION if it has none).

    ``threat`` adds kill value per opposing SCORE, ``hold_score`` skips its score action
    and ``cycle`` adds value to a draw that empties the deck. ``outlook`` is
    ``prosperity_outlook``: a draw is also worth the PROSPERITY points it adds to the
    scorers' bonus, and a PROSPERITY score is worth less by the points the draws of the
    turn would still add (so they come first).
    """
    w = s.scratch.weights[p]
    c = s.field.card[p, slot]
    scorers, drawable = outlook
    hand = s.piles.hand_n[p]
    best, best_a = -np.inf, NO_ACTION
    if can_score(s, p, slot) and not hold_score:
        best, best_a = w[W.ACT_SCORE] * score_points(s, p, slot), encode(ActionKind.SCORE, slot, 0)
        if s.cards[c].keywords & PROSPERITY and drawable > 0:
            best -= w[W.ACT_SCORE] * (prosperity_bonus(s, hand + drawable) - prosperity_bonus(s, hand))
    if can_draw(s, p, slot):
        n = min(s.cards[c].draw, s.piles.deck_n[p], s.params.hand_limit - hand)
        v = w[W.ACT_DRAW] * n + (cycle if n == s.piles.deck_n[p] and s.piles.discard_n[p] > 0 else 0.0)
        if scorers > 0 and not s.cards[c].keywords & PROSPERITY:
            v += w[W.ACT_SCORE] * scorers * (prosperity_bonus(s, hand + n) - prosperity_bonus(s, hand))
        if v > best:
            best, best_a = v, encode(ActionKind.DRAW, slot, 0)
    t2, v2 = -1, -np.inf
    if s.field.acts[p, slot] > 0 and s.cards[c].atk > 0:
        t, v, t2, v2 = best_attack(s, p, slot, threat)
        if t >= 0 and v > best:
            best, best_a = v, encode(ActionKind.ATTACK, slot, t)
    if best_a != NO_ACTION:
        best += self_change(s, p, slot, 1)
    if t2 >= 0:
        v2 += self_change(s, p, slot, 2)
        if v2 > best:
            best, best_a = v2, encode(ActionKind.ATTACK, slot, t2)
    return best_a, best


@hot
def field_action(s, p: int, threat: float, hold: bool, cycle: float) -> tuple:
    """Return (action, value) of the most valuable action over seat ``p``'s whole field (NO_ACTION, -inf if none).

    ``threat`` adds kill value per opposing SCORE; ``hold`` skips the score actions of
    PROSPERITY cards (the tuned bot's ``draw_first``). Compiled twice, as ``best_field_action``
    (tuned: every term at run time) and ``greedy_field_action`` (greedy: its terms are 0).
    """
    outlook = prosperity_outlook(s, p)
    best, best_a = -np.inf, NO_ACTION
    for slot in range(s.field.n[p]):
        if s.field.acts[p, slot] > 0:
            held = hold and s.cards[s.field.card[p, slot]].keywords & PROSPERITY > 0
            a, v = card_action(s, p, slot, threat, held, cycle, outlook)
            if a != NO_ACTION and v > best:
                best, best_a = v, a
    return best_a, best


@kernel
def best_field_action(s, p: int, threat: float, hold: bool, cycle: float) -> tuple:
    """Return ``field_action`` with every term at run time (the tuned bot's version)."""
    return field_action(s, p, threat, hold, cycle)


@kernel
def greedy_field_action(s, p: int) -> tuple:
    """Return ``field_action`` without threat, hold and cycle terms (greedy): compiled with those constants,
    so the target loop carries no tuned-only test."""
    return field_action(s, p, 0.0, False, 0.0)
