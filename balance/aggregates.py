"""Sufficient statistics of a run: small per-chunk sums that a report merges exactly.

Every figure a report draws from the ``cards`` and ``turns`` tables is a ratio of sums, a
histogram or a per-game value, so a chunk can reduce its card and turn rows right after
the kernel wrote them (:class:`ChunkSums`) and keep only these tables (integer sums:
merging chunks in any order gives the same totals, whatever the chunking):

============ ================================== ==========================================
table        one row per                        columns
============ ================================== ==========================================
agg_cards    card × seat × half (game % 2)      rows; per win rate ``<rate>_n``/``_k``;
                                                ``turn_played_n/_total/_squares``; per counter
                                                ``<c>_sum``/``_sumsq`` (n = rows); per declared
                                                event ``<e>_event_n``/``_k``/``_w`` (played
                                                rows with it, and wins with / without it)
agg_hands    seen / not seen                    n, wins, hands, games, length_sum/_sumsq
agg_tempo    grain × turn × d × first seat ×    count (d = score_0 − score_1 at the end of
             winner                             the turn, or of the round for grain round)
agg_order    chunk                              rows, off (turn rows out of alternation)
agg_steps    value of the turns' enum columns   rows, decided, opener_wins; per counter
             (and level)                        ``<c>_sum``/``_sumsq``
agg_levels   level × first step at it           count
per_game     game                               lead_changes, lead_for_good, steps
agg_decks    block of 65,536 games              n (seats), x0, x1: XOR digests of the deck
                                                lists (``balance.fingerprints``; games whose
                                                seats have deck lists)
agg_games    first seat × winner × turns × end  count (games): what a report's game- and
             reason × games enum columns × per  seat-level figures are counted from (win
             seat ``seat<s>_bot``/``_won``/     rates, deck pairings, outcomes, length,
             ``_<enum>`` (games of two seats)   results by setting)
agg_seats    seat × bot (games of two seats)    rows; per numeric seats counter (score, ...)
                                                ``<c>_sum``/``_sumsq``
agg_leads    lead changes × lead for good       count (games; lead for good null: none),
             (with per_game's leads)            per_game's leads as a histogram
============ ================================== ==========================================

Which tables a game gets follows from its record dtypes and ``GameSpec`` alone
(:func:`make_plan`); nothing here knows a particular game. ``balance.metrics`` turns the
merged sums into the same frames it computes from raw rows. This module imports only
numpy and ``sims.core`` (its compiled loops, :mod:`balance.chunk_kernels` and
``sims.core.sums``, on first use), so pool workers stay light and readers of a run never
load Numba.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sims.core.records import CORE_COLUMNS

# Column conventions shared with balance.metrics (which imports them from here).
KEYS = frozenset({"game", "seed", "seat", "card", "won", "bot", "run_id", "variant", "chunk"})
CARD_VALUE_COLUMNS = ("won", "in_opening_hand", "first_drawn_turn", "first_played_turn", "times_played")
RATES = ("gp_wr", "oh_wr", "gd_wr", "gih_wr", "gns_wr", "played_wr")  # win rates counted per card (cards.py)
ATTRIBUTE_COUNTERS = ("times_played",)  # core card columns averaged like the extra counters
TEMPO_COLUMNS = ("score_0", "score_1")
STEP_COLUMNS = ("winner", "how")
LEVEL = "level"

CARDS, HANDS, TEMPO, ORDER, STEPS, LEVELS, PER_GAME, GAMES, SEATS, LEADS = (
    "agg_cards",
    "agg_hands",
    "agg_tempo",
    "agg_order",
    "agg_steps",
    "agg_levels",
    "per_game",
    "agg_games",
    "agg_seats",
    "agg_leads",
)
AGGREGATES = (CARDS, HANDS, TEMPO, ORDER, STEPS, LEVELS, PER_GAME, GAMES, SEATS, LEADS)
GAME_KEYS = ("first_seat", "winner", "turns", "end_reason")  # agg_games' games columns (then the enum columns)
SEAT_KEYS = ("bot", "won")  # agg_games' columns per seat s: seat<s>_bot, seat<s>_won (then the seats' enums)
DECKS = "agg_decks"  # written by balance.run beside the plan's tables (balance.fingerprints)
DESCRIPTIONS = {
    CARDS: "per card, seat and half of the games: rows, win-rate counts, counter sums",
    HANDS: "card-games seen and not seen: counts, wins, hands, games, game-length sums",
    TEMPO: "score difference histogram by turn and by round, first seat and winner",
    ORDER: "turn rows and rows out of strict alternation",
    STEPS: "turn rows by their enum columns (and level): counts, decided, opener wins, counter sums",
    LEVELS: "first step at each level: histogram",
    PER_GAME: "per game: lead changes, turn the winner leads for good, steps",
    DECKS: "per block of 65,536 games: seats and XOR digests of their deck lists (merged by XOR)",
    GAMES: "games by first seat, winner, length, end reason, enum columns and each seat's bot, result and enums",
    SEATS: "seat-games by seat and bot: counts and the seats counters' sums",
    LEADS: "games by lead changes and the turn the winner leads for good (per_game's leads, counted)",
}


def seat_key(seat: int, column: str) -> str:
    """Return the ``agg_games`` column of seat ``seat``'s ``column`` (``seat0_bot``, ``seat1_deck`` ...)."""
    return f"seat{seat}_{column}"


def _numeric(dtype: np.dtype, skip: set[str]) -> tuple[str, ...]:
    """Return the scalar integer fields of ``dtype`` not in ``skip``, in order."""
    out = []
    for name in dtype.names or ():
        sub = dtype.fields[name][0]
        if name not in skip and sub.shape == () and sub.kind in "iu":
            out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class Plan:
    """Which sufficient statistics a game's runs keep, read from its record dtypes and ``GameSpec``."""

    seats: int
    n_cards: int
    turn_unit: str
    enums: Mapping[str, Mapping[str, type[enum.Enum]]] = field(repr=False)
    card_values: bool  # cards carry won / opening hand / drawn / played: win rates per card
    card_counters: tuple[str, ...]  # times_played (when present), then the extra numeric card columns
    card_events: tuple[str, ...]  # counters the game declares as events (GameSpec.extra["card_events"])
    hands: bool  # seen / not seen card-games (two seats with card values and games.turns)
    tempo: bool  # turns carry both scores and games a winner and first seat
    rounds: bool  # tempo by round as well (seats take turns in a two-seat game of turns)
    step_keys: tuple[str, ...]  # level (when present), then the turns' enum columns
    step_winner: bool  # turns say who won the row and who opened it
    step_counters: tuple[str, ...]
    levels: bool
    per_game: tuple[str, ...]
    game_keys: tuple[str, ...] = ()  # agg_games: GAME_KEYS present, then the games' enum columns (empty: no table)
    seat_keys: tuple[str, ...] = ()  # agg_games, per seat: SEAT_KEYS present, then the seats' scalar enum columns
    bots: tuple[str, ...] = ()  # the game's bot names (seats.bot codes)
    seat_counters: tuple[str, ...] = ()  # agg_seats: the numeric seats columns (score, then the extra ones)

    @property
    def tables(self) -> tuple[str, ...]:
        """Return the aggregate tables this plan writes."""
        kept = {CARDS: True, HANDS: self.hands, TEMPO: self.tempo, ORDER: self.tempo, STEPS: True}
        kept |= {LEVELS: self.levels, PER_GAME: bool(self.per_game), GAMES: bool(self.game_keys)}
        kept |= {SEATS: bool(self.game_keys) and "bot" in self.seat_keys, LEADS: "lead_changes" in self.per_game}
        return tuple(t for t in AGGREGATES if kept[t])

    @property
    def games_columns(self) -> tuple[str, ...]:
        """Return the key columns of ``agg_games`` (before ``count``), in order."""
        return self.game_keys + tuple(seat_key(s, c) for s in range(self.seats) for c in self.seat_keys)


def make_plan(game: Any, n_cards: int) -> Plan:
    """Return the :class:`Plan` of ``game`` (a ``GameSpec``) with a pool of ``n_cards`` cards."""
    tables, enums = game.tables, game.enums
    cards, turns, games = (tables[t].names or () for t in ("cards", "turns", "games"))
    card_values = all(c in cards for c in CARD_VALUE_COLUMNS)
    skip_cards = set(CORE_COLUMNS["cards"]) | KEYS | set(enums.get("cards", {}))
    counters = tuple(c for c in ATTRIBUTE_COUNTERS if c in cards) + _numeric(tables["cards"], skip_cards)
    declared = set(game.extra.get("card_events") or ())
    events = tuple(c for c in counters if c in declared and c not in ATTRIBUTE_COUNTERS) if card_values else ()
    tempo = all(c in turns for c in TEMPO_COLUMNS) and {"winner", "first_seat"} <= set(games)
    turn_enums = tuple(c for c in turns if c in enums.get("turns", {}))
    skip_turns = set(CORE_COLUMNS["turns"]) | KEYS | {"winner"} | set(TEMPO_COLUMNS) | set(turn_enums)
    steps = game.turn_unit != "turn" and all(c in turns for c in STEP_COLUMNS)
    per_game = ("lead_changes", "lead_for_good") if tempo else ()
    if steps and f"{game.turn_unit}s" not in games:
        per_game += ("steps",)
    seats = tables["seats"].names or ()
    game_enums = tuple(c for c in games if c in enums.get("games", {}) and c != "end_reason")
    seat_enums = tuple(c for c in seats if c in enums.get("seats", {}) and tables["seats"].fields[c][0].shape == ())
    duel = game.seats >= 2 and "game" in seats and "seat" in seats
    skip_seats = set(CORE_COLUMNS["seats"]) | KEYS | set(seat_enums)
    return Plan(
        seats=game.seats,
        n_cards=n_cards,
        turn_unit=game.turn_unit,
        enums=enums,
        card_values=card_values,
        card_counters=counters,
        card_events=events,
        hands=card_values and game.seats >= 2 and "turns" in games,
        tempo=tempo,
        rounds=tempo and game.seats == 2 and game.turn_unit == "turn" and "seat" in turns,
        step_keys=((LEVEL,) if LEVEL in turns else ()) + turn_enums,
        step_winner="winner" in turns and "seat" in turns,
        step_counters=_numeric(tables["turns"], skip_turns),
        levels=LEVEL in turns,
        per_game=per_game,
        game_keys=tuple(c for c in GAME_KEYS if c in games) + game_enums if duel else (),
        seat_keys=tuple(c for c in SEAT_KEYS if c in seats) + seat_enums if duel else (),
        bots=tuple(game.bots),
        seat_counters=tuple(c for c in ("score",) if c in seats) + _numeric(tables["seats"], skip_seats),
    )


def card_columns(plan: Plan) -> list[str]:
    """Return the value columns of ``agg_cards`` (after its keys ``card, seat, half``), in order."""
    out = ["rows"]
    if plan.card_values:
        out += [f"{r}_{x}" for r in RATES for x in ("n", "k")]
        out += ["turn_played_n", "turn_played_total", "turn_played_squares"]
    out += [f"{c}_{x}" for c in plan.card_counters for x in ("sum", "sumsq")]
    return out + [f"{e}_event_{x}" for e in plan.card_events for x in ("n", "k", "w")]


def seat_columns(plan: Plan) -> list[str]:
    """Return the value columns of ``agg_seats`` (after its keys ``seat, bot``), in order."""
    return ["rows", *(f"{c}_{x}" for c in plan.seat_counters for x in ("sum", "sumsq"))]


def step_columns(plan: Plan) -> list[str]:
    """Return the value columns of ``agg_steps`` (after its keys :attr:`Plan.step_keys`), in order."""
    out = ["rows", *(["decided", "opener_wins"] if plan.step_winner else [])]
    return out + [f"{c}_{x}" for c in plan.step_counters for x in ("sum", "sumsq")]


def _group(keys: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Return ``sims.core.sums.group_index(keys)``: each row's group and each key's value per group, in key order.

    ``group_index`` counts every combination of the keys' ranges densely; when there are
    far more combinations than rows (many key columns: ``agg_games``), the rows' codes are
    sorted instead, or, beyond an int64 code, the rows themselves.
    """
    from sims.core.sums import group_index

    n = len(keys[0]) if keys else 0
    lows = [int(k.min()) for k in keys] if n else []
    widths = [int(k.max()) - lo + 1 for k, lo in zip(keys, lows, strict=True)] if n else []
    combinations = float(np.prod(np.array(widths, np.float64)))
    if combinations <= max(1 << 16, 8 * n):
        return group_index(keys)
    if combinations >= 2.0**62:
        stacked = np.stack([np.asarray(k, np.int64) for k in keys])
        uniq, index = np.unique(stacked, axis=1, return_inverse=True)
        return index.reshape(-1).astype(np.int64), list(uniq)
    code = np.zeros(n, np.int64)
    for key, lo, width in zip(keys, lows, widths, strict=True):
        code *= width
        code += key.astype(np.int64) - lo
    present, index = np.unique(code, return_inverse=True)
    values = []
    for lo, width in zip(reversed(lows), reversed(widths), strict=True):
        values.append(present % width + lo)
        present = present // width
    return index.reshape(-1).astype(np.int64), values[::-1]


class _Sparse:
    """Keyed integer sums collected batch by batch and reduced by key at the end."""

    def __init__(self, keys: Sequence[str], columns: Sequence[str]) -> None:
        self.keys, self.columns = tuple(keys), tuple(columns)
        self.parts: list[tuple[list[np.ndarray], np.ndarray]] = []

    def add(self, keys: list[np.ndarray], values: np.ndarray) -> None:
        if len(values):
            self.parts.append(([np.asarray(k, np.int64) for k in keys], np.asarray(values, np.int64)))

    def reduce(self) -> tuple[list[np.ndarray], np.ndarray]:
        if not self.parts:
            return [np.zeros(0, np.int64) for _ in self.keys], np.zeros((0, len(self.columns)), np.int64)
        keys = [np.concatenate([p[0][i] for p in self.parts]) for i in range(len(self.keys))]
        values = np.concatenate([p[1] for p in self.parts])
        if not self.keys:
            return [], values.sum(axis=0, keepdims=True)
        index, uniq = _group(keys)
        out = np.zeros((len(uniq[0]), values.shape[1]), np.int64)
        np.add.at(out, index, values)
        return uniq, out


class ChunkSums:
    """The sufficient statistics of one chunk, added batch by batch (:meth:`add`), then :meth:`tables`."""

    def __init__(self, plan: Plan) -> None:
        """Start empty sums for ``plan``."""
        self.plan = plan
        n_keys = plan.n_cards * plan.seats * 2
        self.cards = np.zeros((n_keys, len(card_columns(plan))), np.int64)
        self.hands = np.zeros((2, 6), np.int64)
        self.tempo = _Sparse(("grain", "turn", "d", "first_seat", "winner"), ("count",))
        self.order = np.zeros(2, np.int64)
        self.steps = _Sparse(plan.step_keys, step_columns(plan))
        self.levels = _Sparse(("level", "first"), ("count",))
        self.per_game: list[list[np.ndarray]] = []
        self.games: list[np.ndarray] = []  # per batch: the agg_games keys of its games, one row per key column
        self.kept = set(plan.tables)
        self.key_types: dict[str, np.dtype] = {}  # agg_games' integer keys: their record dtypes
        self.seats = np.zeros((plan.seats * max(len(plan.bots), 1), len(seat_columns(plan))), np.int64)  # seat, bot

    def add(self, rec: Mapping[str, np.ndarray]) -> None:
        """Add one batch's records (``games`` plus whichever of ``seats``/``cards``/``turns`` were recorded).

        The records may be views into buffers the next batch overwrites (``play_batches``):
        nothing of them is kept but copies.
        """
        games = rec["games"]
        if len(games) == 0:
            return
        ids = games["game"]
        dense = int(ids[-1]) - int(ids[0]) + 1 == len(ids) and bool(np.all(np.diff(ids) == 1))
        g0 = int(ids[0])

        def local(rows: np.ndarray) -> np.ndarray:
            return (rows - g0) if dense else np.searchsorted(ids, rows)

        cards = rec.get("cards")
        if cards is not None and len(cards):
            self._cards(cards, None if dense else local(cards["game"]), games)
        turns = rec.get("turns")
        if turns is not None:
            self._turns(turns, local(turns["game"]), games)
        seats = rec.get("seats")
        if seats is not None and self.plan.game_keys:
            self._games(games, seats, local(seats["game"]))

    def _games(self, games: np.ndarray, seats: np.ndarray, at: np.ndarray) -> None:
        """Count the games by their ``agg_games`` keys; sum the seats' counters by seat and bot."""
        p = self.plan
        keys = [games[c] for c in p.game_keys]
        if not self.key_types:
            self.key_types = {c: games.dtype[c] for c in p.game_keys}
            self.key_types |= {seat_key(s, c): seats.dtype[c] for s in range(p.seats) for c in p.seat_keys}
        seat = seats["seat"]
        regular = len(seats) == p.seats * len(games) and bool(np.all(seat.reshape(-1, p.seats) == np.arange(p.seats)))
        regular = regular and bool(np.all(at[:: p.seats] == np.arange(len(games))))
        for s in range(p.seats):
            rows = np.flatnonzero(seat == s) if not regular else None
            for c in p.seat_keys:
                if regular:  # one row per seat, game by game: seat s's rows are every seats-th
                    keys.append(seats[c][s :: p.seats])
                else:
                    column = np.full(len(games), -1, np.int64)  # a game without this seat's row (none is written so)
                    column[at[rows]] = seats[c][rows]
                    keys.append(column)
        self.games.append(np.stack(keys).astype(np.int64))  # a copy: grouped once, in tables()
        if SEATS in self.kept and len(seats):
            from sims.core.sums import group_moments

            n = len(self.seats)
            index = seat.astype(np.int64) * max(len(p.bots), 1) + seats["bot"]  # (seat, bot), dense
            moments = group_moments(seats, p.seat_counters, index, n)
            self.seats[:, 0] += np.bincount(index, minlength=n)
            self.seats[:, 1::2] += moments[0]
            self.seats[:, 2::2] += moments[1]

    def _cards(self, c: np.ndarray, at: np.ndarray | None, games: np.ndarray) -> None:
        """Add the card rows ``c``; ``at``: each row's game in the batch (None: its game - the batch's first)."""
        from balance.chunk_kernels import card_keys, card_values
        from sims.core.sums import buffer_views, group_moments

        p, seats = self.plan, self.plan.seats
        k = len(self.cards)
        key = np.empty(len(c), np.int64)
        g0, at = int(games["game"][0]), np.zeros(0, np.int64) if at is None else at.astype(np.int64)
        if p.card_values:  # the counters' moments in the same pass (group_moments' sums) but for unaligned fields
            counts = np.zeros((k, VALUE_COUNTS), np.int64)
            hands = np.zeros((len(games) * seats, 3), np.int64)  # rows seen, rows not seen, won
            fields = [c[f] for f in ("game", "card", "seat", *CARD_VALUE_COLUMNS)]
            fast, views, sizes, slots = buffer_views(c, p.card_counters)
            sums, squares = np.zeros((k, len(fast)), np.int64), np.zeros((k, len(fast)), np.int64)
            card_values(*fields, seats, g0, at, *views, sizes, slots, key, counts, hands, sums, squares)
            self._hands(hands, games)
            moments = np.zeros((2, k, len(p.card_counters)), np.int64)
            moments[0][:, fast], moments[1][:, fast] = sums, squares
            slow = [j for j in range(len(p.card_counters)) if j not in fast]
            if slow:
                moments[:, :, slow] = group_moments(c, [p.card_counters[j] for j in slow], key, k)
        else:
            card_keys(c["card"], c["seat"], c["game"], seats, key)
            counts = np.bincount(key, minlength=k)[:, None]
            moments = group_moments(c, p.card_counters, key, k)
        columns = [counts, *(m[:, j] for j in range(len(p.card_counters)) for m in moments)]
        if p.card_events:
            played, won = c["times_played"] > 0, c["won"] == 1
            for e in p.card_events:
                hit = played & (c[e] > 0)
                for rows in (hit, hit & won, played & ~hit & won):
                    columns.append(np.bincount(key[rows], minlength=k))
        self.cards += np.column_stack(columns)

    def _hands(self, hands: np.ndarray, games: np.ndarray) -> None:
        seats, n_games = self.plan.seats, len(games)
        w = hands[:, 2]
        length = np.repeat(games["turns"].astype(np.int64), seats)
        for row in (0, 1):  # seen, not seen
            count = hands[:, row]
            held = count > 0
            self.hands[row] += [
                count.sum(),
                (count * w).sum(),
                held.sum(),
                held.reshape(n_games, seats).any(axis=1).sum(),
                (count * length).sum(),
                (count * length * length).sum(),
            ]

    def _turns(self, t: np.ndarray, at: np.ndarray, games: np.ndarray) -> None:
        from balance.chunk_kernels import turn_order
        from sims.core.sums import group_index, group_moments, level_firsts

        p = self.plan
        turn = np.empty(len(t), np.int64)
        if not turn_order(at, t["turn"], turn):
            order = np.lexsort((turn, at))
            t, at, turn = t[order], at[order], turn[order]
        if p.tempo:
            self._tempo(t, at, turn, games)
        index, values = group_index([t[k] for k in p.step_keys]) if p.step_keys else (np.zeros(len(t), np.int64), [])
        n = len(values[0]) if p.step_keys else min(1, len(t))
        if n:
            cols = [np.bincount(index, minlength=n)]
            if p.step_winner:
                decided = t["winner"] >= 0
                cols += [
                    np.bincount(index[decided], minlength=n),
                    np.bincount(index[decided & (t["winner"] == t["seat"])], minlength=n),
                ]
            moments = group_moments(t, p.step_counters, index, n)
            for j in range(len(p.step_counters)):
                cols += [moments[0][:, j], moments[1][:, j]]
            self.steps.add(values, np.stack(cols, axis=1))
        if p.levels and len(t):
            level = t[LEVEL].astype(np.int64)
            room = len(t) + len(games) * (int(level.max()) - int(level.min()))
            out_level, out_turn = np.zeros(room, np.int64), np.zeros(room, np.int64)
            m = level_firsts(at, turn, level, out_level, out_turn)
            self._count(self.levels, [out_level[:m], out_turn[:m]])
        if "steps" in p.per_game:
            steps = np.bincount(at, minlength=len(games))
            self.per_game.append([games["game"].copy(), steps])  # a copy: the batch's buffer is reused

    def _tempo(self, t: np.ndarray, at: np.ndarray, turn: np.ndarray, games: np.ndarray) -> None:
        from balance.chunk_kernels import tempo_codes
        from sims.core.sums import NONE, lead_stats

        d = t["score_0"].astype(np.int64) - t["score_1"]
        first, winner = games["first_seat"].astype(np.int64), games["winner"].astype(np.int64)
        rounds = self.plan.rounds and len(t) > 0
        if len(t):  # (grain, turn, d, first seat, winner) of every row, and by round of each round's last row
            low, high = int(turn.min()), int(turn.max())
            low, high = min(low, (low + 1) // 2), max(high, (high + 1) // 2)  # rounds too
            lo = np.array([low, d.min(), first.min(), winner.min()], np.int64)
            shape = np.array([high, d.max(), first.max(), winner.max()], np.int64) - lo + 1
            codes = np.empty((2, len(t)), np.int64)
            seat = t["seat"] if rounds else t["turn"]  # (read with rounds only)
            n_last, off = tempo_codes(at, turn, d, seat, first, winner, rounds, lo, shape, codes)
            for grain, code in ((0, codes[0]), (1, codes[1, :n_last])):
                self._count_codes(grain, code, lo, shape)
            self.order += [len(t), off if rounds else len(t)]  # not alternating turns: never drawn by round
        changes = np.zeros(len(games), np.int64)
        good = np.full(len(games), NONE, np.int64)
        lead_stats(at.astype(np.int64), turn, d, games["winner"].astype(np.int64), changes, good)
        self.per_game.append(
            [games["game"].copy(), changes.astype(np.uint32), np.ma.masked_equal(good, NONE).astype(np.int32)]
        )

    def _count_codes(self, grain: int, code: np.ndarray, lo: np.ndarray, shape: np.ndarray) -> None:
        """Add the rows of one tempo grain, each given as its key's code (``chunk_kernels.tempo_codes``)."""
        from sims.core.sums import DENSE_LIMIT

        if not len(code):
            return
        cells = int(np.prod(shape, dtype=np.float64))
        if cells <= DENSE_LIMIT:
            counts = np.bincount(code, minlength=cells)
            present = np.flatnonzero(counts)
            counts = counts[present]
        else:
            present, counts = np.unique(code, return_counts=True)
        keys = [k + low for k, low in zip(np.unravel_index(present, tuple(shape)), lo, strict=True)]
        self.tempo.add([np.full(len(present), grain), *keys], counts[:, None])

    @staticmethod
    def _count(target: _Sparse, keys: list[np.ndarray]) -> None:
        if len(keys[0]):
            index, values = _group(keys)
            target.add(values, np.bincount(index)[:, None])

    def tables(self) -> dict[str, dict[str, np.ndarray]]:
        """Return each aggregate table of the plan as columns (keys first; enum keys as labels)."""
        p, out = self.plan, {}
        n = p.n_cards * p.seats * 2
        key = np.arange(n)
        columns: dict[str, np.ndarray] = {
            "card": (key // (2 * p.seats)).astype(np.int16),
            "seat": (key // 2 % p.seats).astype(np.int8),
            "half": (key % 2).astype(np.int8),
        }
        keep = self.cards[:, 0] > 0
        for j, name in enumerate(card_columns(p)):
            columns[name] = self.cards[:, j]
        out[CARDS] = {k: v[keep] for k, v in columns.items()}
        if p.hands:
            names = ("n", "wins", "hands", "games", "length_sum", "length_sumsq")
            out[HANDS] = {"seen": np.array([True, False]), **{c: self.hands[:, j] for j, c in enumerate(names)}}
        if p.tempo:
            keys, values = self.tempo.reduce()
            grain = np.array(["turn", "round"], dtype=object)[keys[0]] if len(keys[0]) else np.zeros(0, object)
            out[TEMPO] = {
                "grain": grain,
                "turn": keys[1].astype(np.int32),
                "d": keys[2].astype(np.int32),
                "first_seat": keys[3].astype(np.int8),
                "winner": keys[4].astype(np.int8),
                "count": values[:, 0],
            }
            out[ORDER] = {"rows": self.order[:1], "off": self.order[1:]}
        keys, values = self.steps.reduce()
        step = {k: self._labels("turns", k, v) for k, v in zip(p.step_keys, keys, strict=True)}
        out[STEPS] = step | {c: values[:, j] for j, c in enumerate(step_columns(p))}
        if p.levels:
            keys, values = self.levels.reduce()
            out[LEVELS] = {"level": keys[0], "first": keys[1], "count": values[:, 0]}
        if p.per_game:
            out[PER_GAME] = self._per_game()
        if GAMES in p.tables:
            rows = np.concatenate(self.games, axis=1) if self.games else np.zeros((len(p.games_columns), 0), np.int64)
            index, keys = _group(list(rows)) if rows.shape[1] else (rows[0], list(rows))
            out[GAMES] = {name: self._key_labels(name, v) for name, v in zip(p.games_columns, keys, strict=True)}
            out[GAMES]["count"] = np.bincount(index, minlength=len(keys[0])).astype(np.int64)
        if LEADS in p.tables:
            out[LEADS] = self._leads()
        if SEATS in p.tables:
            kept = np.flatnonzero(self.seats[:, 0] > 0)
            width = max(len(p.bots), 1)
            out[SEATS] = {"seat": (kept // width).astype(np.int8), "bot": np.array(p.bots, dtype=object)[kept % width]}
            out[SEATS] |= {c: self.seats[kept, j] for j, c in enumerate(seat_columns(p))}
        return out

    def _leads(self) -> dict[str, np.ndarray]:
        """Return ``agg_leads``: the per-game leads (:meth:`_tempo`'s blocks) counted by their values."""
        from sims.core.sums import NONE

        blocks = [b for b in self.per_game if len(b) == 3]
        changes = np.concatenate([b[1] for b in blocks]).astype(np.int64) if blocks else np.zeros(0, np.int64)
        good = np.concatenate([b[2].filled(NONE) for b in blocks]).astype(np.int64) if blocks else changes.copy()
        index, (changes, good) = _group([changes, good]) if len(changes) else (changes, [changes, good])
        return {
            "lead_changes": changes.astype(np.uint32),
            "lead_for_good": np.ma.masked_equal(good, NONE).astype(np.int32),  # no lead for good: null
            "count": np.bincount(index, minlength=len(changes)).astype(np.int64),
        }

    def _key_labels(self, name: str, codes: np.ndarray) -> np.ndarray:
        """Return an ``agg_games`` key column as its Parquet column has it: enum labels and bot names, else ints."""
        p = self.plan
        table, column = ("games", name) if name in p.game_keys else ("seats", name.split("_", 1)[1])
        if table == "seats" and column == "bot":
            return np.array([p.bots[c] if 0 <= c < len(p.bots) else str(c) for c in codes.tolist()], dtype=object)
        if column in p.enums.get(table, {}):
            return self._labels(table, column, codes)
        return codes.astype(self.key_types.get(name, np.int64))

    def _labels(self, table: str, column: str, codes: np.ndarray) -> np.ndarray:
        members = self.plan.enums.get(table, {}).get(column)
        if members is None:
            return codes
        labels = {int(m.value): m.name.lower() for m in members}
        distinct = np.unique(codes)  # each label made once (agg_games has thousands of rows, a few values)
        names = np.array([labels.get(int(c), str(int(c))) for c in distinct], dtype=object)
        return names[np.searchsorted(distinct, codes)] if len(codes) else np.zeros(0, object)

    def _per_game(self) -> dict[str, np.ndarray]:
        names = [n for n in self.plan.per_game if n != "steps"]
        leads = [b for b in self.per_game if len(b) == 3]
        steps = [b for b in self.per_game if len(b) == 2]
        source = leads or steps
        out = {"game": np.concatenate([b[0] for b in source]) if source else np.zeros(0, np.int64)}
        for i, name in enumerate(names, start=1):
            out[name] = np.ma.concatenate([b[i] for b in leads]) if leads else np.zeros(0, np.int64)
        if "steps" in self.plan.per_game:
            out["steps"] = np.concatenate([b[1] for b in steps]) if steps else np.zeros(0, np.int64)
        return out


VALUE_COUNTS = 1 + 2 * len(RATES) + 3  # rows, (n, k) per win rate, turn played n / total / squares
