"""Cardinger enums, card table dtype and result record dtypes.

(The in-game ``State`` layout is defined further down by the kernel author.)
"""

from enum import IntEnum, IntFlag

import numpy as np


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


class EndReason(IntEnum):
    """Why a game ended (``games.end_reason``)."""

    TARGET_SCORE = 0
    TIMEOUT = 1


MAX_DECK = 40  # largest deck_size the kernel supports (array bound)
MAX_FIELD = 8  # largest field_limit the kernel supports

CARD_DTYPE = np.dtype(
    [
        ("set", np.int8),  # CardSet bit of the card's printed set
        ("cost", np.int8),  # cards discarded from hand to play it
        ("hp", np.int8),  # printed hit points
        ("atk", np.int8),  # attack; 0 = cannot attack
        ("def_", np.int8),  # defence (CSV column ``def``); attackable only by ATK > DEF
        ("draw", np.int8),  # cards drawn by a draw action; 0 = cannot draw
        ("score", np.int8),  # points from a score action; 0 = cannot score
        ("keywords", np.int16),  # Keyword bitmask
        ("placeholder", np.int8),  # 1 = numbers guessed (R1: excluded unless include_placeholders)
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
