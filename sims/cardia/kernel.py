"""Cardia: set-up, the round loop, matches and the batch drivers (RULES.md; rulings R1-R18).

A game (``play_game``) is one game, or a best-of-three match of games (R1). Each game:

    set_up       deck lists (R2, value arms), location (R3), shuffle, opening hands
    rounds       play_round until the game ends or max_rounds (R18):
                   phase 1  a seat that cannot place loses (R12); both choose a card (R4;
                            after a Fortune Teller the opponent places face up first)
                   place + reveal (rounds.reveal; Foggy Swamp reveals last round's)
                   phase 2  the loser at reveal activates (abilities.activate)
                   phase 3  signet check, draws (rounds.phase3)

The rules live in ``zones`` (piles, records), ``table`` (derived results, R5),
``effects`` and ``abilities`` (every card), ``rounds`` (phases) and this module. Every
rule takes ``(s, g)``: the state record and the position it changes (``s.pos``).
"""

import numpy as np

from sims.cardia.abilities import activate  # noqa: F401  (kernel.<rule> names the entry points)
from sims.cardia.bots import Bot, greedy_play
from sims.cardia.expert import expert_play
from sims.cardia.rounds import (
    cannot_place,
    discard_face_down,
    face_down_index,
    phase2,
    phase3,
    place,
    reveal,
)
from sims.cardia.state import (
    BOT_PLAY,
    CARD_RECORD_DTYPE,
    DECK_DIFFICULTY,
    GAME_DTYPE,
    LOCATION_DIFFICULTY,
    NO_CARD,
    SEAT_DTYPE,
    TURN_DTYPE,
    Deck,
    DeckChoice,
    EndReason,
    EventKind,
    FoggyFinalReveal,
    Lane,
    Location,
    MatchFormat,
    Result,
    ValueBaseline,
    new_state,
)
from sims.cardia.table import derive, end_game, winning
from sims.cardia.zones import clear_card_record, draw, hand_index, log_event, record
from sims.core import rng
from sims.core.driver import mark
from sims.core.jit import hot, kernel
from sims.core.records import NO_REPORT, NO_WINNER, no_rows

N_SETTINGS = 9  # locations in a sweep (none + 8)

# -- set-up ---------------------------------------------------------------------------------------


@kernel
def game_setting(s, game: int) -> tuple:
    """Return (DeckChoice, Location) of game ``game``: the parameters, or the sweeps' g % 2 and g % 9."""
    d, loc = s.params.deck, s.params.location
    if d == DeckChoice.SWEEP:
        d = (game // N_SETTINGS) % 2 if loc == Location.SWEEP else game % 2
    if loc == Location.SWEEP:
        loc = game % N_SETTINGS
    return d, loc


@kernel
def deck_of(s, faction: int, deck_kind: int) -> int:
    """Return which printed deck (Deck) a faction's cards come from (R2)."""
    if deck_kind == DeckChoice.II or (deck_kind == DeckChoice.MIXED and s.params.faction_decks & (1 << faction)):
        return Deck.II
    return Deck.I


@kernel
def baseline_id(s) -> int:
    """Return the card that replaces the card under test in arm 1 of a value run (-1: none)."""
    v = s.params.value_card
    for c in range(s.meta.n_cards):
        if s.params.value_baseline == ValueBaseline.BLANK and s.cards[c].baseline:
            return c
        if (
            s.params.value_baseline == ValueBaseline.COUNTERPART
            and not s.cards[c].baseline
            and s.cards[c].deck != s.cards[v].deck
            and s.cards[c].influence == s.cards[v].influence
        ):
            return c
    return -1


@kernel
def build_lists(s, g, game: int) -> None:
    """Fill each seat's deck list in place: the identical decks of R2; the value arms swap the holder's copy."""
    holder = game % 2 if s.params.value_card >= 0 else -1
    s.meta.holder = holder
    swap = baseline_id(s) if holder >= 0 and s.params.value_swap == 1 else -1
    for p in range(2):
        n = 0
        for c in range(s.meta.n_cards):
            card = s.cards[c]
            if card.baseline == 0 and card.deck == deck_of(s, card.faction, g.deck_kind):
                g.listed[p, n] = swap if (p == holder and c == s.params.value_card and swap >= 0) else c
                n += 1
        g.listed_n[p] = n


@kernel
def reset(s, g, seed: np.uint64) -> None:
    """Empty the position in place for a new game seeded by ``seed``."""
    g.sim, g.round_no, g.n_enc, g.cur, g.over, g.winner, g.end_reason = 0, 0, 0, -1, 0, NO_WINNER, EndReason.TIMEOUT
    g.tied_five, g.acted, g.reveal_res, g.focus, g.chosen = 0, -1, Result.HIDDEN, -1, -1
    for p in range(2):
        g.deck_n[p] = g.hand_n[p] = g.discard_n[p] = g.listed_n[p] = 0
        g.pend_mod[p], g.pend_lib[p], g.pend_eng[p], g.pend_bm[p], g.fortune[p] = 0, 0, 0, -1, 0
        g.signets[p] = 0
    rng.seed_lanes(g.rng, seed)


@hot
def set_up(s, g, game: int, seed: np.uint64) -> None:
    """Prepare game ``game`` (of the match ``s.meta.match_game``) in place: decks, shuffles, opening hands."""
    reset(s, g, seed)
    g.deck_kind, g.location = game_setting(s, game)
    build_lists(s, g, game)
    opening = s.params.library_opening_hand if g.location == Location.GRAND_LIBRARY else s.params.opening_hand
    for p in range(2):
        for i in range(g.listed_n[p]):
            c = g.listed[p, i]
            clear_card_record(record(s, p, c), game, p, c, s.meta.match_game)
            g.deck[p, i] = c
            log_event(s, g, EventKind.DECK, p, c, NO_CARD, i, 0)
        g.deck_n[p] = g.listed_n[p]
        rng.shuffle(g.deck[p], g.deck_n[p], g.rng, Lane.SHUFFLE + p)
        for _ in range(opening):
            c = draw(s, g, p)
            if c != NO_CARD:
                record(s, p, c).in_opening_hand = 1
        log_event(s, g, EventKind.DEAL, p, NO_CARD, NO_CARD, g.hand_n[p], g.deck_n[p])
    derive(s, g)


# -- a round ---------------------------------------------------------------------------------------


@hot
def choose_play(s, g, p: int, known: int) -> int:
    """Return the card seat ``p`` places (``known``: the opponent's face-up card, or NO_CARD) (R4)."""
    c = s.scratch.plays[p, s.scratch.plays_k] if s.meta.scripted else BOT_PLAY
    if c != BOT_PLAY:  # a scenario's stated card
        if hand_index(g, p, c) < 0:
            if s.meta.script_error == 0:
                s.meta.script_error, s.meta.error_seat, s.meta.error_kind = 1, p, 0
                s.meta.error_index = s.scratch.plays_k
            c = g.hand[p, 0]
        return c
    bot = s.meta.bots[p]
    if g.hand_n[p] == 1:
        c = g.hand[p, 0]
    elif bot == Bot.RANDOM:
        c = g.hand[p, rng.randint(g.rng, Lane.BOT + p, np.int64(g.hand_n[p]))]
    elif bot == Bot.GREEDY:
        c = greedy_play(s, g, p, known)
    else:
        c = expert_play(s, g, p, known)
    if s.meta.checking:
        s.meta.decisions += 1
        s.meta.illegal += hand_index(g, p, c) < 0
    return c


@hot
def choose_both(s, g) -> tuple:
    """Return both seats' cards: chosen at once, or face up first after a Fortune Teller (R4)."""
    first = -1
    if g.fortune[0] and not g.fortune[1]:
        first = 1  # seat 0's Fortune Teller: seat 1 places face up first
    elif g.fortune[1] and not g.fortune[0]:
        first = 0
    g.fortune[0], g.fortune[1] = 0, 0
    c0, c1 = NO_CARD, NO_CARD
    for i in range(2):  # seats and the known card are variables: one compiled choose_play
        p = i if first < 0 else (first if i == 0 else 1 - first)
        known = np.int64(NO_CARD)
        if first >= 0 and i == 1:
            known = np.int64(c0 if first == 0 else c1)
        c = choose_play(s, g, p, known)
        if first >= 0 and i == 0:
            log_event(s, g, EventKind.FACE_UP, p, c, NO_CARD, 0, 0)
        if p == 0:
            c0 = c
        else:
            c1 = c
    return c0, c1


@hot
def play_round(s, g) -> None:
    """Play one round in place: phase 1 (placing, R12 end), reveal, phase 2, phase 3."""
    g.round_no += 1
    g.acted, g.reveal_res, g.cur = -1, Result.HIDDEN, -1
    log_event(s, g, EventKind.ROUND, -1, NO_CARD, NO_CARD, g.signets[0], g.signets[1])
    foggy = g.location == Location.FOGGY_SWAMP
    if g.hand_n[0] == 0 or g.hand_n[1] == 0:
        k = face_down_index(g) if foggy else -1
        if k >= 0 and s.params.foggy_final_reveal == FoggyFinalReveal.RESOLVE:
            reveal(s, g, k)
            if not g.over:
                phase2(s, g, k)
        elif k >= 0:
            discard_face_down(s, g, k)
        cannot_place(s, g)
        return
    c0, c1 = choose_both(s, g)
    if s.meta.scripted:
        s.scratch.plays_k += 1
    k = place(s, g, np.int64(c0), np.int64(c1))
    if foggy:  # R17: reveal the encounter placed last round (none in round 1)
        k = k - 1 if k >= 1 and not g.up[k - 1] else -1
    if k >= 0:
        reveal(s, g, k)
        if not g.over:
            phase2(s, g, k)
    if not g.over and not s.meta.stop_phase3:
        phase3(s, g)


@kernel
def record_turn(s, g) -> None:
    """Write the TURN row of the round just played in place."""
    m = s.meta
    t = s.tally.turns[s.tally.n_turns]
    s.tally.n_turns += 1
    t.game, t.turn, t.seat, t.match_game = m.game, m.turn_base + g.round_no, -1, m.match_game
    t.score_0, t.score_1 = g.signets[0], g.signets[1]
    t.hand_0, t.hand_1, t.deck_0, t.deck_1 = g.hand_n[0], g.hand_n[1], g.deck_n[0], g.deck_n[1]
    t.encounters, t.reveal, t.activated = g.n_enc, g.reveal_res, g.acted


@kernel
def finish_cards(s, g) -> None:
    """Fill the end-of-game card columns in place: result, signets on it, winning at the end."""
    for p in range(2):
        for i in range(g.listed_n[p]):
            r = record(s, p, g.listed[p, i])
            r.won = g.winner == p
        for k in range(g.n_enc):
            r = record(s, p, g.card[k, p])
            r.signets_end = g.sig[k, p]
            r.winning_end = winning(g.res[k], p)


# -- games and matches ------------------------------------------------------------------------------


@hot
def play_game(s, game: int, seed: np.uint64, report: np.ndarray) -> None:
    """Play game (or best-of-3 match, R1) ``game`` from ``seed`` in place.

    With a non-empty ``report`` (see ``check_games``) check conservation and the derived
    table after every round.
    """
    g = s.pos
    m = s.meta
    checking = report.shape[0] > 0
    m.game, m.seed, m.turn_base, m.log_n = game, seed, 0, 0
    m.games_won[0], m.games_won[1] = 0, 0
    s.tally.n_turns = 0
    for p in range(2):
        st = s.tally.seats[p]
        st.abilities_activated, st.cards_discarded = 0, 0
    cap = s.params.match_games_cap if s.params.match_format == MatchFormat.BEST_OF_3 else 1
    for mg in range(1, cap + 1):
        m.match_game = mg
        sub = seed if mg == 1 else rng.mix64(np.uint64(seed) + np.uint64(mg) * rng.GOLDEN)
        log_event(s, g, EventKind.MATCH_GAME, -1, NO_CARD, NO_CARD, mg, m.games_won[0] * 16 + m.games_won[1])
        set_up(s, g, game, sub)
        while not g.over:
            play_round(s, g)
            if not g.over and g.round_no >= s.params.max_rounds:
                end_game(s, g, np.int64(NO_WINNER), EndReason.TIMEOUT)  # R18: only a bug reaches it
            record_turn(s, g)
            if checking:
                report[1] += np.int64(not conserved(s, g, np.int64(0))) + np.int64(not conserved(s, g, np.int64(1)))
                report[1] += np.int64(not derived_ok(s, g))
        if checking and g.end_reason == EndReason.TIMEOUT:
            report[3] += 1
        finish_cards(s, g)
        m.turn_base += g.round_no
        if g.winner >= 0:
            m.games_won[g.winner] += 1
        if m.games_won[0] >= 2 or m.games_won[1] >= 2:
            break


@hot
def match_winner(s) -> int:
    """Return the winner of the game, or of the match (most games won; -1 when equal)."""
    if s.params.match_format != MatchFormat.BEST_OF_3:
        return s.pos.winner
    a, b = s.meta.games_won[0], s.meta.games_won[1]
    return 0 if a > b else (1 if b > a else NO_WINNER)


# -- audits ---------------------------------------------------------------------------------------------


@kernel
def conserved(s, g, p: int) -> bool:
    """Return True if each card of seat ``p``'s deck list is in exactly one of its deck/hand/discard/table."""
    seen = s.scratch.seen
    for i in range(g.listed_n[p]):
        seen[g.listed[p, i]] = 0
    total = mark(seen, g.deck, g.deck_n[p], p) + mark(seen, g.hand, g.hand_n[p], p)
    total += mark(seen, g.discard, g.discard_n[p], p)
    for k in range(g.n_enc):
        seen[g.card[k, p]] += 1
    total += g.n_enc
    ok = total == g.listed_n[p]
    for i in range(g.listed_n[p]):
        ok = ok and seen[g.listed[p, i]] == 1
    return ok


@kernel
def derived_ok(s, g) -> bool:
    """Return True if results and signets equal what the current influence and effects derive (R5)."""
    s.scratch.sim[2] = g
    fresh = s.scratch.sim[2]
    derive(s, fresh)
    ok = fresh.signets[0] == g.signets[0] and fresh.signets[1] == g.signets[1]
    for k in range(g.n_enc):
        ok = ok and fresh.res[k] == g.res[k] and fresh.sig[k, 0] == g.sig[k, 0] and fresh.sig[k, 1] == g.sig[k, 1]
    return ok


# -- batch drivers --------------------------------------------------------------------------------------


@kernel
def prepare(cards: np.ndarray, params, bot_ids: np.ndarray, weights: np.ndarray, log_on: int) -> np.ndarray:
    """Return a fresh ``STATE_DTYPE[1]`` for a batch: cards, params, bots and their weights loaded."""
    state = new_state(cards, params)
    s = state[0]
    for p in range(2):
        s.meta.bots[p] = bot_ids[p]
        for k in range(weights.shape[1]):
            s.scratch.weights[p, k] = weights[p, k]
    s.meta.log_on = log_on
    return state


@hot
def fits(s, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> bool:
    """Return True if one more game's rows fit the output buffers (size 0 = table off)."""
    room = games.shape[0] == 0 or counts[0] < games.shape[0]
    room = room and (seats.shape[0] == 0 or counts[1] + 2 <= seats.shape[0])
    n_games = s.meta.match_game
    room = room and (not record_cards or counts[2] + 2 * s.pos.listed_n[0] * n_games <= cards_out.shape[0])
    return room and (not record_turns or counts[3] + s.tally.n_turns <= turns.shape[0])


@hot
def write_records(s, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> None:
    """Append the finished game's (match's) rows to the output tables in place and advance ``counts``."""
    m, g = s.meta, s.pos
    winner = match_winner(s)
    if games.shape[0] > 0:
        row = games[counts[0]]  # item syntax: also works on the plain np.void rows of NUMBA_DISABLE_JIT runs
        row["game"], row["seed"], row["first_seat"], row["winner"] = m.game, m.seed, -1, winner
        row["turns"], row["end_reason"] = m.turn_base, g.end_reason
        row["score_0"], row["score_1"] = g.signets[0], g.signets[1]
        row["deck"], row["location"] = g.deck_kind, g.location
        row["difficulty"] = DECK_DIFFICULTY[g.deck_kind] + LOCATION_DIFFICULTY[g.location]
        row["match_games"], row["games_won_0"], row["games_won_1"] = m.match_game, m.games_won[0], m.games_won[1]
        counts[0] += 1
    for p in range(2):
        st = s.tally.seats[p]
        st.game, st.seat, st.bot, st.score, st.won = m.game, p, m.bots[p], g.signets[p], winner == p
        n = 0
        for k in range(g.n_enc):
            n += winning(g.res[k], p)
        st.encounters_won, st.hand_left, st.deck_left, st.holder = n, g.hand_n[p], g.deck_n[p], m.holder == p
        if seats.shape[0] > 0:
            seats[counts[1]] = st
            counts[1] += 1
    for mg in range(m.match_game if record_cards else 0):
        for p in range(2):
            for i in range(g.listed_n[p]):
                cards_out[counts[2]] = s.tally.cards[mg, p, g.listed[p, i]]
                counts[2] += 1
    for t in range(s.tally.n_turns if record_turns else 0):
        turns[counts[3]] = s.tally.turns[t]
        counts[3] += 1


@kernel
def play_batch(
    state, root_seed, first_game, n_games, record_cards, record_turns, games, seats, cards_out, turns, counts, report,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` on a ``prepare``d ``state`` into the record buffers; return how many completed.

    The one compiled game loop behind ``play_games``, ``check_games`` and ``replay_game``
    (each compiled entry re-optimises the whole game below it). A buffer of size 0 means
    that table is not wanted; a non-empty ``report`` checks every round (``play_game``). A
    game whose rows do not fit stops the batch before it is written; the caller grows the
    buffers and replays it.
    """
    counts[:] = 0
    for k in range(n_games):
        s = state[0]  # the caller holds ``state``
        g = first_game + k
        play_game(s, g, rng.game_seed(root_seed, g), report)
        if not fits(s, record_cards, record_turns, games, seats, cards_out, turns, counts):
            return k
        write_records(s, record_cards, record_turns, games, seats, cards_out, turns, counts)
    return n_games


NO_ROWS = no_rows(GAME_DTYPE, SEAT_DTYPE, CARD_RECORD_DTYPE, TURN_DTYPE)


def play_games(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts,
) -> int:  # fmt: skip
    """Play games ``first_game ..`` into the record buffers; return how many completed (GameSpec contract).

    ``decks`` is unused: the decks follow from the rules (R2).
    """
    return play_batch(
        prepare(cards, params, bot_ids, weights, 0), np.uint64(root_seed), int(first_game), int(n_games),
        int(record_cards), int(record_turns), games, seats, cards_out, turns, counts, NO_REPORT,
    )  # fmt: skip


def check_games(params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, report) -> None:
    """Play the same games as ``play_games`` auditing every decision and round; fill ``report``.

    ``report`` (int64[4]): decisions, conservation or derivation violations (R5),
    illegal choices, games that hit the round cap.
    """
    state = prepare(cards, params, bot_ids, weights, 0)
    report[:] = 0
    meta = state["meta"]  # field views of the array: writes reach the state
    meta["checking"][0] = 1
    play_batch(
        state, np.uint64(root_seed), int(first_game), int(n_games), 0, 0, *NO_ROWS, np.zeros(4, np.int64), report
    )  # fmt: skip
    report[0] = meta["decisions"][0]
    report[2] = meta["illegal"][0]


def replay_game(params, cards, decks, bot_ids, weights, root_seed, game) -> np.ndarray:
    """Play game ``game`` exactly as ``play_games`` does, with the event log on; return its events."""
    state = prepare(cards, params, bot_ids, weights, 1)
    play_batch(state, np.uint64(root_seed), int(game), 1, 0, 0, *NO_ROWS, np.zeros(4, np.int64), NO_REPORT)
    s = state[0]  # item syntax: a compiled ``prepare`` returns plain np.void elements
    return s["scratch"]["log"][: s["meta"]["log_n"]].copy()
