"""Blessings & Curses enums, card table dtype, result record dtypes and the state record.

The state follows the Cardinger pattern (see ``sims/cardinger/state.py`` for why): ONE
structured record ``STATE_DTYPE`` of nested records; kernels take ``s = state[0]``, and
whoever allocates ``state`` keeps it referenced while ``s`` is used.

Each seat owns its cards for the whole game (R3): ``piles.owned[p, :owned_n[p]]`` lists
them, and every owned card is in exactly one of the seat's deck, hand, discard pile or
destroyed pile. Card ids are rows of ``cards.csv``; under ``own_52`` both seats own every
id (two physical copies), under ``split_one_deck`` each id belongs to one seat. Health is
kept per seat and card id (``piles.hp[p, c]``), set when the card enters the hand (R18).
"""

from enum import IntEnum, IntFlag

import numpy as np

from sims.blessings.params import Params
from sims.core.jit import hot, kernel
from sims.core.records import EVENT_DTYPE

# -- choices (Params fields) ----------------------------------------------------------------


class DeckMode(IntEnum):
    """Which cards each seat owns (R3)."""

    OWN_52 = 0
    SPLIT_ONE_DECK = 1


class HandOrder(IntEnum):
    """How a hand is ordered (R4)."""

    DRAW_ORDER = 0
    PLAYER_ARRANGED = 1


class Opening(IntEnum):
    """Opening hand and first turn draw (R6)."""

    FIVE_AT_SETUP = 0
    THREE_PLUS_TWO = 1


class DestroyedCards(IntEnum):
    """Where a card destroyed by an attack or a curse goes (R10)."""

    OUT_FOR_BATTLE = 0
    RECYCLE = 1


class Surrender(IntEnum):
    """When a seat may surrender (R13). Codes are stable; ``OWN_TURN`` is the default."""

    TURN_START = 0  # only at the start of its own turn, before the draw (the first reading)
    NEVER = 1
    OWN_TURN = 2  # at the start of its own turn or at its end, after every card is played


class PoolTarget(IntEnum):
    """Which hand the start-of-battle pools hit (R15). Codes are stable; ``CARRYOVER_HAND`` is the default."""

    FRESH_HAND = 0
    CARRYOVER_HAND = 1


class ValueBaseline(IntEnum):
    """What replaces the card under test in the holder's deck (``value_baseline``; ``GameSpec.value_baselines``)."""

    BLANK = 0  # a blank of the card's type: Attack 0, Impact 0, not a face
    NEXT_SUIT = 1  # the same rank in the next suit of the table (heart, diamond, spade, club, heart ...)


class Seats(IntFlag):
    """A set of seats (``face_bonus_seats``)."""

    SEAT_0 = 1
    SEAT_1 = 2


# -- card data ------------------------------------------------------------------------------


class Suit(IntEnum):
    """Card suits, in the rulebook table's order."""

    HEART = 0
    DIAMOND = 1
    SPADE = 2
    CLUB = 3


class CardType(IntEnum):
    """Which of the bless and curse actions a card may take (column ``type``)."""

    BLESSING = 0
    CURSE = 1


RANKS = {"jack": 11, "queen": 12, "king": 13, "ace": 14, **{str(n): n for n in range(2, 11)}}  # rank column -> code

CARD_DTYPE = np.dtype(
    [
        ("suit", np.int8),  # Suit
        ("rank", np.int8),  # 2-10, 11 J, 12 Q, 13 K, 14 A (RANKS)
        ("attack", np.int8),  # Attack
        ("impact", np.int8),  # Impact
        ("type", np.int8),  # CardType
        ("face", np.int8),  # 1 = face card (J, Q, K, A): +/- face_bonus (R9)
    ],
    align=True,
)

# -- results ------------------------------------------------------------------------------------


class EndReason(IntEnum):
    """Why a game ended (``games.end_reason``, R17, R19)."""

    WIPEOUT = 0  # one seat lost every card to curses at a battle start
    MUTUAL_WIPEOUT = 1  # both did, at the same battle start: a draw
    BATTLE_CAP = 2  # max_battles battles without a wipe-out: unresolved


class BattleEnd(IntEnum):
    """How a battle ended (``turns.how``, R12, R13, R19)."""

    EXHAUSTION = 0  # a seat ran out of cards (both at once: drawn)
    SURRENDER = 1  # the loser surrendered (at the start or, with own_turn, the end of its own turn)
    TURN_CAP = 2  # max_turns_per_battle: drawn


class Action(IntEnum):
    """What a played card does, as counted in ``seats``/``cards`` (R7)."""

    ATTACK = 0
    BLESS = 1
    CURSE = 2
    DISCARD = 3


MAX_CARDS = 64  # largest number of cards a seat may own (and largest pool)
MAX_BATTLES = 255  # largest max_battles the kernel supports (battle rows kept per game)
MAX_TURNS_PER_BATTLE = 5000  # largest max_turns_per_battle
MAX_EVENTS = 32768  # replay log capacity per game
MAX_ACTIONS = MAX_CARDS * MAX_CARDS + 3 * MAX_CARDS + 2  # attacks (card x target) + bless/curse/discard + surrender
N_LANES = 6  # RNG lanes per game, see Lane
N_WEIGHTS = 16  # capacity for a bot's weight vector (bots.BotParams fields)
NO_CARD = -1
CARD_ID = np.uint8  # a card id in a pile (never NO_CARD there): unsigned, so ``s.cards[c]``, ``piles.hp[o, c]`` and
# ``next_curse[p, c]`` compile without the negative-index fix-up (MAX_CARDS <= 255)

GAME_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game index within the run (0 .. n-1)
        ("seed", np.uint64),  # the game's own seed = hash(root seed, game)
        ("first_seat", np.int8),  # seat that took the first turn of the first battle
        ("winner", np.int8),  # -1 = draw (mutual wipe-out) or unresolved (battle cap)
        ("turns", np.int32),  # turns played, all battles together
        ("end_reason", np.int8),  # EndReason
        ("score_0", np.int16),  # battles won by seat 0
        ("score_1", np.int16),  # battles won by seat 1
        ("battles", np.int16),  # battles played
        ("final_how", np.int8),  # BattleEnd of the last battle (the one whose pools decided the game)
    ],
    align=True,
)

SEAT_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("bot", np.int8),  # bot id (index into GameSpec.bots)
        ("score", np.int16),  # battles won
        ("won", np.int8),  # 1 = won the game
        ("first", np.int8),  # 1 = took the game's first turn
        ("battles_started", np.int16),  # battles in which this seat took the first turn
        ("battles_surrendered", np.int16),  # battles this seat gave up
        ("damage_dealt", np.int32),  # Health removed by its attacks (overkill not counted, R8)
        ("cards_destroyed", np.int32),  # opposing cards its attacks destroyed
        ("curse_sent", np.int32),  # curse added to the opponent's pool, whole game
        ("blessing_gained", np.int32),  # blessing from bless and discard actions, whole game
        ("bonus_gained", np.int32),  # winner's bonuses (R14)
        ("cards_lost_to_curses", np.int32),  # own cards destroyed at battle starts
        ("attacks", np.int32),  # action counts
        ("blesses", np.int32),
        ("curses", np.int32),
        ("discards", np.int32),
        ("cards_owned", np.int16),  # 52 (own_52) or 26 (split_one_deck)
    ],
    align=True,
)

CARD_RECORD_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("card", np.int16),  # card id (row of cards.csv)
        ("won", np.int8),  # the seat's game result, repeated so card metrics need no join
        ("in_opening_hand", np.int8),  # 1 = in the first battle's opening hand
        ("first_drawn_turn", np.int32),  # global turn it first reached a hand (0 = first opening hand, -1 never)
        ("first_played_turn", np.int32),  # global turn it was first played (-1 = never)
        ("times_played", np.int16),  # times played (every action)
        ("times_drawn", np.int16),  # times it entered the hand
        ("attacks", np.int16),  # times played as each action
        ("blesses", np.int16),
        ("curses", np.int16),
        ("discards", np.int16),
        ("damage_dealt", np.int32),  # Health its attacks removed
        ("cards_destroyed", np.int16),  # opposing cards its attacks destroyed
        ("curse_sent", np.int32),  # curse it added to the opponent's pool
        ("blessing_gained", np.int32),  # blessing its bless and discard actions added
        ("times_destroyed", np.int16),  # times destroyed by an enemy attack
        ("times_cursed", np.int16),  # times destroyed by curses at a battle start
    ],
    align=True,
)

# One row per battle (the game's turn unit is the battle, GameSpec.turn_unit): core columns
# ``turn`` = battle number (1-based) and ``seat`` = the battle's first seat (the rulings'
# ``battle`` and ``first_seat``).
TURN_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("turn", np.int16),  # battle number, 1-based
        ("seat", np.int8),  # seat that took the battle's first turn
        ("turns", np.int16),  # turns in the battle
        ("winner", np.int8),  # battle winner; -1 = drawn
        ("how", np.int8),  # BattleEnd
        ("score_0", np.int16),  # battles won by each seat after this one
        ("score_1", np.int16),
        ("curse_pool_0", np.int32),  # curse that hits seat p at the next battle start
        ("curse_pool_1", np.int32),
        ("blessing_pool_0", np.int32),  # seat p's blessing for the next battle (winner's bonus included)
        ("blessing_pool_1", np.int32),
        ("winner_bonus", np.int16),  # the winner's rightmost-card Attack (R14)
        ("cards_left_0", np.int16),  # cards in hand, deck and discard pile at the battle's end
        ("cards_left_1", np.int16),
        ("hand_0", np.int16),  # cards in hand at the battle's end
        ("hand_1", np.int16),
        ("lost_to_curses_0", np.int16),  # cards these pools destroyed at the next battle start
        ("lost_to_curses_1", np.int16),
        ("wiped_0", np.int8),  # 1 = these pools wiped seat p out (game over)
        ("wiped_1", np.int8),
    ],
    align=True,
)

# -- in-game state --------------------------------------------------------------------------------


class Lane(IntEnum):
    """RNG lanes of one game: one per concern, so paired runs stay paired (DESIGN.md)."""

    SETUP = 0  # split_one_deck deal
    SHUFFLE = 1  # + seat: that seat's shuffles (battle starts, first-player reveals, reshuffles)
    BOT = 3  # + seat: that seat's bot decisions
    REVEAL = 5  # which card each seat reveals to pick the first player (R5)


class Phase(IntEnum):
    """Where the game stands. SURRENDER and PLAY wait for the mover's bot; the others run alone."""

    SURRENDER = 0  # start of turn, before the draw: surrender or play on (R13)
    PLAY = 1  # play the next card (R7)
    OVER = 2  # the game has ended
    BATTLE_START = 3  # pools, gather, first player, opening hands (R5, R6, R15-R17)
    TURN_START = 4  # count the turn; surrender decision next (or the draw, surrender=never)
    DRAW = 5  # the turn draw (R6), then PLAY
    TURN_END = 6  # battle loss and turn cap checks (R12, R19), then the next turn or battle
    SURRENDER_END = 7  # end of the mover's own turn, the battle going on: surrender or pass (R13 own_turn)


class ActionKind(IntEnum):
    """What an encoded action does (``action = kind << 14 | i << 7 | j``)."""

    PLAY_ON = 0  # do not surrender (at a turn's start: play it; at its end: pass the turn)
    SURRENDER = 1  # give up the battle (R13)
    ATTACK = 2  # i = own hand index, j = opposing hand index (R8)
    BLESS = 3  # i = own hand index
    CURSE = 4  # i = own hand index
    DISCARD = 5  # i = own hand index: discard for blessing


class Purpose(IntEnum):
    """Why a seat arranges its hand under ``player_arranged`` (R4)."""

    POOLS = 0  # before the start-of-battle pools hit it
    BONUS = 1  # before the winner's bonus is read


class EventKind(IntEnum):
    """Replay-log events (``EVENT_DTYPE``); the fields each kind uses are in its comment."""

    BATTLE = 0  # value = battle number
    OWNED = 1  # card = a card the seat owns (split_one_deck deal)
    REVEAL = 2  # card = card revealed to choose the first player, value = its Attack
    FIRST = 3  # seat = first player of the battle
    DEAL = 4  # value = opening hand size, extra = deck size
    CURSE_HIT = 5  # target = card hit, value = damage, extra = Health left
    CURSED_AWAY = 6  # target = card destroyed by curses
    BLESSED = 7  # target = card blessed, value = blessing, extra = Health after
    WIPED = 8  # seat wiped out
    TURN_START = 9  # card = hand size, target = deck size, value = curse sent so far, extra = curse received
    SURRENDER = 10  # seat surrenders the battle; value = 1 at the end of its turn, 0 at the start
    DRAW = 11  # card = card drawn
    RESHUFFLE = 12  # value = cards shuffled from the discard pile into the deck
    ATTACK = 13  # card = attacker, target = target card, value = damage, extra = Health left
    DESTROY = 14  # seat = owner, target = destroyed card
    BLESS = 15  # card, value = blessing, extra = pool after
    CURSE = 16  # card, value = curse, extra = opponent's pool after
    DISCARD = 17  # card, value = blessing, extra = pool after
    END_TURN = 18  # value = hand size, extra = cards left (hand + deck + discard)
    BATTLE_END = 19  # seat = winner (-1 drawn), value = BattleEnd, extra = winner's bonus
    GAME_END = 20  # seat = winner (-1 none), value = EndReason
    ARRANGE = 21  # seat arranged its hand, value = Purpose


META_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seed", np.uint64),
        ("n_cards", np.int16),  # rows of ``cards`` in use (the pool size, the value baseline row included)
        ("n_real", np.int16),  # rows that are real cards: n_cards, less the baseline row when value_card >= 0
        ("turn", np.int32),  # global turn number, 1-based (0 = before the first turn)
        ("battle", np.int16),  # current battle, 1-based
        ("battle_turn", np.int16),  # turns begun in the current battle
        ("own_turns", np.int16, (2,)),  # turns each seat has begun in the current battle (R6)
        ("mover", np.uint8),  # unsigned: an index LLVM knows is not negative (its opponent: ``opponent``)
        ("bots", np.int8, (2,)),  # each seat's bot id (bots.arrange)
        ("first_seat", np.int8),  # seat that took the game's first turn
        ("battle_first", np.int8),  # seat that took the current battle's first turn
        ("phase", np.int8),  # Phase
        ("to_play", np.int16),  # cards the mover still has to play: hand[mover, :to_play] (R7)
        ("winner", np.int8),  # game winner; -1 = none (yet), draw or unresolved
        ("end_reason", np.int8),  # EndReason
        ("final_how", np.int8),  # BattleEnd of the last battle
        ("log_on", np.int8),
        ("log_n", np.int32),
    ],
    align=True,
)

PILES_DTYPE = np.dtype(
    [
        ("owned", CARD_ID, (2, MAX_CARDS)),  # owned[p, :owned_n[p]]: the seat's cards (R3)
        ("owned_n", np.int16, (2,)),
        ("deck", CARD_ID, (2, MAX_CARDS)),  # draw pile, top = last
        ("deck_n", np.int16, (2,)),
        ("hand", CARD_ID, (2, MAX_CARDS)),  # the ordered face-up row, left = index 0 (R4)
        ("hand_n", np.int16, (2,)),
        ("discard", CARD_ID, (2, MAX_CARDS)),  # discard pile, newest last
        ("discard_n", np.int16, (2,)),
        ("gone", CARD_ID, (2, MAX_CARDS)),  # destroyed pile: out until the next battle (R10)
        ("gone_n", np.int16, (2,)),
        ("hp", np.int32, (2, MAX_CARDS)),  # Health of seat p's card c while in hand (R18)
    ],
    align=True,
)

POOLS_DTYPE = np.dtype(
    [
        ("curse", np.int32, (2,)),  # curse that will hit seat p at the next battle start
        ("blessing", np.int32, (2,)),  # seat p's blessing pool for the next battle
        ("wins", np.int16, (2,)),  # battles won
        ("bonus", np.int16),  # last battle's winner's bonus
    ],
    align=True,
)

TALLY_DTYPE = np.dtype(
    [
        ("seats", SEAT_DTYPE, (2,)),
        ("cards", CARD_RECORD_DTYPE, (2, MAX_CARDS)),  # per seat x card id (owned cards only)
        ("battles", TURN_DTYPE, (MAX_BATTLES + 1,)),  # battles[b - 1]: the row of battle b
    ],
    align=True,
)

SCRATCH_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (N_LANES,)),
        ("legal", np.int32, (MAX_ACTIONS,)),  # legal actions of the current decision (random bot, audit)
        ("n_legal", np.int32),
        ("weights", np.float64, (2, N_WEIGHTS)),  # each seat's bot weights (bots.BotParams)
        ("key", np.float64, (MAX_CARDS,)),  # sort keys (arranging a hand)
        ("budget", np.int32, (MAX_CARDS,)),  # tactician: damage still planned against each opposing hand index
        ("mean_curse", np.float64, (2,)),  # mean curse value of a card of the pool played by seat p (hidden hands)
        ("next_curse", np.float64, (2, MAX_CARDS)),  # curse seat p's card c is expected to send if played (race)
        ("next_hit", np.float64, (2, MAX_CARDS)),  # Health seat p's card c is expected to remove if played (race)
        ("mean_next", np.float64, (2, 2)),  # means of next_curse, next_hit over the pool's cards, per seat
        ("pool_kind", np.int8, (2, MAX_CARDS)),  # greedy's best pool action (ActionKind) of seat p's card c
        ("pool_best", np.float64, (2, MAX_CARDS)),  # its value (bots.pool_choices, once per batch)
        ("cand_a", np.int32, (MAX_CARDS,)),  # greedy's best action (hand index 0) of its card c (bots.card_choice)
        ("cand_v", np.float64, (MAX_CARDS,)),  # and its value
        ("cand_game", np.int64),  # the decision they were valued at: game, turn
        ("cand_turn", np.int32),
        ("cand_left", np.int16),  # cards still to play at the next decision they serve (-1: none)
        ("seen", np.int16, (MAX_CARDS,)),  # card-conservation audit marks
        ("log", EVENT_DTYPE, (MAX_EVENTS,)),
    ],
    align=True,
)

PARAMS_DTYPE = np.dtype([(name, np.int32) for name in Params._fields], align=True)

STATE_DTYPE = np.dtype(
    [
        ("params", PARAMS_DTYPE),
        ("meta", META_DTYPE),
        ("cards", CARD_DTYPE, (MAX_CARDS,)),
        ("piles", PILES_DTYPE),
        ("pools", POOLS_DTYPE),
        ("tally", TALLY_DTYPE),
        ("scratch", SCRATCH_DTYPE),
    ],
    align=True,
)
STATE_DTYPE = np.dtype((np.record, STATE_DTYPE))  # attribute access in plain Python too (test-nojit)


@kernel
def load_params(q, params: Params) -> None:
    """Copy every field of ``params`` into the ``PARAMS_DTYPE`` record ``q`` in place."""
    q.deck_mode, q.hand_order, q.open_hands, q.opening = (
        params.deck_mode,
        params.hand_order,
        params.open_hands,
        params.opening,
    )
    q.destroyed_cards, q.midbattle_reshuffle, q.surrender = (
        params.destroyed_cards,
        params.midbattle_reshuffle,
        params.surrender,
    )
    q.pool_target, q.blessing_before_curses, q.face_bonus = (
        params.pool_target,
        params.blessing_before_curses,
        params.face_bonus,
    )
    q.face_bonus_seats, q.card_health, q.turn_draw = params.face_bonus_seats, params.card_health, params.turn_draw
    q.max_turns_per_battle, q.max_battles = params.max_turns_per_battle, params.max_battles
    q.value_card, q.value_swap, q.value_baseline = params.value_card, params.value_swap, params.value_baseline


@kernel
def new_state(cards: np.ndarray, params: Params) -> np.ndarray:
    """Return a zeroed ``STATE_DTYPE[1]`` holding ``params`` and a copy of ``cards`` (<= MAX_CARDS rows)."""
    state = np.zeros(1, STATE_DTYPE)
    s = state[0]
    load_params(s.params, params)
    s.meta.n_cards = cards.shape[0]
    s.meta.n_real = cards.shape[0] - (1 if params.value_card >= 0 else 0)  # pool.prepare_pool appended one row
    for c in range(cards.shape[0]):
        s.cards[c] = cards[c]
    return state


@hot
def opponent(p: int) -> int:
    """Return the other seat of seat ``p`` (0 <-> 1) as ``p ^ 1``: of an unsigned ``meta.mover``, an index LLVM
    knows is not negative (``1 - p`` is signed, and every ``[1 - p, ...]`` carried a negative-index fix-up)."""
    return p ^ 1


@hot
def encode(kind: int, i: int, j: int) -> int:
    """Return the action ``kind`` with own hand index ``i`` and target index ``j``."""
    return (kind << 14) | (i << 7) | j


@hot
def action_kind(action: int) -> int:
    """Return the ActionKind of an encoded action."""
    return action >> 14


@hot
def action_i(action: int) -> int:
    """Return the own hand index of an encoded action."""
    return (action >> 7) & 127


@hot
def action_j(action: int) -> int:
    """Return the opposing hand index of an encoded action."""
    return action & 127
