"""Decisions: what the decider may do now (``legal_actions``) and doing it (``apply_action``).

Main phase (R6): play a card (a Creature or Building into a lane, a Spell with its target),
spend an Action to draw, Floop, use an activated ability, or END (go to the Fight). Fight
phase: pick the next Creature to fight (R11). Pending choices: mulligan, Ms. Mummy,
discards, Ogre Gas, and playing the card Silo of Truth took (R18).

An action is ``kind << 24 | src << 16 | a << 8 | b`` (``layout.ActionKind``).
"""

import numpy as np

from sims.cardwars import board as bd
from sims.cardwars import effects as fx
from sims.cardwars import flow
from sims.cardwars import marks as mk
from sims.cardwars import options as opt
from sims.cardwars import stats as sx
from sims.cardwars.layout import NO_CARD, PENDING_SRC, ActionKind, Choice, EventKind, Phase
from sims.cardwars.state import N_LANES, CardType, Cost, Landscape, LandscapeCheck, Part, SiloUnplayable
from sims.core.jit import hot, kernel
from sims.core.piles import push
from sims.core.records import NEVER


@hot
def encode(kind: int, src: int, a: int, b: int) -> int:
    """Return the action ``kind`` with source ``src`` and arguments ``a``, ``b`` (each 0..255)."""
    return (kind << 24) | (src << 16) | (a << 8) | b


@hot
def kind_of(action: int) -> int:
    """Return the ActionKind of an encoded action."""
    return action >> 24


@hot
def src_of(action: int) -> int:
    """Return the source (hand index, slot, lane or option) of an encoded action."""
    return (action >> 16) & 255


@hot
def a_of(action: int) -> int:
    """Return argument ``a`` (lane | choice << 2, or a cost choice)."""
    return (action >> 8) & 255


@hot
def b_of(action: int) -> int:
    """Return argument ``b`` (a target code)."""
    return action & 255


# -- costs and Landscapes (R7) -----------------------------------------------------------------


@hot
def paid_cost(s, p: int, c: int) -> int:
    """Return the Actions seat ``p`` pays to play ``c`` now: printed cost minus discounts, never below 0."""
    k = s.cards[c]
    cost = k.cost
    if k.dc_on:
        cost -= discount(s, np.int64(p), np.int64(c))
    if k.type == CardType.CREATURE:
        cost -= s.turnfx.coffins[p]
    return max(cost, 0)


@kernel
def discount(s, p: int, c: int) -> int:
    """Return the Actions card ``c``'s discount row takes off its cost for seat ``p`` (Teeth Leaf, Lost Golem).

    One compiled call, not ``stats.row_value`` copied into each of ``paid_cost``'s 5 copies (2 of
    the 96 cards have the row): 3,333 of the cold compile's 68,220 lowered IR statements
    (-4.9 %), at +0.41 % instructions a game (RULES.md §13).
    """
    k = s.cards[c]
    return sx.row_value(s, k.dc_amount, k.dc_count, k.dc_land, k.dc_n, k.dc_mode, p, -1, c)


@hot
def landscapes_ok(s, p: int, c: int, paid: int) -> bool:
    """Return True if seat ``p`` controls the face-up Landscapes card ``c`` needs (R7, E2)."""
    k = s.cards[c]
    need = k.cost if s.params.landscape_check == LandscapeCheck.PRINTED_COST else paid
    if need <= 0:
        return True
    if k.land == Landscape.RAINBOW:
        n = 0
        for lane in range(N_LANES):
            n += s.board.up[p, lane]
        return n >= need
    return sx.count_landscapes(s, p, k.land) >= need


@hot
def playable(s, p: int, c: int, free: bool) -> bool:
    """Return True if seat ``p`` may pay for and play card ``c`` now (lanes and targets aside)."""
    k = s.cards[c]
    paid = 0 if free else paid_cost(s, p, c)
    if paid > s.meta.actions:
        return False
    if not landscapes_ok(s, p, c, paid):
        return False
    if k.pf_on and sx.row_value(s, 1, k.pf_count, k.pf_land, k.pf_n, k.pf_mode, p, -1, c) == 0:
        return False
    # the extra cost is paid on play (R7): Field Reaper needs another card to discard
    return not (k.xcost == Cost.DISCARD_CARD and s.piles.hand_n[p] < (1 if free else 2))


# -- enumeration ---------------------------------------------------------------------------------


@kernel
def play_options(s, p: int, src: int, c: int, out, n: int) -> int:
    """Append every PLAY action of card ``c`` from hand index ``src`` (or PENDING_SRC) to ``out[n:]``."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    if not playable(s, p, c, src == PENDING_SRC):
        return n
    k = s.cards[c]
    b = s.board
    sc = s.scratch
    if k.type == CardType.SPELL:
        m = opt.options(s, np.int64(p), np.int64(-1), np.int64(c), np.int64(0))  # int64 arguments: one compiled options
        for i in range(m):
            n = opt.add(out, n, encode(ActionKind.PLAY, src, 0, sc.opts[i]))
        return n
    for lane in range(N_LANES):
        if k.type == CardType.BUILDING:
            n = opt.add(out, n, encode(ActionKind.PLAY, src, lane, 0))
            continue
        if b.cr_card[p, lane] >= 0 and b.cr_exh[p, lane]:
            continue  # an exhausted Creature cannot be replaced (R8, E3)
        subs = opt.enter_options(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(0))
        for i in range(subs):
            a = lane | (sc.subs[i] << 2)
            if k.xcost == Cost.DISCARD_CARD:
                n = discard_choices(s, p, src, a, out, n)
            else:
                n = opt.add(out, n, encode(ActionKind.PLAY, src, a, 0))
    return n


@kernel
def discard_choices(s, p: int, src: int, a: int, out, n: int) -> int:
    """Append a PLAY action per distinct hand card seat ``p`` may discard as the extra cost (Field Reaper)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    pl = s.piles
    for i in range(pl.hand_n[p]):
        if i == src or seen_before(s, p, i, src):
            continue
        n = opt.add(out, n, encode(ActionKind.PLAY, src, a, i))
    return n


@hot
def seen_before(s, p: int, i: int, skip: int) -> bool:
    """Return True if hand entry ``i`` repeats an earlier entry (same card and owner), ignoring ``skip``."""
    pl = s.piles
    for j in range(i):
        if j != skip and pl.hand[p, j] == pl.hand[p, i] and pl.hand_own[p, j] == pl.hand_own[p, i]:
            return True
    return False


@kernel
def floop_card(s, p: int, slot: int) -> int:
    """Return the card whose FLOOP the slot would use (Schoolhouse's copy, R22), or NO_CARD if none."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    if slot < N_LANES:
        c = b.cr_card[p, slot]
        if c < 0 or b.cr_exh[p, slot]:
            return NO_CARD
        c = b.cr_copy[p, slot] if b.cr_copy[p, slot] >= 0 else c
    else:
        c = b.bu_card[p, slot - N_LANES]
        if c < 0 or b.bu_exh[p, slot - N_LANES]:
            return NO_CARD
    return c if s.cards[c].trigger == Part.FLOOP else NO_CARD


@kernel
def use_options(s, p: int, slot: int, kind: int, out, n: int) -> int:
    """Append every FLOOP (or ACTIVATE) action of the card in ``slot`` to ``out[n:]`` (R10, R15, R16)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    lane = slot % N_LANES
    if kind == ActionKind.FLOOP:
        c = floop_card(s, p, slot)
        if c < 0 or flow.first_turn_rule(s):
            return n
    else:
        c = b.cr_card[p, lane] if slot < N_LANES else b.bu_card[p, lane]
        if c < 0 or s.cards[c].trigger != Part.ACTIVATE or (slot < N_LANES and not sx.abilities_on(s, p, lane)):
            return n
    if s.cards[c].act_cost > s.meta.actions:
        return n
    m = opt.options(s, np.int64(p), np.int64(lane), np.int64(c), np.int64(0))
    for cost in range(N_LANES if s.cards[c].xcost == Cost.DESTROY_OWN_CREATURE else 1):
        if s.cards[c].xcost == Cost.DESTROY_OWN_CREATURE and b.cr_card[p, cost] < 0:
            continue
        for i in range(m):
            n = opt.add(out, n, encode(kind, slot, cost, s.scratch.opts[i]))
    return n


@kernel
def legal_actions(s, out) -> int:
    """Fill ``out`` with the decider's legal actions; return how many (0 only when the game is over)."""
    m = s.meta
    p = m.mover
    n = 0
    if m.phase == Phase.FIGHT:
        for lane in range(N_LANES):
            if flow.can_fight(s, p, lane):
                n = opt.add(out, n, encode(ActionKind.FIGHT, lane, 0, 0))
        return n
    if m.phase == Phase.CHOOSE:
        return choice_actions(s, out)
    if m.phase != Phase.MAIN:
        return 0
    n = opt.add(out, n, encode(ActionKind.END, 0, 0, 0))
    if m.actions > 0 and s.piles.deck_n[p] > 0:
        n = opt.add(out, n, encode(ActionKind.DRAW, 0, 0, 0))  # R20: never from an empty deck
    for i in range(s.piles.hand_n[p]):
        if not seen_before(s, p, i, -1):
            n = play_options(s, p, np.int64(i), s.piles.hand[p, i], out, n)
    for slot in range(2 * N_LANES):
        n = use_options(s, np.int64(p), np.int64(slot), np.int64(ActionKind.FLOOP), out, np.int64(n))
        n = use_options(s, np.int64(p), np.int64(slot), np.int64(ActionKind.ACTIVATE), out, np.int64(n))
    return n


@kernel
def choice_actions(s, out) -> int:
    """Fill ``out`` with the options of the pending choice (see ``layout.Choice``)."""
    m = s.meta
    q = m.decider
    n = 0
    if m.pending == Choice.MULLIGAN:
        n = opt.add(out, n, encode(ActionKind.CHOOSE, 0, 0, 0))
        return opt.add(out, n, encode(ActionKind.CHOOSE, 1, 0, 0))
    if m.pending == Choice.MUMMY:
        n = opt.add(out, n, encode(ActionKind.CHOOSE, 0, 0, 0))
        land = s.cards[s.board.cr_card[q, m.sot_lane]].e1_land
        for lane in range(N_LANES):
            d = s.board.cr_card[q, lane]
            if d >= 0 and lane != m.sot_lane and s.cards[d].land == land:
                n = opt.add(out, n, encode(ActionKind.CHOOSE, 1 + lane, 0, 0))
        return n
    if m.pending == Choice.DISCARD:
        for i in range(s.piles.hand_n[q]):
            if not seen_before(s, q, i, -1):
                n = opt.add(out, n, encode(ActionKind.CHOOSE, i, 0, 0))
        return n
    if m.pending == Choice.OGRE:
        for k in range(m.reveal_n):
            dup = False
            for j in range(k):
                dup = dup or m.reveal[j] == m.reveal[k]
            if not dup:
                n = opt.add(out, n, encode(ActionKind.CHOOSE, k, 0, 0))
        return n
    return play_options(s, q, np.int64(PENDING_SRC), m.pend_card, out, np.int64(n))  # Choice.SILO


# -- doing it ------------------------------------------------------------------------------------


@hot
def count_play(s, p: int, owner: int, c: int, lane: int) -> None:
    """Tally one play of ``c`` (owner's card row: times, first turn and lane)."""
    s.tally.seats[p].cards_played += 1
    s.meta.plays += 1
    r = s.tally.cards[owner, c]
    if r.copies == 0:
        return
    r.times_played += 1
    if r.first_played_turn == NEVER:
        r.first_played_turn = s.meta.turn
        r.first_lane = lane + 1 if lane >= 0 else 0


@hot
def play_card(s, p: int, src: int, a: int, tgt: int) -> None:
    """Play card ``src`` of seat ``p``'s hand (or Silo's card) in place: pay, then place or resolve (R6-R8)."""
    m = s.meta
    if src == PENDING_SRC:
        c, owner, free = m.pend_card, m.pend_owner, True
        m.pending, m.phase, m.pend_card = Choice.NONE, Phase.MAIN, NO_CARD
    else:
        c, owner, free = s.piles.hand[p, src], s.piles.hand_own[p, src], False
    k = s.cards[c]
    paid = 0 if free else paid_cost(s, p, c)
    m.actions -= paid
    if not free:
        bd.take_from_hand(s, np.int64(p), src)
    if k.xcost == Cost.DISCARD_CARD:  # the extra cost, paid on play (R7); tgt = the hand index to discard
        bd.discard_from_hand(s, p, tgt - 1 if not free and tgt > src else tgt)
    lane = a & 3 if k.type != CardType.SPELL else -1
    count_play(s, p, owner, c, lane)
    bd.log_event(s, EventKind.PLAY, p, c, NO_CARD, lane, paid)
    if k.type == CardType.CREATURE:
        if s.board.cr_card[p, lane] >= 0:
            bd.log_event(s, EventKind.REPLACE, p, c, s.board.cr_card[p, lane], lane, 0)
            bd.leave_play(s, np.int64(p), np.int64(lane), np.int64(0))  # the replaced Creature leaves first (R19)
            if m.phase == Phase.OVER:
                return
        s.turnfx.played_cr[p] += 1
        mk.stale_turn(s, mk.TURN_PLAYED)
        s.turnfx.coffins[p] = 0  # Unempty Coffin: used up by the next Creature (R22)
        enter(s, p, lane, c, owner, a >> 2, tgt)
    elif k.type == CardType.BUILDING:
        bd.destroy_building(s, np.int64(p), np.int64(lane))
        b = s.board
        b.bu_card[p, lane], b.bu_owner[p, lane], b.bu_exh[p, lane] = c, owner, 0
        mk.stale(s)
        bd.settle(s)
    else:
        s.turnfx.spells[p] += 1
        mk.stale_turn(s, mk.TURN_SPELLS)
        fx.resolve_all(s, np.int64(p), np.int64(-1), np.int64(c), np.int64(owner), np.int64(a), np.int64(tgt))
        push(s.piles.disc, s.piles.disc_n, np.int64(owner), c)  # read, do it, then discard (*Spells*)
        mk.stale_piles(s, mk.DISC << owner)
        bd.log_event(s, EventKind.SPELL, p, c, NO_CARD, 0, 0)
        if m.phase != Phase.OVER:
            bd.settle(s)  # R12: the discard pile grew (Mouthball, Dark Angel)


@hot
def enter(s, p: int, lane: int, c: int, owner: int, choice: int, tgt: int) -> None:
    """Creature ``c`` enters ``(p, lane)`` in place; its and others' enters-play triggers queue in lane order (R19)."""
    b, t = s.board, s.turnfx
    bd.place(s, p, lane, c, owner)
    t.entered[p] += 1
    t.entered_land[p, s.cards[c].land] += 1
    t.entered_lane[p, lane] += 1
    mk.stale(s)
    bd.log_event(s, EventKind.ENTER, p, c, NO_CARD, lane, 0)
    bd.settle(s)
    for m in range(N_LANES):
        d = b.cr_card[p, m]
        if d < 0:
            continue
        tr = s.cards[d].trigger
        own = m == lane and d == c
        if own and (tr == Part.ENTERS or tr == Part.ANY_ENTERS) and not bd.suppressed(s, np.int64(p), np.int64(lane)):
            bd.queue_trigger(s, c, np.int64(p), np.int64(lane), owner, np.int64(choice), np.int64(tgt))
        elif not own and sx.abilities_on(s, p, m):
            ally = tr == Part.ALLY_ENTERS and sx.land_ok(s.cards[c].land, s.cards[d].tland)
            if tr == Part.ANY_ENTERS or ally:
                bd.queue_trigger(s, d, np.int64(p), m, b.cr_owner[p, m], np.int64(0), np.int64(0))
    bd.close_batch(s)


@hot
def use(s, p: int, slot: int, kind: int, a: int, tgt: int) -> None:
    """Floop (or activate) the card in ``slot`` in place: pay its costs, then resolve it (R6, R10, R16)."""
    b, m = s.board, s.meta
    lane = slot % N_LANES
    if slot < N_LANES:
        c, owner = b.cr_card[p, lane], b.cr_owner[p, lane]
        used = floop_card(s, np.int64(p), np.int64(slot)) if kind == ActionKind.FLOOP else c
        if kind == ActionKind.FLOOP:
            b.cr_exh[p, lane] = b.cr_floop[p, lane] = 1
            mk.stale_turn(s, mk.TURN_FLOOPED)
    else:
        c = used = b.bu_card[p, lane]
        owner = b.bu_owner[p, lane]
        if kind == ActionKind.FLOOP:
            b.bu_exh[p, lane] = 1
    m.actions -= s.cards[used].act_cost
    if kind == ActionKind.FLOOP:
        s.tally.seats[p].floops += 1
        m.floops += 1
        bd.log_event(s, EventKind.FLOOP, p, used, c, slot, 0)
    else:
        s.tally.seats[p].activations += 1
        bd.log_event(s, EventKind.ACTIVATE, p, used, c, slot, 0)
    if owner == p:
        s.tally.cards[p, c].floops += 1
    x = s.cards[used].xcost
    if x == Cost.DESTROY_SELF or x == Cost.DESTROY_OWN_CREATURE:
        at = lane if x == Cost.DESTROY_SELF else a
        bd.destroy_creature(s, np.int64(p), np.int64(at), np.int64(p))  # the cost first (R6)
        fx.run_queue(s)
        if m.phase == Phase.OVER:
            return
    sx.refresh(s)
    fx.resolve_all(s, np.int64(p), np.int64(lane), np.int64(used), np.int64(owner), np.int64(a), np.int64(tgt))


@kernel
def apply_action(s, action: int) -> None:
    """Carry out one legal ``action`` of the decider in place (see ``legal_actions``)."""
    m = s.meta
    kind, src, a, tgt = kind_of(action), src_of(action), a_of(action), b_of(action)
    p = m.mover
    if kind == ActionKind.END:
        flow.end_main(s)
    elif kind == ActionKind.DRAW:
        m.actions -= 1
        s.tally.seats[p].action_draws += 1
        c = bd.draw(s, np.int64(p))
        bd.log_event(s, EventKind.ACTION_DRAW, p, c, NO_CARD, m.actions, 0)
    elif kind == ActionKind.PLAY:
        play_card(s, m.decider if m.phase == Phase.CHOOSE else p, src, a, tgt)
    elif kind == ActionKind.FLOOP or kind == ActionKind.ACTIVATE:
        use(s, p, src, kind, a, tgt)
    elif kind == ActionKind.FIGHT:
        flow.fight_action(s, src)
    else:
        flow.choose(s, src)
    silo = m.phase == Phase.CHOOSE and m.pending == Choice.SILO
    if silo and choice_actions(s, s.scratch.legal) == 0:  # (the decision's legal list is no longer needed)
        silo_unplayable(s)
    bd.check_end(s)
    if m.phase == Phase.MAIN:
        fx.run_queue(s)


@hot
def silo_unplayable(s) -> None:
    """The card Silo of Truth took cannot be played: to its owner's discard pile, or the thief's hand (R18)."""
    m = s.meta
    m.pending, m.phase = Choice.NONE, Phase.MAIN
    if s.params.silo_unplayable == SiloUnplayable.THIEF_HAND:
        fx.to_hand(s, np.int64(m.decider), m.pend_card, np.int64(m.pend_owner))
    else:
        push(s.piles.disc, s.piles.disc_n, np.int64(m.pend_owner), m.pend_card)
        mk.stale_piles(s, mk.DISC << m.pend_owner)
        bd.log_event(s, EventKind.DISCARD, m.decider, m.pend_card, NO_CARD, 0, 0)
    m.pend_card = NO_CARD
    bd.settle(s)
