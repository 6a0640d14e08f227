"""Cardinger decisions: the field, legality (R4-R9, R12, R13), playing (R4-R6) and actions (R7-R14).

``legal_actions`` enumerates what the mover may do; ``apply_action`` carries one out. Both
mutate (or read) the state record ``s`` in place, like every rule in ``kernel``.
"""

import numpy as np

from sims.cardinger import kernel as rules
from sims.cardinger.state import (
    ALL_TARGETS,
    DECAY,
    DEVOUR,
    DOUBLE,
    END_TURN,
    FRAGILE,
    NO_CARD,
    OMNI,
    PROSPERITY,
    READY,
    STEAL,
    ActionKind,
    EventKind,
    Phase,
    PointSource,
    ProsperityGain,
    action_i,
    action_j,
    action_kind,
    encode,
    length,
    opponent,
    push,
)
from sims.core.jit import hot, kernel
from sims.core.records import NEVER

SELF_EFFECTS = DEVOUR | DECAY | FRAGILE  # the keywords that change the acting card (R11)


@kernel
def full_acts(s, c: int) -> int:
    """Return the actions card ``c`` may take per turn: 2 (attacks) with DOUBLE, else 1 (R12)."""
    return 2 if s.cards[c].keywords & DOUBLE else 1


@kernel
def enter_field(s, p: int, c: int) -> None:
    """Put card ``c`` in seat ``p``'s next field slot in place with printed HP/DEF (R18); READY may act (R12)."""
    f = s.field
    slot = length(f.n, p)
    f.card[p, slot] = c
    f.hp[p, slot] = s.cards[c].hp
    f.def_[p, slot] = s.cards[c].def_
    f.acts[p, slot] = full_acts(s, c) if s.cards[c].keywords & READY else 0  # E5
    f.n[p] = slot + 1


@kernel
def leave_field(s, p: int, slot: int) -> int:
    """Move seat ``p``'s field card at ``slot`` to its owner's discard pile in place; return it (R18).

    Every caller passes ``p`` and ``slot`` as ``np.uint8`` (so do ``destroy`` and ``apply_self_effects``): one
    compiled version, whose indexes LLVM knows are not negative (no negative-index fix-up).
    """
    f = s.field
    c = f.card[p, slot]
    for k in range(slot, f.n[p] - 1):
        f.card[p, k], f.hp[p, k] = f.card[p, k + 1], f.hp[p, k + 1]
        f.def_[p, k], f.acts[p, k] = f.def_[p, k + 1], f.acts[p, k + 1]
    f.n[p] -= 1
    push(s.piles.discard, s.piles.discard_n, p, c)
    return c


@kernel
def destroy(s, p: int, slot: int, by: int) -> None:
    """Destroy seat ``p``'s card at ``slot`` in place (to its owner's discard, R18); ``by`` = destroyer or NO_CARD."""
    c = leave_field(s, p, slot)
    s.tally.cards[p, c].times_destroyed += 1
    rules.log_event(s, EventKind.DESTROY, p, by, c, 0, 0)


@kernel
def can_play(s, p: int, i: int) -> bool:
    """Return True if seat ``p`` may play hand card ``i`` now (allowance R4, cost R5, field limit R6)."""
    c = s.piles.hand[p, i]
    return s.meta.plays_left > 0 and s.field.n[p] < s.params.field_limit and s.piles.hand_n[p] - 1 >= s.cards[c].cost


@kernel
def can_retire(s, p: int) -> bool:
    """Return True if seat ``p`` may retire a field card: only while its field is full (R6)."""
    return s.field.n[p] >= s.params.field_limit


@kernel
def can_target(s, p: int, slot: int, t: int) -> bool:
    """Return True if seat ``p``'s card at ``slot`` beats the *current* DEF of opposing slot ``t`` (R8)."""
    return s.cards[s.field.card[p, slot]].atk > s.field.def_[opponent(p), t]


@kernel
def can_attack(s, p: int, slot: int) -> bool:
    """Return True if seat ``p``'s card at ``slot`` may declare an attack: an action left and a legal target (R8)."""
    if s.field.acts[p, slot] == 0:
        return False
    for t in range(s.field.n[opponent(p)]):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if can_target(s, p, slot, t):
            return True
    return False


@kernel
def can_draw(s, p: int, slot: int) -> bool:
    """Return True if seat ``p``'s card at ``slot`` may take a draw action (R9; not after a DOUBLE attack, R12)."""
    c = s.field.card[p, slot]
    fresh = s.field.acts[p, slot] == full_acts(s, c)
    return fresh and s.cards[c].draw > 0 and s.piles.deck_n[p] > 0 and s.piles.hand_n[p] < s.params.hand_limit


@kernel
def can_score(s, p: int, slot: int) -> bool:
    """Return True if seat ``p``'s card at ``slot`` may take a score action (R12)."""
    c = s.field.card[p, slot]
    return s.field.acts[p, slot] == full_acts(s, c) and s.cards[c].score > 0


@kernel
def legal_field_actions(s, p: int, slot: int, out: np.ndarray, n: int) -> int:
    """Append the actions of seat ``p``'s card at ``slot`` to ``out[n:]``; return the new count."""
    if s.field.acts[p, slot] == 0:
        return n
    if s.cards[s.field.card[p, slot]].keywords & OMNI:
        if can_attack(s, p, slot):  # R13: one action hits all eligible cards
            out[n] = encode(ActionKind.ATTACK, slot, ALL_TARGETS)
            n += 1
    else:
        for t in range(s.field.n[opponent(p)]):
            if can_target(s, p, slot, t):
                out[n] = encode(ActionKind.ATTACK, slot, t)
                n += 1
    if can_draw(s, p, slot):
        out[n] = encode(ActionKind.DRAW, slot, 0)
        n += 1
    if can_score(s, p, slot):
        out[n] = encode(ActionKind.SCORE, slot, 0)
        n += 1
    return n


@kernel
def legal_actions(s, out: np.ndarray) -> int:
    """Write the mover's legal actions into ``out`` in place; return how many (0 once the game is over)."""
    m = s.meta
    p = m.mover
    n = 0
    if m.phase == Phase.OVER:
        return 0
    if m.phase == Phase.PAY:  # R5: any card left in hand pays (the played card is already in the field)
        for i in range(s.piles.hand_n[p]):
            out[n] = encode(ActionKind.PAY, i, 0)
            n += 1
        return n
    if m.phase == Phase.PLAY:
        for i in range(s.piles.hand_n[p]):
            if can_play(s, p, i):
                out[n] = encode(ActionKind.PLAY, i, 0)
                n += 1
        if can_retire(s, p):
            for slot in range(s.field.n[p]):
                out[n] = encode(ActionKind.RETIRE, slot, 0)
                n += 1
    for slot in range(s.field.n[p]):  # R7: declaring one closes phase 2
        n = legal_field_actions(s, p, slot, out, n)
    out[n] = END_TURN  # R7: every action is optional
    return n + 1


@hot
def take_from_hand(s, p: int, i: int) -> int:
    """Remove card ``i`` from seat ``p``'s hand in place (the others keep their order); return it."""
    h = s.piles.hand
    c = h[p, i]
    n = s.piles.hand_n[p] - 1
    for k in range(i, n):
        h[p, k] = h[p, k + 1]
    s.piles.hand_n[p] = n
    return c


@hot
def play_card(s, i: int) -> None:
    """Play the mover's hand card ``i`` to its field in place; PAY decisions then pay its cost (R4, R5)."""
    m = s.meta
    p = m.mover
    c = take_from_hand(s, p, i)
    enter_field(s, p, c)
    m.plays_left -= 1  # R4: counts plays; cost cards do not count
    m.plays += 1
    s.tally.seats[p].cards_played += 1
    r = s.tally.cards[p, c]
    r.times_played += 1
    if r.first_played_turn == NEVER:
        r.first_played_turn = m.turn
    rules.log_event(s, EventKind.PLAY, p, c, NO_CARD, s.cards[c].cost, 0)
    m.pending_card, m.pending_cost = c, s.cards[c].cost
    if m.pending_cost > 0:
        m.phase = Phase.PAY


@hot
def pay_cost(s, i: int) -> None:
    """Discard the mover's hand card ``i`` towards the pending cost in place (R5)."""
    m = s.meta
    p = m.mover
    c = take_from_hand(s, p, i)
    push(s.piles.discard, s.piles.discard_n, p, c)
    s.tally.cards[p, c].times_discarded += 1
    rules.log_event(s, EventKind.PAY, p, c, m.pending_card, 0, 0)
    m.pending_cost -= 1
    if m.pending_cost == 0:
        m.phase = Phase.PLAY


@kernel
def retire(s, slot: int) -> None:
    """Retire the mover's field card at ``slot`` to its discard pile in place (R6)."""
    p = s.meta.mover
    c = leave_field(s, np.uint8(p), np.uint8(slot))
    s.tally.cards[p, c].times_retired += 1
    rules.log_event(s, EventKind.RETIRE, p, c, NO_CARD, 0, 0)


@hot
def self_effects(s, p: int, slot: int) -> None:
    """Apply DEVOUR, then DECAY, then FRAGILE to the card that just acted, in place (R11).

    Only the keyword test is copied into each caller: most cards have none of the three.
    """
    if s.cards[s.field.card[p, slot]].keywords & SELF_EFFECTS:
        apply_self_effects(s, np.uint8(p), np.uint8(slot))


@kernel
def apply_self_effects(s, p: int, slot: int) -> None:
    """Apply DEVOUR, then DECAY, then FRAGILE to the card at seat ``p``'s ``slot`` in place (``self_effects``)."""
    f = s.field
    c = f.card[p, slot]
    kw = s.cards[c].keywords
    if kw & DEVOUR and f.hp[p, slot] < s.params.devour_hp_cap:
        f.hp[p, slot] += 1
        rules.log_event(s, EventKind.DEVOUR, p, c, NO_CARD, f.hp[p, slot], 0)
    if kw & DECAY and f.def_[p, slot] > 0:
        f.def_[p, slot] -= 1
        rules.log_event(s, EventKind.DECAY, p, c, NO_CARD, f.def_[p, slot], 0)
    if kw & FRAGILE:
        f.hp[p, slot] -= 1
        rules.log_event(s, EventKind.FRAGILE, p, c, NO_CARD, f.hp[p, slot], 0)
        if f.hp[p, slot] <= 0:  # E6, E8: destroyed after its action resolved
            destroy(s, p, slot, np.int64(NO_CARD))
            s.tally.seats[p].own_fragile_losses += 1


@hot
def hit(s, p: int, c: int, t: int) -> int:
    """Deal exactly 1 damage from seat ``p``'s card ``c`` to opposing slot ``t`` in place (R8); 1 if it is destroyed."""
    o = opponent(p)
    s.field.hp[o, t] -= 1
    s.tally.cards[p, c].damage_dealt += 1
    rules.log_event(s, EventKind.DAMAGE, p, c, s.field.card[o, t], s.field.hp[o, t], 0)
    if s.field.hp[o, t] > 0:
        return 0
    destroy(s, np.uint8(o), np.uint8(t), np.int64(c))  # to its owner's discard pile (R18)
    s.tally.cards[p, c].cards_destroyed += 1
    s.tally.seats[p].cards_destroyed += 1
    return 1


@hot
def attack(s, slot: int, t: int) -> None:
    """Resolve an attack of the mover's card at ``slot`` on opposing slot ``t`` in place (R8, R12, R13)."""
    p = s.meta.mover
    o = opponent(p)
    c = s.field.card[p, slot]
    s.field.acts[p, slot] -= 1  # DOUBLE: one of two attacks (R12)
    s.tally.seats[p].attacks += 1
    if s.cards[c].keywords & OMNI:  # R13: every eligible card at once; back to front keeps slots valid
        rules.log_event(s, EventKind.ATTACK, p, c, NO_CARD, 0, 0)
        destroyed = 0
        for u in range(s.field.n[o] - 1, -1, -1):
            if can_target(s, p, slot, u):
                destroyed += hit(s, p, c, u)
    else:
        rules.log_event(s, EventKind.ATTACK, p, c, s.field.card[o, t], 0, 0)
        destroyed = hit(s, p, c, t)
    if s.cards[c].keywords & STEAL:
        for _ in range(destroyed):  # R13: a point per destroyed card, each may win (R10, E19)
            s.tally.cards[p, c].steal_points += 1
            if rules.gain_points(s, p, np.int64(1), PointSource.STEAL, np.int64(c)):
                return
    self_effects(s, p, slot)


@hot
def take_draw_action(s, slot: int) -> None:
    """Resolve a draw action of the mover's card at ``slot`` in place: min(DRAW, deck, room) cards (R9)."""
    p = s.meta.mover
    c = s.field.card[p, slot]
    n = min(s.cards[c].draw, s.piles.deck_n[p], s.params.hand_limit - s.piles.hand_n[p])  # E14
    s.field.acts[p, slot] = 0
    s.tally.seats[p].draws += 1
    s.tally.cards[p, c].cards_drawn += n
    rules.log_event(s, EventKind.DRAW_ACTION, p, c, NO_CARD, n, 0)
    for _ in range(n):
        rules.log_event(s, EventKind.DRAWN, p, rules.draw(s, p), c, 0, 0)
    self_effects(s, p, slot)


@hot
def score_action(s, slot: int) -> None:
    """Resolve a score action of the mover's card at ``slot`` in place: SCORE and PROSPERITY's bonus (R10, R14).

    ``one_gain`` (default): both are one gain, so a winning action's score includes the bonus.
    ``second_gain``: the bonus is a second gain that a winning SCORE never reaches (RULES.md §8.6).
    """
    p = s.meta.mover
    c = s.field.card[p, slot]
    s.field.acts[p, slot] = 0
    s.tally.seats[p].scores += 1
    r = s.tally.cards[p, c]
    r.points_scored += s.cards[c].score
    bonus = s.piles.hand_n[p] // s.params.prosperity_step if s.cards[c].keywords & PROSPERITY else 0  # R14
    if s.params.prosperity_gain == ProsperityGain.SECOND_GAIN:
        if rules.gain_points(s, p, np.int64(s.cards[c].score), PointSource.SCORE, np.int64(c)):
            return  # E19: no PROSPERITY, no FRAGILE after the win
        if bonus > 0:
            r.points_scored += bonus
            if rules.gain_points(s, p, np.int64(bonus), PointSource.PROSPERITY, np.int64(c)):
                return
    else:
        rules.add_points(s, p, np.int64(s.cards[c].score), PointSource.SCORE, np.int64(c))
        if bonus > 0:
            r.points_scored += bonus
            rules.add_points(s, p, np.int64(bonus), PointSource.PROSPERITY, np.int64(c))
        if rules.reached_target(s, p):
            return  # E19: no FRAGILE after the win
    self_effects(s, p, slot)


@hot
def apply_action(s, action: int) -> None:
    """Apply one encoded legal action of the mover in place; END also runs phases 4 and 1."""
    m = s.meta
    kind, i = action_kind(action), action_i(action)
    if kind == ActionKind.END:
        rules.end_turn(s)
    elif kind == ActionKind.PLAY:
        play_card(s, i)
    elif kind == ActionKind.PAY:
        pay_cost(s, i)
    elif kind == ActionKind.RETIRE:
        retire(s, i)
    else:
        m.phase = Phase.ACTION  # R7: the first action closes phase 2
        m.actions += 1
        if kind == ActionKind.ATTACK:
            attack(s, i, action_j(action))
        elif kind == ActionKind.DRAW:
            take_draw_action(s, i)
        else:
            score_action(s, i)
