"""CardRPG gold: buy-backs from the discard pile, the A-diamond's luck, a Diamond character's sales (R14, R15)."""

from sims.cardrpg.state import BuybackDestination, EmptyHand, EventKind, Suit
from sims.cardrpg.zones import card_row, discard, find_ace, hand_add, log_event, put_bottom, take_discard, take_inv
from sims.core.jit import kernel


@kernel
def can_refill_hand(s) -> bool:
    """Return True if an empty-handed player may buy a card back into the hand instead of losing the turn (Q13)."""
    p = s.params
    return p.empty_hand == EmptyHand.BUY_BACK and p.buyback_destination == BuybackDestination.HAND and can_buyback(s)


@kernel
def can_buyback(s) -> bool:
    """Return True if a buy-back can be paid: 1 gold, or the A-diamond's free buy-back (R15)."""
    if s.piles.discard_n == 0:
        return False
    if s.hero.gold >= 1:
        return True
    limit = s.params.ace_diamond_buybacks
    return find_ace(s, Suit.DIAMOND) >= 0 and (limit < 0 or s.meta.luck_used < limit)


@kernel
def buyback(s, i: int) -> None:
    """Buy back discard-pile card ``i`` in place (R15): the A-diamond pays first, else 1 gold."""
    q = s.piles
    m = s.meta
    c = take_discard(s, i)
    limit = s.params.ace_diamond_buybacks
    a = find_ace(s, Suit.DIAMOND)
    if a >= 0 and (limit < 0 or m.luck_used < limit):
        if limit >= 0:
            m.luck_used += 1  # counted only against a limit (an int8)
        r = card_row(s, q.inv[a])
        r.times_used += 1
    else:
        s.hero.gold -= 1
        s.tally.seat.gold_spent += 1
    s.tally.seat.buybacks += 1
    if s.params.buyback_destination == BuybackDestination.HAND:
        hand_add(s, c)
    else:
        put_bottom(s, c)
    log_event(s, EventKind.BUYBACK, c, 0, 0)


@kernel
def sell(s, k: int) -> None:
    """A Diamond character sells Inventory card ``k`` for gold equal to its value in place (R14)."""
    c = take_inv(s, k)
    discard(s, c)
    v = s.cards[c].value
    s.hero.gold += v
    r = card_row(s, c)
    r.times_sold += 1
    r.gold += v
    s.tally.seat.sold += 1
    s.tally.seat.gold_gained += v
    log_event(s, EventKind.SOLD, c, v, 0)
