"""Cardinger enums, card table dtype and result record dtypes.

(The in-game state record, ``STATE_DTYPE``, and the action and event enums follow below.)
"""

from enum import IntEnum, IntFlag

import numpy as np

from sims.cardinger.params import Params
from sims.core.jit import hot, kernel
from sims.core.records import EVENT_DTYPE


class Keyword(IntFlag):
    """Card keywords as a bitmask (``cards[c].keywords & Keyword.READY``)."""

    READY = 1
    DOUBLE = 2
    FRAGILE = 4
    OMNI = 8
    STEAL = 16
    DECAY = 32
    PROSPERITY = 64
    DEVOUR = 128


class CardSet(IntFlag):
    """The four printed sets (column ``set`` of cards.csv; spaces dropped)."""

    STARTER = 1
    BOOSTER1 = 2
    BOOSTER2 = 4
    BOOSTER3 = 8


class DeckBuilder(IntEnum):
    """How a game's two decks are formed (R2)."""

    RECOMMENDED_RANDOM = 0
    UNIFORM_RANDOM = 1
    FIXED = 2


class DeckSource(IntEnum):
    """Whether each player builds from their own pool copy or both from one (R2)."""

    OWN_SET = 0
    SHARED_SET = 1


class FirstSeat(IntEnum):
    """Who takes the first turn (R3)."""

    RANDOM = 0
    ALTERNATE = 1


class PlayLimit(IntEnum):
    """How many cards may be played per turn (R4)."""

    HALF_HAND_UP = 0
    UNLIMITED = 1


class ReplenishTiming(IntEnum):
    """When an empty deck is rebuilt from the discard pile (R15)."""

    END_OF_TURN = 0
    START_OF_NEXT_TURN = 1


class ProsperityGain(IntEnum):
    """How a PROSPERITY score action's bonus is gained (R10, R14; RULES.md §8.6)."""

    ONE_GAIN = 0  # SCORE and bonus are one gain: a winning action's final score includes the bonus
    SECOND_GAIN = 1  # the bonus is a second gain after SCORE: a SCORE that wins drops it (rules_version 1)


class ValueBaseline(IntEnum):
    """What replaces the card under test in arm ``value_swap = 1`` (RULES.md §10)."""

    SAME_COST = 0  # a pool card of the same cost not already in the deck, drawn on lane SETUP
    BLANK = 1  # the blank row prepare_pool appends: same cost, 1 HP, no stats, no keywords


class EndReason(IntEnum):
    """Why a game ended (``games.end_reason``)."""

    TARGET_SCORE = 0
    TIMEOUT = 1


MAX_DECK = 40  # largest deck_size the kernel supports (array bound)
MAX_FIELD = 8  # largest field_limit the kernel supports

CARD_DTYPE = np.dtype(
    [
        ("set", np.int8),  # CardSet bit of the card's printed set; 0 = the value baseline row (no builder pile)
        ("cost", np.int8),  # cards discarded from hand to play it
        ("hp", np.int8),  # printed hit points
        ("atk", np.int8),  # attack; 0 = cannot attack
        ("def_", np.int8),  # defence (CSV column ``def``); attackable only by ATK > DEF
        ("draw", np.int8),  # cards drawn by a draw action; 0 = cannot draw
        ("score", np.int8),  # points from a score action; 0 = cannot score
        ("keywords", np.int16),  # Keyword bitmask
        ("placeholder", np.int8),  # 1 = numbers guessed (cards.csv ``placeholder``; R1: excluded unless included)
    ],
    align=True,
)

GAME_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game index within the run (0 .. n-1)
        ("seed", np.uint64),  # the game's own seed = hash(root seed, game)
        ("first_seat", np.int8),  # seat that took turn 1
        ("winner", np.int8),  # seat that reached target_score; -1 = timeout
        ("turns", np.int16),  # turns taken by both players together
        ("end_reason", np.int8),  # EndReason
        ("score_0", np.int16),  # seat 0's points at the end
        ("score_1", np.int16),  # seat 1's points at the end
    ],
    align=True,
)

SEAT_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("bot", np.int8),  # bot id (index into GameSpec.bots)
        ("score", np.int16),  # points at the end
        ("won", np.int8),  # 1 = this seat won; 0 = lost or timeout
        ("first", np.int8),  # 1 = this seat took turn 1
        ("points_score", np.int16),  # points from score actions (printed SCORE)
        ("points_prosperity", np.int16),  # PROSPERITY bonus points
        ("points_steal", np.int16),  # STEAL points
        ("points_replenish", np.int16),  # replenish points
        ("cards_played", np.int16),  # cards played to the field
        ("attacks", np.int16),  # attack actions (each DOUBLE attack counts)
        ("draws", np.int16),  # draw actions
        ("scores", np.int16),  # score actions
        ("cards_destroyed", np.int16),  # opposing cards this seat destroyed
        ("own_fragile_losses", np.int16),  # own cards destroyed by their FRAGILE
        ("replenishes", np.int16),  # deck replenishes
        ("deck_total_cost", np.int16),  # total cost of the deck
        ("deck", np.int16, (MAX_DECK,)),  # the deck's card ids, padded with -1
    ],
    align=True,
)

CARD_RECORD_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("card", np.int16),  # card id (row of cards.csv after pool filtering)
        ("won", np.int8),  # the seat's result, repeated here so card metrics need no join
        ("in_opening_hand", np.int8),  # 1 = among the opening_hand cards
        ("first_drawn_turn", np.int16),  # turn it first reached the hand (0 = opening hand, -1 = never)
        ("first_played_turn", np.int16),  # turn it was first played (-1 = never)
        ("times_played", np.int16),  # times played to the field
        ("times_drawn", np.int16),  # times it entered the hand (decks cycle)
        ("points_scored", np.int16),  # points from its score actions (PROSPERITY included)
        ("steal_points", np.int16),  # points from its STEAL destructions
        ("damage_dealt", np.int16),  # HP it took from opposing cards
        ("cards_destroyed", np.int16),  # opposing cards it destroyed
        ("cards_drawn", np.int16),  # cards its draw actions drew
        ("times_destroyed", np.int16),  # times it was destroyed (by attack or FRAGILE)
        ("times_discarded", np.int16),  # times it was discarded to pay a cost
        ("times_retired", np.int16),  # times it was retired
    ],
    align=True,
)

TURN_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("turn", np.int16),  # 1-based global turn
        ("seat", np.int8),  # seat that moved
        ("score_0", np.int16),  # scores at the end of the turn
        ("score_1", np.int16),
        ("field_0", np.int8),  # cards in each field at the end of the turn
        ("field_1", np.int8),
        ("hand_0", np.int8),  # cards in each hand at the end of the turn
        ("hand_1", np.int8),
        ("deck_0", np.int8),  # cards in each deck at the end of the turn
        ("deck_1", np.int8),
        ("plays", np.int8),  # cards the mover played this turn
        ("actions", np.int8),  # actions the mover took this turn
    ],
    align=True,
)


# ---------------------------------------------------------------------------------------
# In-game state (kernel author).
#
# The whole position is ONE structured record, ``STATE_DTYPE``, made of nested records
# (meta, piles, field, tally, scratch) with fixed-size array fields, plus a copy of the
# card table. Kernels take ``s = state[0]`` and read it like a C struct:
# ``s.piles.hand[p, i]``, ``s.field.hp[p, slot]``, ``s.cards[c].atk``, ``s.meta.turn``.
# ``s`` holds no reference to ``state``, and Numba frees an array right after its last use
# (even in the middle of an expression), so a kernel that allocates ``state`` must keep it
# alive while ``s`` is used: use ``state`` again later, or pass ``state`` itself to a callee
# (``kernel.play_games``, ``kernel.logged_events``). From Python, holding ``state`` suffices.
#
# Why a record and not a NamedTuple of arrays (STYLE.md 2.5): every Numba array carries a
# reference count. A kernel that receives a tuple of ~20 arrays increfs and decrefs every
# one of them (atomic operations) whenever LLVM's refcount pruning fails, which it does
# for most branchy rule functions: measured 300-400 ns per call, a 100x slowdown of the
# whole game. A record is a plain pointer with no reference count, so rule functions
# cost what their arithmetic costs. The nested records keep the ~10-fields-per-group
# grouping; one ``state`` array is allocated per ``play_games`` call and
# ``kernel.reset`` reuses it for every game.
#
# Seats are ``p`` in {0, 1}; the seat to move is ``meta.mover``, its opponent ``opponent(p)`` (``p ^ 1``).
# Ordered piles (deck, hand, discard) are id rows ``[2, MAX_DECK]`` plus lengths ``*_n[p]``;
# a deck's top is its last entry. The field keeps slots 0 .. n[p]-1 in play order (a card
# that leaves shifts later ones down) with the card's *current* HP/DEF next to it, so
# leaving the field clears damage, DEVOUR and DECAY for free (R18).
# ---------------------------------------------------------------------------------------

MAX_CARDS = 128  # largest card pool the kernel supports (after prepare_pool)
MAX_TURNS = 1000  # largest max_turns the kernel supports (turn rows kept per game)
MAX_EVENTS = 16384  # replay log capacity per game (a 200-turn game logs a few thousand)
MAX_ACTIONS = 192  # legal-action buffer: plays + retires + slots x targets + draws/scores + END
N_LANES = 5  # RNG lanes per game, see Lane
N_WEIGHTS = 32  # capacity for a bot's weight vector (bots.BotParams fields)

NO_CARD = -1  # empty pile / no card
CARD_ID = np.uint8  # a card id in a pile or field (never NO_CARD there): unsigned, so ``s.cards[c]`` and
# ``values[p, c]`` compile without the negative-index fix-up (3 instructions per lookup on the bots' hot path)
ALL_TARGETS = 63  # target argument of an OMNI attack (it hits every eligible card)
UNLIMITED_PLAYS = 127  # play allowance under PlayLimit.UNLIMITED (R4 variant)


class Lane(IntEnum):
    """RNG lanes of one game: one per concern, so paired runs stay paired (DESIGN.md)."""

    SETUP = 0  # first seat, deck building
    SHUFFLE = 1  # + seat: that seat's initial shuffle and replenish shuffles
    BOT = 3  # + seat: that seat's bot decisions


class Phase(IntEnum):
    """Where the mover stands in the turn. Phases 1 and 4 run without decisions."""

    PLAY = 0  # phase 2: play / retire cards (or declare the first action, R7)
    PAY = 1  # phase 2, paying the cost of the card just played: discard one hand card (R5)
    ACTION = 2  # phase 3: actions only
    OVER = 3  # the game has ended


class ActionKind(IntEnum):
    """What an encoded action does (``action = kind << 12 | i << 6 | j``)."""

    END = 0  # end the turn (phases 2/3 -> phase 4)
    PLAY = 1  # i = hand index of the card to play
    PAY = 2  # i = hand index of the card to discard for the pending cost
    RETIRE = 3  # i = own field slot
    ATTACK = 4  # i = own field slot, j = opposing slot (ALL_TARGETS for OMNI)
    DRAW = 5  # i = own field slot
    SCORE = 6  # i = own field slot


END_TURN = 0  # the encoded END action


class PointSource(IntEnum):
    """Why points were gained (``seats.points_*`` columns)."""

    SCORE = 0  # printed SCORE of a score action
    PROSPERITY = 1  # PROSPERITY bonus (R14)
    STEAL = 2  # one STEAL destruction (R13)
    REPLENISH = 3  # replenish point (R15)


class PileKind(IntEnum):
    """Rows of ``scratch.pick``: the deck builder's face-down piles (R2)."""

    COSTLY = 0  # cost >= 1, builder_excluded_cost removed
    FREE = 1  # cost 0
    ALL = 2  # whole pool (uniform_random)


class EventKind(IntEnum):
    """Replay-log events (``EVENT_DTYPE``); the fields each kind uses are in its comment."""

    DEAL = 0  # value = opening hand size, extra = deck size
    TURN_START = 1  # card = hand size, target = deck size, value = own score, extra = opponent's
    DRAW = 2  # card = card drawn at turn start (R16)
    PLAY = 3  # card = card played, value = its cost
    PAY = 4  # card = card discarded, target = card being paid for
    RETIRE = 5  # card = card retired
    ATTACK = 6  # card = attacker, target = target card (-1 for OMNI)
    DAMAGE = 7  # card = attacker, target = damaged card, value = its HP left
    DESTROY = 8  # seat = owner, card = destroyer (-1 = FRAGILE), target = destroyed card
    DRAW_ACTION = 9  # card = drawer, value = cards it draws
    DRAWN = 10  # card = card drawn by a draw action, target = drawer
    SCORE_ACTION = 11  # card = scorer, value = points, extra = score after
    PROSPERITY = 12  # card = scorer, value = bonus points, extra = score after
    STEAL = 13  # card = thief, value = 1, extra = score after
    DEVOUR = 14  # card, value = HP after
    DECAY = 15  # card, value = DEF after
    FRAGILE = 16  # card, value = HP after
    REPLENISH = 17  # value = new deck size
    REPLENISH_POINT = 18  # value = points, extra = score after
    IDLE_DRAW = 19  # card = extra card drawn (R17)
    END_TURN = 20  # value = hand size, extra = deck size
    WIN = 21  # seat = winner, value = its score, extra = the loser's
    TIMEOUT = 22  # value = turns played
    DECK = 23  # card = a card of the seat's deck list, value = its position (set-up)


META_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game index of the run
        ("seed", np.uint64),  # the game's seed
        ("n_cards", np.int16),  # rows of ``cards`` in use (the pool size)
        ("turn", np.int16),  # global turn number, 1-based (0 = set-up)
        ("mover", np.uint8),  # seat taking the current turn (unsigned: an index LLVM knows is not negative)
        ("first_seat", np.int8),  # seat that took turn 1
        ("phase", np.int8),  # Phase
        ("plays_left", np.int8),  # play allowance left this turn (R4)
        ("pending_cost", np.int8),  # cards still to discard for the card just played (R5)
        ("pending_card", np.int16),  # the card being paid for
        ("plays", np.int8),  # cards the mover played this turn
        ("actions", np.int8),  # actions the mover declared this turn (plays = actions = 0: idle, R17)
        ("winner", np.int8),  # winning seat; -1 = none (yet) or timeout
        ("end_reason", np.int8),  # EndReason
        ("log_on", np.int8),  # 1 = write events to scratch.log
        ("record_cards", np.int8),  # 1 = keep tally.cards valid (the cards table is wanted; kernel.play_games)
        ("record_turns", np.int8),  # 1 = write tally.turns (the turns table is wanted; kernel.play_games)
        ("log_n", np.int32),  # events written
    ],
    align=True,
)

PILES_DTYPE = np.dtype(
    [
        ("deck", CARD_ID, (2, MAX_DECK)),  # deck[p, :deck_n[p]]: draw pile, top = last
        ("deck_n", np.int16, (2,)),
        ("hand", CARD_ID, (2, MAX_DECK)),  # hand[p, :hand_n[p]] in arrival order
        ("hand_n", np.int16, (2,)),
        ("discard", CARD_ID, (2, MAX_DECK)),  # discard[p, :discard_n[p]], newest last
        ("discard_n", np.int16, (2,)),
        ("built", np.int16, (2, MAX_DECK)),  # each seat's deck list in build order (-1 padded)
    ],
    align=True,
)

FIELD_DTYPE = np.dtype(
    [
        ("card", CARD_ID, (2, MAX_FIELD)),  # card[p, :n[p]]: card ids in play order
        ("n", np.int16, (2,)),  # cards in each field
        ("hp", np.int8, (2, MAX_FIELD)),  # current HP (printed - damage + DEVOUR)
        ("def_", np.int8, (2, MAX_FIELD)),  # current DEF (printed - DECAY)
        ("acts", np.int8, (2, MAX_FIELD)),  # actions left this turn (DOUBLE: 2 attacks; 0 = done / just played)
    ],
    align=True,
)

TALLY_DTYPE = np.dtype(
    [
        ("score", np.int16, (2,)),  # points
        ("replenished", np.int8, (2,)),  # 1 = replenished, point not scored yet (R15)
        ("seats", SEAT_DTYPE, (2,)),  # per-seat counters and deck list (the SEAT rows)
        ("cards", CARD_RECORD_DTYPE, (2, MAX_CARDS)),  # per seat x card id (deck cards only)
        ("turns", TURN_DTYPE, (MAX_TURNS,)),  # turns[t - 1]: the TURN row of turn t
    ],
    align=True,
)

SCRATCH_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (N_LANES,)),  # the game's random lanes (see Lane)
        ("legal", np.int32, (MAX_ACTIONS,)),  # legal actions of the current decision
        ("n_legal", np.int32),  # how many (0 = not enumerated for this decision)
        ("pick", np.int16, (3, MAX_CARDS)),  # deck-builder piles (PileKind rows)
        ("pick_n", np.int16, (3,)),
        ("piles", np.int16, (3, MAX_CARDS)),  # the builder piles before any draw (kernel.lay_out_piles)
        ("piles_n", np.int16, (3,)),
        ("weights", np.float64, (2, N_WEIGHTS)),  # each seat's bot weights (bots.BotParams)
        ("values", np.float64, (2, MAX_CARDS)),  # each seat's static card values (bots.card_values)
        ("net", np.float64, (2, MAX_CARDS)),  # values minus the cost weight x cost (bots.card_values)
        ("max_gain", np.int16),  # most points a single score action of the pool can make (bots.card_values)
        ("lowest", np.float64, (2,)),  # each seat's lowest static card value over the pool (bots.card_values)
        ("hand_values", np.float64, (MAX_DECK,)),  # the mover's hand card values, ascending (appraise.sort_hand)
        ("seen", np.int16, (MAX_CARDS,)),  # marks of the card-conservation audit
        ("log", EVENT_DTYPE, (MAX_EVENTS,)),  # replay log (when meta.log_on)
        ("bots", np.int64, (2,)),  # each seat's bot id (kernel.play_batch copies it in)
        ("report", np.int64, (4,)),  # the audit's counts of the batch so far (kernel.play_game)
    ],
    align=True,
)

# The rule parameters, copied into the state so kernels read ``s.params.hand_limit``.
PARAMS_DTYPE = np.dtype([(name, np.int32) for name in Params._fields], align=True)

STATE_DTYPE = np.dtype(
    [
        ("params", PARAMS_DTYPE),  # Params, as int32 fields of the same names
        ("meta", META_DTYPE),  # scalar bookkeeping: turn, mover, phase ...
        ("cards", CARD_DTYPE, (MAX_CARDS,)),  # the card table (copy of the filtered pool)
        ("piles", PILES_DTYPE),
        ("field", FIELD_DTYPE),
        ("tally", TALLY_DTYPE),  # result accumulators, copied to the output tables
        ("scratch", SCRATCH_DTYPE),  # work buffers reused across decisions and games
    ],
    align=True,
)
# As ``np.record`` elements, a state also allows ``s.meta.turn`` attribute access in plain
# Python, so the kernels run unchanged with NUMBA_DISABLE_JIT=1 (Makefile ``test-nojit``).
STATE_DTYPE = np.dtype((np.record, STATE_DTYPE))


@kernel
def load_params(q, params: Params) -> None:
    """Copy every field of ``params`` into the ``PARAMS_DTYPE`` record ``q`` in place."""
    q.card_sets, q.include_placeholders, q.deck_builder = (
        params.card_sets,
        params.include_placeholders,
        params.deck_builder,
    )
    q.deck_source, q.builder_cost_target = params.deck_source, params.builder_cost_target
    q.builder_excluded_cost, q.first_seat, q.target_score = (
        params.builder_excluded_cost,
        params.first_seat,
        params.target_score,
    )
    q.deck_size, q.opening_hand, q.hand_limit = params.deck_size, params.opening_hand, params.hand_limit
    q.field_limit, q.play_limit, q.first_turn_draw = params.field_limit, params.play_limit, params.first_turn_draw
    q.idle_extra_draw, q.replenish_timing = params.idle_extra_draw, params.replenish_timing
    q.replenish_point, q.prosperity_step = params.replenish_point, params.prosperity_step
    q.prosperity_gain = params.prosperity_gain
    q.devour_hp_cap, q.max_turns = params.devour_hp_cap, params.max_turns
    q.value_card, q.value_swap, q.value_baseline = params.value_card, params.value_swap, params.value_baseline


@kernel
def new_state(cards: np.ndarray, params: Params) -> np.ndarray:
    """Return a zeroed ``STATE_DTYPE[1]`` holding ``params`` and a copy of ``cards`` (<= MAX_CARDS rows)."""
    state = np.zeros(1, STATE_DTYPE)
    s = state[0]
    load_params(s.params, params)
    s.meta.n_cards = cards.shape[0]
    for c in range(cards.shape[0]):
        s.cards[c] = cards[c]
    return state


@kernel
def encode(kind: int, i: int, j: int) -> int:
    """Return the action ``kind`` with arguments ``i`` (hand index / slot) and ``j`` (target)."""
    return (kind << 12) | (i << 6) | j


@kernel
def opponent(p: int) -> int:
    """Return the other seat of seat ``p`` (0 <-> 1) as ``p ^ 1``: of an unsigned ``meta.mover``, an index LLVM
    knows is not negative (``1 - p`` is signed, and every ``[1 - p, ...]`` carried a negative-index fix-up)."""
    return p ^ 1


@hot
def length(lens, p: int) -> int:
    """Return the length ``lens[p]`` of seat ``p``'s pile or field as an unsigned index (it is never negative).

    The lengths are ``int16``: as an index (``pile[p, lens[p]]``, ``pile[p, n - 1]``) Numba would compile a
    negative-index fix-up for them; an unsigned copy needs none. (Not an unsigned dtype: ``range`` over one
    counts in ``uint64``, which mixed with ``int64`` types as a float.)
    """
    return np.uint8(lens[p])


@hot
def push(pile, lens, p: int, c: int) -> None:
    """Put card ``c`` on top of seat ``p``'s pile in place (``sims.core.piles.push`` with an unsigned index)."""
    n = length(lens, p)
    pile[p, n] = c
    lens[p] = n + 1


@hot
def pop_top(pile, lens, p: int) -> int:
    """Remove the top card of seat ``p``'s pile in place; return it, or ``NO_CARD`` if the pile is empty
    (``sims.core.piles.pop_top`` with an unsigned index)."""
    n = length(lens, p)
    if n == 0:
        return NO_CARD
    top = np.uint8(n - 1)
    lens[p] = top
    return pile[p, top]


@kernel
def action_kind(action: int) -> int:
    """Return the ActionKind of an encoded action."""
    return action >> 12


@kernel
def action_i(action: int) -> int:
    """Return the first argument (hand index or own slot) of an encoded action."""
    return (action >> 6) & 63


@kernel
def action_j(action: int) -> int:
    """Return the second argument (target slot) of an encoded action."""
    return action & 63


# Keyword bits as plain ints: Numba types IntFlag members as opaque enums, so kernels test
# ``s.cards[c].keywords & DOUBLE`` with these.
READY = int(Keyword.READY)
DOUBLE = int(Keyword.DOUBLE)
FRAGILE = int(Keyword.FRAGILE)
OMNI = int(Keyword.OMNI)
STEAL = int(Keyword.STEAL)
DECAY = int(Keyword.DECAY)
PROSPERITY = int(Keyword.PROSPERITY)
DEVOUR = int(Keyword.DEVOUR)
