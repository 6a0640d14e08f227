"""Cardinger bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

Every policy sees what R19 allows: both fields (with damage and DECAY), scores, pile
sizes and its own hand, never the opponent's hand or any deck order. Policies read the
state and return one encoded action (``state.encode``); they never change the position
(the random bot only advances its own RNG lane).

Weights (``BotParams``, one float vector per seat) are shared by all bots; ``card_values``
turns them into a static value per card once per batch, so a decision costs O(hand +
field x opposing field) with small constants.
"""

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from sims.cardinger import kernel as rules
from sims.cardinger.state import (
    ALL_TARGETS,
    DECAY,
    DEVOUR,
    DOUBLE,
    END_TURN,
    FRAGILE,
    N_WEIGHTS,
    OMNI,
    PROSPERITY,
    READY,
    STEAL,
    ActionKind,
    Lane,
    Phase,
    encode,
)
from sims.core import rng
from sims.core.jit import kernel


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0  # uniform over the legal actions
    GREEDY = 1  # one pass: best card to play, then each ready card's best action in field order
    TUNED = 2  # best action over the whole field, threat/lethal/PROSPERITY aware, tuned weights


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    score: float = 3.0  # card value per printed SCORE
    draw: float = 1.5  # card value per printed DRAW
    atk: float = 1.0  # card value per printed ATK
    def_: float = 0.5  # card value per printed DEF
    hp: float = 0.5  # card value per printed HP
    ready: float = 0.5  # card value of READY
    double: float = 1.0  # card value of DOUBLE
    omni: float = 1.0  # card value of OMNI
    steal: float = 1.0  # card value of STEAL
    prosperity: float = 1.0  # card value of PROSPERITY
    fragile: float = -1.0  # card value of FRAGILE
    decay: float = -0.3  # card value of DECAY
    devour: float = 0.3  # card value of DEVOUR
    cost: float = 1.0  # value lost per cost card discarded
    play_min: float = 0.0  # play a card only if value - cost * cost >= this
    retire_margin: float = 2.0  # retire the weakest field card for a hand card this much better
    act_score: float = 2.0  # action value per point scored
    act_draw: float = 1.0  # action value per card drawn
    act_kill: float = 1.0  # action value per value of a destroyed opposing card
    act_hit: float = 0.5  # action value per value of a damaged (not destroyed) card, / its HP
    act_steal: float = 2.0  # action value per STEAL point
    act_self_loss: float = 0.5  # action cost per value of an own card FRAGILE destroys
    act_min: float = 0.0  # take an action only if its value exceeds this
    threat: float = 0.0  # tuned: extra kill value per opposing SCORE when the opponent is near target
    danger_turns: float = 1.0  # tuned: "near target" = opponent's field scores reach it within this many turns
    draw_first: float = 0.0  # tuned: hold PROSPERITY scores while a draw action is available (> 0 = on)
    cycle: float = 0.0  # tuned: extra value of a draw action that empties the deck (a replenish point, R15)


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    SCORE = 0
    DRAW = 1
    ATK = 2
    DEF = 3
    HP = 4
    READY = 5
    DOUBLE = 6
    OMNI = 7
    STEAL = 8
    PROSPERITY = 9
    FRAGILE = 10
    DECAY = 11
    DEVOUR = 12
    COST = 13
    PLAY_MIN = 14
    RETIRE_MARGIN = 15
    ACT_SCORE = 16
    ACT_DRAW = 17
    ACT_KILL = 18
    ACT_HIT = 19
    ACT_STEAL = 20
    ACT_SELF_LOSS = 21
    ACT_MIN = 22
    THREAT = 23
    DANGER_TURNS = 24
    DRAW_FIRST = 25
    CYCLE = 26


assert [m.name.lower() for m in W] == [f.rstrip("_") for f in BotParams._fields]
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(),
    # benchmarks/tune_cardinger.py --steps 2000 --games 6000 --seed 7 (vs greedy, modern rules):
    # 74.2 % [73.7, 74.6] over 40 000 fresh games, seats balanced. draw_first < 0 = off.
    "tuned": BotParams(
        score=0.818,
        draw=1.46,
        atk=2.07,
        def_=1.34,
        hp=0.852,
        ready=0.97,
        double=0.701,
        omni=1.15,
        steal=0.5,
        prosperity=0.704,
        fragile=-0.438,
        decay=0.215,
        devour=-0.0732,
        cost=0.615,
        play_min=0.278,
        retire_margin=2.24,
        act_score=0.691,
        act_draw=0.833,
        act_kill=0.461,
        act_hit=0.387,
        act_steal=0.767,
        act_self_loss=0.0886,
        act_min=0.147,
        threat=0.86,
        danger_turns=8.08,
        draw_first=-0.533,
        cycle=0.382,
    ),
}

NO_ACTION = -1


@kernel
def card_values(s) -> None:
    """Fill ``scratch.values[p, c]`` (seat ``p``'s static value of card ``c``) and ``scratch.max_gain`` in place."""
    for p in range(2):
        w = s.scratch.weights[p]
        for c in range(s.meta.n_cards):
            card = s.cards[c]
            kw = card.keywords
            v = w[W.SCORE] * card.score + w[W.DRAW] * card.draw + w[W.ATK] * card.atk
            v += w[W.DEF] * card.def_ + w[W.HP] * card.hp
            v += w[W.READY] * (kw & READY > 0) + w[W.DOUBLE] * (kw & DOUBLE > 0) + w[W.OMNI] * (kw & OMNI > 0)
            v += w[W.STEAL] * (kw & STEAL > 0) + w[W.PROSPERITY] * (kw & PROSPERITY > 0)
            v += w[W.FRAGILE] * (kw & FRAGILE > 0) + w[W.DECAY] * (kw & DECAY > 0) + w[W.DEVOUR] * (kw & DEVOUR > 0)
            s.scratch.values[p, c] = v
            s.scratch.net[p, c] = v - w[W.COST] * card.cost  # value of playing it, its cost paid
    gain = 0
    for c in range(s.meta.n_cards):  # most points one score action can make (R14: PROSPERITY at a full hand)
        bonus = s.params.hand_limit // s.params.prosperity_step if s.cards[c].keywords & PROSPERITY else 0
        gain = max(gain, s.cards[c].score + bonus)
    s.scratch.max_gain = gain


@kernel
def needs_legal(bot_id: int) -> bool:
    """Return True if policy ``bot_id`` chooses from the enumerated legal actions."""
    return bot_id == Bot.RANDOM


@kernel
def random_policy(s) -> int:
    """Return a uniformly random action of ``scratch.legal[:n_legal]``, drawn on lane BOT + mover."""
    return s.scratch.legal[rng.randint(s.scratch.rng, Lane.BOT + s.meta.mover, s.scratch.n_legal)]


# -- phase 2: pay, play, retire ------------------------------------------------------------


@kernel
def cheapest_in_hand(s, p: int) -> int:
    """Return the hand index of seat ``p``'s lowest-valued card (first on ties)."""
    best, best_i = np.inf, 0
    for i in range(s.piles.hand_n[p]):
        v = s.scratch.values[p, s.piles.hand[p, i]]
        if v < best:
            best, best_i = v, i
    return best_i


@kernel
def best_card_to_play(s, p: int) -> tuple:
    """Return (hand index, value - cost weight x cost) of seat ``p``'s best card the hand can pay for (-1 if none)."""
    best, best_i = -np.inf, -1
    n = s.piles.hand_n[p]
    for i in range(n):
        c = s.piles.hand[p, i]
        if n - 1 >= s.cards[c].cost and s.scratch.net[p, c] > best:  # R5: enough other cards to pay
            best, best_i = s.scratch.net[p, c], i
    return best_i, best


@kernel
def field_value(s, owner: int, slot: int, judge: int) -> float:
    """Return seat ``judge``'s value of ``owner``'s field card at ``slot``, with its current HP and DEF."""
    c = s.field.card[owner, slot]
    w = s.scratch.weights[judge]
    value = s.scratch.values[judge, c] + w[W.HP] * (s.field.hp[owner, slot] - s.cards[c].hp)
    return value + w[W.DEF] * (s.field.def_[owner, slot] - s.cards[c].def_)


@kernel
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
    full = rules.can_retire(s, p)
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
        pts += s.piles.hand_n[p] // s.params.prosperity_step
    return pts


@kernel
def winning_score(s, p: int) -> int:
    """Return a score action of seat ``p`` that reaches ``target_score`` at once (R10), else NO_ACTION."""
    if s.params.target_score - s.tally.score[p] > s.scratch.max_gain:
        return NO_ACTION  # no card of the pool could make it
    need = s.params.target_score - s.tally.score[p]
    for slot in range(s.field.n[p]):
        if rules.can_score(s, p, slot) and score_points(s, p, slot) >= need:
            return encode(ActionKind.SCORE, slot, 0)
    return NO_ACTION


@kernel
def winning_steal(s, p: int) -> int:
    """Return a STEAL attack of seat ``p`` that destroys a card for its last point (R10, R13), else NO_ACTION."""
    for slot in range(s.field.n[p]):
        c = s.field.card[p, slot]
        if s.cards[c].keywords & STEAL and s.field.acts[p, slot] > 0:
            for t in range(s.field.n[1 - p]):
                if rules.can_target(s, p, slot, t) and s.field.hp[1 - p, t] == 1:
                    return encode(ActionKind.ATTACK, slot, ALL_TARGETS if s.cards[c].keywords & OMNI else t)
    return NO_ACTION


@kernel
def best_attack(s, p: int, slot: int, threat: float) -> tuple:
    """Return (target, value) of the best attack of seat ``p``'s card at ``slot`` (target -1 if none; OMNI sums).

    A kill is worth ``act_kill`` x the target's value (+ ``threat`` per its SCORE) plus
    ``act_steal`` with STEAL; a hit that leaves it alive ``act_hit`` x that value / its HP.
    """
    o, w, c = 1 - p, s.scratch.weights[p], s.field.card[p, slot]
    steal = w[W.ACT_STEAL] if s.cards[c].keywords & STEAL else 0.0
    best, best_t, total = -np.inf, -1, 0.0
    for t in range(s.field.n[o]):
        if rules.can_target(s, p, slot, t):  # R8
            target, hp = s.field.card[o, t], s.field.hp[o, t]
            value = field_value(s, o, t, p) + threat * s.cards[target].score
            v = w[W.ACT_KILL] * value + steal if hp <= 1 else w[W.ACT_HIT] * value / hp
            total += v
            if v > best:
                best, best_t = v, t
    if best_t >= 0 and s.cards[c].keywords & OMNI:
        return ALL_TARGETS, total  # R13: one action hits them all
    return best_t, best


@kernel
def card_action(s, p: int, slot: int, threat: float, hold_score: bool, cycle: float) -> tuple:
    """Return (action, value) of the best action of seat ``p``'s card at ``slot`` (NO_ACTION if it has none).

    ``threat`` adds kill value per opposing SCORE, ``hold_score`` skips its score action (draw
    before PROSPERITY scores) and ``cycle`` adds value to a draw that empties the deck.
    """
    w = s.scratch.weights[p]
    c = s.field.card[p, slot]
    best, best_a = -np.inf, NO_ACTION
    if rules.can_score(s, p, slot) and not hold_score:
        best, best_a = w[W.ACT_SCORE] * score_points(s, p, slot), encode(ActionKind.SCORE, slot, 0)
    if rules.can_draw(s, p, slot):
        n = min(s.cards[c].draw, s.piles.deck_n[p], s.params.hand_limit - s.piles.hand_n[p])
        v = w[W.ACT_DRAW] * n + (cycle if n == s.piles.deck_n[p] and s.piles.discard_n[p] > 0 else 0.0)
        if v > best:
            best, best_a = v, encode(ActionKind.DRAW, slot, 0)
    if s.field.acts[p, slot] > 0 and s.cards[c].atk > 0:
        t, v = best_attack(s, p, slot, threat)
        if t >= 0 and v > best:
            best, best_a = v, encode(ActionKind.ATTACK, slot, t)
    if s.cards[c].keywords & FRAGILE and s.field.hp[p, slot] <= 1:  # R11: acting destroys it
        best -= w[W.ACT_SELF_LOSS] * s.scratch.values[p, c]
    return best_a, best


# -- policies ----------------------------------------------------------------------------------


@kernel
def greedy(s) -> int:
    """Return the greedy choice for the mover: cheapest payment, a winning score, the best play,
    then the first ready card (in field order) whose best action is worth ``act_min``."""
    p = s.meta.mover
    if s.meta.phase == Phase.PAY:  # R5: pay with the lowest-valued cards
        return encode(ActionKind.PAY, cheapest_in_hand(s, p), 0)
    a = winning_score(s, p)
    if a == NO_ACTION and s.meta.phase == Phase.PLAY:
        a = play_or_retire(s, p)
    if a != NO_ACTION:
        return a
    for slot in range(s.field.n[p]):
        if s.field.acts[p, slot] > 0:
            a, v = card_action(s, p, slot, 0.0, False, 0.0)
            if a != NO_ACTION and v > s.scratch.weights[p, W.ACT_MIN]:
                return a
    return END_TURN


@kernel
def threat_level(s, p: int) -> float:
    """Return the tuned bot's extra kill value per SCORE: ``threat`` when the opponent's field could soon win."""
    o = 1 - p
    pts = 0
    for t in range(s.field.n[o]):
        pts += s.cards[s.field.card[o, t]].score
    if s.tally.score[o] + s.scratch.weights[p, W.DANGER_TURNS] * pts >= s.params.target_score:
        return s.scratch.weights[p, W.THREAT]
    return 0.0


@kernel
def drawer_waiting(s, p: int) -> bool:
    """Return True if some card of seat ``p`` can still take a draw action worth ``act_min``."""
    w = s.scratch.weights[p]
    room = min(s.piles.deck_n[p], s.params.hand_limit - s.piles.hand_n[p])
    for slot in range(s.field.n[p]):
        n = min(s.cards[s.field.card[p, slot]].draw, room)
        if rules.can_draw(s, p, slot) and w[W.ACT_DRAW] * n > w[W.ACT_MIN]:
            return True
    return False


@kernel
def lethal_score(s, p: int) -> int:
    """Return seat ``p``'s biggest score action if its score actions together reach the target now, else NO_ACTION."""
    if s.params.target_score - s.tally.score[p] > s.scratch.max_gain * s.field.n[p]:
        return NO_ACTION
    total, best, best_slot = 0, 0, -1
    for slot in range(s.field.n[p]):
        if rules.can_score(s, p, slot):
            pts = score_points(s, p, slot)
            total += pts
            if pts > best:
                best, best_slot = pts, slot
    if best_slot >= 0 and s.tally.score[p] + total >= s.params.target_score:
        return encode(ActionKind.SCORE, best_slot, 0)
    return NO_ACTION


@kernel
def tuned(s) -> int:
    """Return the tuned choice for the mover: greedy's phase 2, winning STEAL attacks, all score
    actions when they reach the target this turn, else the most valuable action over the whole
    field (threat-weighted kills, deck-cycling draws, PROSPERITY scores after draws)."""
    p = s.meta.mover
    if s.meta.phase == Phase.PAY:
        return encode(ActionKind.PAY, cheapest_in_hand(s, p), 0)
    a = winning_score(s, p)
    if a == NO_ACTION and s.params.target_score - s.tally.score[p] == 1:
        a = winning_steal(s, p)
    if a == NO_ACTION and s.meta.phase == Phase.PLAY:
        a = play_or_retire(s, p)
    if a != NO_ACTION:
        return a
    a = lethal_score(s, p)
    if a != NO_ACTION:
        return a
    threat = threat_level(s, p)
    hold = s.scratch.weights[p, W.DRAW_FIRST] > 0 and drawer_waiting(s, p)
    best, best_a = s.scratch.weights[p, W.ACT_MIN], END_TURN
    for slot in range(s.field.n[p]):
        if s.field.acts[p, slot] > 0:
            held = hold and s.cards[s.field.card[p, slot]].keywords & PROSPERITY > 0
            a, v = card_action(s, p, slot, threat, held, s.scratch.weights[p, W.CYCLE])
            if a != NO_ACTION and v > best:
                best, best_a = v, a
    return best_a


@kernel
def choose(bot_id: int, s) -> int:
    """Return the action policy ``bot_id`` picks for the mover (random: from ``scratch.legal``)."""
    if bot_id == Bot.RANDOM:
        return random_policy(s)
    if bot_id == Bot.GREEDY:
        return greedy(s)
    return tuned(s)
