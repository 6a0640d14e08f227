"""Blessings & Curses bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

A policy sees both hands as R4 allows: with ``open_hands`` every card and its Health,
otherwise the opposing hand as positions only (an unseen card counts as an average card
of the pool, at full Health). Both pools and all pile sizes are public. Policies return
one encoded action (``state.encode``); only ``arrange`` (``player_arranged``, R4)
reorders its own seat's hand. Greedy writes its work buffer only (``scratch.cand_*``: the card
values it reuses at its next decision after a pool action, ``card_choice``).

- ``random``: surrenders with probability ``surrender_rate`` at each surrender decision
  (a turn's start and, with ``own_turn``, its end); plays a uniformly chosen card of those
  still to play (so a uniformly random order, R7) with a uniformly chosen legal action
  kind and target; it ignores ``order``.
- ``greedy``: each card takes the action of highest value (attack: Health removed and
  kills; curse, bless, discard: pool points), each weighted; it plays next the most valued
  card whose best action is an attack, and when none is, the most valued card (``order``
  = 2, ``next_card``; ties to the leftmost; 0 = left to right, 1 = by value alone).
  Surrenders when the pools already decide the next battle start in its favour (the
  opponent is wiped out and it is not) or both would be wiped out; and (``race`` > 0)
  concedes a race it is losing: when the curse-type cards the opponent holds would take
  its curse pool to its wipe-out line on the opponent's next turn.
- ``tactician``: greedy's structure, the most valued card next (``order`` = 1), plus:
  kills of opposing curse-type cards are worth the curse they would send next turn
  (denial), damage that sets up a kill the rest of the hand can finish counts (so a big
  attack goes before the small card that finishes it), curse past the opponent's wipe-out
  line counts for little,
  Health removed from the opposing hand counts like curse when this turn can end the game
  (``carryover_hand`` with ``own_turn``), blessing counts as protection when it is applied
  before curses (R16), and it surrenders a battle it expects to lose: when the opponent's
  next turn is expected (``next_curse``, ``next_hit``: each card counted once, as it would
  be played) to push it past its wipe-out line while the opponent stays safe (R13).

The race estimate models the opponent's play of each card with the deciding seat's own
greedy valuation against a fresh card (``modelled_play``), computed once per batch.
"""

from enum import IntEnum

import numpy as np

from sims.blessings import kernel as rules
from sims.blessings.race import (  # noqa: F401  (re-exported: bots.<name> names every piece of a policy)
    coming,
    concede,
    doomed,
    fresh_line,
    guard_of,
    hand_curse,
    line_when_opponent_moves,
    modelled_play,
    prime,
    race_surrender,
    seen_hp,
    settled_surrender,
    threat,
    turn_draws,
    wipe_line,
)
from sims.blessings.state import (
    NO_CARD,
    ActionKind,
    CardType,
    EventKind,
    HandOrder,
    Lane,
    Phase,
    PoolTarget,
    Purpose,
    Surrender,
    action_kind,
    encode,
    opponent,
)
from sims.blessings.weights import DEFAULTS, ORDER_ATTACKS_FIRST, ORDER_BEST, BotParams, W  # noqa: F401
from sims.core import rng
from sims.core.jit import hot, kernel

DISCARD, CURSE, BLESS = int(ActionKind.DISCARD), int(ActionKind.CURSE), int(ActionKind.BLESS)  # pool actions


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0
    GREEDY = 1
    TACTICIAN = 2


# -- what each card is worth --------------------------------------------------------------------


@kernel
def press_gap(s, p: int) -> int:
    """Return the curse the opposing hand still needs to be wiped out, if an attack can count for it; else -1.

    Only with ``carryover_hand`` and ``own_turn``: at the end of its turn ``p`` may
    surrender into the opponent's wipe-out, and every point of Health its attacks remove
    from the opposing hand brings that nearer like a curse point.
    """
    if s.params.pool_target != PoolTarget.CARRYOVER_HAND or s.params.surrender != Surrender.OWN_TURN:
        return -1
    gap = wipe_line(s, np.int64(p), np.int64(opponent(p))) - s.pools.curse[opponent(p)]
    return gap if gap > 0 else -1


@kernel
def card_reach(s, p: int, c: int) -> int:
    """Return what seat ``p``'s card ``c`` could add to the pressure: its curse or its damage on a fresh card."""
    v = rules.pool_value(s, p, c) if s.cards[c].type == CardType.CURSE else 0
    return max(v, min(rules.attack_damage(s, c), s.params.card_health))


@kernel
def press_reach(s, p: int, skip: int) -> int:
    """Return what seat ``p``'s cards still to play, other than hand index ``skip``, could add to the pressure."""
    reach = 0
    for i in range(s.meta.to_play):
        if i != skip:
            reach += card_reach(s, p, s.piles.hand[p, i])
    return reach


@hot
def attack_value(s, p: int, c: int, j: int, tactician: bool, power_left: float, gap: int, reach: int) -> float:
    """Return the value of seat ``p``'s card ``c`` attacking opposing hand card ``j``.

    ``gap`` and ``reach`` (``press_gap``, ``press_reach``): when this attack and the cards
    after it can close the gap this turn, the Health it removes counts like curse. For the
    tactician, Health removed counts at all only when the pools hit the hand in play
    (``carryover_hand``); under ``fresh_hand`` an attack is worth the card it destroys
    (the kill and the curse it denies), and damage that does not kill is worth nothing.
    """
    o = opponent(p)
    w = s.scratch.weights[p]
    dmg = rules.attack_damage(s, c)
    h = seen_hp(s, p, o, j)
    removed = min(dmg, h)
    health = 1.0 if not tactician or s.params.pool_target == PoolTarget.CARRYOVER_HAND else 0.0
    pressed = 0.0
    if tactician and gap > 0 and removed + reach >= gap:
        pressed = w[W.PRESS] * min(removed, gap)
    if dmg >= h:
        value = health * w[W.ATTACK] * h + w[W.KILL]
        if tactician:
            value += w[W.DENY] * threat(s, p, o, j) - w[W.OVERKILL] * (dmg - h) + pressed
        return value
    value = health * w[W.ATTACK] * dmg + pressed
    if tactician and power_left >= h - dmg:  # the rest of the hand can finish it
        value += health * w[W.FOCUS] * (w[W.KILL] + w[W.DENY] * threat(s, p, o, j)) * dmg / h
    return value


@hot
def curse_value(s, p: int, c: int, tactician: bool, short: int) -> float:
    """Return the value of cursing with seat ``p``'s card ``c``; ``short``: the curse the opponent still needs."""
    w = s.scratch.weights[p]
    v = rules.pool_value(s, p, c)
    if not tactician:
        return w[W.CURSE] * v
    useful = min(v, max(0, short))
    return w[W.CURSE] * (useful + w[W.EXCESS] * (v - useful))


@hot
def bless_value(s, p: int, v: int, weight: float, tactician: bool, need: int) -> float:
    """Return the value of ``v`` blessing points for seat ``p`` (bless or discard).

    Tactician, blessing before curses (R16): the blessing is the last buffer against the
    curse already on ``p``, so each point counts (``guard``) up to what ``p`` still needs
    to survive it (``need``: the curse past its line, plus one); past that, surrendering
    protects ``p`` better (the pools reset).
    """
    w = s.scratch.weights[p]
    value = weight * v
    if tactician and s.params.blessing_before_curses and need > 0:
        value += w[W.GUARD] * min(v, need)
    return value


@kernel
def attack_power(s, p: int, skip: int) -> float:
    """Return the damage seat ``p``'s cards still to play could deal, except hand index ``skip``."""
    total = 0.0
    for i in range(s.meta.to_play):
        if i != skip:
            total += rules.attack_damage(s, s.piles.hand[p, i])
    return total


@hot
def outlook(s, p: int, tactician: bool) -> tuple[float, int, int, int, int]:
    """Return what seat ``p``'s card values share at this decision: (power, gap, reach, short, need).

    ``power``: the damage of every card still to play (``attack_power``); ``gap``:
    ``press_gap``; ``reach``: every card's ``card_reach`` (when ``gap`` > 0); ``short``: the
    curse the opponent still needs to be wiped out; ``need``: the curse past ``p``'s own line,
    plus one (blessing before curses). Only the tactician reads them (greedy gets zeros).
    Each card takes its own part out of ``power`` and ``reach`` (``best_for_card``).

    Only the test is copied into the caller: greedy's decision makes no call for its zeros;
    the tactician's is one call of ``tactician_outlook``.
    """
    if not tactician:
        return 0.0, -1, 0, 0, 0
    return tactician_outlook(s, p)


@kernel
def tactician_outlook(s, p: int) -> tuple[float, int, int, int, int]:
    """Return ``outlook`` for the tactician (every part computed)."""
    o = opponent(p)
    gap = press_gap(s, p)
    reach = press_reach(s, p, np.int64(-1)) if gap > 0 else 0
    short = wipe_line(s, np.int64(p), np.int64(o)) - s.pools.curse[o]
    need = s.pools.curse[p] - wipe_line(s, np.int64(p), np.int64(p)) + 1 if s.params.blessing_before_curses else 0
    return attack_power(s, p, np.int64(-1)), gap, reach, short, need


@hot
def pool_action(s, p: int, c: int, tactician: bool, short: int, need: int) -> tuple[int, float]:
    """Return (ActionKind, value) of seat ``p``'s best pool action with card ``c``: curse or bless (by its type)
    or discard; ties to the curse or the bless. ``short``, ``need``: the decision's ``outlook`` (tactician only).

    Greedy's does not depend on the position (the weights, the card and the face bonus only): ``pool_choices``
    computes it once a batch.
    """
    w = s.scratch.weights[p]
    kind = DISCARD
    best_v = w[W.DISCARD] * rules.discard_value(s, p, c)
    if tactician:
        best_v = bless_value(s, p, rules.discard_value(s, p, c), w[W.DISCARD], True, need)
    if s.cards[c].type == CardType.CURSE:
        v = curse_value(s, p, c, tactician, short)
        if v >= best_v:
            kind, best_v = CURSE, v
    else:
        v = bless_value(s, p, rules.pool_value(s, p, c), w[W.BLESS], tactician, need)
        if v >= best_v:
            kind, best_v = BLESS, v
    return kind, best_v


@kernel
def pool_choices(s) -> None:
    """Fill ``scratch.pool_kind[p, c]`` and ``pool_best[p, c]`` in place: greedy's ``pool_action`` of each seat's
    every card (once per batch, after the weights)."""
    for p in range(2):
        for c in range(s.meta.n_cards):
            s.scratch.pool_kind[p, c], s.scratch.pool_best[p, c] = pool_action(s, p, c, False, 0, 0)


@hot
def best_for_card(
    s, p: int, i: int, tactician: bool, power: float, gap: int, reach: int, short: int, need: int
) -> tuple[int, float]:
    """Return the best encoded action for seat ``p``'s hand card ``i`` and its value.

    ``power`` .. ``need``: the decision's ``outlook``. Ties between actions: attack (the
    later target), curse, bless, discard. Greedy reads its pool action from ``pool_choices``' table.
    """
    c = s.piles.hand[p, i]
    o = opponent(p)
    if tactician:
        kind, best_v = pool_action(s, p, c, True, short, need)
    else:
        kind, best_v = np.int64(s.scratch.pool_kind[p, c]), s.scratch.pool_best[p, c]
    best = encode(kind, i, 0)
    dmg = rules.attack_damage(s, c)
    if dmg > 0:
        power_left = power - dmg  # the rest of the hand (exact: whole numbers)
        reach_left = reach - card_reach(s, p, c) if gap > 0 else 0
        for j in range(s.piles.hand_n[o]):
            v = attack_value(s, p, c, j, tactician, power_left, gap, reach_left)
            if v >= best_v:
                best, best_v = encode(ActionKind.ATTACK, i, j), v
    return best, best_v


@hot
def card_choice(
    s, p: int, i: int, cached: bool, tactician: bool, power: float, gap: int, reach: int, short: int, need: int
) -> tuple[int, float]:
    """Return ``best_for_card`` of seat ``p``'s hand card ``i``; greedy keeps it per card (``scratch.cand_a``,
    ``cand_v``) and, with ``cached``, reads it from there instead.

    Greedy's values depend on the card, the weights and the opposing hand only: after a curse, bless or
    discard of its own turn nothing they read has changed (``next_card`` says when).
    """
    c = s.piles.hand[p, i]
    if cached:
        return s.scratch.cand_a[c] | (i << 7), s.scratch.cand_v[c]  # encode(kind, i, j): i in bits 7-13
    a, v = best_for_card(s, p, i, tactician, power, gap, reach, short, need)
    if not tactician:
        s.scratch.cand_a[c], s.scratch.cand_v[c] = a ^ (i << 7), v
    return a, v


@hot
def next_card(s, p: int, tactician: bool) -> int:
    """Return the encoded action for the card seat ``p`` plays next (R7: any order) and that card's action.

    By the ``order`` weight: below ``ORDER_BEST`` the leftmost card (the bots before
    rules_version 3); from ``ORDER_BEST`` the card still to play whose best action
    (``best_for_card``) is worth the most; from ``ORDER_ATTACKS_FIRST`` the most valued of
    the cards whose best action is an attack, and only when none is, the most valued card:
    a card spent on a pool (curse, bless, discard) then decides after the attacks have
    wounded what it might finish. Ties go to the leftmost card. Only the cards still to
    play are candidates; the replacements drawn this turn wait for the next (R7).

    Greedy's next decision of the same turn after a pool action (the one it chose here: the turn
    and the cards left say it came next) reuses this one's card values (``card_choice``).
    """
    power, gap, reach, short, need = outlook(s, p, tactician)
    order = s.scratch.weights[p, W.ORDER]
    if order < ORDER_BEST:
        return best_for_card(s, p, 0, tactician, power, gap, reach, short, need)[0]
    m, sc = s.meta, s.scratch
    cached = not tactician and sc.cand_game == m.game and sc.cand_turn == m.turn and sc.cand_left == m.to_play
    best, best_v = card_choice(s, p, 0, cached, tactician, power, gap, reach, short, need)
    attacks_first = order >= ORDER_ATTACKS_FIRST
    best_hits = action_kind(best) == ActionKind.ATTACK
    for i in range(1, m.to_play):
        a, v = card_choice(s, p, i, cached, tactician, power, gap, reach, short, need)
        hits = action_kind(a) == ActionKind.ATTACK
        if hits if attacks_first and hits != best_hits else v > best_v:  # attacks first: an attack beats a pool
            best, best_v, best_hits = a, v, hits
    if not tactician:  # an attack changes the opposing hand: the next decision values every card again
        sc.cand_game, sc.cand_turn, sc.cand_left = m.game, m.turn, -1 if best_hits else m.to_play - 1
    return best


@kernel
def choose_random(s) -> int:
    """Uniform card, uniform legal action kind, uniform target; surrender with ``surrender_rate``."""
    m = s.meta
    p = m.mover
    lane = np.int64(Lane.BOT + p)
    if m.phase == Phase.SURRENDER or m.phase == Phase.SURRENDER_END:
        roll = rng.randint(s.scratch.rng, lane, np.int64(1_000_000)) / 1_000_000
        kind = ActionKind.SURRENDER if roll < s.scratch.weights[p, W.SURRENDER_RATE] else ActionKind.PLAY_ON
        return encode(kind, 0, 0)
    i = rng.randint(s.scratch.rng, lane, np.int64(m.to_play))
    c = s.piles.hand[p, i]
    targets = s.piles.hand_n[opponent(p)]
    n_kinds = 2 if targets > 0 else 1  # bless or curse (by type) + discard, + attack
    k = rng.randint(s.scratch.rng, lane, np.int64(n_kinds + 1))
    if k == 0:
        return encode(ActionKind.DISCARD, i, 0)
    if k == 1:
        kind = ActionKind.CURSE if s.cards[c].type == CardType.CURSE else ActionKind.BLESS
        return encode(kind, i, 0)
    return encode(ActionKind.ATTACK, i, rng.randint(s.scratch.rng, lane, np.int64(targets)))


@hot
def choose_heuristic(s, tactician: bool) -> int:
    """Greedy and tactician: the surrender rules, then the next card and its best action (``next_card``).

    A race is judged where the seat can best end the battle: with ``own_turn`` at the end
    of its turn (its hand is fresh then and its curses are sent; at the start only a
    settled result is taken), with ``turn_start`` at the start. A seat never gives up a
    race while its curse pool already wipes it out (that surrender is a certain loss;
    playing on refreshes its hand).
    """
    m = s.meta
    p = m.mover
    if m.phase == Phase.SURRENDER or m.phase == Phase.SURRENDER_END:
        at_end = m.phase == Phase.SURRENDER_END
        give_up = settled_surrender(s, p)
        racing = at_end or s.params.surrender == Surrender.TURN_START
        racing = racing and not give_up and s.scratch.weights[p, W.RACE] > 0
        if racing and not doomed(s, np.int64(p), np.int64(p)) and not doomed(s, np.int64(p), np.int64(opponent(p))):
            give_up = race_surrender(s, p, at_end) if tactician else concede(s, p, at_end)
        return encode(ActionKind.SURRENDER if give_up else ActionKind.PLAY_ON, 0, 0)
    return next_card(s, p, tactician)


@kernel
def choose(bot: int, s) -> int:
    """Return the encoded action of policy ``bot`` for the current decision of ``s``.

    Greedy and the tactician are each a copy of ``choose_heuristic`` with ``tactician`` a constant: greedy's
    copy keeps none of the tactician's terms and tests (as ``tactician`` at run time did at every card and target).
    """
    if bot == Bot.RANDOM:
        return choose_random(s)
    if bot == Bot.GREEDY:
        return choose_heuristic(s, False)
    return choose_heuristic(s, True)


@hot
def needs_legal(bot: int) -> bool:
    """Return True if policy ``bot`` reads ``scratch.legal`` (none does: each builds its action directly)."""
    return False


# -- arranging a hand (HandOrder.PLAYER_ARRANGED, R4) ----------------------------------------------


@kernel
def keep_value(s, p: int, c: int) -> float:
    """Return how much seat ``p`` wants to keep card ``c`` through the curses: its best printed output."""
    return float(max(rules.attack_damage(s, c), rules.pool_value(s, p, c)))


@kernel
def arrange(s, p: int, purpose: int) -> None:
    """Reorder seat ``p``'s hand in place under ``player_arranged`` (R4), by its bot.

    POOLS: cards it values least go left (curses hit them first), the best goes right
    (it gets the blessing). BONUS: the highest-Attack card goes right (R14). The random
    bot shuffles instead.
    """
    if s.params.hand_order != HandOrder.PLAYER_ARRANGED:
        return
    q = s.piles
    n = q.hand_n[p]
    if s.meta.bots[p] == Bot.RANDOM:
        rng.shuffle(q.hand[p], n, s.scratch.rng, np.int64(Lane.BOT + p))
    else:
        key = s.scratch.key
        for i in range(n):
            c = q.hand[p, i]
            key[i] = s.cards[c].attack if purpose == Purpose.BONUS else keep_value(s, p, c)
        for i in range(1, n):  # stable insertion sort, ascending
            c, k = q.hand[p, i], key[i]
            j = i
            while j > 0 and key[j - 1] > k:
                q.hand[p, j], key[j] = q.hand[p, j - 1], key[j - 1]
                j -= 1
            q.hand[p, j], key[j] = c, k
    rules.log_event(s, EventKind.ARRANGE, p, NO_CARD, NO_CARD, purpose, 0)


def bot_names() -> tuple[str, ...]:
    """Return the bot names in id order."""
    return tuple(b.name.lower() for b in Bot)
