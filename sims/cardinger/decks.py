"""Cardinger deck building (R2): the recommended random method, uniform random, fixed, shared set.

Runs on lane SETUP only, so rule variants that do not touch deck building keep the
same decks on the same seeds (paired comparisons).
"""

import numpy as np

from sims.cardinger.state import (
    NO_CARD,
    DeckBuilder,
    DeckSource,
    Lane,
    PileKind,
)
from sims.core import rng
from sims.core.jit import kernel
from sims.core.piles import push


@kernel
def lay_out_piles(s) -> None:
    """Sort the pool into the builder's piles once per batch, in place: cost 1+ and cost 0 without the
    excluded cost, and the whole pool (R2)."""
    pile, n = s.scratch.piles, s.scratch.piles_n
    n[0] = n[1] = n[2] = 0
    for c in range(s.meta.n_cards):
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


@kernel
def draw_random(s, pile: int) -> int:
    """Remove a uniformly random card from builder pile ``pile`` in place; return it (NO_CARD if empty)."""
    n = s.scratch.pick_n
    if n[pile] == 0:
        return NO_CARD
    j = rng.randint(s.scratch.rng, Lane.SETUP, n[pile])
    c = s.scratch.pick[pile, j]
    n[pile] -= 1
    s.scratch.pick[pile, j] = s.scratch.pick[pile, n[pile]]
    return c


@kernel
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
def add_to_deck(s, p: int, k: int) -> None:
    """Pick card ``k`` of seat ``p``'s deck list in place (R2)."""
    st = s.tally.seats[p]
    c = pick_card(s, st.deck_total_cost)
    s.piles.built[p, k] = c
    st.deck[k] = c
    st.deck_total_cost += s.cards[c].cost


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
        first = rng.randint(s.scratch.rng, Lane.SETUP, 2)
        for k in range(2 * size):
            add_to_deck(s, first ^ (k & 1), k >> 1)
    else:
        for p in range(2):
            fill_piles(s)  # R2 default: each seat has its own full copy
            for k in range(size):
                add_to_deck(s, p, k)
