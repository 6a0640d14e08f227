"""Set-up (R1, R2, R5): clearing a game's records, building and shuffling the decks, dealing, mulligans."""

import numpy as np

from sims.cardwars import board as bd
from sims.cardwars import marks as mk
from sims.cardwars.layout import NO_CARD, Choice, EventKind, Lane, Phase, Resume
from sims.cardwars.state import N_LANES, N_STARTERS, STARTER_LANDSCAPE, DeckBuilder, DeckChoice, EndReason
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.records import NEVER, NO_WINNER

STARTER_LAND = np.array([int(x) for x in STARTER_LANDSCAPE], dtype=np.int8)


@hot
def clear_seat(st, game: int, p: int) -> None:
    """Zero one ``SEAT_DTYPE`` record in place for seat ``p`` of game ``game``."""
    st.game, st.seat, st.bot, st.score, st.won, st.first, st.deck = game, p, 0, 0, 0, 0, 0
    st.mulligan_taken = st.damage_to_hero = st.creatures_destroyed = st.cards_played = 0
    st.action_draws = st.floops = st.activations = st.deck_left = st.hand_end = st.creatures_end = 0


@kernel
def clear_card_record(r, game: int, p: int, c: int) -> None:
    """Reset one ``CARD_RECORD_DTYPE`` record in place for card ``c`` of seat ``p``."""
    r.game, r.seat, r.card, r.won, r.in_opening_hand, r.copies = game, p, c, 0, 0, 0
    r.first_drawn_turn = r.first_played_turn = NEVER
    r.times_played = r.times_drawn = r.damage_to_creatures = r.damage_to_hero = r.floops = r.times_died = 0
    r.first_lane = 0


@kernel
def reset(s, game: int, seed: np.uint64) -> None:
    """Empty the board, piles and counters of ``s`` in place for game ``game`` seeded by ``seed``."""
    m, b, pl = s.meta, s.board, s.piles
    m.game, m.seed, m.turn, m.mover, m.first_seat, m.phase, m.actions = game, seed, 0, 0, 0, Phase.MAIN, 0
    m.pending, m.decider, m.resume, m.pend_left, m.pend_card, m.pend_owner = Choice.NONE, 0, Resume.MAIN, 0, NO_CARD, 0
    m.sot_lane, m.reveal_n, m.winner, m.end_reason, m.plays, m.floops, m.log_n = (
        0,
        0,
        NO_WINNER,
        EndReason.TIMEOUT,
        0,
        0,
        0,
    )
    m.holder = game % 2 if s.params.value_card >= 0 else -1
    for q in range(2):
        for lane in range(N_LANES):
            b.cr_card[q, lane] = b.bu_card[q, lane] = NO_CARD
            b.cr_copy[q, lane] = NO_CARD
            b.up[q, lane] = 1
        b.hp[q] = s.params.hit_points
        pl.deck_n[q] = pl.hand_n[q] = pl.disc_n[q] = pl.built_n[q] = 0
        clear_seat(s.tally.seats[q], game, q)
    mk.stale(s)
    clear_turn(s)
    s.queue.head = s.queue.tail = s.queue.next_batch = 0
    rng.seed_lanes(s.scratch.rng, seed)


@kernel
def clear_turn(s) -> None:
    """Zero this turn's counters in place (``turnfx``), at a new turn (``meta.turn`` and ``meta.mover`` the new ones).

    The stats are marked only if one in play reads the turn's state and the new turn changes what
    it reads (``marks.new_turn_changes``; marked at every new turn, 5.6 of the 7.9 recomputes a
    game that followed changed no stat, greedy mirror; now 0.2 of 2.5, the marks by side).
    """
    t = s.turnfx
    if s.board.st_turn and mk.new_turn_changes(s):
        mk.stale(s)
    for q in range(2):
        t.spells[q] = t.played_cr[q] = t.entered[q] = t.coffins[q] = t.aura_n[q] = 0
        for k in range(t.entered_land.shape[1]):
            t.entered_land[q, k] = 0
        for lane in range(N_LANES):
            t.entered_lane[q, lane] = 0


@kernel
def starter_copies(s, c: int, d: int) -> int:
    """Return the copies of card ``c`` in starter deck ``d`` (StarterDeck)."""
    k = s.cards[c]
    if d == 0:
        return k.in_finn
    if d == 1:
        return k.in_jake
    if d == 2:
        return k.in_bmo
    return k.in_rainicorn


@hot
def lay_out_starters(s) -> None:
    """List the four starter decks (card id order, copies together) in ``scratch.starter`` once per batch."""
    for d in range(N_STARTERS):
        n = 0
        for c in range(s.meta.n_cards):
            for _ in range(starter_copies(s, c, d)):
                s.scratch.starter[d, n] = c
                n += 1
        s.scratch.starter_n[d] = n


@hot
def holder_deck(s, roll: int) -> int:
    """Return the starter deck the value-mode holder plays: one holding the card, picked by ``roll`` (0..11)."""
    n = 0
    for d in range(N_STARTERS):
        n += starter_copies(s, s.params.value_card, d) > 0
    k = roll % n
    for d in range(N_STARTERS):
        if starter_copies(s, s.params.value_card, d) > 0:
            if k == 0:
                return d
            k -= 1
    return 0


@kernel
def build_deck(s, p: int, decks: np.ndarray, roll: int, pick: int) -> None:
    """Fill seat ``p``'s deck list, Landscapes and deck name in place (R1); value-mode swap (issue 9)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    pl, b = s.piles, s.board
    n = 0
    if s.params.deck_builder == DeckBuilder.FIXED:
        while n < decks.shape[1] and decks[p, n] >= 0:
            pl.built[p, n] = decks[p, n]
            n += 1
        for lane in range(N_LANES):
            b.land[p, lane] = s.scratch.fixed_land[p, lane]
        pl.deck_name[p] = s.scratch.fixed_name[p]
    else:
        choice = s.params.deck_0 if p == 0 else s.params.deck_1
        d = roll if choice == DeckChoice.RANDOM else choice - 1
        if s.meta.holder == p and choice == DeckChoice.RANDOM:
            d = holder_deck(s, pick)
        for k in range(s.scratch.starter_n[d]):
            pl.built[p, k] = s.scratch.starter[d, k]
        n = s.scratch.starter_n[d]
        for lane in range(N_LANES):
            b.land[p, lane] = STARTER_LAND[d]
        pl.deck_name[p] = d
    mk.stale(s)  # the Landscapes
    pl.built_n[p] = n
    if s.meta.holder == p and s.params.value_swap:
        for k in range(n):
            if pl.built[p, k] == s.params.value_card:
                pl.built[p, k] = s.meta.n_cards - 1  # the baseline row prepare_pool appended
    for k in range(n):
        c = pl.built[p, k]
        if k == 0 or pl.built[p, k - 1] != c:
            clear_card_record(s.tally.cards[p, c], s.meta.game, p, c)
        s.tally.cards[p, c].copies += 1
        pl.deck[p, k] = c
        if k == 0 or pl.built[p, k - 1] != c:
            bd.log_event(s, EventKind.DECK, p, c, NO_CARD, 0, pl.deck_name[p])
    pl.deck_n[p] = n
    s.tally.seats[p].deck = pl.deck_name[p]


@kernel
def deal(s, p: int) -> None:
    """Shuffle seat ``p``'s deck (lane SHUFFLE + p) and draw the opening hand in place."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    rng.shuffle(s.piles.deck[p], np.int64(s.piles.deck_n[p]), s.scratch.rng, Lane.SHUFFLE + p)
    for _ in range(s.params.opening_hand):
        c = bd.draw(s, p)
        if c >= 0:
            s.tally.cards[p, c].in_opening_hand = 1
    bd.log_event(s, EventKind.DEAL, p, NO_CARD, NO_CARD, s.piles.hand_n[p], s.piles.deck_n[p])
