"""Cardia bots: ``random``, ``greedy`` and ``expert`` (RULES.md §6).

Every bot sees what R4 allows: the table (cards, modifiers, tokens, signets), both
discard piles, hand and deck sizes, its own hand, and pending effects announced on the
table; never the opponent's hand or any deck order. The opponent's possible cards are
the *unseen* ones (``zones.unseen_cards``: its deck list minus its face-up and discarded
cards).

- ``random``: a uniform card, and a uniform option at every choice.
- ``greedy``: a one-round heuristic. For each card in hand it averages, over the
  opponent's unseen cards, the value of the encounter: a signet won (more when it
  finishes the game or blocks a finishing one, Mechanical Djinn and Founder's Day
  included), or a signet lost plus the estimated worth of its own ability (losing on
  purpose), minus the opponent's ability when it wins. Ability worth is estimated by
  ``estimate``: a base value plus a bonus when the losing margin is small enough for
  the ability to win the encounter back. Choices inside abilities try each option on
  the table (``derive``) and keep the best.
- ``expert`` (``expert.py``): plays each of its cards against each unseen opposing card
  on a copy of the position with the rules themselves, on a sampled hidden hand.

Policies are pure: they read the state and return an option; they change nothing but
the bot's own RNG lane and scratch buffers (a tentative modifier is undone before
returning).
"""

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from sims.cardia.state import (
    ENVOY_NEXT,
    N_WEIGHTS,
    NO_CARD,
    Ability,
    Location,
    Result,
)
from sims.cardia.table import active, derive, has_active, influence, winning
from sims.cardia.zones import unseen_cards
from sims.core.jit import hot, kernel


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0
    GREEDY = 1
    EXPERT = 2


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    signet: float = 1.0  # value of a signet
    win: float = 20.0  # value of winning the game (an instant win, or 5 signets at the round's end)
    card: float = 0.3  # value of a card in hand (cost of a discard)
    ability: float = 1.0  # scale of the estimated worth of abilities
    pending: float = 0.4  # worth of a next-card effect or of information (Fortune Teller, Librarian)
    spend: float = 0.0  # cost per influence point of the card played (keep big cards for later)
    djinn_keep: float = 2.0  # extra worth of a Djinn in hand (discard choices)
    samples: float = 1.0  # expert: hidden-hand samples per decision
    focus: float = 0.0  # expert: weight of the opponent's likely cards (0 = every unseen card alike)
    hand: float = 0.15  # expert: value per card of hand-size lead after the round


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    SIGNET = 0
    WIN = 1
    CARD = 2
    ABILITY = 3
    PENDING = 4
    SPEND = 5
    DJINN_KEEP = 6
    SAMPLES = 7
    FOCUS = 8
    HAND = 9


assert [m.name.lower() for m in W] == list(BotParams._fields)
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(),
    "expert": BotParams(spend=0.05, samples=2.0, focus=0.5),
}


# -- values of positions and cards -------------------------------------------------------------


@kernel
def run_end(g, p: int) -> int:
    """Return how many encounters at the end of the table seat ``p`` wins in a row (Founder's Day)."""
    n = 0
    for k in range(g.n_enc - 1, -1, -1):
        if not g.up[k]:
            continue
        if not winning(g.res[k], p):
            break
        n += 1
    return n


@kernel
def position_value(s, g, p: int) -> float:
    """Return seat ``p``'s value of position ``g``: signet lead, a win or loss now or at the round's end."""
    w = s.scratch.weights[p]
    o = 1 - p
    if g.over:
        return w[W.WIN] if g.winner == p else (-w[W.WIN] if g.winner == o else 0.0)
    a, b = g.signets[p], g.signets[o]
    v = w[W.SIGNET] * (a - b)
    need = s.params.win_signets
    if a >= need and a > b:
        v += w[W.WIN]
    elif b >= need and b > a:
        v -= w[W.WIN]
    if g.location == Location.FOUNDERS_DAY:
        run = s.params.founders_run
        v += w[W.WIN] * (np.int64(run_end(g, p) >= run) - np.int64(run_end(g, o) >= run))
    return v


@hot
def worth(s, c: int, w) -> float:
    """Return the worth of keeping card ``c`` in hand: its influence in signet units, a Djinn more."""
    v = s.cards[c].influence / 16.0
    if s.cards[c].effect == Ability.DJINN or s.cards[c].effect == Ability.MECHANICAL_DJINN:
        v += w[W.DJINN_KEEP]
    return w[W.CARD] * (1.0 + v)


@kernel
def cheapest_card(s, g, p: int) -> int:
    """Return the option (a card id) worth least to seat ``p`` (first on ties); NO_CARD options are skipped."""
    w = s.scratch.weights[p]
    best, best_c = np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        c = s.scratch.legal[i]
        if c != NO_CARD and worth(s, c, w) < best:
            best, best_c = worth(s, c, w), c
    return best_c


@hot
def try_modifier(s, g, k: int, side: int, delta: int, p: int) -> float:
    """Return seat ``p``'s position value with ``delta`` added to (k, side); the modifier is taken off again.

    The caller re-derives the table once it has tried every option.
    """
    g.mod[k, side] += delta
    derive(s, g)
    v = position_value(s, g, p)
    g.mod[k, side] -= delta
    return v


@kernel
def best_modifier(s, g, p: int, delta: int) -> int:
    """Return the option of ``scratch.legal`` (positions) where ``delta`` helps seat ``p`` most (first on ties)."""
    best, best_i = -np.inf, 0
    for i in range(s.scratch.n_legal):
        t = s.scratch.legal[i]
        if t == ENVOY_NEXT:
            derive(s, g)  # the last option tried left its result derived
            v = position_value(s, g, p) - s.scratch.weights[p, W.PENDING]
        else:
            v = try_modifier(s, g, t // 2, t % 2, delta, p)
        if v > best:
            best, best_i = v, i
    derive(s, g)
    return s.scratch.legal[best_i]


# -- ability estimates ---------------------------------------------------------------------------


@hot
def flip(margin: int, amount: int) -> float:
    """Return the signets a +``amount`` swing wins back from a loss by ``margin``: 2 if it wins, 1 if it ties."""
    if margin < amount:
        return 2.0
    if margin == amount:
        return 1.0
    return 0.0


@hot
def previous_gain(s, g, p: int, k: int, amount: int) -> float:
    """Return the signets seat ``p`` gains from +``amount`` on its card in the encounter before ``k``."""
    if k < 1 or not g.up[k - 1]:
        return 0.0
    r = g.res[k - 1]
    if winning(r, p):
        return 0.0
    margin = influence(s, g, k - 1, 1 - p) - influence(s, g, k - 1, p)
    if r == Result.TIE:
        return 1.0 if amount > 0 else 0.0
    return flip(margin, amount) if margin >= 0 else 1.0  # a loss by lower influence: a Counselor or Mediator


@hot
def best_past_flip(s, g, p: int, amount: int, limit: int) -> float:
    """Return the most seat ``p`` gains from +``amount`` on one of its losing cards of influence <= ``limit``."""
    best = 0.0
    for k in range(g.n_enc):
        if g.up[k] and g.res[k] == 1 - p and influence(s, g, k, p) <= limit:
            best = max(best, flip(influence(s, g, k, 1 - p) - influence(s, g, k, p), amount))
    return best


@hot
def opponent_tokens(s, g, p: int) -> float:
    """Return seat ``p``'s gain from removing the best opposing ongoing token (Void Mage), in signets."""
    o = 1 - p
    best = 0.0
    for k in range(g.n_enc):
        if g.tok[k, o] > 0 and s.cards[g.card[k, o]].ongoing:
            a = s.cards[g.card[k, o]].effect
            gain = 3.0 if a == Ability.MECHANICAL_DJINN else 1.5
            best = max(best, gain)
    return best


@hot
def faction_unseen(s, g, n_unseen: int) -> float:
    """Return the most unseen opposing cards of one faction (Ambusher, Witch King)."""
    best = 0
    for f in range(4):
        n = 0
        for i in range(n_unseen):
            n += s.cards[s.scratch.unseen[i]].faction == f
        best = max(best, n)
    return best


@kernel
def estimate(s, g, judge: int, q: int, c: int, k: int, n_unseen: int) -> tuple:
    """Return (base, threshold, bonus): the worth to seat ``q`` of activating card ``c`` as "this card" at ``k``.

    ``k`` may be ``n_enc`` (the encounter about to be placed). ``bonus`` is added when the
    card lost its encounter by ``threshold`` or less (the ability wins it back). Worth is
    in signets (weights of the judging seat ``judge``); winning the game is ``W.WIN``.
    """
    w = s.scratch.weights[judge]
    o = 1 - q
    ability = s.cards[c].effect
    own = influence(s, g, k, q) if k < g.n_enc else s.cards[c].influence + g.pend_mod[q]
    base, thr, bonus = 0.0, -1, 0.0
    if ability == Ability.HIRED_BLADE or ability == Ability.MEDIATOR or ability == Ability.POISONER:
        base = 1.0  # the lost encounter is gone or tied: the opponent's signet goes back
    elif ability == Ability.VOID_MAGE:
        base = opponent_tokens(s, g, q) + 0.3
    elif ability == Ability.SURGEON:  # -5 on the next card: a Djinn can then lose on purpose
        base = 0.25 * w[W.WIN] if holds(s, g, q, Ability.DJINN) else -w[W.PENDING]
    elif ability == Ability.SABOTEUR or ability == Ability.REVOLUTIONARY:
        base = 2 * w[W.CARD]
    elif ability == Ability.FORTUNE_TELLER or ability == Ability.LIBRARIAN:
        base = w[W.PENDING]
    elif ability == Ability.PALACE_GUARD:
        base, thr, bonus = w[W.CARD], 6, 1.0
    elif ability == Ability.JUDGE:
        for j in range(g.n_enc):
            base += 1.0 if g.up[j] == 1 and g.res[j] == Result.TIE else 0.0
        base += 0.3
    elif ability == Ability.AMBUSHER:
        base = w[W.CARD] * faction_unseen(s, g, n_unseen) * g.hand_n[o] / max(1, n_unseen)
    elif ability == Ability.PUPPETEER:
        base = 1.0
    elif ability == Ability.CLOCKMAKER:
        base = previous_gain(s, g, q, k, 3) + w[W.PENDING]
    elif ability == Ability.TREASURER:
        if k >= 1 and g.up[k - 1]:
            base = 1.0 if winning(g.res[k - 1], q) else (-1.0 if winning(g.res[k - 1], o) else 0.0)
    elif ability == Ability.SWAMP_GUARDIAN:
        for j in range(g.n_enc):
            if g.up[j] and j != k:
                base = max(base, g.sig[j, o] - g.sig[j, q] + w[W.CARD])
    elif ability == Ability.MAGISTRA or ability == Ability.ILLUSIONIST or ability == Ability.ELEMENTAL:
        base = copy_estimate(s, g, judge, q, ability, k, own)
    elif ability == Ability.INVENTOR:
        base, thr, bonus = 0.7, 3, 2.0
    elif ability == Ability.DJINN:
        base = w[W.WIN]
    elif ability == Ability.KINESIS_MAGE or ability == Ability.BLACKMAILER or ability == Ability.ARISTOCRAT:
        base = 0.3
    elif ability == Ability.ENVOY:
        base, thr, bonus = 0.5, 3, 1.5
    elif ability == Ability.TAX_COLLECTOR:
        base, thr, bonus = 0.0, 3, 2.0
    elif ability == Ability.PRODIGY:
        base, thr, bonus = best_past_flip(s, g, q, 3, 8), 3 if own <= 8 else -1, 2.0
    elif ability == Ability.ENGINEER:
        base = 2 * w[W.PENDING]
    elif ability == Ability.COUNSELOR:
        if k >= 1 and g.up[k - 1]:
            base = 0.0 if winning(g.res[k - 1], q) else (1.0 if g.res[k - 1] == Result.TIE else 2.0)
    elif ability == Ability.WITCH_KING:
        base = w[W.CARD] * faction_unseen(s, g, n_unseen) * 0.8
    elif ability == Ability.MECHANICAL_DJINN:
        base = 0.3 * w[W.WIN]
    elif ability == Ability.SUCCESSOR:
        base = w[W.CARD] * (max(0, g.hand_n[o] - 2) + 0.5 * g.deck_n[o])
    return base * w[W.ABILITY], thr, bonus * w[W.ABILITY]


@hot
def holds(s, g, p: int, ability: int) -> bool:
    """Return True if seat ``p`` holds a card with ``ability``."""
    for i in range(g.hand_n[p]):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if s.cards[g.hand[p, i]].effect == ability:
            return True
    return False


@hot
def copy_estimate(s, g, judge: int, p: int, ability: int, k: int, own: int) -> float:
    """Return a rough worth of Magistra / Illusionist / Elemental: a win if they can reach a Djinn, else 1."""
    w = s.scratch.weights[judge]
    if ability == Ability.ELEMENTAL:
        return w[W.WIN] if holds(s, g, p, Ability.DJINN) else 1.0 + w[W.CARD]
    found = 0.0
    for j in range(g.n_enc):
        if j == k or not g.up[j]:
            continue
        c = s.cards[g.card[j, p]]
        if ability == Ability.MAGISTRA and (c.ongoing or c.effect == Ability.NONE or influence(s, g, j, p) < own):
            continue
        if ability == Ability.ILLUSIONIST and (g.res[j] != 1 - p or c.effect == Ability.NONE):
            continue
        if c.effect == Ability.DJINN:
            return w[W.WIN]
        found = 1.0
    return found


# -- greedy: the card to play -------------------------------------------------------------------


@hot
def stakes(s, g, p: int) -> tuple:
    """Return (worth of winning, cost of losing) the next encounter for seat ``p``, beyond one signet.

    Winning it can finish the game: 5 signets and more than the opponent at the round's
    end, a Mechanical Djinn in the previous encounter, Founder's Day.
    """
    w = s.scratch.weights[p]
    o = 1 - p
    need = s.params.win_signets
    gain, loss = 0.0, 0.0
    if g.signets[p] + 1 >= need and g.signets[p] + 1 > g.signets[o]:
        gain += w[W.WIN]
    if g.signets[o] + 1 >= need and g.signets[o] + 1 > g.signets[p]:
        loss += w[W.WIN]
    last = g.n_enc - 1
    if last >= 0 and g.up[last]:
        gain += w[W.WIN] * active(s, g, last, p, Ability.MECHANICAL_DJINN)
        loss += w[W.WIN] * active(s, g, last, o, Ability.MECHANICAL_DJINN)
    if g.location == Location.FOUNDERS_DAY:
        run = s.params.founders_run - 1
        gain += w[W.WIN] * (run_end(g, p) >= run)
        loss += w[W.WIN] * (run_end(g, o) >= run)
    return gain, loss


@kernel
def forbidden(s, g, p: int, c: int) -> bool:
    """Return True if revealing ``c`` would lose seat ``p`` the game at once (Haunted Catacombs)."""
    last = g.n_enc - 1
    return (
        g.location == Location.HAUNTED_CATACOMBS
        and last >= 0
        and g.up[last] == 1
        and s.cards[c].faction == s.cards[g.card[last, p]].faction
    )


@hot
def reveal_cost(s, g, p: int, c: int) -> float:
    """Return what revealing ``c`` costs seat ``p`` before the comparison: Blackmailer discards, Auction House."""
    w = s.scratch.weights[p]
    cost = 0.0
    if g.pend_bm[p] >= 0 and s.cards[c].faction != g.pend_bm[p]:
        cost += 2 * w[W.CARD]
    last = g.n_enc - 1
    auction = g.location == Location.AUCTION_HOUSE and last >= 0 and g.up[last] == 1 and g.deck_n[p] > 0
    if auction and s.cards[c].influence + g.pend_mod[p] < influence(s, g, last, p):
        cost += 0.5 * w[W.CARD]
    return cost + w[W.SPEND] * s.cards[c].influence


@kernel
def candidates(s, g, p: int, known: int) -> int:
    """Fill ``scratch.unseen`` with the opposing cards to expect; return how many (the known card if face up)."""
    if known != NO_CARD:
        s.scratch.unseen[0] = known
        return 1
    n = unseen_cards(s, g, p, s.scratch.unseen)
    kept = 0
    for i in range(n):  # a card that would lose the opponent the game at once is not expected
        c = s.scratch.unseen[i]
        if not forbidden(s, g, 1 - p, c):
            s.scratch.unseen[kept] = c
            kept += 1
    return kept if kept > 0 else n


@kernel
def greedy_play(s, g, p: int, known: int) -> int:
    """Return the greedy card for seat ``p`` (``known``: the opponent's face-up card, or NO_CARD).

    The mean over the unseen opposing cards of ``encounter_value`` (inlined here: the pair
    loop is the bot's hot spot), minus the costs at reveal (``reveal_cost``).
    """
    o = 1 - p
    k = g.n_enc
    n_unseen = candidates(s, g, p, known)
    gain, loss = stakes(s, g, p)
    judge = has_active(s, g, p, Ability.JUDGE) - has_active(s, g, o, Ability.JUDGE)
    signet, win = s.scratch.weights[p, W.SIGNET], s.scratch.weights[p, W.WIN]
    tie_value = judge * (signet + (gain if judge > 0 else loss))
    shift = 2 if g.pend_lib[p] > 0 else 0  # the Librarian's +-2 is chosen after seeing both cards
    engineer = 5 * g.pend_eng[p]  # the Engineer's +5 comes after the ability (R8)
    val = s.scratch.value
    for j in range(n_unseen):  # the opponent's abilities and influence, once per decision
        base, thr, bonus = estimate(s, g, p, o, s.scratch.unseen[j], k, n_unseen)
        val[j], val[64 + j], s.scratch.est_thr[j] = base, bonus, thr
        s.scratch.est_infl[j] = s.cards[s.scratch.unseen[j]].influence + g.pend_mod[o]
    best, best_c = -np.inf, g.hand[p, 0]
    for i in range(g.hand_n[p]):
        c = g.hand[p, i]
        if forbidden(s, g, p, c):
            v = -win
        else:
            m_base, m_thr, m_bonus = estimate(s, g, p, p, c, k, n_unseen)
            mine = s.cards[c].influence + g.pend_mod[p]
            v = 0.0
            for j in range(n_unseen):
                d = mine - s.scratch.est_infl[j]
                if shift and -shift <= d <= shift and d != 0:
                    d = d + shift if d > 0 else d - shift
                if d > 0:
                    v += signet + gain - val[j] - (val[64 + j] if d <= s.scratch.est_thr[j] else 0.0)
                elif d < 0:
                    v += -signet - loss + m_base + (m_bonus if -d <= m_thr else 0.0)
                    if -d < engineer:
                        v += 2 * signet + gain + loss
                else:
                    v += tie_value
            v = v / max(1, n_unseen) - reveal_cost(s, g, p, c)
        if v > best:
            best, best_c = v, c
    return best_c
