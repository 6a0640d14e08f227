"""The game's flow: set-up (first player R2, mulligan R5; decks in ``setup.py``), turns and fights.

A game is ``set_up`` and then decisions (``actions.apply_action``) until ``Phase.OVER``.
Between decisions the flow runs by itself:

    set-up -> MULLIGAN choices (first seat, then the other) -> begin_turn(first seat)
    begin_turn: Ready, start-of-turn triggers in lane order (Ms. Mummy: a choice), draw (R4, R19)
    MAIN (decisions; END) -> FIGHT (each Ready Creature that can fight, the mover's order, R11)
    -> end_turn: Spirit Tower returns, "this turn" effects end, turn row, timeout (R21)
    -> begin_turn(opponent)

Every function mutates the state record ``s`` in place.
"""

import numpy as np

from sims.cardwars import board as bd
from sims.cardwars import effects as fx
from sims.cardwars import marks as mk
from sims.cardwars import stats as sx
from sims.cardwars.layout import NO_CARD, Choice, EventKind, Lane, Phase, Resume
from sims.cardwars.setup import build_deck, clear_turn, deal, reset
from sims.cardwars.state import N_LANES, N_STARTERS, Effect, EndReason, FirstPlayer, Part, Special
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.records import NEVER, NO_WINNER


@hot
def set_up(s, decks: np.ndarray, game: int, seed: np.uint64, last_winner: int) -> None:
    """Reset ``s`` and prepare game ``game``: first player (R2), decks (R1), hands, mulligans (R5).

    Lane SETUP always draws the same four numbers (coin, two deck rolls, the holder's
    pick), so variants that do not change deck choice keep the same decks (paired runs).
    ``last_winner``: the previous game's winner in a cool_guy_series (-1: none).
    """
    reset(s, game, seed)
    m = s.meta
    lane = np.int64(Lane.SETUP)
    coin = rng.randint(s.scratch.rng, lane, np.int64(2))
    roll0 = rng.randint(s.scratch.rng, lane, np.int64(N_STARTERS))
    roll1 = rng.randint(s.scratch.rng, lane, np.int64(N_STARTERS))
    pick = rng.randint(s.scratch.rng, lane, np.int64(12))
    m.first_seat = coin
    if s.params.first_player == FirstPlayer.PREVIOUS_WINNER and last_winner >= 0:
        m.first_seat = last_winner  # the Cool Guy goes first
    s.tally.seats[m.first_seat].first = 1
    build_deck(s, np.int64(0), decks, roll0, pick)
    build_deck(s, np.int64(1), decks, roll1, pick)
    deal(s, np.int64(0))
    deal(s, np.int64(1))
    m.mover = m.first_seat
    if s.params.mulligan:
        m.phase, m.pending, m.decider, m.pend_left, m.resume = (
            Phase.CHOOSE,
            Choice.MULLIGAN,
            m.first_seat,
            2,
            Resume.SETUP,
        )
    else:
        begin_turn(s)


@kernel
def mulligan(s, p: int) -> None:
    """Take seat ``p``'s mulligan in place: hand back, shuffle all its cards, draw a new hand (R5)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    pl = s.piles
    while pl.hand_n[p] > 0:
        c = bd.take_from_hand(s, p, pl.hand_n[p] - 1)
        pl.deck[p, pl.deck_n[p]] = c
        pl.deck_n[p] += 1
    for k in range(pl.built_n[p]):
        r = s.tally.cards[p, pl.built[p, k]]
        r.in_opening_hand, r.first_drawn_turn, r.times_drawn = 0, NEVER, 0
    s.tally.seats[p].mulligan_taken = 1
    bd.log_event(s, EventKind.MULLIGAN, p, NO_CARD, NO_CARD, 1, 0)
    deal(s, p)


# -- turns ------------------------------------------------------------------------------------------


@kernel
def begin_turn(s) -> None:
    """Open the mover's turn in place: Ready step, then start-of-turn triggers and the draw (R19)."""
    m, b = s.meta, s.board
    p = m.mover
    m.turn += 1
    clear_turn(s)  # a new turn and mover, counters cleared, Ready below: stale if read (marks.new_turn_changes)
    for lane in range(N_LANES):
        b.cr_exh[p, lane] = b.cr_floop[p, lane] = 0  # Ready all your cards (Field Reaper's catch too, R17)
        b.bu_exh[p, lane] = 0
    m.actions, m.plays, m.floops, m.sot_lane = s.params.actions_per_turn, 0, 0, 0
    m.phase = Phase.MAIN
    bd.log_event(s, EventKind.TURN_START, p, s.piles.hand_n[p], s.piles.deck_n[p], b.hp[p], b.hp[p ^ 1])
    bd.settle(s)
    fx.run_queue(s)
    if m.phase != Phase.OVER:
        run_turn_start(s)


@kernel
def mummy_can_return(s, p: int, lane: int) -> bool:
    """Return True if Ms. Mummy at ``(p, lane)`` has a SandyLands Creature to heal (Glossary *Target*)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    land = s.cards[b.cr_card[p, lane]].e1_land
    for m in range(N_LANES):
        d = b.cr_card[p, m]
        if d >= 0 and m != lane and sx.land_ok(s.cards[d].land, land) and s.cards[d].land == land:
            return True
    return False


@kernel
def run_turn_start(s) -> None:
    """Resolve the start-of-turn triggers from ``meta.sot_lane`` on, then draw (R4, R19, R20)."""
    m, b = s.meta, s.board
    p = m.mover
    while m.sot_lane < N_LANES:
        lane = m.sot_lane
        c = b.cr_card[p, lane]
        if c >= 0 and sx.abilities_on(s, p, lane) and s.cards[c].trigger == Part.TURN_START:
            if s.cards[c].e1_effect == Effect.MS_MUMMY:
                if mummy_can_return(s, p, lane):
                    m.phase, m.pending, m.decider, m.resume = Phase.CHOOSE, Choice.MUMMY, p, Resume.TURN_START
                    return
            else:
                owner = np.int64(b.cr_owner[p, lane])
                fx.resolve_all(s, np.int64(p), np.int64(lane), np.int64(c), owner, np.int64(0), np.int64(0))
                bd.check_end(s)
                fx.run_queue(s)
                if m.phase == Phase.OVER:
                    return
        m.sot_lane = lane + 1
    if m.turn > 1 or s.params.first_turn_draw:
        bd.draw(s, np.int64(p))
    m.phase = Phase.MAIN


@hot
def mummy_return(s, target_lane: int) -> None:
    """Ms. Mummy goes back to hand and the SandyLands Creature in ``target_lane`` gains 1 DEF (R12, E11)."""
    m = s.meta
    p = m.mover
    bd.leave_play(s, np.int64(p), np.int64(m.sot_lane), np.int64(1))
    bd.heal(s, np.int64(p), np.int64(target_lane))
    bd.settle(s)
    fx.run_queue(s)


@hot
def first_turn_rule(s) -> bool:
    """Return True if the mover may not Floop or Fight now: the game's first turn under R3."""
    return s.meta.turn == 1 and s.params.first_player_rule == 1


@hot
def protected(s, q: int, lane: int) -> bool:
    """Return True if side ``q``'s Creature in ``lane`` may not be attacked: a Cool Dog next to it (R14)."""
    b = s.board
    for m in (lane - 1, lane + 1):
        if 0 <= m < N_LANES:
            d = b.cr_card[q, m]
            if d >= 0 and s.cards[d].special == Special.COOL_DOG and sx.abilities_on(s, q, m):
                own = s.cards[b.cr_card[q, lane]].special == Special.COOL_DOG and sx.abilities_on(s, q, lane)
                if s.params.cool_dog_chain or not own:
                    return True
    return False


@hot
def can_fight(s, p: int, lane: int) -> bool:
    """Return True if seat ``p``'s Creature in ``lane`` is Ready and may Activate to fight (R11, R14)."""
    b = s.board
    if b.cr_card[p, lane] < 0 or b.cr_exh[p, lane]:
        return False
    return b.cr_card[p ^ 1, lane] < 0 or not protected(s, p ^ 1, lane)


@hot
def any_fight(s, p: int) -> bool:
    """Return True if some Creature of seat ``p`` can still fight."""
    for lane in range(N_LANES):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if can_fight(s, p, lane):
            return True
    return False


@hot
def end_main(s) -> None:
    """End the main phase in place: go to the Fight, or end the turn if nobody can (R3, R11)."""
    p = s.meta.mover
    if first_turn_rule(s) or not any_fight(s, p):
        end_turn(s)
    else:
        s.meta.phase = Phase.FIGHT


@kernel
def fight(s, p: int, lane: int) -> None:
    """Seat ``p``'s Creature in ``lane`` fights in place: both deal damage at once, or hit Hit Points (R11)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    c = b.cr_card[p, lane]
    b.cr_exh[p, lane] = 1
    d = b.cr_card[p ^ 1, lane]
    dealt = sx.damage_dealt(s, p, lane)
    bd.log_event(s, EventKind.FIGHT, p, c, d, lane, dealt)
    if d >= 0:
        back = sx.damage_dealt(s, p ^ 1, lane)
        bd.deal_damage(s, p ^ 1, lane, np.int64(dealt), np.int64(c), p)
        bd.deal_damage(s, p, lane, np.int64(back), np.int64(d), p ^ 1)
        bd.credit(s, p, lane, np.int64(0), np.int64(dealt))
        bd.credit(s, p ^ 1, lane, np.int64(0), np.int64(back))
        bd.destroy_dead(s)  # damage is no input of ATK/DEF: the stats the fight read are still current
    else:
        bd.hero_damage(s, p ^ 1, np.int64(dealt), np.int64(c))
        bd.credit(s, p, lane, np.int64(1), np.int64(dealt))
        bd.check_end(s)


@hot
def fight_action(s, lane: int) -> None:
    """Carry out one FIGHT decision in place; end the turn when no Creature can fight any more."""
    p = s.meta.mover
    fight(s, np.int64(p), np.int64(lane))
    fx.run_queue(s)
    if s.meta.phase != Phase.OVER and not any_fight(s, p):
        end_turn(s)


@kernel
def give_back(s, p: int) -> None:
    """Spirit Tower: Creatures seat ``p`` took this turn go back to their owner's side (RULES.md §8 Q6)."""
    p = p & 1  # seats as non-negative indexes (RULES.md §13)
    b = s.board
    for lane in range(N_LANES):
        if b.cr_card[p, lane] < 0 or not b.cr_stolen[p, lane]:
            continue
        o = b.cr_owner[p, lane]
        b.cr_stolen[p, lane] = 0
        dest = -1
        for k in range(N_LANES + 1):  # its own lane, else the nearest empty one (left first)
            for m in (lane - k, lane + k):
                if dest < 0 and 0 <= m < N_LANES and b.cr_card[o, m] < 0:
                    dest = m
        if dest < 0:
            bd.leave_play(s, np.int64(p), np.int64(lane), np.int64(0))  # nowhere to go: to its owner's discard pile
        else:
            c = b.cr_card[p, lane]
            bd.move(s, np.int64(p), np.int64(lane), np.int64(o), np.int64(dest))
            bd.log_event(s, EventKind.RETURN, o, c, NO_CARD, dest, 0)


@kernel
def end_turn(s) -> None:
    """Run the end of the mover's turn in place and pass the turn (R21 cap)."""
    m = s.meta
    p = m.mover
    give_back(s, p)
    clear_this_turn(s)
    bd.settle(s)
    fx.run_queue(s)
    if m.phase == Phase.OVER:
        return
    bd.log_event(s, EventKind.END_TURN, p, NO_CARD, NO_CARD, s.piles.hand_n[p], s.piles.deck_n[p])
    if m.record_turns:  # only when the turns table is wanted (kernel.drive)
        record_turn(s)
    if m.turn >= s.params.max_turns:
        m.phase, m.winner, m.end_reason = Phase.OVER, NO_WINNER, EndReason.TIMEOUT
        bd.log_event(s, EventKind.TIMEOUT, p, NO_CARD, NO_CARD, m.turn, 0)
        return
    m.mover = p ^ 1
    begin_turn(s)


@hot
def clear_this_turn(s) -> None:
    """Clear the board's "this turn" fields in place (ATK bonus, ZaZo's, changed Lanes, Schoolhouse's copy,
    the turn's Spell bonuses); mark the stats only if one that was set is read.

    "Changed Lanes" is read only by Punk Cat's aura (``marks.TURN_MOVED`` in ``board.st_turn``,
    noted by ``recompute``; while the stats are stale the mark makes no difference): without one
    in play, a Creature that moved keeps the stats fresh.
    """
    b = s.board
    if not b.st_turn & (mk.TURN_MOVED * mk.BOTH):  # "changed Lanes" not read: cleared, no mark
        for q in range(2):
            for lane in range(N_LANES):
                b.cr_moved[q, lane] = 0
    for q in range(2):
        for lane in range(N_LANES):
            if b.cr_tatk[q, lane] or b.cr_zazo[q, lane] or b.cr_moved[q, lane] or b.cr_copy[q, lane] >= 0:
                mk.stale(s)  # only a "this turn" field that was set changes a stat
            b.cr_tatk[q, lane] = b.cr_zazo[q, lane] = b.cr_moved[q, lane] = 0
            b.cr_copy[q, lane] = NO_CARD
        if s.turnfx.aura_n[q]:
            mk.stale(s)
        s.turnfx.aura_n[q] = 0


@kernel
def record_turn(s) -> None:
    """Write the TURN row of the current turn into ``s.tally.turns`` in place."""
    m, b = s.meta, s.board
    t = s.tally.turns[m.turn - 1]
    t.game, t.turn, t.seat, t.round = m.game, m.turn, m.mover, (m.turn + 1) // 2
    t.score_0, t.score_1 = b.hp[0], b.hp[1]
    t.creatures_0, t.creatures_1 = creatures(s, np.int64(0)), creatures(s, np.int64(1))
    t.buildings_0, t.buildings_1 = buildings(s, np.int64(0)), buildings(s, np.int64(1))
    t.hand_0, t.hand_1 = min(np.int64(s.piles.hand_n[0]), 127), min(np.int64(s.piles.hand_n[1]), 127)
    t.faceup_0, t.faceup_1 = b.up[0].sum(), b.up[1].sum()
    t.plays, t.floops = m.plays, m.floops


@kernel
def creatures(s, q: int) -> int:
    """Return how many Creatures side ``q`` controls."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    n = 0
    for lane in range(N_LANES):
        n += s.board.cr_card[q, lane] >= 0
    return n


@kernel
def buildings(s, q: int) -> int:
    """Return how many Buildings side ``q`` controls."""
    q = q & 1  # seats as non-negative indexes (RULES.md §13)
    n = 0
    for lane in range(N_LANES):
        n += s.board.bu_card[q, lane] >= 0
    return n


# -- pending choices -----------------------------------------------------------------------


@hot
def choose(s, option: int) -> None:
    """Carry out the decider's ``option`` for the pending choice in place and resume the flow."""
    m = s.meta
    kind = m.pending
    if kind == Choice.MULLIGAN:
        if option == 1:
            mulligan(s, np.int64(m.decider))
        else:
            bd.log_event(s, EventKind.MULLIGAN, m.decider, NO_CARD, NO_CARD, 0, 0)
        m.pend_left -= 1
        if m.pend_left > 0:
            m.decider = m.decider ^ 1
            return
        m.pending = Choice.NONE
        m.mover = m.first_seat
        begin_turn(s)
    elif kind == Choice.MUMMY:
        m.pending, m.phase = Choice.NONE, Phase.MAIN
        if option > 0:
            mummy_return(s, option - 1)
        if m.phase != Phase.OVER:
            m.sot_lane += 1
            run_turn_start(s)
    elif kind == Choice.DISCARD:
        bd.discard_from_hand(s, m.decider, option)
        m.pend_left -= 1
        if m.pend_left == 0 or s.piles.hand_n[m.decider] == 0:
            m.pending, m.phase = Choice.NONE, Phase.MAIN
        bd.settle(s)  # the discard pile grew
    elif kind == Choice.OGRE:
        m.pending, m.phase = Choice.NONE, Phase.MAIN
        fx.keep_bottom(s, np.int64(m.decider), np.int64(option))
        bd.settle(s)
