"""Cardinger rules as small in-place kernels (RULES.md; rulings R1-R21).

A game is ``set_up`` (first seat R3, decks R2, opening hands) and then a loop of
decisions. Phases 1 and 4 run without decisions: ``start_turn`` (replenish point R15,
draw R16, play allowance R4) opens phase 2, and the END action runs ``end_turn`` (idle
draw R17, replenish R15) and the opponent's ``start_turn``. In between, the mover's bot
picks one encoded action (``state.ActionKind``) at a time:

    PLAY   --(cost > 0)-->  PAY x cost  --> back to PLAY          (phase 2, R4-R5)
    RETIRE (field full)                                           (phase 2, R6)
    ATTACK / DRAW / SCORE  (the first one closes phase 2)         (phase 3, R7-R14)
    END    -> end_turn -> opponent's start_turn

Any point gain that reaches ``target_score`` sets ``Phase.OVER`` at once and nothing
after it resolves (R10). Every rule function mutates the state record ``s`` in place.

The rules live in three modules: this one (set-up, turn flow, points, game drivers),
``actions`` (the field, legality, playing and actions) and ``decks`` (deck building).
Their functions are re-exported here, so ``kernel.<rule>`` names every rule.
"""

import numpy as np

from sims.cardinger import bots as policies
from sims.cardinger.actions import (  # noqa: F401  (re-exported: kernel.<rule> names every rule)
    apply_action,
    attack,
    can_attack,
    can_draw,
    can_play,
    can_retire,
    can_score,
    can_target,
    destroy,
    enter_field,
    full_acts,
    hit,
    leave_field,
    legal_actions,
    legal_field_actions,
    pay_cost,
    play_card,
    retire,
    score_action,
    self_effects,
    take_draw_action,
    take_from_hand,
)
from sims.cardinger.decks import (  # noqa: F401
    add_to_deck,
    build_decks,
    draw_random,
    fill_piles,
    lay_out_piles,
    pick_card,
)
from sims.cardinger.state import (
    CARD_RECORD_DTYPE,
    GAME_DTYPE,
    MAX_EVENTS,
    NO_CARD,
    SEAT_DTYPE,
    TURN_DTYPE,
    UNLIMITED_PLAYS,
    EndReason,
    EventKind,
    FirstSeat,
    Lane,
    Phase,
    PlayLimit,
    PointSource,
    ReplenishTiming,
    new_state,
    opponent,
    pop_top,
    push,
)
from sims.core import rng
from sims.core.driver import audit, mark
from sims.core.jit import hot, kernel
from sims.core.records import NEVER, NO_REPORT, NO_WINNER, no_rows

# -- bookkeeping ------------------------------------------------------------------------


@hot
def log_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op unless ``meta.log_on`` (and when full).

    Only the ``log_on`` test is copied into each caller; the write is one ``write_event``
    compiled once for int64 arguments (each mix of literal and int8/int16 arguments was a
    separate compiled version: 19 of them).
    """
    if s.meta.log_on:
        write_event(
            s, np.int64(kind), np.int64(seat), np.int64(card), np.int64(target), np.int64(value), np.int64(extra)
        )


@kernel
def write_event(s, kind: int, seat: int, card: int, target: int, value: int, extra: int) -> None:
    """Write one event to ``s.scratch.log`` in place (no-op once ``MAX_EVENTS`` are written)."""
    m = s.meta
    k = m.log_n
    if k >= MAX_EVENTS:
        return
    e = s.scratch.log[np.uint32(k)]  # unsigned: no negative-index fix-up (code in every caller that inlines it)
    e.turn, e.seat, e.kind, e.card, e.target, e.value, e.extra = m.turn, seat, kind, card, target, value, extra
    m.log_n = k + 1


@kernel
def clear_counters(st) -> None:
    """Zero the per-game counters of one ``SEAT_DTYPE`` record in place."""
    st.score = st.won = st.first = 0
    st.points_score = st.points_prosperity = st.points_steal = st.points_replenish = 0
    st.cards_played = st.attacks = st.draws = st.scores = 0
    st.cards_destroyed = st.own_fragile_losses = st.replenishes = st.deck_total_cost = 0


@kernel
def clear_card_record(r, game: int, p: int, c: int) -> None:
    """Reset one ``CARD_RECORD_DTYPE`` record in place for card ``c`` of seat ``p``."""
    r.game, r.seat, r.card, r.won, r.in_opening_hand = game, p, c, 0, 0
    r.first_drawn_turn = r.first_played_turn = NEVER
    r.times_played = r.times_drawn = r.points_scored = r.steal_points = 0
    r.damage_dealt = r.cards_destroyed = r.cards_drawn = 0
    r.times_destroyed = r.times_discarded = r.times_retired = 0


@kernel
def reset(s, game: int, seed: np.uint64) -> None:
    """Empty every zone and counter of ``s`` in place for game ``game`` seeded by ``seed``."""
    m = s.meta
    m.game, m.seed, m.turn, m.mover, m.first_seat, m.phase = game, seed, 0, 0, 0, Phase.PLAY
    m.plays_left, m.pending_cost, m.pending_card, m.plays, m.actions = 0, 0, NO_CARD, 0, 0
    m.winner, m.end_reason, m.log_n = NO_WINNER, EndReason.TIMEOUT, 0
    for p in range(2):
        s.piles.deck_n[p] = s.piles.hand_n[p] = s.piles.discard_n[p] = s.field.n[p] = 0
        s.tally.score[p] = s.tally.replenished[p] = 0
        clear_counters(s.tally.seats[p])
    rng.seed_lanes(s.scratch.rng, seed)


# -- set-up: R3 first seat, decks (decks.py, R2), opening hands ----------------------------


@hot
def draw(s, p: int) -> int:
    """Move seat ``p``'s top deck card to its hand in place; return it (NO_CARD: empty deck or full hand)."""
    if s.piles.deck_n[p] == 0 or s.piles.hand_n[p] >= s.params.hand_limit:
        return NO_CARD
    c = pop_top(s.piles.deck, s.piles.deck_n, p)
    push(s.piles.hand, s.piles.hand_n, p, c)
    r = s.tally.cards[p, c]
    r.times_drawn += 1
    if r.first_drawn_turn == NEVER:
        r.first_drawn_turn = s.meta.turn
    return c


@kernel
def deal(s) -> None:
    """Shuffle both built decks (lanes SHUFFLE + p) and draw the opening hands in place (*Starting the Game*)."""
    m = s.meta
    for p in range(2):
        for k in range(s.params.deck_size):
            c = s.piles.built[p, k]
            s.piles.deck[p, k] = c
            if m.record_cards:  # else no one reads tally.cards: its counters run on uncleared records
                clear_card_record(s.tally.cards[p, c], m.game, p, c)
            log_event(s, EventKind.DECK, p, c, NO_CARD, k, 0)
        s.piles.deck_n[p] = s.params.deck_size
        rng.shuffle(s.piles.deck[p], s.params.deck_size, s.scratch.rng, Lane.SHUFFLE + p)
        for _ in range(s.params.opening_hand):
            c = draw(s, p)
            if c != NO_CARD:
                s.tally.cards[p, c].in_opening_hand = 1
        log_event(s, EventKind.DEAL, p, NO_CARD, NO_CARD, s.piles.hand_n[p], s.piles.deck_n[p])


@kernel
def set_up(s, decks: np.ndarray, game: int, seed: np.uint64) -> None:
    """Reset ``s`` and prepare game ``game``: first seat (R3), decks (R2), hands, turn 1 (phase 1)."""
    reset(s, game, seed)
    m = s.meta
    # always drawn: lane SETUP stays paired across first_seat
    coin = rng.randint(s.scratch.rng, np.int64(Lane.SETUP), np.int64(2))
    m.first_seat = coin if s.params.first_seat == FirstSeat.RANDOM else game % 2
    m.mover = m.first_seat
    s.tally.seats[m.first_seat].first = 1
    build_decks(s, decks)
    deal(s)
    start_turn(s)


# -- points and the deck cycle ----------------------------------------------------------


@kernel
def add_points(s, p: int, n: int, source: int, card: int) -> None:
    """Add ``n`` points from ``source`` to seat ``p`` in place and log them, without the win check."""
    score = s.tally.score
    score[p] += n
    st = s.tally.seats[p]
    if source == PointSource.SCORE:
        st.points_score += n
        kind = EventKind.SCORE_ACTION
    elif source == PointSource.PROSPERITY:
        st.points_prosperity += n
        kind = EventKind.PROSPERITY
    elif source == PointSource.STEAL:
        st.points_steal += n
        kind = EventKind.STEAL
    else:
        st.points_replenish += n
        kind = EventKind.REPLENISH_POINT
    log_event(s, kind, p, card, NO_CARD, n, score[p])


@kernel
def reached_target(s, p: int) -> bool:
    """Return True (and end the game in place, R10) if seat ``p`` has reached ``target_score``."""
    if s.tally.score[p] < s.params.target_score:
        return False
    m = s.meta
    m.winner, m.end_reason, m.phase = p, EndReason.TARGET_SCORE, Phase.OVER
    log_event(s, EventKind.WIN, p, NO_CARD, NO_CARD, s.tally.score[p], s.tally.score[opponent(p)])
    return True


@kernel
def gain_points(s, p: int, n: int, source: int, card: int) -> bool:
    """Add ``n`` points from ``source`` to seat ``p`` in place; return True if this one gain wins at once (R10)."""
    add_points(s, p, n, source, card)
    return reached_target(s, p)


@kernel
def replenish(s, p: int) -> None:
    """Shuffle seat ``p``'s discard pile into its empty deck in place (R15); nothing if the pile is empty."""
    n = s.piles.discard_n[p]
    if n == 0:
        return  # R15: nothing replenished, no point
    for k in range(n):
        s.piles.deck[p, k] = s.piles.discard[p, k]
    s.piles.deck_n[p] = n
    s.piles.discard_n[p] = 0
    rng.shuffle(s.piles.deck[p], n, s.scratch.rng, Lane.SHUFFLE + p)
    s.tally.replenished[p] = 1
    s.tally.seats[p].replenishes += 1
    log_event(s, EventKind.REPLENISH, p, NO_CARD, NO_CARD, n, 0)


# -- the field ----------------------------------------------------------------------------


# -- phase 1 and phase 4 ------------------------------------------------------------------


@hot
def start_turn(s) -> None:
    """Run phase 1 for ``meta.mover`` in place (replenish point R15, draw R16) and open phase 2 (R4)."""
    m = s.meta
    p = m.mover
    m.turn += 1
    m.phase, m.plays, m.actions, m.pending_cost = Phase.PLAY, 0, 0, 0
    score = s.tally.score
    log_event(s, EventKind.TURN_START, p, s.piles.hand_n[p], s.piles.deck_n[p], score[p], score[opponent(p)])
    if s.params.replenish_timing == ReplenishTiming.START_OF_NEXT_TURN and s.piles.deck_n[p] == 0:
        replenish(s, p)  # R15 digital: includes cards destroyed on the opponent's turn (E18)
    if s.tally.replenished[p]:
        s.tally.replenished[p] = 0
        if s.params.replenish_point > 0 and gain_points(
            s, p, np.int64(s.params.replenish_point), PointSource.REPLENISH, np.int64(NO_CARD)
        ):
            return  # E19: the replenish point can win before the draw
    if m.turn > 1 or s.params.first_turn_draw:  # R16: no draw on the game's first turn
        c = draw(s, p)  # R16, E15: nothing with a full hand or an empty deck
        if c != NO_CARD:
            log_event(s, EventKind.DRAW, p, c, NO_CARD, 0, 0)
    hand = s.piles.hand_n[p]
    m.plays_left = UNLIMITED_PLAYS if s.params.play_limit == PlayLimit.UNLIMITED else (hand + 1) // 2  # R4, E2
    for slot in range(s.field.n[p]):
        s.field.acts[p, slot] = full_acts(s, s.field.card[p, slot])  # untap


@kernel
def record_turn(s) -> None:
    """Write the TURN row of the current turn into ``s.tally.turns`` in place."""
    m = s.meta
    t = s.tally.turns[m.turn - 1]
    t.game, t.turn, t.seat = m.game, m.turn, m.mover
    t.score_0, t.score_1 = s.tally.score[0], s.tally.score[1]
    t.field_0, t.field_1 = s.field.n[0], s.field.n[1]
    t.hand_0, t.hand_1 = s.piles.hand_n[0], s.piles.hand_n[1]
    t.deck_0, t.deck_1 = s.piles.deck_n[0], s.piles.deck_n[1]
    t.plays, t.actions = m.plays, m.actions


@hot
def end_turn(s) -> None:
    """Run phase 4 for the mover in place (idle draw R17, replenish R15), then pass the turn (R20 cap)."""
    m = s.meta
    p = m.mover
    if s.params.idle_extra_draw and m.plays == 0 and m.actions == 0:  # R17: retiring alone is idle
        c = draw(s, p)
        if c != NO_CARD:
            log_event(s, EventKind.IDLE_DRAW, p, c, NO_CARD, 0, 0)
    if s.params.replenish_timing == ReplenishTiming.END_OF_TURN and s.piles.deck_n[p] == 0:
        replenish(s, p)  # R15 tabletop: after the idle draw
    log_event(s, EventKind.END_TURN, p, NO_CARD, NO_CARD, s.piles.hand_n[p], s.piles.deck_n[p])
    if m.record_turns:
        record_turn(s)
    if m.turn >= s.params.max_turns:  # R20: a timeout, no winner
        m.phase, m.winner, m.end_reason = Phase.OVER, NO_WINNER, EndReason.TIMEOUT
        log_event(s, EventKind.TIMEOUT, p, NO_CARD, NO_CARD, m.turn, 0)
        return
    m.mover = opponent(p)
    start_turn(s)


# -- legality (R4-R9, R12, R13) -----------------------------------------------------------


# -- phase 2: play, pay, retire -------------------------------------------------------------


# -- phase 3: actions --------------------------------------------------------------------------


# -- games ------------------------------------------------------------------------------------


@kernel
def play_game(s, checking: bool) -> None:
    """Play the game ``set_up`` prepared in ``s`` to its end in place; with ``checking`` audit every decision.

    The seats' bots are ``scratch.bots``; the audit counts into ``scratch.report``: decisions,
    conservation violations, illegal actions chosen, games not over within ``max_turns``.
    It takes no array, so a game pays no reference counting, and ``checking`` is a literal
    where ``play_batch`` calls it: the games-only version has no audit code in its loop.
    """
    m = s.meta
    cap = 64 * s.params.max_turns * (s.params.deck_size + s.params.field_limit)  # decisions; only a bug reaches it
    while m.phase != Phase.OVER and cap > 0:
        cap -= 1
        bot = s.scratch.bots[m.mover]
        s.scratch.n_legal = 0
        if checking or policies.needs_legal(bot):
            s.scratch.n_legal = legal_actions(s, s.scratch.legal)
        a = policies.choose(bot, s)
        if checking and not audit(s, a, s.scratch.report):
            m.phase = Phase.OVER  # stop this game: an illegal action could corrupt the state
            break
        apply_action(s, a)
        if checking:
            for q in range(2):  # a loop, not two calls with literal seats: one compiled conserved, not two
                s.scratch.report[1] += not conserved(s, q)
    if checking and (m.phase != Phase.OVER or m.turn > s.params.max_turns):
        s.scratch.report[3] += 1
    if m.end_reason == EndReason.TARGET_SCORE and m.record_turns:
        record_turn(s)  # the winning turn ended mid-turn


@kernel
def conserved(s, p: int) -> bool:
    """Return True if each card of seat ``p``'s deck list is in exactly one of its deck/hand/field/discard."""
    seen = s.scratch.seen
    for k in range(s.params.deck_size):
        seen[s.piles.built[p, k]] = 0
    total = mark(seen, s.piles.deck, s.piles.deck_n[p], p) + mark(seen, s.piles.hand, s.piles.hand_n[p], p)
    total += mark(seen, s.piles.discard, s.piles.discard_n[p], p) + mark(seen, s.field.card, s.field.n[p], p)
    ok = total == s.params.deck_size
    for k in range(s.params.deck_size):
        ok = ok and seen[s.piles.built[p, k]] == 1
    return ok


@kernel
def prepare(cards: np.ndarray, params, weights: np.ndarray, log_on: int) -> np.ndarray:
    """Return a fresh ``STATE_DTYPE[1]`` for a batch: cards, params, bot weights and card values loaded."""
    state = new_state(cards, params)
    s = state[0]
    for p in range(2):
        for k in range(weights.shape[1]):
            s.scratch.weights[p, k] = weights[p, k]
    policies.card_values(s)
    lay_out_piles(s)
    s.meta.log_on = log_on
    s.meta.record_cards = s.meta.record_turns = 1  # play_games turns off what its tables do not want
    return state


@kernel
def fits(s, record_cards: int, games: np.ndarray, seats: np.ndarray, cards_out: np.ndarray, counts: np.ndarray) -> bool:
    """Return True if one more game's games/seats/cards rows fit the output buffers (size 0 = table off)."""
    room = games.shape[0] == 0 or counts[0] < games.shape[0]
    room = room and (seats.shape[0] == 0 or counts[1] + 2 <= seats.shape[0])
    return room and (not record_cards or counts[2] + 2 * s.params.deck_size <= cards_out.shape[0])


@kernel
def write_records(s, bot_ids, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> None:
    """Append the finished game's rows to the output tables in place and advance ``counts``.

    A ``games`` or ``seats`` buffer of size 0 means that table is not wanted.
    """
    m = s.meta
    if games.shape[0] > 0:
        row = games[counts[0]]  # item syntax: also works on the plain np.void rows of NUMBA_DISABLE_JIT runs
        row["game"], row["seed"], row["first_seat"], row["winner"] = m.game, m.seed, m.first_seat, m.winner
        row["turns"], row["end_reason"] = m.turn, m.end_reason
        row["score_0"], row["score_1"] = s.tally.score[0], s.tally.score[1]
        counts[0] += 1
    for p in range(2):
        st = s.tally.seats[p]
        st.game, st.seat, st.bot, st.score, st.won = m.game, p, bot_ids[p], s.tally.score[p], m.winner == p
        if seats.shape[0] > 0:
            seats[counts[1]] = st
            counts[1] += 1
        for k in range(s.params.deck_size if record_cards else 0):
            r = s.tally.cards[p, s.piles.built[p, k]]
            r.won = m.winner == p
            cards_out[counts[2]] = r
            counts[2] += 1
    for t in range(m.turn if record_turns else 0):
        turns[counts[3]] = s.tally.turns[t]
        counts[3] += 1


@kernel
def play_batch(
    state, decks, bot_ids, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts, report,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` on a ``prepare``d ``state`` into the record buffers; return how many completed.

    The one compiled batch loop behind ``play_games``, ``check_games`` and ``replay_game`` (each
    compiled entry point re-optimises and re-generates the whole game loop: about 1.4 CPU-s of
    cold compile apiece). A buffer of size 0 means that table is not wanted; a non-empty
    ``report`` audits every decision (``play_game``). Stops before a game whose rows would not
    fit; ``counts[:4]`` = rows written per table. Game ``g`` is seeded by
    ``rng.game_seed(root_seed, g)`` alone, so chunking never matters.
    """
    s = state[0]  # the caller holds ``state``
    m = s.meta  # the card records and turn rows are kept only for tables that want them
    m.record_cards, m.record_turns = record_cards, record_turns
    for p in range(2):
        s.scratch.bots[p] = bot_ids[p]
    s.scratch.report[:] = 0
    counts[:] = 0
    done = n_games
    for k in range(n_games):
        if not fits(s, record_cards, games, seats, cards_out, counts):
            done = k
            break
        g = first_game + k
        set_up(s, decks, g, rng.game_seed(root_seed, g))
        if report.shape[0] > 0:  # two compiled play_game: the audit's, and one with no audit code at all
            play_game(s, True)
        else:
            play_game(s, False)
        if record_turns and counts[3] + m.turn > turns.shape[0]:
            done = k  # its turn rows do not fit: the caller grows the buffers and replays it
            break
        write_records(s, bot_ids, record_cards, record_turns, games, seats, cards_out, turns, counts)
    for i in range(report.shape[0]):
        report[i] += s.scratch.report[i]
    return done


NO_ROWS = no_rows(GAME_DTYPE, SEAT_DTYPE, CARD_RECORD_DTYPE, TURN_DTYPE)


def play_games(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` into the record buffers; return how many completed (GameSpec contract).

    Stops before a game whose rows would not fit; ``counts[:4]`` = rows written per table.
    Game ``g`` is seeded by ``rng.game_seed(root_seed, g)`` alone, so chunking never matters.
    """
    state = prepare(cards, params, weights, 0)
    return play_batch(
        state, decks, bot_ids, np.uint64(root_seed), int(first_game), int(n_games), int(record_cards),
        int(record_turns), games, seats, cards_out, turns, counts, NO_REPORT,
    )  # fmt: skip


def check_games(params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, report) -> None:
    """Play the same games as ``play_games``, auditing every decision; fill ``report`` (see ``play_game``)."""
    state = prepare(cards, params, weights, 0)
    report[:] = 0
    play_batch(
        state, decks, bot_ids, np.uint64(root_seed), int(first_game), int(n_games), 0, 0, *NO_ROWS,
        np.zeros(4, np.int64), report,
    )  # fmt: skip


def replay_game(params, cards, decks, bot_ids, weights, root_seed, game) -> np.ndarray:
    """Play game ``game`` exactly as ``play_games`` does, with the event log on; return its events."""
    state = prepare(cards, params, weights, 1)
    play_batch(
        state, decks, bot_ids, np.uint64(root_seed), int(game), 1, 0, 0, *NO_ROWS, np.zeros(4, np.int64), NO_REPORT
    )
    s = state[0]  # item syntax: a compiled ``prepare`` returns plain np.void elements
    return s["scratch"]["log"][: s["meta"]["log_n"]].copy()
