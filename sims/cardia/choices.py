"""The bots' choices inside abilities and locations (every ``Decision`` but PLAY).

``random`` picks a uniform option. ``greedy`` and ``expert`` share these choices: options
that change influence or tokens are tried on the table (``derive``) and the best
position value kept; factions are named from the unseen opposing cards; discards give
up the card worth least (``bots.worth``); copies take the ability worth most (``ABILITY_WORTH``).
"""

import numpy as np

from sims.cardia.bots import (
    Bot,
    W,
    best_modifier,
    candidates,
    cheapest_card,
    estimate,
    position_value,
    try_modifier,
    worth,
)
from sims.cardia.state import NO_CARD, Ability, Decision, Lane, VoidMode
from sims.cardia.table import derive, influence, remove_encounter
from sims.core import rng
from sims.core.jit import hot, kernel

# Worth of activating each ability (signets; by Ability code), for choices made inside an
# ability: which card a Magistra, Illusionist or Elemental copies, the Librarian's sign.
# The Djinn is a win (weight ``win``); the card choice uses ``bots.estimate`` instead.
ABILITY_WORTH = (
    0.0, 1.0, 0.8, 0.2, 1.0, 0.6, 0.4, 0.8, 1.0, 0.8, 1.0, 0.8, 0.5, 1.0, 0.5, 1.5, 0.0,  # NONE..DJINN
    1.0, 0.3, 0.8, 0.8, 0.6, 0.4, 0.8, 0.3, 0.3, 0.5, 0.8, 1.0, 1.0, 0.8, 3.0, 2.0,  # POISONER..SUCCESSOR
)  # fmt: skip


@hot
def faction_count(s, g, p: int, most: bool) -> int:
    """Return the faction with the most (or fewest) unseen opposing cards, weighted by influence."""
    n = candidates(s, g, p, np.int64(NO_CARD))
    best, best_f = -np.inf, 0
    for f in range(4):
        total = 0.0
        for i in range(n):
            c = s.scratch.unseen[i]
            if s.cards[c].faction == f:
                total += 1.0 + s.cards[c].influence / 32.0
        v = total if most else -total
        if v > best:
            best, best_f = v, f
    return best_f


@kernel
def void_value(s, g, p: int, t: int, mode: int) -> float:
    """Return seat ``p``'s position value once the Void Mage removes ``mode`` from position ``t`` (then undone)."""
    k, side = t // 2, t % 2
    if mode == VoidMode.MODIFIERS:
        return try_modifier(s, g, k, side, -g.mod[k, side], p)
    kept = g.tok[k, side]
    g.tok[k, side] = 0
    derive(s, g)
    v = position_value(s, g, p)
    g.tok[k, side] = kept
    return v


@hot
def best_void(s, g, p: int) -> int:
    """Return the Void Mage target worth most to seat ``p`` (over both modes, modifiers first)."""
    best, best_t = -np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        t = s.scratch.legal[i]
        for mode in range(2):
            carries = g.mod[t // 2, t % 2] != 0 if mode == VoidMode.MODIFIERS else g.tok[t // 2, t % 2] > 0
            if carries:
                v = void_value(s, g, p, np.int64(t), np.int64(mode))
                if v > best:
                    best, best_t = v, t
    derive(s, g)
    return best_t


@hot
def void_mode(s, g, p: int) -> int:
    """Return what the Void Mage removes from the target just chosen (``g.chosen``): the better table."""
    best, best_mode = -np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        v = void_value(s, g, p, np.int64(g.chosen), np.int64(s.scratch.legal[i]))
        if v > best:
            best, best_mode = v, s.scratch.legal[i]
    derive(s, g)
    return best_mode


@kernel
def kinesis_value(s, g, p: int, f: int, tk: int) -> float:
    """Return seat ``p``'s position value once its card at ``f`` gives everything to encounter ``tk`` (then undone)."""
    fk = f // 2
    mod, tok = g.mod[fk, p], g.tok[fk, p]
    g.mod[fk, p], g.tok[fk, p] = 0, 0
    g.mod[tk, p] += mod
    g.tok[tk, p] += tok
    derive(s, g)
    v = position_value(s, g, p)
    g.mod[tk, p] -= mod
    g.tok[tk, p] -= tok
    g.mod[fk, p], g.tok[fk, p] = mod, tok
    return v


@hot
def best_kinesis(s, g, p: int) -> int:
    """Return the Kinesis Mage source worth most to seat ``p`` (over every destination)."""
    best, best_f = -np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        f = s.scratch.legal[i]
        for tk in range(g.n_enc):
            if tk != f // 2 and g.up[tk]:
                v = kinesis_value(s, g, p, np.int64(f), np.int64(tk))
                if v > best:
                    best, best_f = v, f
    derive(s, g)
    return best_f


@hot
def kinesis_to(s, g, p: int) -> int:
    """Return where the Kinesis Mage moves everything from the source just chosen (``g.chosen``)."""
    best, best_t = -np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        t = s.scratch.legal[i]
        v = kinesis_value(s, g, p, np.int64(g.chosen), np.int64(t // 2))
        if v > best:
            best, best_t = v, t
    derive(s, g)
    return best_t


@hot
def best_swamp(s, g, p: int) -> int:
    """Return the Swamp Guardian's card to take back: the best table once its encounter is gone, plus the card."""
    w = s.scratch.weights[p]
    best, best_t = -np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        t = s.scratch.legal[i]
        s.scratch.sim[2] = g
        trial = s.scratch.sim[2]
        trial.sim = 1
        remove_encounter(s, trial, t // 2)
        derive(s, trial)
        v = position_value(s, trial, p) + worth(s, g.card[t // 2, p], w)
        if v > best:
            best, best_t = v, t
    return best_t


@hot
def ability_worth(s, w, c: int) -> float:
    """Return the static worth of activating card ``c``'s ability (``ABILITY_WORTH``; a Djinn wins the game)."""
    a = s.cards[c].effect
    if a == Ability.DJINN:
        return w[W.WIN]
    return w[W.ABILITY] * ABILITY_WORTH[a]


@hot
def best_copy(s, g, p: int, kind: int) -> int:
    """Return the Magistra / Illusionist target or Elemental card worth most to seat ``p``.

    An ongoing card (Illusionist) is tried with a token on the table; an instant one is
    worth its ``ABILITY_WORTH`` (an Elemental's card also loses its worth in hand).
    """
    w = s.scratch.weights[p]
    best, best_o = -np.inf, s.scratch.legal[0]
    for i in range(s.scratch.n_legal):
        o = s.scratch.legal[i]
        if kind == Decision.ELEMENTAL_CARD:
            v = ability_worth(s, w, o) - worth(s, o, w)
        else:
            k = o // 2
            c = g.card[k, p]
            if s.cards[c].ongoing:
                before = position_value(s, g, p)
                g.tok[k, p] += 1
                derive(s, g)
                v = position_value(s, g, p) - before
                g.tok[k, p] -= 1
                derive(s, g)
            else:
                v = ability_worth(s, w, c)
        if v > best:
            best, best_o = v, o
    return best_o


@hot
def guard_response(s, g, p: int) -> int:
    """Return seat ``p``'s answer to a Palace Guard: discard its cheapest card of the faction unless +7 costs less."""
    w = s.scratch.weights[p]
    t = g.focus
    if t < 0:
        return NO_CARD
    now = position_value(s, g, p)
    after = try_modifier(s, g, t // 2, t % 2, 7, p)
    derive(s, g)
    c = cheapest_card(s, g, p)
    if c == NO_CARD or worth(s, c, w) >= now - after:
        return NO_CARD
    return c


@hot
def librarian_sign(s, g, p: int) -> int:
    """Return 0 (+2) or 1 (-2) for seat ``p``'s card just revealed: the better table, abilities estimated.

    The card that would lose activates: its ``bots.estimate`` (with the bonus when the
    margin lets it win the encounter back, e.g. a Tax Collector losing by 1) counts for
    its owner.
    """
    k = g.cur
    o = 1 - p
    n_unseen = candidates(s, g, p, np.int64(NO_CARD))
    m_base, m_thr, m_bonus = estimate(s, g, p, p, g.card[k, p], k, n_unseen)
    t_base, t_thr, t_bonus = estimate(s, g, p, o, g.card[k, o], k, n_unseen)
    best, best_sign = -np.inf, 0
    for sign in range(2):
        delta = 2 if sign == 0 else -2
        v = try_modifier(s, g, k, p, delta, p)
        d = influence(s, g, k, p) + delta - influence(s, g, k, o)
        if d < 0:
            v += m_base + (m_bonus if -d <= m_thr else 0.0)
        elif d > 0:
            v -= t_base + (t_bonus if d <= t_thr else 0.0)
        if v > best:
            best, best_sign = v, sign
    derive(s, g)
    return best_sign


@kernel
def greedy_option(s, g, p: int, kind: int) -> int:
    """Return the greedy choice of seat ``p`` for decision ``kind`` among ``scratch.legal``."""
    if kind == Decision.INVENTOR_PLUS or kind == Decision.PRODIGY_TARGET:
        return best_modifier(s, g, p, np.int64(3))
    if kind == Decision.INVENTOR_MINUS or kind == Decision.ENVOY_TARGET:
        return best_modifier(s, g, p, np.int64(-3))
    if kind == Decision.VOID_TARGET:
        return best_void(s, g, p)
    if kind == Decision.VOID_MODE:
        return void_mode(s, g, p)
    if kind == Decision.KINESIS_FROM:
        return best_kinesis(s, g, p)
    if kind == Decision.KINESIS_TO:
        return kinesis_to(s, g, p)
    if kind == Decision.SWAMP_TARGET:
        return best_swamp(s, g, p)
    if kind == Decision.MAGISTRA_TARGET or kind == Decision.ILLUSIONIST_TARGET or kind == Decision.ELEMENTAL_CARD:
        return best_copy(s, g, p, kind)
    if kind == Decision.GUARD_DISCARD:
        return guard_response(s, g, p)
    if kind == Decision.GUARD_FACTION or kind == Decision.BLACKMAIL_FACTION:
        return faction_count(s, g, p, False)
    if kind == Decision.AMBUSH_FACTION or kind == Decision.WITCH_FACTION:
        return faction_count(s, g, p, True)
    if kind == Decision.LIBRARIAN_SIGN:
        return librarian_sign(s, g, p)
    return cheapest_card(s, g, p)  # DISCARD_HAND, SCRAPYARD_CARD


@hot
def choose_option(s, g, p: int, kind: int, bot: int) -> int:
    """Return bot ``bot``'s choice for seat ``p`` (random: uniform on lane BOT + p)."""
    if bot == Bot.RANDOM:
        return s.scratch.legal[rng.randint(g.rng, Lane.BOT + p, np.int64(s.scratch.n_legal))]
    return greedy_option(s, g, p, kind)
