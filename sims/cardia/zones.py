"""Hands, decks and discard piles; the replay log and the per-card records.

Every function takes the state ``s`` (context) and the position ``g`` it changes (``s.pos``
or a bot's look-ahead copy, which writes no records and no log). Ordered piles are id rows
plus lengths; a deck's top is its last entry.
"""

import numpy as np

from sims.cardia.state import MAX_EVENTS, NO_CARD, EventKind, Location, Zone
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.records import NEVER


@hot
def log_event(s, g, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op for a look-ahead copy, unless logging, or when full.

    Only the test is copied into callers; the write is one compiled ``write_event``, called
    with ``int64`` arguments only (so it compiles once): a log is written in replays alone.
    """
    if not g.sim and s.meta.log_on and s.meta.log_n < MAX_EVENTS:
        write_event(
            s, np.int64(g.round_no), np.int64(kind), np.int64(seat), np.int64(card), np.int64(target),
            np.int64(value), np.int64(extra),
        )  # fmt: skip


@kernel
def write_event(s, round_no: int, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Write one event at ``s.scratch.log[meta.log_n]`` in place (``log_event`` checked that it fits)."""
    m = s.meta
    k = m.log_n
    e = s.scratch.log[k]
    e.turn, e.seat, e.kind, e.card, e.target, e.value, e.extra = (
        m.turn_base + round_no,
        seat,
        kind,
        card,
        target,
        value,
        extra,
    )
    m.log_n = k + 1


@hot
def record(s, p: int, c: int):
    """Return the CARD record of seat ``p``'s card ``c`` in the current game of the match."""
    return s.tally.cards[s.meta.match_game - 1, p, c]


@kernel
def clear_card_record(r, game: int, p: int, c: int, match_game: int) -> None:
    """Reset one ``CARD_RECORD_DTYPE`` record in place."""
    r.game, r.seat, r.card, r.won, r.in_opening_hand = game, p, c, 0, 0
    r.first_drawn_turn = r.first_played_turn = NEVER
    r.times_played, r.match_game = 0, match_game
    r.reveals_won = r.reveals_lost = r.reveals_tied = r.activations = r.copied = 0
    r.signets_end = r.winning_end = r.flips = r.discarded = r.returned = 0


# -- hand ------------------------------------------------------------------------------


@kernel
def draw(s, g, p: int) -> int:
    """Move seat ``p``'s top deck card to its hand in place; return it (NO_CARD: empty deck, no penalty R13)."""
    n = g.deck_n[p]
    if n == 0:
        return NO_CARD
    c = g.deck[p, n - 1]
    g.deck_n[p] = n - 1
    g.hand[p, g.hand_n[p]] = c
    g.hand_n[p] += 1
    if not g.sim:
        r = record(s, p, c)
        if r.first_drawn_turn == NEVER:
            r.first_drawn_turn = g.round_no
        log_event(s, g, EventKind.DRAW, p, c, NO_CARD, 0, 0)
    return c


@hot
def draw_n(s, g, p: int, n: int) -> int:
    """Draw up to ``n`` cards for seat ``p`` in place; return how many were drawn."""
    k = 0
    while k < n and draw(s, g, p) != NO_CARD:
        k += 1
    return k


@hot
def hand_index(g, p: int, c: int) -> int:
    """Return the index of card ``c`` in seat ``p``'s hand, or -1."""
    for i in range(g.hand_n[p]):
        if g.hand[p, i] == c:
            return i
    return -1


@kernel
def refill_at_bazaar(s, g, p: int) -> None:
    """Bazaar (R17): a hand of ``bazaar_threshold`` cards or fewer draws ``bazaar_refill`` at once, in any phase."""
    if g.location == Location.BAZAAR and g.hand_n[p] <= s.params.bazaar_threshold:
        draw_n(s, g, p, s.params.bazaar_refill)


@kernel
def take_from_hand(s, g, p: int, c: int) -> bool:
    """Remove card ``c`` from seat ``p``'s hand in place (order kept); return False if it is not there.

    Every hand removal goes through here, so the Bazaar refill follows at once (R17).
    """
    i = hand_index(g, p, c)
    if i < 0:
        return False
    n = g.hand_n[p]
    for k in range(i, n - 1):
        g.hand[p, k] = g.hand[p, k + 1]
    g.hand_n[p] = n - 1
    refill_at_bazaar(s, g, p)
    return True


@kernel
def to_discard(s, g, p: int, c: int, zone: int) -> None:
    """Put seat ``p``'s card ``c`` face up on its discard pile in place (it has already left ``zone``)."""
    g.discard[p, g.discard_n[p]] = c
    g.discard_n[p] += 1
    if not g.sim:
        record(s, p, c).discarded += 1
        s.tally.seats[p].cards_discarded += 1
        log_event(s, g, EventKind.DISCARD, p, c, NO_CARD, zone, 0)


@kernel
def discard_from_hand(s, g, p: int, c: int) -> bool:
    """Discard card ``c`` from seat ``p``'s hand in place; return False if it is not in the hand."""
    if hand_index(g, p, c) < 0:
        return False
    to_discard(s, g, p, c, Zone.HAND)
    take_from_hand(s, g, p, c)  # after the pile: a Bazaar refill happens once the card is gone
    return True


@kernel
def discard_top(s, g, p: int) -> int:
    """Discard seat ``p``'s top deck card in place; return it (NO_CARD if the deck is empty)."""
    n = g.deck_n[p]
    if n == 0:
        return NO_CARD
    c = np.int64(g.deck[p, n - 1])
    g.deck_n[p] = n - 1
    to_discard(s, g, p, c, Zone.DECK)
    return c


@hot
def put_under(s, g, p: int, c: int) -> None:
    """Move card ``c`` from seat ``p``'s hand to the bottom of its deck in place (Scrapyard)."""
    if not take_from_hand(s, g, p, c):
        return
    n = g.deck_n[p]
    for k in range(n, 0, -1):
        g.deck[p, k] = g.deck[p, k - 1]
    g.deck[p, 0] = c
    g.deck_n[p] = n + 1
    log_event(s, g, EventKind.UNDER, p, c, NO_CARD, 0, 0)


@kernel
def shuffle_deck(s, g, p: int) -> None:
    """Shuffle seat ``p``'s deck in place on lane SHUFFLE + p."""
    rng.shuffle(g.deck[p], g.deck_n[p], g.rng, 1 + p)
    log_event(s, g, EventKind.SHUFFLE, p, NO_CARD, NO_CARD, g.deck_n[p], 0)


@kernel
def count_in_hand(s, g, p: int, faction: int) -> int:
    """Return how many cards of ``faction`` seat ``p`` holds."""
    n = 0
    for i in range(g.hand_n[p]):
        n += s.cards[g.hand[p, i]].faction == faction
    return n


@kernel
def unseen_cards(s, g, p: int, out: np.ndarray) -> int:
    """Fill ``out`` with the opponent's cards seat ``p`` cannot see (hand or deck); return how many.

    Public (R4): every face-up card on the table and both discard piles; the opponent's
    deck list is known (identical decks). A face-down card (Foggy Swamp) stays unseen.
    """
    o = 1 - p
    seen = s.scratch.seen
    for i in range(g.listed_n[o]):
        seen[g.listed[o, i]] = 0
    for k in range(g.n_enc):
        if g.up[k]:
            seen[g.card[k, o]] = 1
    for k in range(g.discard_n[o]):
        seen[g.discard[o, k]] = 1
    n = 0
    for i in range(g.listed_n[o]):
        c = g.listed[o, i]
        if seen[c] == 0:
            out[n] = c
            n += 1
    return n
