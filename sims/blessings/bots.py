"""Blessings & Curses bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

A policy sees both hands as R4 allows: with ``open_hands`` every card and its Health,
otherwise the opposing hand as positions only (an unseen card counts as an average card
of the pool, at full Health). Both pools and all pile sizes are public. Policies return
one encoded action (``state.encode``); only ``arrange`` (``player_arranged``, R4)
reorders its own seat's hand.

- ``random``: surrenders with probability ``surrender_rate`` at each surrender decision
  (a turn's start and, with ``own_turn``, its end); plays a uniformly chosen card with a
  uniformly chosen legal action and target.
- ``greedy``: plays its cards left to right; each takes the action of highest value
  (attack: Health removed and kills; curse, bless, discard: pool points), each weighted.
  Surrenders when the pools already decide the next battle start in its favour (the
  opponent is wiped out and it is not) or both would be wiped out; and (``race`` > 0)
  concedes a race it is losing: when the curse-type cards the opponent holds would take
  its curse pool to its wipe-out line on the opponent's next turn.
- ``tactician``: greedy's structure, plus: kills of opposing curse-type cards are worth
  the curse they would send next turn (denial), damage that sets up a kill the rest of
  the hand can finish counts, curse past the opponent's wipe-out line counts for little,
  Health removed from the opposing hand counts like curse when this turn can end the game
  (``carryover_hand`` with ``own_turn``), blessing counts as protection when it is applied
  before curses (R16), and it surrenders a battle it expects to lose: when the opponent's
  next turn is expected (``next_curse``, ``next_hit``: each card counted once, as it would
  be played) to push it past its wipe-out line while the opponent stays safe (R13).

The race estimate models the opponent's play of each card with the deciding seat's own
greedy valuation against a fresh card (``modelled_play``), computed once per batch.
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
    Surrender,
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

    surrender_rate: float = 0.05  # random: chance of surrendering at each surrender decision
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
    race: float = 0.0  # greedy, tactician: > 0 = give up a battle whose curse race it is losing (R13)
    expect: float = 1.0  # tactician: share of the opponent's expected next-turn curse and damage it counts
    press: float = 0.0  # tactician: value per point of Health removed when this turn can end the game (R15)


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
    PRESS = 13


assert [m.name.lower() for m in W] == list(BotParams._fields)
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(race=1.0),
    # Weights from the ablations in RULES.md §9 (tactician vs greedy and the mirror, modern, paired seeds).
    # expect = 1 counts the opponent's expected next turn once: the honest estimate.
    "tactician": BotParams(deny=1.0, focus=1.0, overkill=0.05, excess=0.1, guard=1.0, race=1.0, press=1.0),
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
def seen_hp(s, viewer: int, o: int, j: int) -> int:
    """Return the Health of seat ``o``'s hand card ``j`` as ``viewer`` sees it: full Health if hidden (R4)."""
    if viewer != o and not s.params.open_hands:
        return s.params.card_health
    return s.piles.hp[o, s.piles.hand[o, j]]


@kernel
def guard_of(s, p: int) -> int:
    """Return the blessing that protects seat ``p`` from curses at the next battle start (R16: blessing first)."""
    return s.pools.blessing[p] if s.params.blessing_before_curses else 0


@kernel
def wipe_line(s, viewer: int, p: int) -> int:
    """Return the curse that would wipe seat ``p`` out at the next battle start, as ``viewer`` sees it."""
    q = s.piles
    if s.params.pool_target == PoolTarget.CARRYOVER_HAND:
        if q.hand_n[p] == 0:
            return 1  # an empty hand falls to any curse, and no blessing has a card to land on
        total = 0
        for j in range(q.hand_n[p]):
            total += seen_hp(s, viewer, p, j)
        return total + guard_of(s, p)
    return fresh_line(s, p, 0)


@kernel
def fresh_line(s, p: int, cards: int) -> int:
    """Return the curse that would wipe seat ``p`` out if it held ``cards`` fresh cards when the battle ends.

    Under ``fresh_hand`` the pools hit a new opening hand, whatever it holds (R15).
    """
    if s.params.pool_target == PoolTarget.CARRYOVER_HAND:
        return cards * s.params.card_health + guard_of(s, p) if cards > 0 else 1
    opening = 3 if s.params.opening == Opening.THREE_PLUS_TWO else 5
    return min(opening, s.piles.owned_n[p]) * s.params.card_health + guard_of(s, p)


@kernel
def doomed(s, viewer: int, p: int) -> bool:
    """Return True if seat ``p``'s curse pool already wipes it out at the next battle start, as ``viewer`` sees it."""
    return s.pools.curse[p] > 0 and s.pools.curse[p] >= wipe_line(s, viewer, p)


@kernel
def turn_draws(s, p: int, begun: int) -> int:
    """Return the cards seat ``p`` draws at the start of its ``begun``-th turn of the battle (R6, R11).

    None on a seat's first turn with ``five_at_setup`` (its 5 cards were that draw), and
    no more than its deck (and discard pile, with reshuffles) holds.
    """
    if s.params.opening == Opening.FIVE_AT_SETUP and begun <= 1:
        return 0
    q = s.piles
    avail = q.deck_n[p] + (q.discard_n[p] if s.params.midbattle_reshuffle else 0)
    return min(s.params.turn_draw, avail)


# -- the opponent's next turn, as a seat expects it -----------------------------------------------


@kernel
def modelled_play(s, viewer: int, o: int, c: int, h: int) -> tuple[float, float]:
    """Return (curse sent, Health removed) when seat ``o`` plays card ``c`` against a card of Health ``h``.

    ``viewer``'s model of the play: its own greedy valuation (attack vs the card's curse or
    bless, ties to the attack as ``best_for_card`` breaks them). Only a card that would be
    played as a curse counts as cursing; one that would attack removes ``min(damage, h)``.
    """
    w = s.scratch.weights[viewer]
    dmg = rules.attack_damage(s, c)
    v = rules.pool_value(s, o, c)
    other = w[W.CURSE] * v if s.cards[c].type == CardType.CURSE else w[W.BLESS] * v
    other = max(other, w[W.DISCARD] * rules.discard_value(s, o, c))
    if dmg > 0:
        hit = min(dmg, h)
        if w[W.ATTACK] * hit + (w[W.KILL] if dmg >= h else 0.0) >= other:
            return 0.0, float(hit)
    if s.cards[c].type == CardType.CURSE and w[W.CURSE] * v >= other:
        return float(v), 0.0
    return 0.0, 0.0


@kernel
def prime(s) -> None:
    """Fill ``scratch.next_curse``/``next_hit`` and their pool means in place (once per batch, after the weights).

    Row ``o`` is what seat ``o``'s cards are expected to do, in its opponent's model; means
    are over the pool's real cards (a value run's baseline row left out).
    """
    sc = s.scratch
    for o in range(2):
        curse, hit = 0.0, 0.0
        for c in range(s.meta.n_cards):
            sc.next_curse[o, c], sc.next_hit[o, c] = modelled_play(s, 1 - o, o, c, s.params.card_health)
            if c < s.meta.n_real:
                curse += sc.next_curse[o, c]
                hit += sc.next_hit[o, c]
        sc.mean_next[o, 0] = curse / max(1, s.meta.n_real)
        sc.mean_next[o, 1] = hit / max(1, s.meta.n_real)


@kernel
def coming(s, p: int, draws: int) -> tuple[float, float]:
    """Return the (curse, Health removed) seat ``p`` expects from the opponent's next turn with ``draws`` draws.

    Each card held counts once, as it would be played (``modelled_play``); unseen cards
    and the draws count as an average card of the pool.
    """
    o = 1 - p
    sc = s.scratch
    curse, hit = 0.0, 0.0
    for j in range(s.piles.hand_n[o]):
        if s.params.open_hands:
            c = s.piles.hand[o, j]
            curse += sc.next_curse[o, c]
            hit += sc.next_hit[o, c]
        else:
            curse += sc.mean_next[o, 0]
            hit += sc.mean_next[o, 1]
    return curse + draws * sc.mean_next[o, 0], hit + draws * sc.mean_next[o, 1]


@kernel
def own_curse(s, p: int, draws: int) -> float:
    """Return the curse seat ``p`` expects to send this turn: its cards still to play, then ``draws`` draws."""
    total = 0.0
    for i in range(s.piles.hand_n[p]):
        total += s.scratch.next_curse[p, s.piles.hand[p, i]]
    return total + draws * s.scratch.mean_next[p, 0]


@kernel
def line_when_opponent_moves(s, p: int, at_end: bool) -> int:
    """Return seat ``p``'s wipe-out line when the opponent can next end the battle.

    At the end of ``p``'s turn (``own_turn``) that is the hand it holds now; at the start
    of its turn (``turn_start``) it is the hand it will hold after playing this turn: its
    replacements, fresh (R7, R18) -- the carried-over hand is judged after the turn draw.
    """
    if at_end:
        return wipe_line(s, p, p)
    return fresh_line(s, p, s.piles.hand_n[p] + turn_draws(s, p, s.meta.own_turns[p]))


# -- decisions ------------------------------------------------------------------------------------


@kernel
def settled_surrender(s, p: int) -> bool:
    """Return True if the pools already decide the next battle start for ``p`` (a win or a certain draw)."""
    o = 1 - p
    line = wipe_line(s, p, o)
    if s.params.blessing_before_curses and s.piles.hand_n[o] > 0:
        line += s.cards[s.piles.hand[o, s.piles.hand_n[o] - 1]].attack  # the bonus surrendering hands it (R14)
    me, opp = doomed(s, p, p), s.pools.curse[o] > 0 and s.pools.curse[o] >= line
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
def concede(s, p: int, at_end: bool) -> bool:
    """Return True if greedy concedes the battle (``race`` > 0): a race it is losing.

    Greedy's one-pass view: every curse-type card the opponent holds curses on its next
    turn; draws and attacks are ignored. If that takes ``p``'s curse pool to its line when
    the opponent can next end the battle, ending it now keeps ``p`` in the game.
    """
    return s.pools.curse[p] + hand_curse(s, p, 1 - p) >= line_when_opponent_moves(s, p, at_end)


@kernel
def race_surrender(s, p: int, at_end: bool) -> bool:
    """Return True if the tactician should give up a battle whose curse race it expects to lose.

    Danger: the opponent's next turn (its cards held, each as it would be played, and its
    draws; none on its first turn) is expected to take ``p``'s curse pool to its line when
    the opponent can next end the battle, less the Health its attacks remove (that counts
    only when the pools hit the carried-over hand). The opponent wins by ending the battle
    only while its own hand then (its replacements, fresh) survives its own curse pool:
    so ``p`` gives up only if that pool, plus what ``p`` sends before the opponent can
    end the battle (nothing at the end of ``p``'s turn; this turn at its start), falls short.
    """
    o = 1 - p
    m = s.meta
    w = s.scratch.weights[p]
    draws = turn_draws(s, o, m.own_turns[o] + 1)
    curse, hit = coming(s, p, draws)
    if s.params.pool_target != PoolTarget.CARRYOVER_HAND:
        hit = 0.0  # attacks on the hand in play do not reach the new opening hand
    line = line_when_opponent_moves(s, p, at_end)
    if s.pools.curse[p] + w[W.EXPECT] * curse < line - w[W.EXPECT] * hit:
        return False  # not in danger on the opponent's next turn
    mine = 0.0 if at_end else own_curse(s, p, turn_draws(s, p, m.own_turns[p]))
    return s.pools.curse[o] + mine < fresh_line(s, o, s.piles.hand_n[o] + draws)


@kernel
def press_gap(s, p: int) -> int:
    """Return the curse the opposing hand still needs to be wiped out, if an attack can count for it; else -1.

    Only with ``carryover_hand`` and ``own_turn``: at the end of its turn ``p`` may
    surrender into the opponent's wipe-out, and every point of Health its attacks remove
    from the opposing hand brings that nearer like a curse point.
    """
    if s.params.pool_target != PoolTarget.CARRYOVER_HAND or s.params.surrender != Surrender.OWN_TURN:
        return -1
    gap = wipe_line(s, p, 1 - p) - s.pools.curse[1 - p]
    return gap if gap > 0 else -1


@kernel
def press_reach(s, p: int, skip: int) -> int:
    """Return what seat ``p``'s cards still to play, other than ``skip``, could add to the pressure this turn.

    Each card counts its curse or its damage on a fresh card, whichever is larger.
    """
    reach = 0
    for i in range(s.meta.to_play):
        if i != skip:
            c = s.piles.hand[p, i]
            v = rules.pool_value(s, p, c) if s.cards[c].type == CardType.CURSE else 0
            reach += max(v, min(rules.attack_damage(s, c), s.params.card_health))
    return reach


@kernel
def attack_value(s, p: int, c: int, j: int, tactician: bool, power_left: float, gap: int, reach: int) -> float:
    """Return the value of seat ``p``'s card ``c`` attacking opposing hand card ``j``.

    ``gap`` and ``reach`` (``press_gap``, ``press_reach``): when this attack and the cards
    after it can close the gap this turn, the Health it removes counts like curse.
    """
    o = 1 - p
    w = s.scratch.weights[p]
    dmg = rules.attack_damage(s, c)
    h = seen_hp(s, p, o, j)
    removed = min(dmg, h)
    pressed = 0.0
    if tactician and gap > 0 and removed + reach >= gap:
        pressed = w[W.PRESS] * min(removed, gap)
    if dmg >= h:
        value = w[W.ATTACK] * h + w[W.KILL]
        if tactician:
            value += w[W.DENY] * threat(s, p, o, j) - w[W.OVERKILL] * (dmg - h) + pressed
        return value
    value = w[W.ATTACK] * dmg + pressed
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
    short = wipe_line(s, p, o) - s.pools.curse[o]  # curse still needed to wipe the opponent out
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
        gap = press_gap(s, p) if tactician else -1
        reach = press_reach(s, p, i) if gap > 0 else 0
        for j in range(s.piles.hand_n[o]):
            v = attack_value(s, p, c, j, tactician, power, gap, reach)
            if v >= best_v:
                best, best_v = encode(ActionKind.ATTACK, i, j), v
    return best


@kernel
def choose_random(s) -> int:
    """Uniform card, uniform legal action kind, uniform target; surrender with ``surrender_rate``."""
    m = s.meta
    p = m.mover
    lane = Lane.BOT + p
    if m.phase == Phase.SURRENDER or m.phase == Phase.SURRENDER_END:
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
    """Greedy and tactician: the surrender rules, then the leftmost card's best action.

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
        if racing and not doomed(s, p, p) and not doomed(s, p, 1 - p):
            give_up = race_surrender(s, p, at_end) if tactician else concede(s, p, at_end)
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
