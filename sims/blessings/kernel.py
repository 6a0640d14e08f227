"""Blessings & Curses rules as small in-place kernels (RULES.md; rulings R1-R19).

A game is a series of battles. Phases without decisions run in ``advance``, so no rule
function calls back into the turn loop (Numba compiles no mutual recursion):

    BATTLE_START  (carryover pools R15), gather + shuffle every owned card, reveal for the
                  first player (R5), opening hands (R6), (fresh-hand pools R15-R17);
                  a wipe-out ends the game (OVER), else:
    TURN_START    count the turn
    SURRENDER     decision (R13): PLAY_ON or SURRENDER   -- skipped with surrender=never;
                  a turn that is only a surrender is not counted (RULES.md §8.2)
    DRAW          turn_draw cards (R6); every card now held must be played (R7)
    PLAY          decisions: ATTACK i->j | BLESS i | CURSE i | DISCARD i, one card at a
                  time; each goes to the discard pile and is replaced by a draw
    TURN_END      battle loss (R12), turn cap (R19): the battle ends (winner's bonus R14)
                  and the next BATTLE_START follows, or
    SURRENDER_END decision (R13 own_turn only): PLAY_ON (pass: TURN_START of the
                  opponent) or SURRENDER

Invariant of the PLAY phase: ``hand[mover, :to_play]`` are the cards still to play this
turn; replacements are drawn to the right end, after them (R4, R7). Every rule function
mutates the state record ``s`` in place.

The rules live in three modules: this one (turns, card actions, drivers), ``zones``
(bookkeeping, action values, piles) and ``battles`` (battle start and end). Their
functions are re-exported here, so ``kernel.<rule>`` names every rule.
"""

import numpy as np

from sims.blessings import bots as policies
from sims.blessings.battles import (  # noqa: F401  (re-exported: kernel.<rule> names every rule)
    apply_both_pools,
    apply_pools,
    bless_rightmost,
    choose_first,
    curse_hand,
    deal_owned,
    end_at_cap,
    end_battle,
    gather,
    record_battle,
    start_battle,
)
from sims.blessings.state import (
    CARD_RECORD_DTYPE,
    GAME_DTYPE,
    NO_CARD,
    SEAT_DTYPE,
    TURN_DTYPE,
    ActionKind,
    BattleEnd,
    CardType,
    EndReason,
    EventKind,
    Opening,
    Phase,
    Surrender,
    action_i,
    action_j,
    action_kind,
    encode,
    new_state,
    opponent,
)
from sims.blessings.zones import (  # noqa: F401
    attack_damage,
    cards_left,
    clear_card_record,
    clear_seat,
    count_attack,
    count_play,
    destroy,
    discard_value,
    draw,
    face_bonus,
    log_event,
    pool_value,
    reshuffle,
)
from sims.core import rng
from sims.core.driver import audit, mark
from sims.core.jit import hot, kernel
from sims.core.piles import push, remove_at
from sims.core.records import NO_REPORT, NO_WINNER, no_rows


@hot
def reset(s, game: int, seed: np.uint64, counting: bool = True) -> None:
    """Empty every zone, pool and counter of ``s`` in place for game ``game`` seeded by ``seed``."""
    m = s.meta
    m.game, m.seed, m.turn, m.battle, m.battle_turn = game, seed, 0, 0, 0
    m.mover = m.first_seat = m.battle_first = 0
    m.phase, m.to_play, m.winner, m.end_reason = Phase.BATTLE_START, 0, NO_WINNER, EndReason.BATTLE_CAP
    m.final_how, m.log_n = BattleEnd.TURN_CAP, 0
    q = s.piles
    for p in range(2):
        m.own_turns[p] = 0
        q.owned_n[p] = q.deck_n[p] = q.hand_n[p] = q.discard_n[p] = q.gone_n[p] = 0
        s.pools.curse[p] = s.pools.blessing[p] = s.pools.wins[p] = 0
        if counting:
            clear_seat(s.tally.seats[p])
    s.pools.bonus = 0
    rng.seed_lanes(s.scratch.rng, seed)


@hot
def start_turn(s) -> None:
    """Begin the mover's turn in place: the surrender decision (R13) or, with surrender=never, the draw."""
    m = s.meta
    p = m.mover
    m.turn += 1
    m.battle_turn += 1
    m.own_turns[p] += 1
    log_event(
        s, EventKind.TURN_START, p, s.piles.hand_n[p], s.piles.deck_n[p], s.pools.curse[opponent(p)], s.pools.curse[p]
    )
    m.phase = Phase.DRAW if s.params.surrender == Surrender.NEVER else Phase.SURRENDER


@hot
def begin_play(s, counting: bool = True) -> None:
    """Draw for the turn (R6) and open the PLAY phase in place: every card now held must be played (R7)."""
    m = s.meta
    p = m.mover
    if s.params.opening == Opening.THREE_PLUS_TWO or m.own_turns[p] > 1:  # R6: 5 at set-up = first turn's draw
        for _ in range(s.params.turn_draw):
            c = draw(s, p, counting)
            if c != NO_CARD:
                log_event(s, EventKind.DRAW, p, c, NO_CARD, 0, 0)
    m.to_play = s.piles.hand_n[p]
    m.phase = Phase.PLAY if m.to_play > 0 else Phase.TURN_END


@hot
def end_turn(s, counting: bool = True) -> None:
    """Close the mover's turn in place: battle loss (R12), turn cap (R19), else the opponent's turn."""
    m = s.meta
    p = m.mover
    log_event(s, EventKind.END_TURN, p, NO_CARD, NO_CARD, s.piles.hand_n[p], cards_left(s, p))
    out0, out1 = cards_left(s, 0) == 0, cards_left(s, 1) == 0
    if out0 or out1:
        end_battle(s, NO_WINNER if out0 and out1 else (1 if out0 else 0), BattleEnd.EXHAUSTION, bool(counting))
    elif m.battle_turn >= s.params.max_turns_per_battle:
        end_battle(s, np.int64(NO_WINNER), BattleEnd.TURN_CAP, counting)  # int64: no literal's end_battle
    elif s.params.surrender == Surrender.OWN_TURN:
        m.phase = Phase.SURRENDER_END  # R13 own_turn: the mover may still give up before the opponent moves
    else:
        pass_turn(s)


@hot
def pass_turn(s) -> None:
    """Hand the move to the opponent in place: its TURN_START comes next."""
    m = s.meta
    m.mover = opponent(m.mover)
    m.phase = Phase.TURN_START


@kernel
def surrender(s, counting: bool = True) -> None:
    """The mover gives up the battle in place (R13): the opponent wins it; pools stand.

    At the start of a turn (phase SURRENDER) nothing of the turn was played, so it is not
    counted as a turn (RULES.md §8.2); at the end of one (SURRENDER_END) it was.
    """
    m = s.meta
    p = m.mover
    at_end = m.phase == Phase.SURRENDER_END
    if counting:
        s.tally.seats[p].battles_surrendered += 1
    log_event(s, EventKind.SURRENDER, p, NO_CARD, NO_CARD, 1 if at_end else 0, 0)
    if not at_end:
        m.turn -= 1
        m.battle_turn -= 1
        m.own_turns[p] -= 1
    end_battle(s, opponent(p), BattleEnd.SURRENDER, counting)


@kernel
def advance(s, counting: bool = True) -> None:
    """Run the phases that need no decision in place until the mover must decide or the game is over."""
    m = s.meta
    while True:
        if m.phase == Phase.BATTLE_START:
            start_battle(s, bool(counting))
        elif m.phase == Phase.TURN_START:
            start_turn(s)
        elif m.phase == Phase.DRAW:
            begin_play(s, counting)
        elif m.phase == Phase.TURN_END:
            end_turn(s, counting)
        else:
            return


@hot
def attack(s, p: int, c: int, j: int, counting: bool = True) -> None:
    """Card ``c`` of seat ``p`` hits the opposing hand card ``j`` in place (R8): overkill is lost."""
    o = opponent(p)
    q = s.piles
    t = q.hand[o, j]
    dmg = attack_damage(s, c)
    h = q.hp[o, t]
    dealt = min(dmg, h)
    q.hp[o, t] = h - dealt
    log_event(s, EventKind.ATTACK, p, c, t, dmg, h - dealt)
    if h - dealt <= 0:
        destroy(s, o, j)
        log_event(s, EventKind.DESTROY, o, c, t, 0, 0)
    if counting:
        count_attack(s, p, c, t, dealt, h - dealt <= 0)


@hot
def play_card(s, kind: int, i: int, j: int, counting: bool = True) -> None:
    """Play the mover's hand card ``i`` as ``kind`` in place, discard it and draw its replacement (R7)."""
    m = s.meta
    p = m.mover
    q = s.piles
    c = q.hand[p, i]
    v = 0
    if kind == ActionKind.ATTACK:
        attack(s, p, c, j, counting)
    elif kind == ActionKind.BLESS:
        v = pool_value(s, p, c)
        s.pools.blessing[p] += v
        log_event(s, EventKind.BLESS, p, c, NO_CARD, v, s.pools.blessing[p])
    elif kind == ActionKind.CURSE:
        v = pool_value(s, p, c)
        s.pools.curse[opponent(p)] += v
        log_event(s, EventKind.CURSE, p, c, NO_CARD, v, s.pools.curse[opponent(p)])
    else:
        v = discard_value(s, p, c)
        s.pools.blessing[p] += v
        log_event(s, EventKind.DISCARD, p, c, NO_CARD, v, s.pools.blessing[p])
    if counting:
        count_play(s, p, c, kind, v)
    remove_at(q.hand, q.hand_n, np.int64(p), np.int64(i))
    push(q.discard, q.discard_n, np.int64(p), np.int64(c))
    m.to_play -= 1
    d = draw(s, p, counting)  # the replacement waits for the next turn (R7)
    if d != NO_CARD:
        log_event(s, EventKind.DRAW, p, d, NO_CARD, 1, 0)
    if m.to_play == 0:
        m.phase = Phase.TURN_END


@kernel
def can_take(s, kind: int, c: int) -> bool:
    """Return True if the mover's card ``c`` may be played as ``kind`` (R7; attack targets checked apart)."""
    if kind == ActionKind.ATTACK:
        return s.piles.hand_n[opponent(s.meta.mover)] > 0
    if kind == ActionKind.BLESS:
        return s.cards[c].type == CardType.BLESSING
    if kind == ActionKind.CURSE:
        return s.cards[c].type == CardType.CURSE
    return kind == ActionKind.DISCARD


@kernel
def legal_actions(s, out: np.ndarray) -> int:
    """Write every legal encoded action of the current decision into ``out``; return how many."""
    m = s.meta
    n = 0
    if m.phase == Phase.SURRENDER or m.phase == Phase.SURRENDER_END:
        out[0], out[1] = encode(ActionKind.PLAY_ON, 0, 0), encode(ActionKind.SURRENDER, 0, 0)
        return 2
    if m.phase != Phase.PLAY:
        return 0
    p = m.mover
    targets = s.piles.hand_n[opponent(p)]
    for i in range(m.to_play):
        c = s.piles.hand[p, i]
        for j in range(targets):
            out[n] = encode(ActionKind.ATTACK, i, j)
            n += 1
        for kind in (ActionKind.BLESS, ActionKind.CURSE, ActionKind.DISCARD):
            if can_take(s, kind, c):
                out[n] = encode(kind, i, 0)
                n += 1
    return n


@hot
def apply_action(s, a: int, counting: bool = True) -> None:
    """Apply the encoded action ``a`` of the mover in place, then run on to the next decision."""
    kind = action_kind(a)
    if kind == ActionKind.PLAY_ON:
        if s.meta.phase == Phase.SURRENDER_END:
            pass_turn(s)
        else:
            s.meta.phase = Phase.DRAW
    elif kind == ActionKind.SURRENDER:
        surrender(s, bool(counting))
    else:
        play_card(s, kind, action_i(a), action_j(a), counting)
    advance(s, counting)


@hot
def set_up(s, game: int, seed: np.uint64, counting: bool = True) -> None:
    """Reset ``s`` for game ``game``: deal each seat its cards (R3) and start the first battle."""
    reset(s, game, seed, counting)
    deal_owned(s, bool(counting))
    advance(s, counting)


@hot
def play_game(s, bot_ids: np.ndarray, game: int, seed: np.uint64, report: np.ndarray, counting: bool = True) -> None:
    """Play game ``game`` from ``seed`` to its end in place; with a non-empty ``report`` audit every decision.

    ``report`` (int64[4], or size 0 for none) counts: decisions, conservation violations,
    illegal actions chosen, games not over within the caps. ``counting`` (a compile-time
    constant where a kernel passes it): keep the seats, cards and turns counters in
    ``s.tally``; False leaves them untouched, and the game is the same.
    """
    s.meta.bots[0], s.meta.bots[1] = bot_ids[0], bot_ids[1]
    set_up(s, game, seed, counting)
    m = s.meta
    checking = report.shape[0] > 0
    cap = (s.params.max_battles + 1) * s.params.max_turns_per_battle * (2 * 64 + 2)  # only a bug reaches it
    while m.phase != Phase.OVER and cap > 0:
        cap -= 1
        s.scratch.n_legal = 0
        if checking or policies.needs_legal(bot_ids[m.mover]):
            s.scratch.n_legal = legal_actions(s, s.scratch.legal)
        a = policies.choose(bot_ids[m.mover], s)
        if checking and not audit(s, a, report):
            m.phase = Phase.OVER
            break
        apply_action(s, a, counting)
        if checking:
            report[1] += (not conserved(s, np.int64(0))) + (not conserved(s, np.int64(1)))
    if checking and m.phase != Phase.OVER:
        report[3] += 1


@kernel
def conserved(s, p: int) -> bool:
    """Return True if each card seat ``p`` owns is in exactly one of its deck, hand, discard or destroyed pile."""
    q = s.piles
    seen = s.scratch.seen
    for c in range(seen.shape[0]):
        seen[c] = 0
    total = mark(seen, q.deck, q.deck_n[p], p) + mark(seen, q.hand, q.hand_n[p], p)
    total += mark(seen, q.discard, q.discard_n[p], p) + mark(seen, q.gone, q.gone_n[p], p)
    ok = total == q.owned_n[p]
    for k in range(q.owned_n[p]):
        ok = ok and seen[q.owned[p, k]] == 1
    return ok


@kernel
def prepare(cards: np.ndarray, params, weights: np.ndarray, log_on: int) -> np.ndarray:
    """Return a fresh ``STATE_DTYPE[1]`` for a batch: cards, params and bot weights loaded."""
    state = new_state(cards, params)
    s = state[0]
    for p in range(2):
        for k in range(weights.shape[1]):
            s.scratch.weights[p, k] = weights[p, k]
    for p in range(2):
        total = 0.0
        for c in range(s.meta.n_real):  # a value run's baseline row is not a card of the pool
            total += pool_value(s, p, c) if s.cards[c].type == CardType.CURSE else 0.0
        s.scratch.mean_curse[p] = total / max(1, s.meta.n_real)
    policies.prime(s)
    policies.pool_choices(s)
    s.meta.log_on = log_on
    return state


@kernel
def fits(s, record_cards: int, games: np.ndarray, seats: np.ndarray, cards_out: np.ndarray, counts: np.ndarray) -> bool:
    """Return True if one more game's games/seats/cards rows fit the output buffers (size 0 = table off)."""
    room = games.shape[0] == 0 or counts[0] < games.shape[0]
    room = room and (seats.shape[0] == 0 or counts[1] + 2 <= seats.shape[0])
    return room and (not record_cards or counts[2] + 2 * s.meta.n_cards <= cards_out.shape[0])


@kernel
def write_records(s, bot_ids, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> None:
    """Append the finished game's rows to the output tables in place and advance ``counts``."""
    m = s.meta
    if games.shape[0] > 0:
        row = games[counts[0]]
        row["game"], row["seed"], row["first_seat"], row["winner"] = m.game, m.seed, m.first_seat, m.winner
        row["turns"], row["end_reason"] = m.turn, m.end_reason
        row["score_0"], row["score_1"] = s.pools.wins[0], s.pools.wins[1]
        row["battles"], row["final_how"] = m.battle, m.final_how
        counts[0] += 1
    for p in range(2):
        st = s.tally.seats[p]
        st.game, st.seat, st.bot, st.score, st.won = m.game, p, bot_ids[p], s.pools.wins[p], m.winner == p
        if seats.shape[0] > 0:
            seats[counts[1]] = st
            counts[1] += 1
        for k in range(s.piles.owned_n[p] if record_cards else 0):
            r = s.tally.cards[p, s.piles.owned[p, k]]
            r.won = m.winner == p
            cards_out[counts[2]] = r
            counts[2] += 1
    for b in range(m.battle if record_turns else 0):
        turns[counts[3]] = s.tally.battles[b]
        counts[3] += 1


@hot
def play_batch(
    state, bot_ids, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts, report, counting,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` on a ``prepare``d ``state`` into the record buffers; return how many completed.

    The one game loop behind ``play_games``, ``check_games`` and ``replay_game``, copied
    into the two compiled entries ``batch_counted`` and ``batch_uncounted``: ``counting``
    is a constant of each, so Numba compiles one loop that keeps the seats, cards and turns
    counters and one that keeps none at all. A buffer of size 0 means that table is not
    wanted; a non-empty ``report`` audits every decision (``play_game``).
    """
    counts[:] = 0
    for k in range(n_games):
        s = state[0]  # the caller holds ``state``
        if not fits(s, record_cards, games, seats, cards_out, counts):
            return k
        g = first_game + k
        play_game(s, bot_ids, g, rng.game_seed(root_seed, g), report, counting)
        if record_turns and counts[3] + s.meta.battle > turns.shape[0]:
            return k  # its battle rows do not fit: the caller grows the buffers and replays it
        write_records(s, bot_ids, record_cards, record_turns, games, seats, cards_out, turns, counts)
    return n_games


@kernel
def batch_counted(
    state, bot_ids, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts, report,
) -> int:  # fmt: skip
    """``play_batch`` with the seats, cards and turns counters kept (any table but games; audits; replays)."""
    return play_batch(
        state, bot_ids, root_seed, first_game, n_games, record_cards, record_turns,
        games, seats, cards_out, turns, counts, report, True,
    )  # fmt: skip


@kernel
def batch_uncounted(
    state, bot_ids, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts, report,
) -> int:  # fmt: skip
    """``play_batch`` for the games table alone: no counter is kept (the same games)."""
    return play_batch(
        state, bot_ids, root_seed, first_game, n_games, record_cards, record_turns,
        games, seats, cards_out, turns, counts, report, False,
    )  # fmt: skip


NO_ROWS = no_rows(GAME_DTYPE, SEAT_DTYPE, CARD_RECORD_DTYPE, TURN_DTYPE)


def play_games(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` into the record buffers; return how many completed (GameSpec contract).

    ``decks`` is unused: each seat's cards follow from ``deck_mode`` (R3). A run that asks
    for the games table alone plays through ``batch_uncounted`` (compiled on first use),
    any other through ``batch_counted``.
    """
    counted = seats.shape[0] > 0 or record_cards or record_turns
    entry = batch_counted if counted else batch_uncounted
    return entry(
        prepare(cards, params, weights, 0), bot_ids, np.uint64(root_seed), int(first_game), int(n_games),
        int(record_cards), int(record_turns), games, seats, cards_out, turns, counts, NO_REPORT,
    )  # fmt: skip


def check_games(params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, report) -> None:
    """Play the same games as ``play_games``, auditing every decision; fill ``report`` (see ``play_game``)."""
    report[:] = 0
    batch_counted(
        prepare(cards, params, weights, 0), bot_ids, np.uint64(root_seed), int(first_game), int(n_games), 0, 0,
        *NO_ROWS, np.zeros(4, np.int64), report,
    )  # fmt: skip


def replay_game(params, cards, decks, bot_ids, weights, root_seed, game) -> np.ndarray:
    """Play game ``game`` exactly as ``play_games`` does, with the event log on; return its events."""
    state = prepare(cards, params, weights, 1)
    batch_counted(
        state, bot_ids, np.uint64(root_seed), int(game), 1, 0, 0, *NO_ROWS, np.zeros(4, np.int64), NO_REPORT
    )  # fmt: skip
    s = state[0]  # item syntax: a compiled ``prepare`` returns plain np.void elements
    return s["scratch"]["log"][: s["meta"]["log_n"]].copy()
