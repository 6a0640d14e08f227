"""Blessings & Curses bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

A policy sees both hands as R4 allows: with ``open_hands`` every card and its Health,
otherwise the opposing hand as positions with Health only (an unseen card counts as an
average card of the pool). Both pools and all pile sizes are public. Policies return one
encoded action (``state.encode``); only ``arrange`` (``player_arranged``, R4) reorders
its own seat's hand.

- ``random``: surrenders with probability ``surrender_rate`` at a turn start; plays a
  uniformly chosen card with a uniformly chosen legal action and target.
- ``greedy``: plays its cards left to right; each takes the action of highest value
  (attack: Health removed and kills; curse, bless, discard: pool points), each weighted.
  Surrenders only when the pools already decide the next battle start in its favour
  (the opponent is wiped out and it is not), or when both would be wiped out.
- ``tactician``: greedy's structure, plus: kills of opposing curse-type cards are worth
  the curse they would send next turn (denial), damage that sets up a kill the rest of
  the hand can finish counts, curse past the opponent's wipe-out line counts for little,
  blessing counts as protection when it is applied before curses (R16), and it surrenders
  a battle it is about to lose the curse race in (R13: "lose the round to win the war").
"""

from enum import IntEnum
from typing import NamedTuple

from sims.blessings import kernel as rules
from sims.blessings.state import (
    N_WEIGHTS,
    NO_CARD,
    ActionKind,
    CardType,
    EventKind,
    HandOrder,
    Lane,
    Opening,
    Phase,
    PoolTarget,
    Purpose,
    encode,
)
from sims.core import rng
from sims.core.jit import kernel


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0
    GREEDY = 1
    TACTICIAN = 2


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    surrender_rate: float = 0.05  # random: chance of surrendering at a turn start
    attack: float = 0.5  # value per point of Health an attack removes
    kill: float = 6.0  # value per opposing card an attack destroys
    curse: float = 1.0  # value per curse point sent
    bless: float = 0.2  # value per blessing point from a bless action
    discard: float = 0.1  # value per blessing point from a discard
    deny: float = 0.0  # tactician: value per curse point of a destroyed opposing curse-type card
    focus: float = 0.0  # tactician: share of a kill's value credited to damage the hand can finish
    overkill: float = 0.0  # tactician: value lost per point of wasted damage on a kill
    excess: float = 0.0  # tactician: share of curse value kept past the opponent's wipe-out line
    guard: float = 0.0  # tactician: blessing value per point while it is applied before curses (R16)
    race: float = 0.0  # tactician: > 0 = surrender a battle whose curse race it is about to lose
    expect: float = 1.0  # tactician: how much of the visible next-turn curse it counts on in the race


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    SURRENDER_RATE = 0
    ATTACK = 1
    KILL = 2
    CURSE = 3
    BLESS = 4
    DISCARD = 5
    DENY = 6
    FOCUS = 7
    OVERKILL = 8
    EXCESS = 9
    GUARD = 10
    RACE = 11
    EXPECT = 12


assert [m.name.lower() for m in W] == list(BotParams._fields)
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(),
    # chosen by benchmarks/tune_blessings.py-style ablations vs greedy (modern, 20,000 games each): race
    # awareness (expect) is worth most; expect >= 1.5 makes the tactician mirror stall to the battle cap.
    "tactician": BotParams(deny=1.0, focus=1.0, overkill=0.05, excess=0.1, guard=1.0, race=1.0, expect=2.0),
}


# -- what a seat can see -----------------------------------------------------------------------


@kernel
def threat(s, viewer: int, o: int, j: int) -> float:
    """Return the curse seat ``o``'s hand card ``j`` would send if played, as ``viewer`` sees it (R4)."""
    c = s.piles.hand[o, j]
    if viewer != o and not s.params.open_hands:
        return s.scratch.mean_curse[o]
    return float(rules.pool_value(s, o, c)) if s.cards[c].type == CardType.CURSE else 0.0


@kernel
def wipe_line(s, p: int) -> int:
    """Return the curse that would wipe seat ``p`` out at the next battle start (R15-R17), as things stand."""
    q = s.piles
    guard = s.pools.blessing[p] if s.params.blessing_before_curses else 0
    if s.params.pool_target == PoolTarget.CARRYOVER_HAND:
        if q.hand_n[p] == 0:
            return 1  # an empty hand falls to any curse, and no blessing has a card to land on
        total = 0
        for i in range(q.hand_n[p]):
            total += q.hp[p, q.hand[p, i]]
        return total + guard
    opening = 3 if s.params.opening == Opening.THREE_PLUS_TWO else 5
    return min(opening, q.owned_n[p]) * s.params.card_health + guard


@kernel
def doomed(s, p: int) -> bool:
    """Return True if seat ``p``'s curse pool already wipes it out at the next battle start."""
    return s.pools.curse[p] > 0 and s.pools.curse[p] >= wipe_line(s, p)


# -- decisions ------------------------------------------------------------------------------------


@kernel
def settled_surrender(s, p: int) -> bool:
    """Return True if the pools already decide the next battle start for ``p`` (a win or a certain draw)."""
    o = 1 - p
    line = wipe_line(s, o)
    if s.params.blessing_before_curses and s.piles.hand_n[o] > 0:
        line += s.cards[s.piles.hand[o, s.piles.hand_n[o] - 1]].attack  # the bonus surrendering hands it (R14)
    me, opp = doomed(s, p), s.pools.curse[o] > 0 and s.pools.curse[o] >= line
    if opp and not me:
        return True  # surrendering now wipes the opponent out and not us
    return me and opp and not s.params.blessing_before_curses  # nothing left to play for


@kernel
def hand_curse(s, viewer: int, o: int) -> float:
    """Return the curse seat ``o``'s hand would send if every curse-type card cursed, as ``viewer`` sees it."""
    total = 0.0
    for j in range(s.piles.hand_n[o]):
        total += threat(s, viewer, o, j)
    return total


@kernel
def race_surrender(s, p: int) -> bool:
    """Return True if ``p`` should give up a battle it is about to lose the curse race in (tactician).

    The opponent's hand (plus the two cards it will draw) is what it plays next turn. If
    that would wipe ``p`` out while ``p``'s own hand cannot wipe the opponent out first,
    ending the battle now keeps ``p`` in the game.
    """
    o = 1 - p
    w = s.scratch.weights[p]
    coming = w[W.EXPECT] * (hand_curse(s, p, o) + s.params.turn_draw * s.scratch.mean_curse[o])
    if s.pools.curse[p] + coming < wipe_line(s, p):
        return False  # not in danger next turn
    mine = hand_curse(s, p, p) + s.params.turn_draw * s.scratch.mean_curse[p]
    return s.pools.curse[o] + mine < wipe_line(s, o)


@kernel
def attack_value(s, p: int, c: int, j: int, tactician: bool, power_left: float) -> float:
    """Return the value of seat ``p``'s card ``c`` attacking opposing hand card ``j``."""
    o = 1 - p
    w = s.scratch.weights[p]
    dmg = rules.attack_damage(s, c)
    h = s.piles.hp[o, s.piles.hand[o, j]]
    if dmg >= h:
        value = w[W.ATTACK] * h + w[W.KILL]
        if tactician:
            value += w[W.DENY] * threat(s, p, o, j) - w[W.OVERKILL] * (dmg - h)
        return value
    value = w[W.ATTACK] * dmg
    if tactician and power_left >= h - dmg:  # the rest of the hand can finish it
        value += w[W.FOCUS] * (w[W.KILL] + w[W.DENY] * threat(s, p, o, j)) * dmg / h
    return value


@kernel
def curse_value(s, p: int, c: int, tactician: bool) -> float:
    """Return the value of cursing with seat ``p``'s card ``c``."""
    w = s.scratch.weights[p]
    v = rules.pool_value(s, p, c)
    if not tactician:
        return w[W.CURSE] * v
    o = 1 - p
    short = wipe_line(s, o) - s.pools.curse[o]  # curse still needed to wipe the opponent out
    useful = min(v, max(0, short))
    return w[W.CURSE] * (useful + w[W.EXCESS] * (v - useful))


@kernel
def bless_value(s, p: int, v: int, weight: float, tactician: bool) -> float:
    """Return the value of ``v`` blessing points for seat ``p`` (bless or discard)."""
    w = s.scratch.weights[p]
    value = weight * v
    if tactician and s.params.blessing_before_curses and s.pools.curse[p] > 0:
        value += w[W.GUARD] * v  # R16: each point raises the curse needed to wipe ``p`` out
    return value


@kernel
def attack_power(s, p: int, skip: int) -> float:
    """Return the damage seat ``p``'s cards still to play could deal, except hand index ``skip``."""
    total = 0.0
    for i in range(s.meta.to_play):
        if i != skip:
            total += rules.attack_damage(s, s.piles.hand[p, i])
    return total


@kernel
def best_for_card(s, p: int, i: int, tactician: bool) -> int:
    """Return the best encoded action for seat ``p``'s hand card ``i`` (ties: attack, curse, bless, discard)."""
    c = s.piles.hand[p, i]
    o = 1 - p
    w = s.scratch.weights[p]
    best = encode(ActionKind.DISCARD, i, 0)
    best_v = w[W.DISCARD] * rules.discard_value(s, p, c)
    if tactician:
        best_v = bless_value(s, p, rules.discard_value(s, p, c), w[W.DISCARD], True)
    if s.cards[c].type == CardType.CURSE:
        v = curse_value(s, p, c, tactician)
        if v >= best_v:
            best, best_v = encode(ActionKind.CURSE, i, 0), v
    else:
        v = bless_value(s, p, rules.pool_value(s, p, c), w[W.BLESS], tactician)
        if v >= best_v:
            best, best_v = encode(ActionKind.BLESS, i, 0), v
    if rules.attack_damage(s, c) > 0:
        power = attack_power(s, p, i) if tactician else 0.0
        for j in range(s.piles.hand_n[o]):
            v = attack_value(s, p, c, j, tactician, power)
            if v >= best_v:
                best, best_v = encode(ActionKind.ATTACK, i, j), v
    return best


@kernel
def choose_random(s) -> int:
    """Uniform card, uniform legal action kind, uniform target; surrender with ``surrender_rate``."""
    m = s.meta
    p = m.mover
    lane = Lane.BOT + p
    if m.phase == Phase.SURRENDER:
        roll = rng.randint(s.scratch.rng, lane, 1_000_000) / 1_000_000
        kind = ActionKind.SURRENDER if roll < s.scratch.weights[p, W.SURRENDER_RATE] else ActionKind.PLAY_ON
        return encode(kind, 0, 0)
    i = rng.randint(s.scratch.rng, lane, m.to_play)
    c = s.piles.hand[p, i]
    targets = s.piles.hand_n[1 - p]
    n_kinds = 2 if targets > 0 else 1  # bless or curse (by type) + discard, + attack
    k = rng.randint(s.scratch.rng, lane, n_kinds + 1)
    if k == 0:
        return encode(ActionKind.DISCARD, i, 0)
    if k == 1:
        kind = ActionKind.CURSE if s.cards[c].type == CardType.CURSE else ActionKind.BLESS
        return encode(kind, i, 0)
    return encode(ActionKind.ATTACK, i, rng.randint(s.scratch.rng, lane, targets))


@kernel
def choose_heuristic(s, tactician: bool) -> int:
    """Greedy and tactician: the surrender rule, then the leftmost card's best action."""
    m = s.meta
    p = m.mover
    if m.phase == Phase.SURRENDER:
        give_up = settled_surrender(s, p)
        if tactician and not give_up and s.scratch.weights[p, W.RACE] > 0 and not doomed(s, 1 - p):
            give_up = race_surrender(s, p)
        return encode(ActionKind.SURRENDER if give_up else ActionKind.PLAY_ON, 0, 0)
    return best_for_card(s, p, 0, tactician)


@kernel
def choose(bot: int, s) -> int:
    """Return the encoded action of policy ``bot`` for the current decision of ``s``."""
    if bot == Bot.RANDOM:
        return choose_random(s)
    return choose_heuristic(s, bot == Bot.TACTICIAN)


@kernel
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
        rng.shuffle(q.hand[p], n, s.scratch.rng, Lane.BOT + p)
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
