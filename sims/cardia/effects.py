"""Building blocks of abilities: settling a change (R5, Serpent Temple), chosen discards, option lists.

``settle`` is called after every change to the table: it re-derives results and signets,
counts flips, checks the instant wins and carries out Serpent Temple triggers (draw 1,
the opponent discards 1 of their choice, R7/R17).
"""

from sims.cardia.decide import decide, decide_card, legal_add, legal_clear
from sims.cardia.state import NO_CARD, NO_POS, Decision, EventKind
from sims.cardia.table import influence, refresh
from sims.cardia.zones import discard_from_hand, draw, log_event
from sims.core.jit import hot, kernel


@kernel
def discard_chosen(s, g, p: int) -> int:
    """Seat ``p`` discards one card of its choice from hand in place; return it (NO_CARD: empty hand)."""
    if g.hand_n[p] == 0:
        return NO_CARD
    legal_clear(s)
    for i in range(g.hand_n[p]):
        legal_add(s, g.hand[p, i])
    c = decide_card(s, g, p, Decision.DISCARD_HAND)
    discard_from_hand(s, g, p, c)
    return c


@hot
def serpent_temple(s, g, p: int) -> None:
    """Serpent Temple (R17): seat ``p`` started winning a past encounter: it draws 1, the opponent discards 1."""
    if g.over:
        return
    draw(s, g, p)
    discard_chosen(s, g, 1 - p)


@kernel
def settle(s, g) -> None:
    """Re-derive the table after a change and carry out what follows from it, in place (R5, R12, R17)."""
    triggers = refresh(s, g)
    for p in range(2):  # a loop, not two calls with constant seats: one compiled serpent_temple
        for _ in range(triggers % 16 if p == 0 else triggers // 16):
            serpent_temple(s, g, p)


@hot
def name_faction(s, g, p: int, kind: int, naming_card: int) -> int:
    """Seat ``p`` names a faction (decision ``kind``); return it."""
    legal_clear(s)
    for f in range(4):
        legal_add(s, f)
    f = decide(s, g, p, kind)
    log_event(s, g, EventKind.NAME, p, naming_card, NO_CARD, f, 0)
    return f


@hot
def choose_position(s, g, p: int, kind: int) -> int:
    """Return seat ``p``'s choice among the positions already in the option list, or NO_POS if there are none."""
    if s.scratch.n_legal == 0:
        return NO_POS
    return decide(s, g, p, kind)


@hot
def add_played(s, g, owner: int, skip: int) -> None:
    """Add every face-up card of ``owner`` (both seats: -1) to the option list, except position ``skip``."""
    for k in range(g.n_enc):
        if not g.up[k]:
            continue
        for side in range(2):
            if (owner < 0 or side == owner) and k * 2 + side != skip:
                legal_add(s, k * 2 + side)


@kernel
def add_low_influence(s, g, p: int, limit: int) -> None:
    """Add seat ``p``'s face-up cards of influence ``limit`` or less to the option list (Prodigy)."""
    for k in range(g.n_enc):
        if g.up[k] and influence(s, g, k, p) <= limit:
            legal_add(s, k * 2 + p)


@hot
def add_carrying(s, g, p: int) -> None:
    """Add seat ``p``'s face-up cards with modifiers or tokens (both seats: -1) to the option list."""
    for k in range(g.n_enc):
        if not g.up[k]:
            continue
        for side in range(2):
            if (p < 0 or side == p) and (g.mod[k, side] != 0 or g.tok[k, side] > 0):
                legal_add(s, k * 2 + side)


@kernel
def count_played(g, p: int) -> int:
    """Return how many face-up cards seat ``p`` has on the table."""
    n = 0
    for k in range(g.n_enc):
        n += g.up[k]
    return n
