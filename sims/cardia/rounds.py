"""The three phases of a round, given the cards placed (rulebook *Round Overview*; R4-R13, R17).

Placing (``place``) puts both cards face down as a new encounter and binds each seat's
pending "next card" effects to its card (R8). ``reveal`` turns an encounter face up:
the bound modifiers attach, then the location checks on reveal (Haunted Catacombs,
Auction House), the Blackmailer's penalty and the Librarian's choice, all before the
comparison. ``phase2`` activates the ability of the card that lost at reveal (R6), then
the Engineer's +5 and the Mechanical Djinn check (R12, R16). ``phase3`` checks signets
and draws (R12, R13). Under Foggy Swamp the encounter revealed in a round is the one
placed the round before (R17).
"""

import numpy as np

from sims.cardia.abilities import activate
from sims.cardia.decide import decide, decide_card, legal_add, legal_clear
from sims.cardia.effects import discard_chosen, settle
from sims.cardia.state import (
    NO_CARD,
    Decision,
    DjinnCheck,
    EndReason,
    EventKind,
    Location,
    PostTieWin,
    Result,
    Zone,
)
from sims.cardia.table import add_modifier, end_both, end_game, influence, mechanical_djinn
from sims.cardia.zones import draw_n, log_event, put_under, record, take_from_hand, to_discard
from sims.core.jit import hot, kernel
from sims.core.records import NEVER

NO_WINNER = -1


@kernel
def place(s, g, c0: int, c1: int) -> int:
    """Place ``c0`` (seat 0) and ``c1`` (seat 1) face down as a new encounter in place; return its index.

    Each seat's pending "next card" effects are bound to its card here and take effect
    when it is revealed (R8; under Foggy Swamp "next card" is the next one chosen, R17).
    """
    k = np.int64(g.n_enc)
    g.n_enc = k + 1
    g.card[k, 0], g.card[k, 1] = c0, c1
    g.up[k], g.placed[k], g.res[k], g.prev_res[k] = 0, g.round_no, Result.HIDDEN, Result.HIDDEN
    for p in range(2):
        g.mod[k, p], g.tok[k, p], g.sig[k, p] = 0, 0, 0
        g.due_mod[k, p], g.due_lib[k, p], g.due_eng[k, p], g.due_bm[k, p] = (
            g.pend_mod[p],
            g.pend_lib[p],
            g.pend_eng[p],
            g.pend_bm[p],
        )
        g.pend_mod[p], g.pend_lib[p], g.pend_eng[p], g.pend_bm[p] = 0, 0, 0, -1
    for p in range(2):
        c = g.card[k, p]
        take_from_hand(s, g, p, np.int64(c))
        if not g.sim:
            r = record(s, p, c)
            r.times_played += 1
            if r.first_played_turn == NEVER:
                r.first_played_turn = g.round_no
        log_event(s, g, EventKind.PLACE, p, c, NO_CARD, 0, g.hand_n[p])
    return k


@hot
def haunted_catacombs(s, g, k: int) -> None:
    """Haunted Catacombs (R17): revealing a card of your previous card's faction loses the game (both: a draw)."""
    if g.location != Location.HAUNTED_CATACOMBS or k < 1:
        return
    same0 = s.cards[g.card[k, 0]].faction == s.cards[g.card[k - 1, 0]].faction
    same1 = s.cards[g.card[k, 1]].faction == s.cards[g.card[k - 1, 1]].faction
    end_both(s, g, same1, same0, EndReason.HAUNTED_CATACOMBS)  # the other seat wins


@hot
def auction_house(s, g, k: int) -> None:
    """Auction House: revealing less influence than your previous card discards your top deck card (E17)."""
    if g.location != Location.AUCTION_HOUSE or k < 1:
        return
    for p in range(2):
        if influence(s, g, k, p) < influence(s, g, k - 1, p) and g.deck_n[p] > 0:
            c = g.deck[p, g.deck_n[p] - 1]
            g.deck_n[p] -= 1
            to_discard(s, g, p, np.int64(c), Zone.DECK)


@hot
def blackmail(s, g, k: int) -> None:
    """Blackmailer: a revealed card not of the named faction costs its owner 2 cards from hand (their choice)."""
    for p in range(2):
        f = g.due_bm[k, p]
        g.due_bm[k, p] = -1
        if f >= 0 and s.cards[g.card[k, p]].faction != f:
            discard_chosen(s, g, p)
            discard_chosen(s, g, p)


@hot
def librarian(s, g, k: int) -> None:
    """Librarian (R8): its owner gives the card just revealed +2 or -2, after seeing both cards."""
    for p in range(2):
        for _ in range(g.due_lib[k, p]):
            legal_clear(s)
            legal_add(s, 0)
            legal_add(s, 1)
            sign = decide(s, g, p, Decision.LIBRARIAN_SIGN)
            add_modifier(s, g, k, p, np.int64(2 if sign == 0 else -2))
            log_event(s, g, EventKind.LIBRARIAN, p, g.card[k, p], NO_CARD, 2 if sign == 0 else -2, 0)
        g.due_lib[k, p] = 0


@kernel
def reveal(s, g, k: int) -> None:
    """Turn encounter ``k`` face up in place: bound modifiers, reveal checks, Librarian, then compare (R8, R17)."""
    g.up[k], g.cur = 1, k
    for p in range(2):
        if g.due_mod[k, p] != 0:
            add_modifier(s, g, k, p, np.int64(g.due_mod[k, p]))
            g.due_mod[k, p] = 0
    log_event(s, g, EventKind.REVEAL, -1, g.card[k, 0], g.card[k, 1], influence(s, g, k, 0), influence(s, g, k, 1))
    haunted_catacombs(s, g, k)
    if g.over:
        settle(s, g)
        return
    auction_house(s, g, k)
    blackmail(s, g, k)
    librarian(s, g, k)
    settle(s, g)


@kernel
def phase2(s, g, k: int) -> None:
    """Activate the ability of the card that lost encounter ``k`` at reveal (R6), then Engineer and Djinn checks.

    A tie at reveal activates nothing. The Engineer's +5 attaches after the ability (R8);
    the Mechanical Djinn's condition is checked at the end of phase 2 (R12, R16).
    """
    a, b = influence(s, g, k, 0), influence(s, g, k, 1)
    g.reveal_res = Result.SEAT_0 if a > b else (Result.SEAT_1 if b > a else Result.TIE)
    if not g.sim:
        for p in range(2):
            r = record(s, p, g.card[k, p])
            if g.reveal_res == Result.TIE:
                r.reveals_tied += 1
            elif g.reveal_res == p:
                r.reveals_won += 1
            else:
                r.reveals_lost += 1
    if g.reveal_res != Result.TIE and not g.over:
        loser = np.int64(1 - g.reveal_res)
        g.acted = loser
        activate(s, g, loser, k)
    if not g.over and g.cur >= 0:
        engineered = False
        for p in range(2):
            if g.due_eng[g.cur, p] > 0:
                add_modifier(s, g, np.int64(g.cur), p, np.int64(5 * g.due_eng[g.cur, p]))
                g.due_eng[g.cur, p] = 0
                engineered = True
        if engineered:
            settle(s, g)
    end_of_phase2(s, g)  # one call: copied into phase2, its only caller


@hot
def end_of_phase2(s, g) -> None:
    """Check the Mechanical Djinn at the end of phase 2 (its default and ``once`` readings, R16)."""
    check = s.params.mechanical_djinn_check
    if check == DjinnCheck.END_OF_PHASE2 or check == DjinnCheck.ONCE:
        mechanical_djinn(s, g, check == DjinnCheck.ONCE)  # one call: one copy of the check


@kernel
def signets_check(s, g) -> None:
    """Phase 3 (R12): with 5+ signets and more than the opponent you win; equal counts at 5+ play on."""
    a, b = g.signets[0], g.signets[1]
    need = s.params.win_signets
    if a == b:
        if a >= need:
            g.tied_five = 1
        return
    best = 0 if a > b else 1
    if max(a, b) >= need or (g.tied_five and s.params.post_tie_win == PostTieWin.MORE_SIGNETS):
        end_game(s, g, np.int64(best), EndReason.SIGNETS)


@hot
def end_of_round_draw(s, g, p: int) -> None:
    """Draw at the end of the round (R13) as the location says: Bazaar none, Grand Library 2, Scrapyard 2 - 1."""
    if g.location == Location.BAZAAR:
        return
    if g.location == Location.GRAND_LIBRARY:
        draw_n(s, g, p, s.params.library_draw)
    elif g.location == Location.SCRAPYARD and g.deck_n[p] >= 2:
        draw_n(s, g, p, s.params.scrapyard_draw)
        legal_clear(s)
        for i in range(g.hand_n[p]):
            legal_add(s, g.hand[p, i])
        put_under(s, g, p, decide_card(s, g, p, Decision.SCRAPYARD_CARD))
    else:
        draw_n(s, g, p, s.params.round_draw)


@hot
def phase3(s, g) -> None:
    """End of the round: the signet check, then each seat draws (R12, R13)."""
    signets_check(s, g)
    if g.over:
        return
    for p in range(2):
        end_of_round_draw(s, g, p)


@kernel
def cannot_place(s, g) -> None:
    """Phase 1 (R12): a seat that cannot place a card loses; if neither can, more signets wins, else a draw."""
    can0, can1 = g.hand_n[0] > 0, g.hand_n[1] > 0
    if not can0 and not can1:
        a, b = g.signets[0], g.signets[1]
        if a == b:
            end_game(s, g, np.int64(NO_WINNER), EndReason.DRAW_EQUAL_SIGNETS)
        else:
            end_game(s, g, np.int64(0 if a > b else 1), EndReason.BOTH_CANNOT_PLAY)
    elif not can0:
        end_game(s, g, np.int64(1), EndReason.OPPONENT_CANNOT_PLAY)
    else:
        end_game(s, g, np.int64(0), EndReason.OPPONENT_CANNOT_PLAY)


@kernel
def face_down_index(g) -> int:
    """Return the face-down encounter waiting to be revealed (Foggy Swamp), or -1."""
    for k in range(g.n_enc):
        if not g.up[k]:
            return np.int64(k)
    return -1


@kernel
def discard_face_down(s, g, k: int) -> None:
    """Foggy Swamp, game over in phase 1 (R17): the face-down encounter's cards go to the discard piles unrevealed."""
    for p in range(2):
        to_discard(s, g, p, np.int64(g.card[k, p]), Zone.TABLE)
    g.n_enc -= 1  # always the last encounter
