"""Cardinger deck building (R2): the recommended random method, uniform random, fixed, shared set.

Runs on lane SETUP only, so rule variants that do not touch deck building keep the
same decks on the same seeds (paired comparisons). The piles are laid out in card-id
order, which ``pool.prepare_pool`` makes name order: a seed's decks depend only on the
pool's names and costs, never on rows or stats (issue 14).

With ``value_card >= 0`` (``balance value``, RULES.md §10) the holder (seat ``game % 2``)
takes the card as its first deck card and builds the rest as usual; then a baseline card
is drawn, and in arm ``value_swap = 1`` it replaces the card in the holder's deck. Both
arms draw the same values on every lane, so they are paired games.
"""

import numpy as np

from sims.cardinger.state import (
    NO_CARD,
    DeckBuilder,
    DeckSource,
    Lane,
    PileKind,
    ValueBaseline,
)
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.piles import push


@kernel
def lay_out_piles(s) -> None:
    """Sort the pool into the builder's piles once per batch, in place: cost 1+ and cost 0 without the
    excluded cost, and the whole pool (R2). A row in no set (the value baseline's blank card) is left out."""
    pile, n = s.scratch.piles, s.scratch.piles_n
    n[0] = n[1] = n[2] = 0
    for c in range(s.meta.n_cards):
        if s.cards[c].set == 0:
            continue
        push(pile, n, PileKind.ALL, c)
        cost = s.cards[c].cost
        if cost != s.params.builder_excluded_cost:
            push(pile, n, PileKind.FREE if cost == 0 else PileKind.COSTLY, c)


@kernel
def fill_piles(s) -> None:
    """Put a full copy of the pool's builder piles face down in place (R2: one copy per deck source)."""
    for k in range(3):
        for i in range(s.scratch.piles_n[k]):  # a loop, not a slice copy: no shape-check code to compile
            s.scratch.pick[k, i] = s.scratch.piles[k, i]
        s.scratch.pick_n[k] = s.scratch.piles_n[k]


@hot
def draw_random(s, pile: int) -> int:
    """Remove a uniformly random card from builder pile ``pile`` in place; return it (NO_CARD if empty)."""
    n = s.scratch.pick_n
    if n[pile] == 0:
        return NO_CARD
    j = rng.randint(s.scratch.rng, np.int64(Lane.SETUP), np.int64(n[pile]))
    c = s.scratch.pick[pile, j]
    n[pile] -= 1
    s.scratch.pick[pile, j] = s.scratch.pick[pile, n[pile]]
    return c


@hot
def pick_card(s, total_cost: int) -> int:
    """Draw the next card of a deck whose cards so far cost ``total_cost`` in place; return it (R2)."""
    if s.params.deck_builder == DeckBuilder.UNIFORM_RANDOM:
        return draw_random(s, PileKind.ALL)
    if total_cost < s.params.builder_cost_target and s.scratch.pick_n[PileKind.COSTLY] > 0:
        return draw_random(s, PileKind.COSTLY)  # step 2: cost-1+ cards until the target
    if s.scratch.pick_n[PileKind.FREE] > 0:
        return draw_random(s, PileKind.FREE)  # step 3: fill with 0-cost cards
    return draw_random(s, PileKind.COSTLY)  # step 4: 0-cost cards ran out


@kernel
def take_from_piles(s, c: int) -> None:
    """Remove card ``c`` from every builder pile that holds it, in place (as ``draw_random`` removes)."""
    for k in range(3):
        n = s.scratch.pick_n[k]
        for j in range(n):
            if s.scratch.pick[k, j] == c:
                s.scratch.pick[k, j] = s.scratch.pick[k, n - 1]
                s.scratch.pick_n[k] = n - 1
                break


@hot
def add_to_deck(s, p: int, k: int) -> None:
    """Pick card ``k`` of seat ``p``'s deck list in place (R2); the value holder's first card is the card under test."""
    st = s.tally.seats[p]
    c = s.params.value_card
    if c >= 0 and k == 0 and p == s.meta.game % 2:
        take_from_piles(s, c)
    else:
        c = pick_card(s, st.deck_total_cost)
    s.piles.built[p, k] = c
    st.deck[k] = c
    st.deck_total_cost += s.cards[c].cost


@kernel
def deck_slot(s, p: int, c: int) -> int:
    """Return the position of card ``c`` in seat ``p``'s deck list (-1 if absent)."""
    for k in range(s.params.deck_size):
        if s.piles.built[p, k] == c:
            return k
    return -1


@kernel
def set_deck_card(s, p: int, k: int, c: int) -> None:
    """Put card ``c`` at position ``k`` of seat ``p``'s deck list in place, keeping the deck's total cost."""
    st = s.tally.seats[p]
    st.deck_total_cost += s.cards[c].cost - s.cards[s.piles.built[p, k]].cost
    s.piles.built[p, k] = st.deck[k] = c


@kernel
def could_replace(s, c: int, holder: int) -> bool:
    """Return True if pool card ``c`` may be the same-cost baseline of ``value_card`` (RULES.md §10).

    It must be a printed card of the same cost, not the card itself, and not in the holder's
    deck (nor, from a shared set, the opponent's: the set has one copy of each card).
    """
    card = s.params.value_card
    if s.cards[c].set == 0 or c == card or s.cards[c].cost != s.cards[card].cost or deck_slot(s, holder, c) >= 0:
        return False
    return s.params.deck_source != DeckSource.SHARED_SET or deck_slot(s, 1 - holder, c) < 0


@kernel
def baseline_card(s, holder: int) -> int:
    """Return the baseline of ``value_card`` for this game, drawing on lane SETUP (RULES.md §10).

    ``same_cost``: a uniformly random card that ``could_replace`` it, in id order; the blank
    row when there is none. ``blank``: the row in no set that ``prepare_pool`` appends
    (NO_CARD if the pool has none).
    """
    blank = NO_CARD
    n = 0
    for c in range(s.meta.n_cards):
        if s.cards[c].set == 0:
            blank = c
        n += could_replace(s, c, holder)
    if s.params.value_baseline == ValueBaseline.BLANK or n == 0:
        return blank
    j = rng.randint(s.scratch.rng, np.int64(Lane.SETUP), np.int64(n))
    for c in range(s.meta.n_cards):
        if could_replace(s, c, holder):
            if j == 0:
                return c
            j -= 1
    return blank


@kernel
def swap_in_baseline(s) -> None:
    """Draw the baseline of ``value_card`` in both arms; in arm ``value_swap = 1`` put it in the card's place, in place.

    A fixed deck without the card first takes it in place of its first card.
    """
    holder = s.meta.game % 2
    k = deck_slot(s, holder, s.params.value_card)
    if k < 0:  # only fixed decks lack it: the others were built around it
        k = 0
        set_deck_card(s, holder, k, s.params.value_card)
    b = baseline_card(s, holder)
    if s.params.value_swap and b != NO_CARD:
        set_deck_card(s, holder, k, b)


@kernel
def build_decks(s, decks: np.ndarray) -> None:
    """Fill ``piles.built`` with both seats' deck lists in place (R2), drawing on lane SETUP.

    ``shared_set``: one copy of the pool; a coin picks the seat that draws first and the
    seats then draw strictly alternately, one card each, so the two decks are disjoint and
    identically distributed (RULES.md §2).
    """
    size = s.params.deck_size
    for p in range(2):
        for k in range(size, s.piles.built.shape[1]):
            s.piles.built[p, k] = s.tally.seats[p].deck[k] = NO_CARD
    if s.params.deck_builder == DeckBuilder.FIXED:
        for p in range(2):
            for k in range(size):
                s.piles.built[p, k] = s.tally.seats[p].deck[k] = decks[p, k]
                s.tally.seats[p].deck_total_cost += s.cards[decks[p, k]].cost
    elif s.params.deck_source == DeckSource.SHARED_SET:
        fill_piles(s)
        if s.params.value_card >= 0:
            take_from_piles(s, s.params.value_card)  # before any draw: the opponent may pick first
        first = rng.randint(s.scratch.rng, np.int64(Lane.SETUP), np.int64(2))
        for k in range(2 * size):
            add_to_deck(s, first ^ (k & 1), k >> 1)
    else:
        for p in range(2):
            fill_piles(s)  # R2 default: each seat has its own full copy
            for k in range(size):
                add_to_deck(s, p, k)
    if s.params.value_card >= 0:
        swap_in_baseline(s)
