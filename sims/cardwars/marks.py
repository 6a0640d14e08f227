"""Staleness marks: which writers of ``stats.recompute``'s inputs mark the stats out of date (``board.st_*``).

``stats.refresh`` skips ``recompute`` while ``board.st_fresh`` is set. ``stale`` clears it; the
writers of the turn's state, of the pile sizes and of the Creatures in play call ``stale_turn``,
``stale_piles`` or ``stale_board`` instead, which clear it only while a stat in play reads what they
wrote: ``recompute`` notes that as bits (``reads_turn``, ``reads_piles``, ``reads_board``) in
``board.st_turn``, ``st_piles`` and ``st_board`` (RULES.md §13).
"""

from sims.cardwars.state import N_LANES, AuraTo, Count
from sims.core.jit import hot

# What of the turn's state a stat in play reads: ``board.st_turn`` holds these bits << SIDE * q for the
# stats of side q's cards (a count of both sides' entries: both sides' bits), noted by ``recompute``:
TURN_FLOOPED = 1  # which Creatures are Flooped (a row counting Flooped Creatures: Struzann Jinn)
TURN_COUNTS = 2  # this turn's entry counters (``turnfx.entered``, by Landscape and lane; ZaZo's bonus)
TURN_ENTERED = 4  # which Creatures entered this turn, and the mover (Shark's aura, "other Creatures that entered")
TURN_SPELLS = 8  # this turn's Spell counter (``turnfx.spells``: Woadic Chief)
TURN_PLAYED = 16  # this turn's Creatures-played counter (``turnfx.played_cr``)
TURN_MOVED = 32  # which Creatures changed Lanes this turn (Punk Cat's aura; cleared by ``flow.clear_this_turn``)
TURN_ALL = TURN_FLOOPED | TURN_COUNTS | TURN_ENTERED | TURN_SPELLS | TURN_PLAYED | TURN_MOVED  # the turn's Spells: any
SIDE = 8  # side q's bits of ``board.st_turn``: TURN_* << SIDE * q
BOTH = 1 | 1 << SIDE  # bits * BOTH: those bits of both sides

# Which pile sizes a stat in play reads (``board.st_piles``): HAND << q, side q's hand; DISC << q, its discard pile.
HAND = 1
DISC = 4


@hot
def stale(s) -> None:
    """Mark the board's ATK/DEF out of date in place: called by every writer of an input of ``recompute``.

    The inputs: each slot's Creature, Building, Landscape (type, face up), this turn's ATK,
    "gains 1 DEF", ZaZo's, Flooped, moved, entered and Schoolhouse fields; the turn and the
    mover; this turn's counters (``turnfx``); the hand and discard pile sizes. Writers of the
    turn's state and of the pile sizes call ``stale_turn`` / ``stale_piles`` instead, which
    mark only while a stat in play reads them. Damage is no input,
    but ``board.deal_damage`` marks the stats when it brings a Creature to its DEF: fresh
    stats also mean that nobody is dying.
    """
    s.board.st_fresh = 0


@hot
def stale_turn(s, reads: int) -> None:
    """Mark the stats out of date in place if one in play reads the part ``reads`` of the turn's state
    (``TURN_*`` bits of ``board.st_turn``).

    Called by the writers of this turn's counters (``turnfx``: TURN_SPELLS, TURN_PLAYED) and of
    ``board.cr_floop`` (a Floop, a Creature readied or taken over: TURN_FLOOPED); a new turn is
    checked by ``new_turn_changes``. Only the rows counting those (``reads_turn``), Shark's aura,
    ZaZo's bonus and the turn's Spells read them, and ``recompute`` notes which are in play.
    """
    if s.board.st_turn & (reads * BOTH):
        s.board.st_fresh = 0


@hot
def new_turn_changes(s) -> bool:
    """Return True if the turn just begun (``meta.turn``, ``meta.mover``; ``turnfx`` not yet cleared)
    changes what a stat in play reads of the turn's state (``board.st_turn``, by side): for each side
    q whose stats read it, a counter of q the turn ending leaves set (entries ``TURN_COUNTS``, Spells
    ``TURN_SPELLS``, Creatures played ``TURN_PLAYED``), a Creature of q that entered during it
    (``TURN_ENTERED``); a Flooped Creature of the new mover, readied by its Ready step
    (``flow.begin_turn``), if the new mover's stats count Flooped ones.

    Side by side because each of those reads its own side's: Woadic Chief its controller's Spells,
    Struzann Jinn its controller's Flooped Creatures, Shark's aura and "other Creatures that entered
    under you during your turn" its controller's entries (0 on the opponent's turn, and 0 at the
    start of its own); a count of both sides' entries sets both sides' bits (``reads_turn``). The
    turn's Spell bonuses, ZaZo's and "changed Lanes" are cleared by ``flow.clear_this_turn``, which
    marks the stats itself when one that was set is read (TURN_MOVED: Punk Cat); the mover and the
    turn number are read only with the Creatures that entered this turn (``_count_turn``,
    ``aura_pair``): with none, the new ones read the same.
    """
    b, t, m = s.board, s.turnfx, s.meta
    mover = m.mover & 1  # seats as non-negative indexes (RULES.md §13)
    for q in range(2):
        reads = b.st_turn >> (SIDE * q)
        entered = (reads & TURN_COUNTS) != 0 and t.entered[q] != 0
        counted = entered or ((reads & TURN_SPELLS) != 0 and t.spells[q] != 0)
        if t.aura_n[q] != 0 or counted or ((reads & TURN_PLAYED) != 0 and t.played_cr[q] != 0):
            return True
        if reads & TURN_ENTERED:
            for lane in range(N_LANES):
                if b.cr_card[q, lane] >= 0 and b.cr_entered[q, lane] == m.turn - 1:
                    return True
    if (b.st_turn >> (SIDE * mover)) & TURN_FLOOPED:
        for lane in range(N_LANES):
            if b.cr_card[mover, lane] >= 0 and b.cr_floop[mover, lane]:
                return True
    return False


@hot
def stale_piles(s, piles: int) -> None:
    """Mark the stats out of date in place if one in play reads the size of a pile of ``piles`` (``HAND << q``,
    ``DISC << q``; ``board.st_piles``).

    Called by every writer of ``piles.hand_n``/``disc_n`` with the pile it wrote: only Dark Angel's and
    Mouthball's rows (and a Spell's count) read them, and ``recompute`` notes which piles they read.
    """
    if s.board.st_piles & piles:
        s.board.st_fresh = 0


@hot
def stale_board(s, q: int, c: int, piles: int) -> None:
    """Mark the stats out of date in place if Creature ``c`` leaving side ``q`` can change another's (``take_off``).

    It can if ``c`` gives an aura beyond its lane's Building (X-Large Spirit Soldier, Shark, Punk
    Cat: those auras reach Creatures by their own slot and state, not by who else is in play), if
    a STAT row counting side ``q``'s Creatures in play (``reads_board``) or the turn's Spells are in
    play (bit ``q`` of ``board.st_board``, noted by ``recompute``), or while a Creature may be dying
    (``board.st_dying``: the one leaving may be it). Otherwise the stats stay current, and only
    the pile the Creature goes to changed (``piles``: ``stale_piles``).
    """
    b = s.board
    if (
        (b.st_board >> (q & 1)) & 1
        or b.st_dying
        or s.cards[c].au_to == AuraTo.ADJACENT_OWN
        or s.cards[c].au_to >= AuraTo.OWN_ENTERED_THIS_TURN
    ):
        b.st_fresh = 0
    else:
        stale_piles(s, piles)


@hot
def reads_turn(kind: int, q: int) -> int:
    """Return what a row counting ``kind`` of a card of side ``q`` reads of the turn's state (``board.st_turn``
    bits: ``TURN_*`` << SIDE * q, both sides' for the entries of both; 0: nothing)."""
    if kind == Count.ENTERED_THIS_TURN:
        return TURN_COUNTS * BOTH
    if kind == Count.OWN_FLOOPED:
        bits = TURN_FLOOPED
    elif kind == Count.OWN_OTHER_ENTERED_THIS_TURN:
        bits = TURN_COUNTS | TURN_ENTERED
    elif kind == Count.OWN_SPELLS_THIS_TURN:
        bits = TURN_SPELLS
    elif kind == Count.OWN_CREATURES_PLAYED:
        bits = TURN_PLAYED
    else:
        bits = TURN_COUNTS if kind == Count.ADJACENT_ENTERED else 0  # its own side's entries beside it
    return bits << (SIDE * q)


@hot
def reads_board(kind: int, q: int) -> int:
    """Return the sides (bits) whose Creatures in play a row counting ``kind`` of a card on side ``q`` reads (0: none).

    Its own side's (other Creatures, of a Landscape, copies, Flooped ones, empty lanes), or the
    opposing side's (the opposing Creature in its lane); ``count_of`` reads no other.
    """
    own = (
        kind == Count.OWN_OTHER_CREATURES
        or kind == Count.OWN_LAND_CREATURES
        or kind == Count.OWN_COPIES
        or kind == Count.OWN_FLOOPED
        or kind == Count.OWN_EMPTY_LANES
    )
    if own:
        return 1 << q
    return 1 << (q ^ 1) if kind == Count.OPPOSING_IN_LANE else 0


@hot
def reads_piles(kind: int, q: int) -> int:
    """Return the piles (``HAND``/``DISC`` bits) whose size a row counting ``kind`` of a card of side ``q`` reads."""
    if kind == Count.OWN_DISCARD:
        return DISC << q
    return HAND << (q ^ 1) if kind == Count.OPPONENT_HAND else 0
