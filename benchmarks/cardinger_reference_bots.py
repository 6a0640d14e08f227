"""Cardinger bots in plain Python: ``random``, ``greedy`` and ``tuned`` (``sims/cardinger/bots.py``, ``appraise.py``).

Part of the plain-Python reference (``cardinger_reference.py`` holds the rules and loads
this module). Each function takes a ``cardinger_reference.Game`` and mirrors its kernel
namesake: same decisions, same float arithmetic in the same order, so the differential
test can compare every column. Values are on two scales (see ``appraise``): static card
values (``BotView``) and action values (``act_*`` weights).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cardinger_reference import (
    ALL_TARGETS,
    ATTACK,
    DECAY,
    DEVOUR,
    DOUBLE,
    DRAW,
    END_TURN,
    FRAGILE,
    LANE_BOT,
    OMNI,
    PAY,
    PAY_PHASE,
    PLAY,
    PLAY_PHASE,
    PROSPERITY,
    READY,
    RETIRE,
    SCORE,
    STEAL,
    Card,
    InPlay,
)

# Bot weights: the order of weights.BotParams fields
(
    W_SCORE, W_DRAW, W_ATK, W_DEF, W_HP, W_READY, W_DOUBLE, W_OMNI, W_STEAL, W_PROSPERITY, W_FRAGILE,
    W_DECAY, W_DEVOUR, W_COST, W_PLAY_MIN, W_RETIRE_MARGIN, W_ACT_SCORE, W_ACT_DRAW, W_ACT_KILL, W_ACT_HIT,
    W_ACT_STEAL, W_ACT_SELF_LOSS, W_ACT_MIN, W_THREAT, W_DANGER_TURNS, W_DRAW_FIRST, W_CYCLE, W_DISCARD,
) = range(28)  # fmt: skip

SELF_EFFECTS = DEVOUR | DECAY | FRAGILE
Action = tuple[int, int, int]


class BotView:
    """A seat's static card values from its weights (``appraise.card_values``)."""

    def __init__(self, cards: list[Card], w: Sequence[float]) -> None:
        self.w = w = [float(x) for x in w] + [0.0] * (W_DISCARD + 1 - len(w))
        self.values: list[float] = []
        self.net: list[float] = []
        for card in cards:
            kw = card.keywords
            # the additions are grouped exactly as in the kernel: float results are bit-identical
            v = w[W_SCORE] * card.score + w[W_DRAW] * card.draw + w[W_ATK] * card.atk
            v += w[W_DEF] * card.def_ + w[W_HP] * card.hp
            v += w[W_READY] * (kw & READY > 0) + w[W_DOUBLE] * (kw & DOUBLE > 0) + w[W_OMNI] * (kw & OMNI > 0)
            v += w[W_STEAL] * (kw & STEAL > 0) + w[W_PROSPERITY] * (kw & PROSPERITY > 0)
            v += w[W_FRAGILE] * (kw & FRAGILE > 0) + w[W_DECAY] * (kw & DECAY > 0) + w[W_DEVOUR] * (kw & DEVOUR > 0)
            self.values.append(v)
            self.net.append(v - w[W_COST] * card.cost)  # value of playing it, its cost cards not yet priced


def max_gain(cards: list[Card], rules: Any) -> int:
    """Return the most points one score action of the pool can make (PROSPERITY at a full hand)."""
    gain = 0
    for card in cards:
        bonus = rules.hand_limit // rules.prosperity_step if card.keywords & PROSPERITY else 0
        gain = max(gain, card.score + bonus)
    return gain


def random_bot(game: Any) -> Action:
    """Pick uniformly among the legal actions, on the mover's bot lane."""
    legal = game.legal_actions()
    return legal[game.rng.randint(LANE_BOT + game.mover, len(legal))]


# -- values (appraise.py) ------------------------------------------------------------------


def field_value(game: Any, owner: int, slot: int, view: BotView) -> float:
    """Return a seat's value (``view``) of ``owner``'s field card at ``slot``, with its current HP and DEF."""
    f = game.field[owner][slot]
    w = view.w
    value = view.values[f.card.id] + w[W_HP] * (f.hp - f.card.hp)
    return value + w[W_DEF] * (f.def_ - f.card.def_)


def cheapest_in_hand(game: Any, p: int, view: BotView) -> int:
    """Return the hand index of the lowest-valued card (first on ties)."""
    best, best_i = math.inf, 0
    for i, c in enumerate(game.hand[p]):
        if view.values[c] < best:
            best, best_i = view.values[c], i
    return best_i


def discard_value(game: Any, p: int, skip: int, k: int, view: BotView) -> float:
    """Return the summed values of the ``k`` lowest-valued hand cards other than index ``skip`` (PAY's choice)."""
    taken: set[int] = set()
    total = 0.0
    for _ in range(k):
        best, best_i = math.inf, 0
        for i, c in enumerate(game.hand[p]):
            if i != skip and i not in taken and view.values[c] < best:
                best, best_i = view.values[c], i
        taken.add(best_i)
        total += best
    return total


def prosperity_outlook(game: Any, p: int) -> tuple[int, int]:
    """Return (PROSPERITY cards that can still score, cards the other ready drawers can draw, capped by room)."""
    scorers = drawable = 0
    for f in game.field[p]:
        if f.card.keywords & PROSPERITY:
            scorers += game.can_score(f)
        elif game.can_draw(p, f):
            drawable += f.card.draw
    room = min(len(game.deck[p]), game.hand_limit - len(game.hand[p]))
    return scorers, min(drawable, room)


def play_or_retire(game: Any, p: int, view: BotView) -> Action | None:
    """Return the best priced PLAY (or, with a full field, a RETIRE for a clearly better card), else None."""
    if game.plays_left <= 0:
        return None
    w = view.w
    step = game.rules.prosperity_step
    hand = game.hand[p]
    n = len(hand)
    scorers, _ = prosperity_outlook(game, p)
    best, best_i = -math.inf, -1
    for i, c in enumerate(hand):  # best value less price the hand can pay for (R5)
        k = game.cards[c].cost
        if n - 1 >= k:
            price = 0.0
            if k > 0 and w[W_DISCARD] != 0.0:
                price += w[W_DISCARD] * discard_value(game, p, i, k, view)
            if scorers > 0:
                price += w[W_ACT_SCORE] * scorers * (n // step - (n - 1 - k) // step)
            v = view.net[c] - price
            if v > best:
                best, best_i = v, i
    if best_i < 0 or best < w[W_PLAY_MIN]:
        return None
    if not game.can_retire(p):
        return (PLAY, best_i, 0)
    weak, weak_slot = math.inf, 0
    for slot in range(len(game.field[p])):  # weakest field card
        v = field_value(game, p, slot, view)
        if v < weak:
            weak, weak_slot = v, slot
    if best - weak >= w[W_RETIRE_MARGIN]:
        return (RETIRE, weak_slot, 0)
    return None


def score_points(game: Any, p: int, f: InPlay) -> int:
    """Return the points a score action of field card ``f`` would make now (R14)."""
    pts = f.card.score
    if f.card.keywords & PROSPERITY:
        pts += len(game.hand[p]) // game.rules.prosperity_step
    return pts


def hit_value(card: Card, view: BotView, value: float, hp: int) -> float:
    """Return the value of one attack by ``card`` on a target worth ``value`` with ``hp`` HP (kill or hit)."""
    w = view.w
    steal = w[W_ACT_STEAL] if card.keywords & STEAL else 0.0
    return w[W_ACT_KILL] * value + steal if hp <= 1 else w[W_ACT_HIT] * value / hp


def best_attack(game: Any, p: int, f: InPlay, view: BotView, threat: float) -> tuple[int, float, int, float]:
    """Return (target, value, first target, value) of one attack and of two (DOUBLE) attacks of field card ``f``."""
    o, card = 1 - p, f.card
    twice = f.acts >= 2
    hp_weight = view.w[W_HP]
    best, best_t, second, total, total2 = -math.inf, -1, -math.inf, 0.0, 0.0
    pair, pair_t = -math.inf, -1
    for t, g in enumerate(game.field[o]):
        if card.atk > g.def_:  # R8
            value = field_value(game, o, t, view) + threat * g.card.score
            v = hit_value(card, view, value, g.hp)
            total += v
            if v > best:
                best, best_t, second = v, t, best
            elif v > second:
                second = v
            if twice and g.hp >= 2:  # the second attack hits it again, one HP lower
                v2 = hit_value(card, view, value - hp_weight, g.hp - 1)
                total2 += v2
                if v + max(v2, 0.0) > pair:
                    pair, pair_t = v + max(v2, 0.0), t
    omni = card.keywords & OMNI
    first = ALL_TARGETS if best_t >= 0 and omni else best_t
    one = total if omni else best
    if best_t < 0 or not twice:
        return first, one, -1, -math.inf
    if omni:  # two OMNI actions: the second hits the survivors
        return first, one, first, total + max(total2, 0.0)
    spread = best + max(second, 0.0)
    if spread >= pair:
        return first, one, best_t, spread
    return first, one, pair_t, pair


def self_change(game: Any, p: int, slot: int, times: int, view: BotView) -> float:
    """Return the action value of the change ``times`` actions make to the acting card (R11; -inf: dies too early)."""
    f = game.field[p][slot]
    kw = f.card.keywords
    if not kw & SELF_EFFECTS:
        return 0.0
    w = view.w
    hp, def_ = f.hp, f.def_
    for k in range(times):
        if kw & DEVOUR and hp < game.rules.devour_hp_cap:
            hp += 1
        if kw & DECAY and def_ > 0:
            def_ -= 1
        if kw & FRAGILE:
            hp -= 1
        if hp <= 0:
            return -w[W_ACT_SELF_LOSS] * field_value(game, p, slot, view) if k == times - 1 else -math.inf
    return w[W_ACT_SELF_LOSS] * (w[W_HP] * (hp - f.hp) + w[W_DEF] * (def_ - f.def_))


def card_action(
    game: Any, p: int, slot: int, view: BotView, threat: float, hold: bool, cycle: float, outlook: tuple[int, int]
) -> tuple[Action | None, float]:
    """Return (action, value) of the best action of seat ``p``'s card at ``slot`` (None if it has none)."""
    w = view.w
    f = game.field[p][slot]
    card = f.card
    step = game.rules.prosperity_step
    scorers, drawable = outlook
    hand = len(game.hand[p])
    best, best_a = -math.inf, None
    if game.can_score(f) and not hold:
        best, best_a = w[W_ACT_SCORE] * score_points(game, p, f), (SCORE, slot, 0)
        if card.keywords & PROSPERITY and drawable > 0:
            best -= w[W_ACT_SCORE] * ((hand + drawable) // step - hand // step)
    if game.can_draw(p, f):
        deck = len(game.deck[p])
        n = min(card.draw, deck, game.hand_limit - hand)
        v = w[W_ACT_DRAW] * n + (cycle if n == deck and game.discard[p] else 0.0)
        if scorers > 0 and not card.keywords & PROSPERITY:
            v += w[W_ACT_SCORE] * scorers * ((hand + n) // step - hand // step)
        if v > best:
            best, best_a = v, (DRAW, slot, 0)
    t2, v2 = -1, -math.inf
    if f.acts > 0 and card.atk > 0:
        t, v, t2, v2 = best_attack(game, p, f, view, threat)
        if t >= 0 and v > best:
            best, best_a = v, (ATTACK, slot, t)
    if best_a is not None:
        best += self_change(game, p, slot, 1, view)
    if t2 >= 0:
        v2 += self_change(game, p, slot, 2, view)
        if v2 > best:
            best, best_a = v2, (ATTACK, slot, t2)
    return best_a, best


def best_field_action(game: Any, p: int, view: BotView, threat: float, hold: bool, cycle: float):
    """Return (action, value) of the most valuable action over the whole field (None, -inf if none)."""
    outlook = prosperity_outlook(game, p)
    best, best_a = -math.inf, None
    for slot, f in enumerate(game.field[p]):
        if f.acts > 0:
            held = hold and f.card.keywords & PROSPERITY > 0
            a, v = card_action(game, p, slot, view, threat, held, cycle, outlook)
            if a is not None and v > best:
                best, best_a = v, a
    return best_a, best


# -- policies (bots.py) -------------------------------------------------------------------------


def winning_score(game: Any, p: int) -> Action | None:
    """Return a score action that reaches the target at once (R10), else None."""
    need = game.target - game.score[p]
    if need > game.ref.max_gain:
        return None  # no card of the pool could make it
    for slot, f in enumerate(game.field[p]):
        if game.can_score(f) and score_points(game, p, f) >= need:
            return (SCORE, slot, 0)
    return None


def winning_steal(game: Any, p: int) -> Action | None:
    """Return a STEAL attack that destroys a card for the last point (R10, R13), else None."""
    for slot, f in enumerate(game.field[p]):
        if f.card.keywords & STEAL and f.acts > 0:
            for t, g in enumerate(game.field[1 - p]):
                if f.card.atk > g.def_ and g.hp == 1:
                    return (ATTACK, slot, ALL_TARGETS if f.card.keywords & OMNI else t)
    return None


def phase_two(game: Any, p: int, view: BotView, steal: bool) -> Action | None:
    """Return the shared start of greedy and tuned: PAY, a winning score (or STEAL), the best play; else None."""
    if game.phase == PAY_PHASE:  # pay with the lowest-valued card (first on ties)
        return (PAY, cheapest_in_hand(game, p, view), 0)
    a = winning_score(game, p)
    if a is None and steal and game.target - game.score[p] == 1:
        a = winning_steal(game, p)
    if a is None and game.phase == PLAY_PHASE:
        a = play_or_retire(game, p, view)
    return a


def greedy_bot(game: Any) -> Action:
    """Cheapest payment, a winning score, the best priced play, then the best field action above ``act_min``."""
    p = game.mover
    view = game.ref.views[p]
    a = phase_two(game, p, view, False)
    if a is not None:
        return a
    a, v = best_field_action(game, p, view, 0.0, False, 0.0)
    return a if a is not None and v > view.w[W_ACT_MIN] else END_TURN


def threat_level(game: Any, p: int, view: BotView) -> float:
    """Return the tuned bot's extra kill value per SCORE: ``threat`` when the opponent's field could soon win."""
    o = 1 - p
    pts = sum(g.card.score for g in game.field[o])
    if game.score[o] + view.w[W_DANGER_TURNS] * pts >= game.target:
        return view.w[W_THREAT]
    return 0.0


def drawer_waiting(game: Any, p: int, view: BotView) -> bool:
    """Return True if some card can still take a draw action worth ``act_min``."""
    w = view.w
    room = min(len(game.deck[p]), game.hand_limit - len(game.hand[p]))
    for f in game.field[p]:
        n = min(f.card.draw, room)
        if game.can_draw(p, f) and w[W_ACT_DRAW] * n > w[W_ACT_MIN]:
            return True
    return False


def lethal_score(game: Any, p: int) -> Action | None:
    """Return the biggest score action if the score actions together reach the target now, else None."""
    if game.target - game.score[p] > game.ref.max_gain * len(game.field[p]):
        return None
    total, best, best_slot = 0, 0, -1
    for slot, f in enumerate(game.field[p]):
        if game.can_score(f):
            pts = score_points(game, p, f)
            total += pts
            if pts > best:
                best, best_slot = pts, slot
    if best_slot >= 0 and game.score[p] + total >= game.target:
        return (SCORE, best_slot, 0)
    return None


def tuned_bot(game: Any) -> Action:
    """Greedy's phase 2 with a winning STEAL, all scores when lethal, then the best threat-aware field action."""
    p = game.mover
    view = game.ref.views[p]
    a = phase_two(game, p, view, True)
    if a is None:
        a = lethal_score(game, p)
    if a is not None:
        return a
    w = view.w
    hold = w[W_DRAW_FIRST] > 0 and drawer_waiting(game, p, view)
    a, v = best_field_action(game, p, view, threat_level(game, p, view), hold, w[W_CYCLE])
    return a if a is not None and v > w[W_ACT_MIN] else END_TURN


BOT_FUNCS = {"random": random_bot, "greedy": greedy_bot, "tuned": tuned_bot}
