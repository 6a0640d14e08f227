"""Sufficient statistics of a run: small per-chunk sums that a report merges exactly.

Every figure a report draws from the ``cards`` and ``turns`` tables is a ratio of sums, a
histogram or a per-game value, so a chunk can reduce its card and turn rows right after
the kernel wrote them (:class:`balance.chunk_sums.ChunkSums`) and keep only these tables (integer sums:
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
merged sums into the same frames it computes from raw rows. This module (the plan and the
column conventions) and :mod:`balance.chunk_sums` (the sums) import only numpy and
``sims.core`` (the compiled loops, :mod:`balance.chunk_kernels` and ``sims.core.sums``, on
first use), so pool workers stay light and readers of a run never load Numba.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
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
