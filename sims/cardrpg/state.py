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
from sims.core.jit import hot, kernel
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
    SPADE_ACE = 13  # Ace classes exist only with class_ranks = jqka (classic)
    HEART_ACE = 14
    DIAMOND_ACE = 15
    CLUB_ACE = 16


class ClassRanks(IntEnum):
    """Which cards may be the class card (R22; classic: Aces too)."""

    JQK = 0
    JQKA = 1


class StatRoll(IntEnum):
    """How STR and HP are rolled (R2; classic: a d6 with 1s and 2s rerolled)."""

    ADVANCED = 0
    D6_REROLL_LOW = 1


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


class BothOutOrder(IntEnum):
    """Who strikes first after both sides ran out and got fresh cards (RULES.md §7 Q4)."""

    ALTERNATE = 0  # the turns go on alternating: the monster's empty turn was lost, the player strikes next
    FIRST_STRIKER = 1  # the side that struck first in the battle strikes first again (rules_version 1)


class EmptyHand(IntEnum):
    """A player's attack turn with an empty hand (RULES.md §7 Q13)."""

    BUY_BACK = 0  # the turn is kept while gold (or the A-diamond) can buy a card back into the hand
    LOSE_TURN = 1  # lost unless a Spade or the A-spade can be played (rules_version 1)


class AceClubSet(IntEnum):
    """Which hand cards the A-club's blitz plays (R14, RULES.md §7 Q1)."""

    ANY_SET = 0  # any set the player chooses, one card at least (Phase.BLITZ)
    WHOLE_HAND = 1  # the whole hand (rules_version 1)


class JackDraws(IntEnum):
    """A Jack character's two victory cards (R13, R16, RULES.md §7 Q9)."""

    ONE_AT_A_TIME = 0  # each is its own required draw: the first is taken even if the second cannot be
    BOTH_OR_NONE = 1  # one required draw of two cards (rules_version 1)


class Pick(IntEnum):
    """Which hand cards one attack plays (``combat.hand_attack``)."""

    RANK = 0  # a combo: some cards of one combo key (R8)
    WHOLE_HAND = 1  # the whole hand (the A-club under ace_club_set = whole_hand)
    CHOSEN = 2  # the cards chosen in BLITZ (the A-club, R14)


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


# Ace power bits as plain ints: Numba types IntFlag members as opaque enums.
A_SPADES, A_HEARTS, A_DIAMONDS, A_CLUBS = (
    int(AcePower.SPADES),
    int(AcePower.HEARTS),
    int(AcePower.DIAMONDS),
    int(AcePower.CLUBS),
)


# -- card data ----------------------------------------------------------------------------------------


class Suit(IntEnum):
    """Suits in the rulebook's tie order; NONE for Jokers."""

    SPADE = 0
    HEART = 1
    DIAMOND = 2
    CLUB = 3
    NONE = 4


# An Ace's power bit is ``1 << suit`` (``zones.is_ace_power`` relies on it: one compiled version for every suit).
assert [1 << suit for suit in range(Suit.NONE)] == [A_SPADES, A_HEARTS, A_DIAMONDS, A_CLUBS]


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

# -- in-game state (kernel author; see sims/cardinger/state.py for why one record) ------------------


class Lane(IntEnum):
    """RNG lanes of one character: one per concern, so paired runs stay paired (DESIGN.md)."""

    SETUP = 0  # character creation dice (d6), the diceless creation deck
    SHUFFLE = 1  # session shuffles, Joker reshuffles
    DICE = 2  # monster HP and level-up dice
    THEFT = 3  # theft chance
    BOT = 4  # the bot's choices
    SPARE = 5


class Phase(IntEnum):
    """Where the session stands. PLAYER .. PRE_STRIKE and BLITZ wait for the bot; the rest run alone."""

    PLAYER = 0  # the player's attack turn: Inventory cards, attacks, buy-backs, END (R8, R14, R15)
    BETWEEN = 1  # after a battle: buy-backs, sell, reveal the top card to buy, quit or go on (R15, R16)
    BUY = 2  # the revealed top card: buy it or let it be discarded (R15)
    KING_KEEP = 3  # a King character died: keep the hand or discard it (R18)
    PRE_STRIKE = 4  # a Jack monster is about to strike first: A-spade now or not (R14)
    OVER = 5  # the session (and, when it is the last, the character's run) has ended
    BATTLE_START = 6
    MONSTER = 7  # the monster's attack turn (R10)
    SESSION_END = 8
    BLITZ = 9  # the A-club was used: choose the hand cards of its attack, then END (R14, ace_club_set = any_set)


class ActionKind(IntEnum):
    """What an encoded action does (``action = kind << 12 | a << 6 | b``)."""

    END = 0  # PLAYER: end the attack turn; BETWEEN: go on to the next battle; BLITZ: make the chosen attack
    ATTACK = 1  # a = rank, b = how many cards of that rank (a combo, R8); BLITZ: add them to the attack
    SPADE = 2  # a = Inventory index: bonus damage (R14)
    CLUB = 3  # a = Inventory index: one more attack this turn (R14)
    ACE_SPADE = 4  # a = Inventory index: instant kill (R14)
    ACE_CLUB = 5  # a = Inventory index: blitz, any hand cards as one attack (R14; then BLITZ, or the whole hand)
    BUYBACK = 6  # a = discard-pile index: buy it back for 1 gold or with the A-diamond (R15)
    SELL = 7  # a = Inventory index: Diamond class sells a number card (R14)
    REVEAL = 8  # BETWEEN: turn up the top card to consider buying it (R15)
    BUY = 9  # BUY: pay and take the revealed card
    PASS = 10  # BUY: decline (the card is discarded); KING_KEEP: discard the hand; PRE_STRIKE: no A-spade
    QUIT = 11  # BETWEEN: end the session voluntarily (R16)
    KEEP = 12  # KING_KEEP: keep the hand


class EventKind(IntEnum):
    """Replay-log events (``EVENT_DTYPE``); the fields each kind uses are in its comment."""

    CHARACTER = 0  # card = class card, value = STR, extra = max HP
    SESSION = 1  # value = session index, extra = level
    DEAL = 2  # value = cards dealt, extra = draw pile left
    MONSTER = 3  # card = monster, value = HP, extra = XP value
    PLAYER_ATTACK = 4  # card = first card of the combo, value = damage, extra = monster HP left
    RANDOM_TURN = 5  # card = turned-up card, value = multiplier
    SPADE = 6  # card, value = damage, extra = monster HP left
    CLUB = 7  # card
    ACE = 8  # card = the Ace used
    MONSTER_ATTACK = 9  # card = card ending the chain, value = damage, extra = HP left
    JOKER_ATTACK = 10  # card = Joker
    SAVED = 11  # card = Heart or A-heart, value = HP after
    THEFT = 12  # card = stolen card (-1: top of the draw pile)
    VICTORY = 13  # card = monster, value = XP gained, extra = XP total
    INVENTORY = 14  # card = card entering, value = gold gained
    LEVEL_UP = 15  # value = new level, extra = STR
    DEATH = 16  # card = monster, value = 1 if the hand was kept
    BUYBACK = 17  # card
    BOUGHT = 18  # card, value = price
    SOLD = 19  # card, value = gold
    REVEALED = 20  # card = top card turned up to buy
    BOTH_OUT = 21  # value = cards drawn
    SESSION_END = 22  # value = EndReason, extra = kills
    JOKER_SHUFFLE = 23  # value = cards put under the draw pile


META_DTYPE = np.dtype(
    [
        ("game", np.int64),  # current session id (character * n_sessions + session)
        ("character", np.int64),
        ("seed", np.uint64),
        ("session", np.int16),  # 0-based session index
        ("n_cards", np.int16),
        ("n_faces", np.int16),  # face cards (J, Q, K) in the deck, the class card included
        ("n_jokers", np.int16),  # Jokers in the deck
        ("battle", np.int16),  # battles flipped this session
        ("exchange", np.int16),  # exchanges in the current battle
        ("phase", np.int8),
        ("bot", np.int8),
        ("end_reason", np.int8),
        ("sick", np.int8),  # 1 = the next battle uses the summoning-sickness deal (R4)
        ("kept_hand", np.int8),  # 1 = a King kept his hand at the last death (R18)
        ("jack_first", np.int8),  # 1 = the monster strikes first this battle (E14)
        ("attacks_left", np.int8),  # hand attacks left this player turn (1 + Clubs)
        ("attacks_made", np.int8),  # hand attacks made this player turn
        ("luck_used", np.int8),  # A-diamond buy-backs this battle
        ("revealed", np.int16),  # card turned up to buy (BUY phase)
        ("log_on", np.int8),
        ("log_n", np.int32),
    ],
    align=True,
)

HERO_DTYPE = np.dtype(
    [
        ("class_card", np.int8),  # ClassCard
        ("class_id", np.int16),  # the class card's id (out of the deck)
        ("rank", np.int8),  # 11 / 12 / 13
        ("suit", np.int8),  # Suit
        ("level", np.int16),
        ("str", np.int16),
        ("hp_max", np.int16),
        ("hp", np.int16),
        ("xp", np.int16),
        ("gold", np.int32),
    ],
    align=True,
)

MONSTER_DTYPE = np.dtype(
    [
        ("card", np.int16),  # NO_CARD between battles
        ("kind", np.int8),  # MonsterKind
        ("hp", np.int16),
        ("hp_start", np.int16),
        ("xp", np.int16),  # XP for killing it
    ],
    align=True,
)

PILES_DTYPE = np.dtype(
    [
        ("draw", np.int16, (RING,)),  # ring buffer: bottom at draw_lo, top at draw_lo + draw_n - 1
        ("draw_lo", np.int16),
        ("draw_n", np.int16),
        ("hand", np.int16, (MAX_CARDS,)),
        ("hand_n", np.int16),
        ("inv", np.int16, (MAX_CARDS,)),  # Inventory, in the order cards entered
        ("inv_n", np.int16),
        ("discard", np.int16, (MAX_CARDS,)),  # newest last
        ("discard_n", np.int16),
        ("bone", np.int16, (MAX_CARDS,)),  # bone pile
        ("bone_up", np.int8, (MAX_CARDS,)),  # 1 = face up (a kill), 0 = face down (a death)
        ("bone_n", np.int16),
        ("bonus", np.int16, (2,)),  # cards hidden under the monster
        ("bonus_n", np.int16),
        ("mpile", np.int16, (MAX_CARDS,)),  # monster attack pile, top = last
        ("mpile_n", np.int16),
        ("play", np.int16, (MAX_CARDS,)),  # attack cards in play (both sides)
        ("play_n", np.int16),
        ("work", np.int16, (MAX_CARDS,)),  # scratch for shuffles
        ("blitz", np.int8, (16,)),  # BLITZ: hand cards chosen so far per combo key (rank 1-14)
        ("blitz_n", np.int16),  # BLITZ: hand cards chosen so far
    ],
    align=True,
)

MAX_BATTLE_ROWS = 16384  # battle rows kept per character (n_sessions x max_battles must fit)

TALLY_DTYPE = np.dtype(
    [
        ("game", GAME_DTYPE),  # the current session's games row
        ("seat", SEAT_DTYPE),  # and its seats row
        ("cards", CARD_RECORD_DTYPE, (MAX_CARDS,)),  # the current session's card rows, by card id
        ("touched", np.int8, (MAX_CARDS,)),  # 1 = card has a row this session
        ("games", GAME_DTYPE, (MAX_SESSIONS,)),  # the character's finished sessions
        ("seats", SEAT_DTYPE, (MAX_SESSIONS,)),
        ("n_sessions", np.int16),
        ("card_rows", CARD_RECORD_DTYPE, (MAX_SESSIONS * MAX_CARDS,)),
        ("n_card_rows", np.int32),
        ("battles", TURN_DTYPE, (MAX_BATTLE_ROWS,)),  # every battle of the character, in order
        ("n_battles", np.int32),
        ("row", np.int32),  # index of the current battle's row
    ],
    align=True,
)

SCRATCH_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (N_LANES,)),
        ("legal", np.int32, (MAX_ACTIONS,)),
        ("n_legal", np.int32),
        ("weights", np.float64, (N_WEIGHTS,)),
        ("seen", np.int16, (MAX_CARDS,)),
        ("count", np.int16, (16,)),  # cards per rank in hand (bots)
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
        ("hero", HERO_DTYPE),
        ("monster", MONSTER_DTYPE),
        ("piles", PILES_DTYPE),
        ("tally", TALLY_DTYPE),
        ("scratch", SCRATCH_DTYPE),
    ],
    align=True,
)
STATE_DTYPE = np.dtype((np.record, STATE_DTYPE))


@kernel
def load_params(q, params: Params) -> None:
    """Copy every field of ``params`` into the ``PARAMS_DTYPE`` record ``q`` in place."""
    q.class_card, q.n_sessions, q.death_ends_session = params.class_card, params.n_sessions, params.death_ends_session
    q.hand_refill, q.hp_reset, q.face_combo = params.hand_refill, params.hp_reset, params.face_combo
    q.random_attack_joker, q.both_out = params.random_attack_joker, params.both_out
    q.both_out_order, q.empty_hand = params.both_out_order, params.empty_hand
    q.ace_club_set, q.jack_draws = params.ace_club_set, params.jack_draws
    q.theft_chance_pct, q.affinity_includes_aces = params.theft_chance_pct, params.affinity_includes_aces
    q.buyback_destination, q.ace_diamond_buybacks = params.buyback_destination, params.ace_diamond_buybacks
    q.xp_overflow, q.dice, q.diceless_king_joker = params.xp_overflow, params.dice, params.diceless_king_joker
    q.monster_hp, q.ace_powers, q.max_battles = params.monster_hp, params.ace_powers, params.max_battles
    q.jokers, q.class_ranks, q.stat_roll = params.jokers, params.class_ranks, params.stat_roll
    q.class_powers, q.inventory = params.class_powers, params.inventory


@kernel
def new_state(cards: np.ndarray, params: Params) -> np.ndarray:
    """Return a zeroed ``STATE_DTYPE[1]`` holding ``params`` and a copy of ``cards``."""
    state = np.zeros(1, STATE_DTYPE)
    s = state[0]
    load_params(s.params, params)
    s.meta.n_cards = cards.shape[0]
    for c in range(cards.shape[0]):
        s.cards[c] = cards[c]
        s.meta.n_faces += s.cards[c].kind == Kind.FACE
        s.meta.n_jokers += s.cards[c].kind == Kind.JOKER
    return state


@kernel
def encode(kind: int, a: int, b: int) -> int:
    """Return the action ``kind`` with arguments ``a`` (rank or index) and ``b`` (count)."""
    return (kind << 12) | (a << 6) | b


@hot
def action_kind(action: int) -> int:
    """Return the ActionKind of an encoded action."""
    return action >> 12


@hot
def action_a(action: int) -> int:
    """Return the first argument of an encoded action."""
    return (action >> 6) & 63


@hot
def action_b(action: int) -> int:
    """Return the second argument of an encoded action."""
    return action & 63
