"""Blessings & Curses bots' view of the race (R4, R13-R17): what a seat sees, and when it gives up a battle.

A seat sees both hands as R4 allows (``seen_hp``, ``threat``), knows the curse that would
wipe each seat out at the next battle start (``wipe_line``, ``fresh_line``), and expects
the opponent's next turn from the cards it holds, each as it would be played
(``modelled_play``, computed once per batch by ``prime``), plus its draws at the pool
mean (``coming``). ``settled_surrender``, ``concede`` (greedy) and ``race_surrender``
(tactician) turn that into a surrender decision; ``bots.choose_heuristic`` asks them.
"""

import numpy as np

from sims.blessings import kernel as rules
from sims.blessings.state import CardType, Opening, PoolTarget, opponent
from sims.blessings.weights import W
from sims.core.jit import hot, kernel

# -- what a seat can see -----------------------------------------------------------------------


@hot
def threat(s, viewer: int, o: int, j: int) -> float:
    """Return the curse seat ``o``'s hand card ``j`` would send if played, as ``viewer`` sees it (R4)."""
    c = s.piles.hand[o, j]
    if viewer != o and not s.params.open_hands:
        return s.scratch.mean_curse[o]
    return float(rules.pool_value(s, o, c)) if s.cards[c].type == CardType.CURSE else 0.0


@hot
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
        return total + guard_of(s, np.int64(p))
    return fresh_line(s, np.int64(p), np.int64(0))


@kernel
def fresh_line(s, p: int, cards: int) -> int:
    """Return the curse that would wipe seat ``p`` out if it held ``cards`` fresh cards when the battle ends.

    Under ``fresh_hand`` the pools hit a new opening hand, whatever it holds (R15).
    """
    if s.params.pool_target == PoolTarget.CARRYOVER_HAND:
        return cards * s.params.card_health + guard_of(s, np.int64(p)) if cards > 0 else 1
    opening = 3 if s.params.opening == Opening.THREE_PLUS_TWO else 5
    return min(opening, s.piles.owned_n[p]) * s.params.card_health + guard_of(s, np.int64(p))


@kernel
def doomed(s, viewer: int, p: int) -> bool:
    """Return True if seat ``p``'s curse pool already wipes it out at the next battle start, as ``viewer`` sees it."""
    return s.pools.curse[p] > 0 and s.pools.curse[p] >= wipe_line(s, np.int64(viewer), np.int64(p))


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
            sc.next_curse[o, c], sc.next_hit[o, c] = modelled_play(s, opponent(o), o, c, s.params.card_health)
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
    o = opponent(p)
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
def line_when_opponent_moves(s, p: int, at_end: bool) -> int:
    """Return seat ``p``'s wipe-out line when the opponent can next end the battle.

    At the end of ``p``'s turn (``own_turn``) that is the hand it holds now; at the start
    of its turn (``turn_start``) it is the hand it will hold after playing this turn: its
    replacements, fresh (R7, R18) -- the carried-over hand is judged after the turn draw.
    """
    if at_end:
        return wipe_line(s, np.int64(p), np.int64(p))
    draws = turn_draws(s, np.int64(p), np.int64(s.meta.own_turns[p]))
    return fresh_line(s, np.int64(p), np.int64(s.piles.hand_n[p] + draws))


# -- decisions ------------------------------------------------------------------------------------


@kernel
def settled_surrender(s, p: int) -> bool:
    """Return True if the pools already decide the next battle start for ``p`` (a win or a certain draw)."""
    o = opponent(p)
    line = wipe_line(s, np.int64(p), np.int64(o))
    if s.params.blessing_before_curses and s.piles.hand_n[o] > 0:
        line += s.cards[s.piles.hand[o, s.piles.hand_n[o] - 1]].attack  # the bonus surrendering hands it (R14)
    me, opp = doomed(s, np.int64(p), np.int64(p)), s.pools.curse[o] > 0 and s.pools.curse[o] >= line
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
    return s.pools.curse[p] + hand_curse(s, p, opponent(p)) >= line_when_opponent_moves(s, p, at_end)


@kernel
def race_surrender(s, p: int, at_end: bool) -> bool:
    """Return True if the tactician should give up a battle whose curse race it expects to lose.

    Danger: the opponent's next turn (its cards held, each as it would be played, and its
    draws; none on its first turn) is expected to take ``p``'s curse pool to its line when
    the opponent can next end the battle, less the Health its attacks remove (that counts
    only when the pools hit the carried-over hand). The opponent wins by ending the battle
    only while its own hand then (its replacements, fresh) survives its own curse pool, so
    ``p`` gives up only if that pool falls short. What ``p`` sends this turn does not count:
    the opponent replies before ``p`` can end the battle, and if that reply dooms ``p`` the
    best ``p``'s curses can give is a mutual wipe-out.
    """
    o = opponent(p)
    m = s.meta
    w = s.scratch.weights[p]
    draws = turn_draws(s, np.int64(o), np.int64(m.own_turns[o] + 1))
    curse, hit = coming(s, p, draws)
    if s.params.pool_target != PoolTarget.CARRYOVER_HAND:
        hit = 0.0  # attacks on the hand in play do not reach the new opening hand
    line = line_when_opponent_moves(s, p, at_end)
    if s.pools.curse[p] + w[W.EXPECT] * curse < line - w[W.EXPECT] * hit:
        return False  # not in danger on the opponent's next turn
    return s.pools.curse[o] < fresh_line(s, np.int64(o), np.int64(s.piles.hand_n[o] + draws))
