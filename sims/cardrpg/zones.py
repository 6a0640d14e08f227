"""CardRPG zones and bookkeeping: the draw-pile ring, required draws (R16), dice (R2, R20), hand and Inventory moves."""

import numpy as np

from sims.cardrpg.state import (
    JACK,
    KING,
    MAX_EVENTS,
    NO_CARD,
    QUEEN,
    RING,
    Dice,
    DicelessKingJoker,
    FaceCombo,
    Kind,
    Phase,
    Suit,
)
from sims.core import rng
from sims.core.jit import hot, kernel


@hot
def log_event(s, kind: int, card: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op unless ``meta.log_on`` (and when full).

    Only the check is copied into the ~30 callers; the write is one compiled function
    (``write_event``, its arguments widened to int64 so that it compiles once).
    """
    if s.meta.log_on:
        write_event(s, kind, np.int64(card), np.int64(value), np.int64(extra))


@kernel
def write_event(s, kind: int, card: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place (``log_event``); no-op when the log is full."""
    m = s.meta
    k = m.log_n
    if k >= MAX_EVENTS:
        return
    e = s.scratch.log[k]
    e.turn, e.seat, e.kind, e.card, e.target = min(m.battle, 32767), 0, kind, card, m.exchange
    e.value, e.extra = max(-32768, min(value, 32767)), max(-32768, min(extra, 32767))
    m.log_n = k + 1


@kernel
def card_row(s, c: int):
    """Return card ``c``'s record of this session, starting it if needed."""
    r = s.tally.cards[c]
    if not s.tally.touched[c]:
        s.tally.touched[c] = 1
        r.game, r.seat, r.card = s.meta.game, 0, c
        r.times_gained = r.times_used = r.times_stolen = r.times_sold = r.times_lost = 0
        r.damage = r.hp_restored = r.gold = r.extra_attacks = r.kills = 0
    return r


@kernel
def power_on(s, power: int) -> bool:
    """Return True if the Ace power ``power`` (AcePower bit) is in play."""
    return (s.params.ace_powers & power) != 0


@kernel
def draw_top(s) -> int:
    """Take the top card of the draw pile in place; the caller has checked it is there (``need``)."""
    q = s.piles
    q.draw_n -= 1
    return q.draw[(q.draw_lo + q.draw_n) % RING]


@kernel
def peek_top(s) -> int:
    """Return the top card of the draw pile without taking it (NO_CARD if empty)."""
    q = s.piles
    return NO_CARD if q.draw_n == 0 else q.draw[(q.draw_lo + q.draw_n - 1) % RING]


@kernel
def put_bottom(s, c: int) -> None:
    """Put card ``c`` under the draw pile in place."""
    q = s.piles
    q.draw_lo = (q.draw_lo - 1 + RING) % RING
    q.draw[q.draw_lo] = c
    q.draw_n += 1


@kernel
def end_session(s, reason: int) -> None:
    """Stop the session in place for ``reason`` (EndReason); the battle in progress is abandoned (R16).

    The first reason stands: a level-up roll that fails after a failed Inventory draw does
    not change why the session ended.
    """
    if s.meta.phase == Phase.SESSION_END:
        return
    s.meta.end_reason = reason
    s.meta.phase = Phase.SESSION_END


@kernel
def need(s, n: int, reason: int) -> bool:
    """Return True if ``n`` cards can be drawn; else end the session for ``reason`` (R16: never a partial draw)."""
    if s.piles.draw_n >= n:
        return True
    end_session(s, reason)
    return False


@kernel
def card_die(s) -> int:
    """Return one die rolled with a card (R20): 1-6 (7 or 0 for K / Joker with ``special``); -1 = no card.

    The card goes back under the draw pile. With ``redraw`` a King or Joker is put back and
    the next card is used; a pile of nothing but Kings and Jokers gives -1.
    """
    for _ in range(s.piles.draw_n):
        if s.piles.draw_n == 0:
            return -1
        c = draw_top(s)
        put_bottom(s, c)
        card = s.cards[c]
        if card.kind == Kind.NUMBER or card.kind == Kind.ACE:
            return (card.value + 1) // 2
        if card.rank == JACK or card.rank == QUEEN:
            return 6
        if s.params.diceless_king_joker == DicelessKingJoker.SPECIAL:
            return 7 if card.rank == KING else 0
    return -1


@kernel
def roll(s, lane: int) -> int:
    """Return one die: a d6 on ``lane``, or a card die (R20); -1 if a card die cannot be drawn."""
    if s.params.dice == Dice.CARDS:
        return card_die(s)
    return rng.randint(s.scratch.rng, lane, np.int64(6)) + 1  # int64: a literal 6 compiles a randint of its own


@kernel
def hand_add(s, c: int) -> None:
    """Put card ``c`` at the end of the hand in place."""
    q = s.piles
    q.hand[q.hand_n] = c
    q.hand_n += 1


@kernel
def discard(s, c: int) -> None:
    """Put card ``c`` on the discard pile in place."""
    q = s.piles
    q.discard[q.discard_n] = c
    q.discard_n += 1


@kernel
def remove_at_hand(s, k: int) -> int:
    """Remove hand card ``k`` in place (order kept); return it."""
    q = s.piles
    c = q.hand[k]
    for i in range(k, q.hand_n - 1):
        q.hand[i] = q.hand[i + 1]
    q.hand_n -= 1
    return c


@kernel
def take_inv(s, k: int) -> int:
    """Remove Inventory card ``k`` in place (order kept); return it."""
    q = s.piles
    c = q.inv[k]
    for i in range(k, q.inv_n - 1):
        q.inv[i] = q.inv[i + 1]
    q.inv_n -= 1
    return c


@kernel
def take_discard(s, i: int) -> int:
    """Remove discard-pile card ``i`` in place (order kept); return it."""
    q = s.piles
    c = q.discard[i]
    for k in range(i, q.discard_n - 1):
        q.discard[k] = q.discard[k + 1]
    q.discard_n -= 1
    return c


@kernel
def acts_as(s, c: int, suit: int) -> bool:
    """Return True if Inventory card ``c`` may be played as a number card of ``suit`` (R14 affinity)."""
    card = s.cards[c]
    affinity = s.params.class_powers and s.hero.suit == suit  # classic: no class abilities
    if card.kind == Kind.NUMBER:
        return card.suit == suit or affinity
    if card.kind == Kind.ACE and s.params.affinity_includes_aces:
        return affinity  # the variant: an Ace may be played as a 1 of the class suit
    return False


@kernel
def is_ace_power(s, c: int, suit: int) -> bool:
    """Return True if ``c`` is the Ace of ``suit`` and its power is in play (AcePower bit ``1 << suit``)."""
    card = s.cards[c]
    return card.kind == Kind.ACE and card.suit == suit and power_on(s, 1 << suit)


@kernel
def find_ace(s, suit: int) -> int:
    """Return the Inventory index of the Ace of ``suit`` with its power in play, or -1."""
    for k in range(s.piles.inv_n):
        if is_ace_power(s, s.piles.inv[k], suit):
            return k
    return -1


@hot
def combo_rank_of(s, c: int) -> int:
    """Return the combo key of hand card ``c``: its rank, or 11 for any face card under ``any_face`` (R8)."""
    r = s.cards[c].rank
    if s.params.face_combo == FaceCombo.ANY_FACE and s.cards[c].kind == Kind.FACE:
        return JACK
    return r


@kernel
def count_rank(s, rank: int) -> int:
    """Return how many hand cards have combo key ``rank``."""
    n = 0
    for k in range(s.piles.hand_n):
        n += combo_rank_of(s, s.piles.hand[k]) == rank
    return n


@kernel
def has_inventory_play(s) -> bool:
    """Return True if an Inventory card could be played on an attack turn (Spade or A-spade)."""
    for k in range(s.piles.inv_n):
        c = s.piles.inv[k]
        if acts_as(s, c, Suit.SPADE) or is_ace_power(s, c, Suit.SPADE):
            return True
    return False


@kernel
def monster_cleanup(s, to_bottom: bool) -> None:
    """Move the cards in play, the monster's attack pile and (if still there) its bonus cards and card away.

    ``to_bottom``: under the draw pile (a victory, R17); else to the discard pile (death,
    abandoned battle, session end).
    """
    q = s.piles
    for k in range(q.play_n):
        put_bottom(s, q.play[k]) if to_bottom else discard(s, q.play[k])
    q.play_n = 0
    for k in range(q.mpile_n):
        put_bottom(s, q.mpile[k]) if to_bottom else discard(s, q.mpile[k])
    q.mpile_n = 0
    for k in range(q.bonus_n):
        discard(s, q.bonus[k])
    q.bonus_n = 0
    if s.monster.card != NO_CARD:
        discard(s, s.monster.card)
        s.monster.card = NO_CARD
