"""CardRPG Advanced enums, card table dtype, result record dtypes and the state record.

One seat plays against the deck. The state follows the Cardinger pattern (one structured
record ``STATE_DTYPE``; kernels take ``s = state[0]``; whoever allocates ``state`` keeps
it referenced while ``s`` is used).

The 54 cards (ids = rows of ``deck.csv``) are always in exactly one zone: the draw pile
(a ring buffer: cards are drawn from the top and often put under the bottom), the hand,
the Inventory, the discard pile, the bone pile, the monster card, its hidden bonus
cards, its attack pile, the attack cards in play, or the character card.
"""

from enum import IntEnum, IntFlag

import numpy as np

from sims.cardrpg.params import Params
from sims.core.jit import kernel
from sims.core.records import EVENT_DTYPE

# -- choices (Params fields) ------------------------------------------------------------------------


class ClassCard(IntEnum):
    """The character's class card (R22); SWEEP plays class ``character % 12`` (J, Q, K of each suit)."""

    SWEEP = 0
    SPADE_JACK = 1
    SPADE_QUEEN = 2
    SPADE_KING = 3
    HEART_JACK = 4
    HEART_QUEEN = 5
    HEART_KING = 6
    DIAMOND_JACK = 7
    DIAMOND_QUEEN = 8
    DIAMOND_KING = 9
    CLUB_JACK = 10
    CLUB_QUEEN = 11
    CLUB_KING = 12


class HandRefill(IntEnum):
    """When the hand goes back up to STR (R4)."""

    PER_BATTLE = 0
    BOTH_OUT_ONLY = 1


class HpReset(IntEnum):
    """When HP goes back to max (R5)."""

    PER_BATTLE = 0
    NEVER = 1


class FaceCombo(IntEnum):
    """Which face cards combo together (R8)."""

    SAME_RANK = 0
    ANY_FACE = 1


class RandomAttackJoker(IntEnum):
    """A Joker turned up by the player's random attack (R9)."""

    INSTANT_KILL = 0
    NO_DAMAGE = 1


class BothOut(IntEnum):
    """Both sides out of attack cards (R11)."""

    CONTINUE = 0
    FORFEIT = 1


class BuybackDestination(IntEnum):
    """Where a bought-back card goes (R15)."""

    HAND = 0
    DRAW_PILE_BOTTOM = 1


class XpOverflow(IntEnum):
    """XP beyond a level threshold (R17)."""

    LOST = 0
    CARRY = 1


class Dice(IntEnum):
    """How dice are rolled (R20)."""

    D6 = 0
    CARDS = 1


class DicelessKingJoker(IntEnum):
    """A King or Joker drawn as a die (R20)."""

    REDRAW = 0
    SPECIAL = 1


class MonsterHp(IntEnum):
    """How a monster's HP is set (R21)."""

    ROLLED = 0
    PRESET = 1


class AcePower(IntFlag):
    """Ace powers in play (all by default; switching one off is its counterfactual)."""

    SPADES = 1  # A-spade: instant kill
    HEARTS = 2  # A-heart: back to full HP at death, survives a Joker
    DIAMONDS = 4  # A-diamond: luck gem, one buy-back per battle, never spent
    CLUBS = 8  # A-club: blitz, play several ranks as one attack


# -- card data ----------------------------------------------------------------------------------------


class Suit(IntEnum):
    """Suits in the rulebook's tie order; NONE for Jokers."""

    SPADE = 0
    HEART = 1
    DIAMOND = 2
    CLUB = 3
    NONE = 4


class Kind(IntEnum):
    """Card kinds (column ``kind`` of deck.csv)."""

    NUMBER = 0
    FACE = 1
    ACE = 2
    JOKER = 3


RANKS = {"ace": 1, **{str(n): n for n in range(2, 11)}, "jack": 11, "queen": 12, "king": 13, "joker": 14}
JACK, QUEEN, KING, JOKER_RANK = 11, 12, 13, 14

CARD_DTYPE = np.dtype(
    [
        ("suit", np.int8),  # Suit
        ("rank", np.int8),  # 1 ace .. 10, 11 J, 12 Q, 13 K, 14 Joker (RANKS)
        ("value", np.int8),  # 1-10 for Aces and numbers, 0 for face cards and Jokers (R3)
        ("kind", np.int8),  # Kind
    ],
    align=True,
)

# -- results -----------------------------------------------------------------------------------------


class EndReason(IntEnum):
    """Why a session ended (``games.end_reason``, R16)."""

    DRAW_FAILED_HAND = 0
    DRAW_FAILED_MONSTER = 1
    DRAW_FAILED_BONUS = 2
    DRAW_FAILED_ATTACK_PILE = 3
    DRAW_FAILED_INVENTORY = 4
    DRAW_FAILED_RANDOM_ATTACK = 5
    DRAW_FAILED_FRESH_CARDS = 6
    DRAW_FAILED_DICE = 7
    DEATH_ONE_LIFE = 8
    FORFEIT_ONE_LIFE = 9
    VOLUNTARY = 10
    BATTLE_CAP = 11


class MonsterKind(IntEnum):
    """What the monster card is (``turns.monster_kind``)."""

    NUMBER = 0
    ACE = 1
    FACE = 2
    JOKER = 3


class Outcome(IntEnum):
    """How a battle ended (``turns.outcome``)."""

    WON = 0
    DIED = 1
    FORFEIT = 2
    ABANDONED = 3


MAX_CARDS = 54  # the deck
RING = 64  # draw-pile ring buffer size (> MAX_CARDS)
MAX_BATTLES = 2000  # largest max_battles
MAX_SESSIONS = 64  # largest n_sessions
MAX_LEVEL = 10
MAX_EVENTS = 32768
MAX_ACTIONS = 512
N_LANES = 6
N_WEIGHTS = 16
NO_CARD = -1

# HP dice per level (index = level; pocketmod table) and XP needed to reach level + 1 (R2, R17, E4)
HP_DICE = np.array([0, 3, 3, 5, 5, 5, 7, 7, 7, 10, 10], dtype=np.int64)
XP_NEXT = np.array([0, 10, 20, 40, 60, 80, 110, 140, 170, 200, 0], dtype=np.int64)

GAME_DTYPE = np.dtype(
    [
        ("game", np.int64),  # session id: character * n_sessions + session_index
        ("seed", np.uint64),  # the character's seed (all its sessions share it)
        ("end_reason", np.int8),  # EndReason
        ("turns", np.int16),  # battles of the session (the turns table has one row each)
        ("character_id", np.int64),  # the simulated character (game index of the batch)
        ("session_index", np.int16),  # 0-based session of that character
        ("class_card", np.int8),  # ClassCard (never SWEEP)
        ("class_rank", np.int8),  # 11 jack, 12 queen, 13 king
        ("class_suit", np.int8),  # Suit
        ("level_start", np.int8),
        ("level_end", np.int8),  # "level reached"
        ("xp_end", np.int16),
        ("str_end", np.int16),
        ("hp_max_end", np.int16),
        ("gold_end", np.int32),
        ("kills", np.int16),  # face-up bone pile cards (R19)
        ("deaths", np.int16),  # face-down bone pile cards
        ("jokers_killed", np.int8),
        ("battles", np.int16),  # monsters flipped, an abandoned battle included
        ("battles_abandoned", np.int8),
        ("level_ups", np.int8),
        ("heart_saves", np.int16),  # deaths prevented by a Heart or the A-heart
        ("ace_uses", np.int16),
        ("thefts", np.int16),
        ("draw_pile_left", np.int8),
    ],
    align=True,
)

SEAT_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("bot", np.int8),
        ("class_card", np.int8),
        ("damage_dealt", np.int32),
        ("damage_taken", np.int32),
        ("attacks", np.int16),  # hand attacks (a combo is one)
        ("cards_attacked", np.int16),  # hand cards played in attacks
        ("random_attacks", np.int16),  # face cards and Jokers played from hand
        ("criticals_taken", np.int16),  # monster attacks that were critical chains
        ("spades_used", np.int16),
        ("clubs_used", np.int16),
        ("hearts_used", np.int16),
        ("sold", np.int16),  # Inventory cards sold (Diamond class)
        ("buybacks", np.int16),
        ("cards_bought", np.int16),
        ("gold_gained", np.int32),
        ("gold_spent", np.int32),
    ],
    align=True,
)

# One row per session x card that entered the Inventory (or was bought) during the session.
CARD_RECORD_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("card", np.int16),
        ("times_gained", np.int16),  # entered the Inventory (diamonds: turned into gold)
        ("times_used", np.int16),  # played or triggered from the Inventory
        ("times_stolen", np.int16),
        ("times_sold", np.int16),
        ("times_lost", np.int16),  # discarded from the Inventory at a death
        ("damage", np.int32),  # damage as a Spade (or A-spade: the monster's HP left)
        ("hp_restored", np.int32),  # HP from a Heart or the A-heart
        ("gold", np.int32),  # gold gained from it (entering as a Diamond, or sold)
        ("extra_attacks", np.int16),  # attacks it granted as a Club (A-club: blitzes)
        ("kills", np.int16),  # monsters it killed (A-spade)
    ],
    align=True,
)

# One row per battle: core ``turn`` = battle number within the session, ``seat`` = 0.
TURN_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("turn", np.int16),  # battle number (1-based) within the session
        ("seat", np.int8),
        ("level", np.int8),  # character stats at the battle's start
        ("str", np.int16),
        ("hp_max", np.int16),
        ("hand_start", np.int16),
        ("monster_kind", np.int8),  # MonsterKind
        ("monster_rank", np.int8),
        ("monster_card", np.int8),
        ("monster_hp", np.int16),
        ("exchanges", np.int16),
        ("damage_taken", np.int16),
        ("damage_dealt", np.int16),
        ("outcome", np.int8),  # Outcome
        ("xp_gained", np.int16),
        ("gold_gained", np.int16),
        ("inventory_size", np.int8),  # at the battle's end
        ("hp_end", np.int16),
    ],
    align=True,
)
