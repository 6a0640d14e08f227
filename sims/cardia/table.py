"""The encounters on the table: influence, derived results and signets (R5), and changes to them.

``derive`` recomputes every encounter's result and signets from current influence and
the ongoing effects in force; nothing else writes ``res`` or ``sig``. ``refresh`` wraps
it for rule changes: it compares the results before and after, counts flipped
encounters, reports which seats *started* winning a past encounter (Serpent Temple,
handled by ``effects.settle``) and checks the instant wins that can happen at any time
(Founder's Day, an immediate Mechanical Djinn, R12).

Precedence on one encounter (R5): Counselor (its owner wins the previous encounter, even
a tie; two facing each other cancel out) over Mediator (a tie) over Judge (the owner wins
ties; two Judges: both cards win, R10). Treasurer: the winner of the previous encounter
carries one more signet; Aristocrat: one more signet while it wins.
"""

import numpy as np

from sims.cardia.state import (
    NO_CARD,
    Ability,
    DjinnCheck,
    EndReason,
    EventKind,
    Location,
    Result,
)
from sims.cardia.zones import log_event, record
from sims.core.jit import hot, kernel

NO_WINNER = -1


@hot
def influence(s, g, k: int, p: int) -> int:
    """Return the current influence of seat ``p``'s card in encounter ``k``: printed plus modifiers."""
    return s.cards[g.card[k, p]].influence + g.mod[k, p]


@hot
def active(s, g, k: int, p: int, ability: int) -> bool:
    """Return True if seat ``p``'s card in encounter ``k`` is a face-up ``ability`` card with a token on it."""
    c = s.cards[g.card[k, p]]
    return g.up[k] == 1 and g.tok[k, p] > 0 and c.ongoing == 1 and c.effect == ability


@kernel
def has_active(s, g, p: int, ability: int) -> bool:
    """Return True if seat ``p`` has an active ``ability`` anywhere on the table."""
    for k in range(g.n_enc):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if active(s, g, k, p, ability):
            return True
    return False


@hot
def winning(res: int, p: int) -> bool:
    """Return True if ``res`` (a Result) means seat ``p``'s card is winning."""
    return res == p or res == Result.BOTH


@kernel
def active_effects(s, g) -> tuple:
    """Fill ``scratch.act[k, p]`` with the ongoing ability in effect on each card (0: none); return the Judges."""
    act = s.scratch.act
    judge0, judge1 = False, False
    for k in range(g.n_enc):
        for p in range(2):
            c = s.cards[g.card[k, p]]
            a = c.effect if (g.up[k] == 1 and g.tok[k, p] > 0 and c.ongoing == 1) else 0
            act[k, p] = a
            if a == Ability.JUDGE:
                if p == 0:
                    judge0 = True
                else:
                    judge1 = True
    return judge0, judge1


@hot
def result_of(s, g, k: int, judge0: bool, judge1: bool) -> int:
    """Return the Result of encounter ``k`` from influence and the effects in ``scratch.act`` (R5, R10, R16)."""
    if not g.up[k]:
        return Result.HIDDEN
    act = s.scratch.act
    a, b = influence(s, g, k, 0), influence(s, g, k, 1)
    r = Result.SEAT_0 if a > b else (Result.SEAT_1 if b > a else Result.TIE)
    if act[k, 0] == Ability.MEDIATOR or act[k, 1] == Ability.MEDIATOR:
        r = Result.TIE
    if k + 1 < g.n_enc:
        c0, c1 = act[k + 1, 0] == Ability.COUNSELOR, act[k + 1, 1] == Ability.COUNSELOR
        if c0 and not c1:
            return Result.SEAT_0
        if c1 and not c0:
            return Result.SEAT_1
    if r == Result.TIE:
        if judge0 and judge1:
            return Result.BOTH
        if judge0:
            return Result.SEAT_0
        if judge1:
            return Result.SEAT_1
    return r


@hot
def signets_of(s, g, k: int, p: int) -> int:
    """Return the signets on seat ``p``'s card in encounter ``k`` given ``res[k]`` (R5: Treasurer, Aristocrat)."""
    if not winning(g.res[k], p):
        return 0
    act = s.scratch.act
    n = 1 + np.int64(act[k, p] == Ability.ARISTOCRAT)  # explicit ints: numpy adds booleans as "or"
    if k + 1 < g.n_enc:
        n += np.int64(act[k + 1, 0] == Ability.TREASURER) + np.int64(act[k + 1, 1] == Ability.TREASURER)
    return n


@kernel
def derive(s, g) -> None:
    """Recompute ``res``, ``sig`` and ``signets`` of every encounter in place (R5)."""
    judge0, judge1 = active_effects(s, g)
    for k in range(g.n_enc):
        g.res[k] = result_of(s, g, k, judge0, judge1)
    t0, t1 = 0, 0
    for k in range(g.n_enc):
        g.sig[k, 0] = signets_of(s, g, k, 0)
        g.sig[k, 1] = signets_of(s, g, k, 1)
        t0 += g.sig[k, 0]
        t1 += g.sig[k, 1]
    g.signets[0], g.signets[1] = t0, t1


@kernel
def end_game(s, g, winner: int, reason: int) -> None:
    """End the game in place with ``winner`` (-1: a draw) for ``reason`` (an EndReason); the first end stands."""
    if g.over:
        return
    g.over, g.winner, g.end_reason = 1, winner, reason
    log_event(s, g, EventKind.WIN, winner, NO_CARD, NO_CARD, reason, 0)


@hot
def end_both(s, g, hit0: bool, hit1: bool, reason: int) -> None:
    """End the game for whichever of two instant wins holds; both at once is a draw (R12)."""
    if hit0 and hit1:
        end_game(s, g, np.int64(NO_WINNER), EndReason.DRAW_SIMULTANEOUS)
    elif hit0:
        end_game(s, g, np.int64(0), reason)
    elif hit1:
        end_game(s, g, np.int64(1), reason)


@hot
def founders_day(s, g) -> None:
    """Founder's Day (R17): winning ``founders_run`` successive encounters wins at once (one win per card)."""
    if g.location != Location.FOUNDERS_DAY or g.over:
        return
    hit0, hit1 = False, False
    for p in range(2):
        run = 0
        for k in range(g.n_enc):
            run = run + 1 if winning(g.res[k], p) else 0
            if run >= s.params.founders_run:
                if p == 0:
                    hit0 = True
                else:
                    hit1 = True
    end_both(s, g, hit0, hit1, EndReason.FOUNDERS_DAY)


@hot
def mechanical_djinn(s, g, following_current_only: bool) -> None:
    """End the game if an active Mechanical Djinn's owner wins the following encounter (R16).

    ``following_current_only``: check only a Djinn right before the current encounter (``once``).
    """
    if g.over:
        return
    hit0, hit1 = False, False
    for k in range(g.n_enc - 1):
        if following_current_only and k + 1 != g.cur:
            continue
        for p in range(2):
            if active(s, g, k, p, Ability.MECHANICAL_DJINN) and g.up[k + 1] and winning(g.res[k + 1], p):
                if p == 0:
                    hit0 = True
                else:
                    hit1 = True
    end_both(s, g, hit0, hit1, EndReason.MECHANICAL_DJINN)


@kernel
def refresh(s, g) -> int:
    """Re-derive the table after a change in place; return the Serpent Temple triggers (seat 0 + 16 x seat 1).

    Compares every encounter's result with the one before the change: a changed result of
    a revealed encounter is a flip (counted on both cards); a seat that starts winning a
    past encounter (before ``cur``; every encounter once the current one is gone) triggers
    the Serpent Temple (R17). Then the instant wins that hold at any time are checked.
    """
    for k in range(g.n_enc):
        g.prev_res[k] = g.res[k]
    derive(s, g)
    triggers = 0
    for k in range(g.n_enc):
        old, new = g.prev_res[k], g.res[k]
        if old == new or old == Result.HIDDEN or new == Result.HIDDEN:
            continue
        if not g.sim:
            record(s, 0, g.card[k, 0]).flips += 1
            record(s, 1, g.card[k, 1]).flips += 1
            log_event(s, g, EventKind.RESULT, -1, g.card[k, 0], g.card[k, 1], k + 1, new)
        past = g.cur < 0 or k < g.cur or (k == g.cur and s.params.serpent_current == 1)
        if past and g.location == Location.SERPENT_TEMPLE:
            for p in range(2):
                if winning(new, p) and not winning(old, p):
                    triggers += 1 if p == 0 else 16
    founders_day(s, g)
    if s.params.mechanical_djinn_check == DjinnCheck.IMMEDIATE:
        mechanical_djinn(s, g, False)
    return triggers


@kernel
def add_modifier(s, g, k: int, p: int, delta: int) -> None:
    """Add a modifier of ``delta`` to seat ``p``'s card in encounter ``k`` in place (no re-derive)."""
    g.mod[k, p] += delta
    log_event(s, g, EventKind.MODIFIER, p, g.card[k, p], p, delta, influence(s, g, k, p))


@kernel
def find_card(g, p: int, c: int) -> int:
    """Return the encounter holding seat ``p``'s card ``c``, or -1."""
    for k in range(g.n_enc):
        if g.card[k, p] == c:
            return k
    return -1


@hot
def clear_slot(g, k: int, p: int) -> None:
    """Return modifiers, tokens and dues of one table card to the supply (its card leaves, R11)."""
    g.mod[k, p], g.tok[k, p] = 0, 0
    g.due_mod[k, p], g.due_lib[k, p], g.due_eng[k, p], g.due_bm[k, p] = 0, 0, 0, -1


@kernel
def remove_encounter(s, g, k: int) -> None:
    """Delete encounter ``k`` in place; later encounters close the gap (R11). Its cards must be moved first."""
    log_event(s, g, EventKind.REMOVE, -1, g.card[k, 0], g.card[k, 1], k + 1, 0)
    n = g.n_enc
    for j in range(k, n - 1):
        g.up[j], g.placed[j], g.res[j], g.prev_res[j] = g.up[j + 1], g.placed[j + 1], g.res[j + 1], g.prev_res[j + 1]
        for p in range(2):
            g.card[j, p], g.mod[j, p], g.tok[j, p], g.sig[j, p] = (
                g.card[j + 1, p],
                g.mod[j + 1, p],
                g.tok[j + 1, p],
                g.sig[j + 1, p],
            )
            g.due_mod[j, p], g.due_lib[j, p] = g.due_mod[j + 1, p], g.due_lib[j + 1, p]
            g.due_eng[j, p], g.due_bm[j, p] = g.due_eng[j + 1, p], g.due_bm[j + 1, p]
    g.n_enc = n - 1
    if g.cur == k:
        g.cur = -1
    elif g.cur > k:
        g.cur -= 1
