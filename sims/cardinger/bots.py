"""Cardinger bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

Every policy sees what R19 allows: both fields (with damage and DECAY), scores, pile
sizes and its own hand, never the opponent's hand or any deck order. Policies read the
state and return one encoded action (``state.encode``); they never change the position
(the random bot only advances its own RNG lane; greedy and tuned write only their work
buffer ``scratch.hand_values``).

Weights (``weights.BotParams``, one float vector per seat) are shared by all bots;
``appraise.card_values`` turns them into a static value per card once per batch, and
``appraise`` values plays and actions, so a decision costs O(hand x cost + field x
opposing field) with small constants.
"""

from enum import IntEnum

import numpy as np

from sims.cardinger.actions import can_draw, can_score, can_target
from sims.cardinger.appraise import (  # noqa: F401  (card_values: re-exported for kernel.prepare)
    NO_ACTION,
    best_field_action,
    card_values,
    cheapest_in_hand,
    greedy_field_action,
    play_or_retire,
    score_points,
)
from sims.cardinger.state import ALL_TARGETS, END_TURN, OMNI, STEAL, ActionKind, Lane, Phase, encode, opponent
from sims.cardinger.weights import DEFAULTS, BotParams, W  # noqa: F401  (re-exported: the bot API)
from sims.core import rng
from sims.core.jit import hot, kernel


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0  # uniform over the legal actions
    GREEDY = 1  # one pass: winning score, best priced play, then the best action over the field
    TUNED = 2  # greedy plus STEAL lethal, all-scores lethal, threat-weighted kills, deck cycling; tuned weights


@kernel
def needs_legal(bot_id: int) -> bool:
    """Return True if policy ``bot_id`` chooses from the enumerated legal actions."""
    return bot_id == Bot.RANDOM


@kernel
def random_policy(s) -> int:
    """Return a uniformly random action of ``scratch.legal[:n_legal]``, drawn on lane BOT + mover."""
    return s.scratch.legal[rng.randint(s.scratch.rng, np.int64(Lane.BOT + s.meta.mover), np.int64(s.scratch.n_legal))]


@hot
def winning_score(s, p: int) -> int:
    """Return a score action of seat ``p`` that reaches ``target_score`` at once (R10), else NO_ACTION."""
    if s.params.target_score - s.tally.score[p] > s.scratch.max_gain:
        return NO_ACTION  # no card of the pool could make it
    need = s.params.target_score - s.tally.score[p]
    for slot in range(s.field.n[p]):
        if can_score(s, p, slot) and score_points(s, p, slot) >= need:
            return encode(ActionKind.SCORE, slot, 0)
    return NO_ACTION


@kernel
def winning_steal(s, p: int) -> int:
    """Return a STEAL attack of seat ``p`` that destroys a card for its last point (R10, R13), else NO_ACTION."""
    for slot in range(s.field.n[p]):
        c = s.field.card[p, slot]
        if s.cards[c].keywords & STEAL and s.field.acts[p, slot] > 0:
            for t in range(s.field.n[opponent(p)]):
                if can_target(s, p, slot, t) and s.field.hp[opponent(p), t] == 1:
                    return encode(ActionKind.ATTACK, slot, ALL_TARGETS if s.cards[c].keywords & OMNI else t)
    return NO_ACTION


@hot
def greedy(s) -> int:
    """Return the greedy choice for the mover: cheapest payment, a winning score, the best priced play,
    then the most valuable action over the whole field if it is worth more than ``act_min``."""
    p = s.meta.mover
    if s.meta.phase == Phase.PAY:  # R5: pay with the lowest-valued cards
        return encode(ActionKind.PAY, cheapest_in_hand(s, p), 0)
    a = winning_score(s, p)
    if a == NO_ACTION and s.meta.phase == Phase.PLAY:
        a = play_or_retire(s, p)
    if a != NO_ACTION:
        return a
    a, v = greedy_field_action(s, p)
    if a != NO_ACTION and v > s.scratch.weights[p, W.ACT_MIN]:
        return a
    return END_TURN


@kernel
def threat_level(s, p: int) -> float:
    """Return the tuned bot's extra kill value per SCORE: ``threat`` when the opponent's field could soon win."""
    o = opponent(p)
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
        if can_draw(s, p, slot) and w[W.ACT_DRAW] * n > w[W.ACT_MIN]:
            return True
    return False


@kernel
def lethal_score(s, p: int) -> int:
    """Return seat ``p``'s biggest score action if its score actions together reach the target now, else NO_ACTION."""
    if s.params.target_score - s.tally.score[p] > s.scratch.max_gain * s.field.n[p]:
        return NO_ACTION
    total, best, best_slot = 0, 0, -1
    for slot in range(s.field.n[p]):
        if can_score(s, p, slot):
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
    field (threat-weighted kills, deck-cycling draws, optionally PROSPERITY scores after draws)."""
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
    w = s.scratch.weights[p]
    hold = w[W.DRAW_FIRST] > 0 and drawer_waiting(s, p)
    a, v = best_field_action(s, p, threat_level(s, p), hold, w[W.CYCLE])
    if a != NO_ACTION and v > w[W.ACT_MIN]:
        return a
    return END_TURN


@hot
def choose(bot_id: int, s) -> int:
    """Return the action policy ``bot_id`` picks for the mover (random: from ``scratch.legal``)."""
    if bot_id == Bot.RANDOM:
        return random_policy(s)
    if bot_id == Bot.GREEDY:
        return greedy(s)
    return tuned(s)
