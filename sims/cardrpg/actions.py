"""CardRPG actions: what the player may do at each decision (the legal list) and what buying costs (R8, R14, R15).

``kernel.apply_action`` applies the actions; the random bot picks from ``legal_actions``
in its order, which the plain-Python reference repeats.
"""

import numpy as np

from sims.cardrpg.gold import can_buyback
from sims.cardrpg.state import ActionKind, Kind, Phase, Suit, encode
from sims.cardrpg.zones import acts_as, count_rank, find_ace, is_ace_power
from sims.core.jit import kernel


@kernel
def legal_actions(s, out: np.ndarray) -> int:
    """Write every legal encoded action of the current decision into ``out``; return how many."""
    m = s.meta
    q = s.piles
    n = 0
    if m.phase == Phase.PRE_STRIKE:
        out[0], out[1] = (
            encode(ActionKind.ACE_SPADE, find_ace(s, Suit.SPADE), 0),
            encode(ActionKind.PASS, 0, 0),
        )
        return 2
    if m.phase == Phase.KING_KEEP:
        out[0], out[1] = encode(ActionKind.KEEP, 0, 0), encode(ActionKind.PASS, 0, 0)
        return 2
    if m.phase == Phase.BUY:
        out[0] = encode(ActionKind.PASS, 0, 0)
        n = 1
        if can_buy(s):
            out[1] = encode(ActionKind.BUY, 0, 0)
            n = 2
        return n
    if m.phase == Phase.BLITZ:
        return blitz_actions(s, out)
    if m.phase != Phase.PLAYER and m.phase != Phase.BETWEEN:
        return 0
    if can_buyback(s):
        for i in range(q.discard_n):
            out[n] = encode(ActionKind.BUYBACK, i, 0)
            n += 1
    if s.hero.suit == Suit.DIAMOND and s.params.class_powers:
        for k in range(q.inv_n):
            if s.cards[q.inv[k]].kind == Kind.NUMBER:
                out[n] = encode(ActionKind.SELL, k, 0)
                n += 1
    if m.phase == Phase.BETWEEN:
        out[n] = encode(ActionKind.END, 0, 0)
        out[n + 1] = encode(ActionKind.QUIT, 0, 0)
        n += 2
        if q.draw_n > 0:
            out[n] = encode(ActionKind.REVEAL, 0, 0)
            n += 1
        return n
    for k in range(q.inv_n):
        c = q.inv[k]
        if acts_as(s, c, Suit.SPADE) and m.attacks_left > 0:  # R14: before a hand attack
            out[n] = encode(ActionKind.SPADE, k, 0)
            n += 1
        if acts_as(s, c, Suit.CLUB):
            out[n] = encode(ActionKind.CLUB, k, 0)
            n += 1
        if is_ace_power(s, c, Suit.SPADE):
            out[n] = encode(ActionKind.ACE_SPADE, k, 0)
            n += 1
        if is_ace_power(s, c, Suit.CLUB) and q.hand_n > 0 and m.attacks_left > 0:
            out[n] = encode(ActionKind.ACE_CLUB, k, 0)
            n += 1
    if m.attacks_left > 0:
        for rank in range(1, 15):
            cnt = count_rank(s, rank)
            for k in range(1, cnt + 1):
                out[n] = encode(ActionKind.ATTACK, rank, k)
                n += 1
    if m.attacks_made > 0 or q.hand_n == 0 or m.attacks_left == 0:  # R8: at least one card if the hand has any
        out[n] = encode(ActionKind.END, 0, 0)
        n += 1
    return n


@kernel
def blitz_actions(s, out: np.ndarray) -> int:
    """Write BLITZ's legal actions into ``out``: add 1.. more cards of a combo key; END once one is chosen (R14)."""
    n = 0
    for rank in range(1, 15):
        left = count_rank(s, rank) - int(s.piles.blitz[rank])
        for k in range(1, left + 1):
            out[n] = encode(ActionKind.ATTACK, rank, k)
            n += 1
    if s.piles.blitz_n > 0:
        out[n] = encode(ActionKind.END, 0, 0)
        n += 1
    return n


@kernel
def can_buy(s) -> bool:
    """Return True if the revealed card may be bought (R15): a number card or an Ace the gold covers."""
    c = s.meta.revealed
    card = s.cards[c]
    if card.kind == Kind.FACE or card.kind == Kind.JOKER:
        return False
    return s.hero.gold >= price(s, c)


@kernel
def price(s, c: int) -> int:
    """Return the price of buying card ``c`` off the draw pile (R15): its value, 20 for an Ace."""
    return 20 if s.cards[c].kind == Kind.ACE else s.cards[c].value
