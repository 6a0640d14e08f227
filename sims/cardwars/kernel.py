"""Card Wars rules as small in-place kernels (RULES.md; rulings R1-R22), and the batch drivers.

The rules are split by concept and re-exported here, so ``kernel.<rule>`` names every rule:
``board`` (counts, ATK/DEF, damage, deaths, entering/leaving), ``effects`` (what each effect
row does and which targets it may take), ``flow`` (set-up, mulligan, turns, fights) and
``actions`` (legal actions, applying one). This module holds the game drivers:
``play_game`` (decisions until the game is over, copied into ``drive``) and ``drive`` (a
batch of games), the one compiled game loop called by the three entry points: ``play_games``
(the GameSpec batch entry point), ``check_games`` (the conformance audit) and ``replay_game``
(the event log).
"""

import numpy as np

from sims.cardwars import bots as policies
from sims.cardwars.actions import apply_action, legal_actions
from sims.cardwars.board import settle  # noqa: F401
from sims.cardwars.flow import begin_turn, end_turn, record_turn, set_up  # noqa: F401
from sims.cardwars.layout import STATE_DTYPE, Phase
from sims.cardwars.setup import lay_out_starters
from sims.cardwars.state import (
    CARD_RECORD_DTYPE,
    GAME_DTYPE,
    N_LANES,
    N_TYPES,
    SEAT_DTYPE,
    TURN_DTYPE,
    DeckBuilder,
    DeckName,
    EndReason,
    FirstPlayer,
    Landscape,
)
from sims.cardwars.stats import refresh  # noqa: F401  (kernel.refresh: scenarios)
from sims.core import rng
from sims.core.driver import audit, logged_events
from sims.core.jit import hot, kernel, top_kernel
from sims.core.records import NO_REPORT, no_rows


@hot
def load_params(q, params) -> None:
    """Copy every field of ``params`` into the ``PARAMS_DTYPE`` record ``q`` in place."""
    q.deck_builder, q.deck_0, q.deck_1 = params.deck_builder, params.deck_0, params.deck_1
    q.first_player, q.series_length, q.first_player_rule = (
        params.first_player,
        params.series_length,
        params.first_player_rule,
    )
    q.first_turn_draw, q.mulligan, q.hit_points = params.first_turn_draw, params.mulligan, params.hit_points
    q.actions_per_turn, q.opening_hand, q.landscape_check = (
        params.actions_per_turn,
        params.opening_hand,
        params.landscape_check,
    )
    q.adjacent_lane_targets, q.cool_dog_chain = params.adjacent_lane_targets, params.cool_dog_chain
    q.repeat_targets, q.silo_unplayable, q.empty_pick = params.repeat_targets, params.silo_unplayable, params.empty_pick
    q.turn_bonus, q.max_turns = params.turn_bonus, params.max_turns
    q.value_card, q.value_swap, q.value_baseline = params.value_card, params.value_swap, params.value_baseline


@hot
def fixed_landscapes(s, decks: np.ndarray, p: int) -> None:
    """Give seat ``p``'s fixed deck four Landscapes in proportion to its typed cards (RULES.md §8 Q7).

    Largest remainder over the copies of non-Rainbow cards per type, ties to the lower type;
    a deck of Rainbow cards only gets four Blue Plains. Listed in type order.
    """
    counts = np.zeros(N_TYPES, np.int64)
    total = 0
    k = 0
    while k < decks.shape[1] and decks[p, k] >= 0:
        land = s.cards[decks[p, k]].land
        if land < N_TYPES:
            counts[land] += 1
            total += 1
        k += 1
    quota = np.zeros(N_TYPES, np.int64)
    if total == 0:
        quota[Landscape.BLUE_PLAINS] = N_LANES
    else:
        used = 0
        for t in range(N_TYPES):
            quota[t] = N_LANES * counts[t] // total
            used += quota[t]
        for _ in range(N_LANES - used):
            best, best_t = -1, 0
            for t in range(N_TYPES):
                rem = N_LANES * counts[t] - quota[t] * total
                if rem > best:
                    best, best_t = rem, t
            quota[best_t] += 1
            counts[best_t] = 0  # one extra Landscape per type at most
    lane = 0
    for t in range(N_TYPES):
        for _ in range(quota[t]):
            s.scratch.fixed_land[p, lane] = t
            lane += 1


@kernel
def prepare(cards: np.ndarray, params, weights: np.ndarray, decks: np.ndarray, log_on: int) -> np.ndarray:
    """Return a fresh ``STATE_DTYPE[2]`` (the game and the planner's copy) with everything per batch loaded."""
    state = np.zeros(2, STATE_DTYPE)
    for i in range(2):
        s = state[i]
        load_params(s.params, params)
        s.meta.n_cards = cards.shape[0]
        for c in range(cards.shape[0]):
            s.cards[c] = cards[c]
        for p in range(2):
            for k in range(weights.shape[1]):
                s.scratch.weights[p, k] = weights[p, k]
        lay_out_starters(s)
        if s.params.deck_builder == DeckBuilder.FIXED:
            for p in range(2):
                fixed_landscapes(s, decks, p)
            s.scratch.fixed_name[0] = DeckName.CUSTOM_0
            same = True
            for k in range(decks.shape[1]):
                same = same and decks[0, k] == decks[1, k]
            s.scratch.fixed_name[1] = DeckName.CUSTOM_0 if same else DeckName.CUSTOM_1
    state[0].meta.log_on = log_on
    return state


@hot
def conserved(s, p: int) -> bool:
    """Return True if each card of seat ``p``'s deck list is in exactly one place (deck, hands, board, discard ...)."""
    seen = s.scratch.seen[p]
    pl, b, m = s.piles, s.board, s.meta
    for c in range(seen.shape[0]):
        seen[c] = 0
    for k in range(pl.built_n[p]):
        seen[pl.built[p, k]] += 1
    for k in range(pl.deck_n[p]):
        seen[pl.deck[p, k]] -= 1
    for k in range(pl.disc_n[p]):
        seen[pl.disc[p, k]] -= 1
    for q in range(2):
        for k in range(pl.hand_n[q]):
            if pl.hand_own[q, k] == p:
                seen[pl.hand[q, k]] -= 1
        for lane in range(N_LANES):
            if b.cr_card[q, lane] >= 0 and b.cr_owner[q, lane] == p:
                seen[b.cr_card[q, lane]] -= 1
            if b.bu_card[q, lane] >= 0 and b.bu_owner[q, lane] == p:
                seen[b.bu_card[q, lane]] -= 1
    if m.pend_card >= 0 and m.pend_owner == p:
        seen[m.pend_card] -= 1
    if m.decider == p:
        for k in range(m.reveal_n):
            seen[m.reveal[k]] -= 1
    for c in range(seen.shape[0]):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if seen[c] != 0:
            return False
    return True


@hot
def play_game(s, sim, decks, bot_ids, game: int, seed: np.uint64, last_winner: int, report: np.ndarray) -> None:
    """Play game ``game`` from ``seed`` to its end in place; with a non-empty ``report`` audit every decision.

    ``report`` (int64[4], or size 0 for none) counts: decisions, conservation violations,
    illegal actions chosen, games not over within ``max_turns``. ``@hot``: copied into
    ``drive``, its one call site, so the whole game tree is not emitted by a compiled level
    of its own (RULES.md §13).
    """
    set_up(s, decks, game, seed, last_winner)
    m = s.meta
    checking = report.shape[0] > 0
    cap = 400 * s.params.max_turns  # decisions; only a bug reaches it
    while m.phase != Phase.OVER and cap > 0:
        cap -= 1
        s.scratch.n_legal = 0
        who = m.decider if m.phase == Phase.CHOOSE else m.mover
        if checking or policies.needs_legal(bot_ids[who]):
            s.scratch.n_legal = legal_actions(s, s.scratch.legal)
        a = np.int64(policies.choose(bot_ids[who], s, sim, who))
        if checking and not audit(s, a, report):
            m.phase = Phase.OVER  # stop this game: an illegal action could corrupt the state
            break
        apply_action(s, a)
        if checking:
            for p in range(2):
                report[1] += not conserved(s, p)
    if checking and (m.phase != Phase.OVER or m.turn > s.params.max_turns):
        report[3] += 1
    if m.end_reason != EndReason.TIMEOUT and m.record_turns:
        record_turn(s)  # the game ended during this turn: its row is written now


@hot
def fits(s, record_cards: int, games, seats, cards_out, counts) -> bool:
    """Return True if one more game's games/seats/cards rows fit the output buffers (size 0 = table off)."""
    room = games.shape[0] == 0 or counts[0] < games.shape[0]
    room = room and (seats.shape[0] == 0 or counts[1] + 2 <= seats.shape[0])
    return room and (not record_cards or counts[2] + 2 * 64 <= cards_out.shape[0])


@hot
def write_records(s, bot_ids, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> None:
    """Append the finished game's rows to the output tables in place and advance ``counts``."""
    m, b, pl = s.meta, s.board, s.piles
    if games.shape[0] > 0:
        row = games[counts[0]]
        row["game"], row["seed"], row["first_seat"], row["winner"] = m.game, m.seed, m.first_seat, m.winner
        row["turns"], row["end_reason"] = m.turn, m.end_reason
        row["score_0"], row["score_1"] = b.hp[0], b.hp[1]
        row["deck_0"], row["deck_1"] = pl.deck_name[0], pl.deck_name[1]
        counts[0] += 1
    for p in range(2):
        st = s.tally.seats[p]
        st.bot, st.score, st.won = bot_ids[p], b.hp[p], m.winner == p
        st.deck_left, st.hand_end = pl.deck_n[p], pl.hand_n[p]
        n = 0
        for lane in range(N_LANES):
            n += b.cr_card[p, lane] >= 0
        st.creatures_end = n
        if seats.shape[0] > 0:
            seats[counts[1]] = st
            counts[1] += 1
        for k in range(pl.built_n[p] if record_cards else 0):
            c = pl.built[p, k]
            if k > 0 and pl.built[p, k - 1] == c:
                continue
            r = s.tally.cards[p, c]
            r.won = m.winner == p
            cards_out[counts[2]] = r
            counts[2] += 1
    for t in range(m.turn if record_turns else 0):
        turns[counts[3]] = s.tally.turns[t]
        counts[3] += 1


@top_kernel
def drive(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts, report, log_on,
) -> tuple[int, np.ndarray]:  # fmt: skip
    """The one compiled game loop behind ``play_games``, ``check_games`` and ``replay_game``.

    Plays games ``first_game ..`` into the record buffers (size 0 = table off), auditing every
    decision into ``report`` when it is not empty, with the event log on when ``log_on``;
    returns how many games completed and the last game's events. Stops before a game whose
    rows would not fit; ``counts[:4]`` = rows written per table. Game ``g`` is seeded by
    ``rng.game_seed(root_seed, g)`` alone (a cool_guy_series replays the series' earlier games
    at a chunk start), so chunking never matters. One kernel, so the game loop is compiled
    once for every entry point (RULES.md §13).
    """
    state = prepare(cards, params, weights, decks, 0)
    counts[:] = 0
    report[:] = 0
    none = np.zeros(0, np.int64)
    length = state[0].params.series_length
    series = state[0].params.first_player == FirstPlayer.PREVIOUS_WINNER
    g = first_game - first_game % length if series else first_game  # a series' earlier games are replayed first
    last = np.int64(-1)
    while g < first_game + n_games:
        s = state[0]  # taken inside the loop: keeps ``state`` alive (see layout.py)
        replay = g < first_game  # only to learn its winner: no log, no rows, no audit
        if not replay and not fits(s, record_cards, games, seats, cards_out, counts):
            return g - first_game, logged_events(state)
        if series and g % length == 0:
            last = -1
        s.meta.log_on = 0 if replay else log_on
        s.meta.record_turns = 0 if replay else record_turns
        play_game(s, state[1], decks, bot_ids, g, rng.game_seed(root_seed, g), last, none if replay else report)
        last = np.int64(s.meta.winner)
        g += 1
        if replay:
            continue
        if record_turns and counts[3] + s.meta.turn > turns.shape[0]:
            # its turn rows do not fit: the caller grows the buffers and replays it
            return g - 1 - first_game, logged_events(state)
        write_records(s, bot_ids, record_cards, record_turns, games, seats, cards_out, turns, counts)
    return n_games, logged_events(state)


NO_ROWS = no_rows(GAME_DTYPE, SEAT_DTYPE, CARD_RECORD_DTYPE, TURN_DTYPE)


def play_games(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` into the record buffers; return how many completed (GameSpec contract).

    Stops before a game whose rows would not fit; ``counts[:4]`` = rows written per table.
    Game ``g`` is seeded by ``rng.game_seed(root_seed, g)`` alone, so chunking never matters.
    """
    done, _ = drive(
        params, cards, decks, bot_ids, weights, np.uint64(root_seed), int(first_game), int(n_games),
        int(record_cards), int(record_turns), games, seats, cards_out, turns, counts, NO_REPORT, 0,
    )  # fmt: skip
    return int(done)


def check_games(params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, report) -> None:
    """Play the same games as ``play_games``, auditing every decision; fill ``report`` (see ``play_game``)."""
    drive(
        params, cards, decks, bot_ids, weights, np.uint64(root_seed), int(first_game), int(n_games), 0, 0,
        *NO_ROWS, np.zeros(4, np.int64), report, 0,
    )  # fmt: skip


def replay_game(params, cards, decks, bot_ids, weights, root_seed, game) -> np.ndarray:
    """Play game ``game`` exactly as ``play_games`` does, with the event log on; return its events."""
    _, events = drive(
        params, cards, decks, bot_ids, weights, np.uint64(root_seed), int(game), 1, 0, 0,
        *NO_ROWS, np.zeros(4, np.int64), NO_REPORT, 1,
    )  # fmt: skip
    return events
