"""The ``expert`` bot: each own card against each unseen opposing card, played out by the rules themselves.

For a sampled hidden position (the opponent's unseen cards dealt at random into a hand
of the right size that holds the card tried, the rest into its deck; its own deck order
shuffled too, since it is unknown), the expert copies the position and plays the round
with the kernel's own ``place``, ``reveal`` and ``phase2`` and the phase-3 signet check,
every choice inside made by the greedy choices. The value of a card is the position
value after the round (``bots.position_value``) plus the hand-size lead, averaged over
the opposing cards, each weighted by how much it hurts the expert on average
(``focus``: 0 = every unseen card alike), over ``samples`` hidden positions; the
spend weight charges each influence point played.

It sees only what R4 allows: every hidden card comes from the sample, never from the
real hand or deck. Blind spot: under Foggy Swamp it plays as greedy (the face-down card
being resolved that round is not re-sampled).
"""

import numpy as np

from sims.cardia.bots import W, candidates, greedy_play, position_value
from sims.cardia.rounds import phase2, place, reveal, signets_check
from sims.cardia.state import Lane, Location
from sims.cardia.zones import unseen_cards
from sims.core import rng
from sims.core.jit import hot

MAX_FOCUS_GAP = 5.0  # value gaps beyond this many signets no longer sharpen the opponent model


@hot
def deal_hidden(s, sim, p: int, o_card: int, n_hidden: int) -> None:
    """Deal the opponent's hidden cards into ``sim``: ``o_card`` first into its hand, the rest in sample order."""
    o = 1 - p
    h = sim.hand_n[o]
    sim.hand[o, 0] = o_card
    filled = 1
    d = 0
    for i in range(n_hidden):
        c = s.scratch.hidden[i]
        if c == o_card:
            continue
        if filled < h:
            sim.hand[o, filled] = c
            filled += 1
        else:
            sim.deck[o, d] = c
            d += 1
    sim.deck_n[o] = d


@hot
def play_out(s, sim, p: int, c: int, o_card: int) -> float:
    """Play one round on ``sim``, seat ``p`` placing ``c`` against ``o_card``; return seat ``p``'s value after."""
    w = s.scratch.weights[p]
    c, o_card = np.int64(c), np.int64(o_card)  # one compiled place() for card ids from any array
    k = place(s, sim, c, o_card) if p == 0 else place(s, sim, o_card, c)
    reveal(s, sim, k)
    if not sim.over:
        phase2(s, sim, k)
    if not sim.over:
        signets_check(s, sim)
    return position_value(s, sim, p) + w[W.HAND] * (sim.hand_n[p] - sim.hand_n[1 - p])


@hot
def expert_play(s, g, p: int, known: int) -> int:
    """Return the expert's card for seat ``p`` (``known``: the opponent's face-up card, or NO_CARD)."""
    if g.location == Location.FOGGY_SWAMP:
        return greedy_play(s, g, p, known)
    w = s.scratch.weights[p]
    n_cand = candidates(s, g, p, known)
    for j in range(n_cand):  # the greedy choices inside the look-ahead reuse scratch.unseen
        s.scratch.cand[j] = s.scratch.unseen[j]
    n_hand = g.hand_n[p]
    m = s.scratch.matrix
    for x in range(n_hand * n_cand):
        m[x] = 0.0
    samples = max(1, int(w[W.SAMPLES]))
    for _ in range(samples):
        n_hidden = unseen_cards(s, g, p, s.scratch.hidden)
        rng.shuffle(s.scratch.hidden, n_hidden, g.rng, Lane.BOT + p)
        for j in range(n_cand):
            template = s.scratch.sim[0]
            s.scratch.sim[0] = g
            template.sim = 1
            deal_hidden(s, template, p, s.scratch.cand[j], n_hidden)
            rng.shuffle(template.deck[p], template.deck_n[p], g.rng, Lane.BOT + p)
            for i in range(n_hand):
                s.scratch.sim[1] = s.scratch.sim[0]
                m[i * n_cand + j] += play_out(s, s.scratch.sim[1], p, g.hand[p, i], s.scratch.cand[j])
    return best_column_choice(s, g, p, n_hand, n_cand, samples)


@hot
def best_column_choice(s, g, p: int, n_hand: int, n_cand: int, samples: int) -> int:
    """Return the hand card with the best weighted mean value over the opposing cards (see the module docstring)."""
    w = s.scratch.weights[p]
    m = s.scratch.matrix
    weight = s.scratch.value
    total = 0.0
    for j in range(n_cand):
        mean = 0.0
        for i in range(n_hand):
            mean += m[i * n_cand + j]
        mean = mean / (n_hand * samples)
        gap = min(MAX_FOCUS_GAP, max(-MAX_FOCUS_GAP, -mean))
        weight[j] = np.exp(w[W.FOCUS] * gap)
        total += weight[j]
    best, best_c = -np.inf, g.hand[p, 0]
    for i in range(n_hand):
        v = 0.0
        for j in range(n_cand):
            v += weight[j] * m[i * n_cand + j]
        c = g.hand[p, i]
        v = v / (total * samples) - w[W.SPEND] * s.cards[c].influence
        if v > best:
            best, best_c = v, c
    return best_c
