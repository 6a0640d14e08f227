"""Blessings & Curses bookkeeping, action values (R8, R9) and piles (R10, R11, R18)."""

import numpy as np

from sims.blessings.state import (
    MAX_EVENTS,
    NO_CARD,
    ActionKind,
    DestroyedCards,
    EventKind,
    Lane,
    opponent,
)
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.piles import pop_top, push, remove_at
from sims.core.records import NEVER


@hot
def log_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op unless ``meta.log_on`` (and when full).

    Only the test is copied into callers; the write is one compiled ``write_event``, called
    with ``int64`` arguments only (so it compiles once): a log is written in replays alone.
    """
    if s.meta.log_on and s.meta.log_n < MAX_EVENTS:
        write_event(
            s, np.int64(kind), np.int64(seat), np.int64(card), np.int64(target), np.int64(value), np.int64(extra)
        )  # fmt: skip


@kernel
def write_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Write one event at ``s.scratch.log[meta.log_n]`` in place (``log_event`` checked that it fits)."""
    m = s.meta
    k = m.log_n
    e = s.scratch.log[k]
    e.turn, e.seat, e.kind, e.card, e.target = min(m.turn, 32767), seat, kind, card, target
    e.value, e.extra = max(-32768, min(value, 32767)), max(-32768, min(extra, 32767))
    m.log_n = k + 1


@kernel
def clear_seat(st) -> None:
    """Zero the per-game counters of one ``SEAT_DTYPE`` record in place."""
    st.score = st.won = st.first = st.battles_started = st.battles_surrendered = 0
    st.damage_dealt = st.cards_destroyed = st.curse_sent = st.blessing_gained = 0
    st.bonus_gained = st.cards_lost_to_curses = 0
    st.attacks = st.blesses = st.curses = st.discards = st.cards_owned = 0


@kernel
def clear_card_record(r, game: int, p: int, c: int) -> None:
    """Reset one ``CARD_RECORD_DTYPE`` record in place for card ``c`` of seat ``p``."""
    r.game, r.seat, r.card, r.won, r.in_opening_hand = game, p, c, 0, 0
    r.first_drawn_turn = r.first_played_turn = NEVER
    r.times_played = r.times_drawn = r.attacks = r.blesses = r.curses = r.discards = 0
    r.damage_dealt = r.cards_destroyed = r.curse_sent = r.blessing_gained = 0
    r.times_destroyed = r.times_cursed = 0


@hot
def count_attack(s, p: int, c: int, t: int, dealt: int, destroyed: bool) -> None:
    """Count seat ``p``'s card ``c`` dealing ``dealt`` to the opposing card ``t`` (``destroyed``: a kill) in place."""
    r = s.tally.cards[p, c]
    st = s.tally.seats[p]
    r.attacks += 1
    st.attacks += 1
    r.damage_dealt += dealt
    st.damage_dealt += dealt
    if destroyed:
        r.cards_destroyed += 1
        st.cards_destroyed += 1
        s.tally.cards[opponent(p), t].times_destroyed += 1


@hot
def count_play(s, p: int, c: int, kind: int, v: int) -> None:
    """Count seat ``p`` playing card ``c`` as ``kind`` (bless, curse, discard: ``v`` pool points) in place."""
    r = s.tally.cards[p, c]
    st = s.tally.seats[p]
    if kind == ActionKind.BLESS:
        r.blesses += 1
        st.blesses += 1
    elif kind == ActionKind.CURSE:
        r.curses += 1
        st.curses += 1
        r.curse_sent += v
        st.curse_sent += v
    elif kind == ActionKind.DISCARD:
        r.discards += 1
        st.discards += 1
    if kind == ActionKind.BLESS or kind == ActionKind.DISCARD:
        r.blessing_gained += v
        st.blessing_gained += v
    r.times_played += 1
    if r.first_played_turn == NEVER:
        r.first_played_turn = s.meta.turn


@hot
def attack_damage(s, c: int) -> int:
    """Return the damage card ``c`` deals as an attack: Attack x Impact (R8; face cards: 0)."""
    return s.cards[c].attack * s.cards[c].impact


@hot
def face_bonus(s, p: int) -> int:
    """Return the face-card bonus of seat ``p``'s cards: ``face_bonus`` unless ``p`` is left out (R9)."""
    return s.params.face_bonus if (s.params.face_bonus_seats >> p) & 1 else 0


@hot
def pool_value(s, p: int, c: int) -> int:
    """Return what seat ``p``'s card ``c`` adds as a bless or a curse: Attack + Impact, + face bonus (R9)."""
    card = s.cards[c]
    return card.attack + card.impact + (face_bonus(s, p) if card.face else 0)


@hot
def discard_value(s, p: int, c: int) -> int:
    """Return the blessing of seat ``p`` discarding card ``c``: Attack + Impact, - face bonus, >= 0 (R9)."""
    card = s.cards[c]
    return max(0, card.attack + card.impact - (face_bonus(s, p) if card.face else 0))


@kernel
def reshuffle(s, p: int) -> None:
    """Shuffle seat ``p``'s discard pile into its empty deck in place (R11; never the destroyed pile)."""
    q = s.piles
    n = q.discard_n[p]
    for k in range(n):
        q.deck[p, k] = q.discard[p, k]
    q.deck_n[p] = n
    q.discard_n[p] = 0
    rng.shuffle(q.deck[p], n, s.scratch.rng, np.int64(Lane.SHUFFLE + p))
    log_event(s, EventKind.RESHUFFLE, p, NO_CARD, NO_CARD, n, 0)


@hot
def draw(s, p: int, counting: bool = True) -> int:
    """Draw seat ``p``'s top card to the right end of its hand in place; return it (NO_CARD: nothing to draw, R11)."""
    q = s.piles
    if q.deck_n[p] == 0 and s.params.midbattle_reshuffle and q.discard_n[p] > 0:
        reshuffle(s, np.int64(p))
    if q.deck_n[p] == 0:
        return NO_CARD  # R11: skipped, no penalty
    c = np.int64(pop_top(q.deck, q.deck_n, np.int64(p)))
    push(q.hand, q.hand_n, np.int64(p), c)
    q.hp[p, c] = s.params.card_health  # R18
    if counting:
        r = s.tally.cards[p, c]
        r.times_drawn += 1
        if r.first_drawn_turn == NEVER:
            r.first_drawn_turn = s.meta.turn
    return c


@hot
def destroy(s, p: int, i: int) -> int:
    """Remove seat ``p``'s hand card ``i`` (Health 0) in place to its destroyed or discard pile (R10); return it."""
    q = s.piles
    c = np.int64(remove_at(q.hand, q.hand_n, np.int64(p), np.int64(i)))
    if s.params.destroyed_cards == DestroyedCards.RECYCLE:
        push(q.discard, q.discard_n, np.int64(p), c)
    else:
        push(q.gone, q.gone_n, np.int64(p), c)
    return c


@hot
def cards_left(s, p: int) -> int:
    """Return seat ``p``'s cards that can still reach its hand this battle (R12)."""
    q = s.piles
    n = q.hand_n[p] + q.deck_n[p]
    return n + q.discard_n[p] if s.params.midbattle_reshuffle else n
