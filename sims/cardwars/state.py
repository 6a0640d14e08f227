"""Card Wars enums, the card table, result records (the in-game state record is in ``board``).

Card ids are rows of the prepared pool: one row per *distinct* card of the four starter
decks (87), plus the counterfactual baseline row ``prepare_pool`` appends in value mode.
Abilities are data (``abilities.csv``, RULES.md §3): the loader writes each card's stat
modifiers, aura, trigger and up to two effects into the hidden fields of ``CARD_DTYPE``.
"""

from enum import IntEnum

import numpy as np

N_LANES = 4  # lanes per side (a lane spans both sides)
N_TYPES = 5  # Landscape types a board Landscape can have (Rainbow is a card colour, not a Landscape)
N_STARTERS = 4  # starter decks in cards.csv
MAX_DECK = 64  # largest deck the kernel supports (rulebook: 40 or more)
MAX_CARDS = 128  # largest card pool the kernel supports (after prepare_pool)
MAX_TURNS = 1000  # largest max_turns (turn rows kept per game)


class CardType(IntEnum):
    """Column ``type`` of cards.csv."""

    CREATURE = 0
    BUILDING = 1
    SPELL = 2


class Landscape(IntEnum):
    """Column ``landscape`` of cards.csv; the first five are board Landscape types (R7)."""

    BLUE_PLAINS = 0
    CORNFIELD = 1
    USELESS_SWAMP = 2
    SANDYLANDS = 3
    NICELANDS = 4
    RAINBOW = 5  # a card colour: played with any face-up Landscapes; never a Landscape type
    ANY = 6  # abilities.csv filter: every card


class StarterDeck(IntEnum):
    """The four decks of cards.csv (column ``deck``), in the order of ``DeckChoice``."""

    FINN = 0
    JAKE = 1
    BMO = 2
    RAINICORN = 3


STARTER_LANDSCAPE = (Landscape.BLUE_PLAINS, Landscape.CORNFIELD, Landscape.USELESS_SWAMP, Landscape.SANDYLANDS)


class DeckChoice(IntEnum):
    """Which starter deck a seat plays (params ``deck_0``/``deck_1``, R1)."""

    RANDOM = 0  # uniform over the four, per game, on the set-up lane
    FINN = 1
    JAKE = 2
    BMO = 3
    RAINICORN = 4


class DeckName(IntEnum):
    """The deck a seat played (``games.deck_0``/``deck_1``, ``seats.deck``)."""

    FINN = 0
    JAKE = 1
    BMO = 2
    RAINICORN = 3
    CUSTOM_0 = 4  # seat 0's list from a --decks file
    CUSTOM_1 = 5  # seat 1's list from a --decks file (CUSTOM_0 when both seats play the same list)


class DeckBuilder(IntEnum):
    """Where decks come from."""

    STARTER = 0  # deck_0 / deck_1 (random or named starter decks)
    FIXED = 1  # the lists given by the run (--decks FILE --deck-names a,b)


class FirstPlayer(IntEnum):
    """Who takes the first turn (R2)."""

    RANDOM = 0
    PREVIOUS_WINNER = 1  # cool_guy_series: the last game's winner, within series of series_length games


class OnOff(IntEnum):
    """A rule switched on or off."""

    OFF = 0
    ON = 1


class LandscapeCheck(IntEnum):
    """Which cost the Landscape requirement uses (R7)."""

    PRINTED_COST = 0
    PAID_COST = 1


class AdjacentTargets(IntEnum):
    """What "a Creature in an adjacent Lane" reaches (R13: Beach Mummy, Woad Mobile Home)."""

    BOTH_SIDES = 0
    OWN_SIDE = 1


class RepeatTargets(IntEnum):
    """Patchy the Pumpkin's repeated damage (R15)."""

    MANDATORY = 0  # repeat while a legal target not yet chosen remains (own Creatures included)
    UP_TO = 1  # the player may stop early


class SiloUnplayable(IntEnum):
    """Where Silo of Truth's stolen card goes when it cannot be played (R18)."""

    DISCARD = 0  # its owner's discard pile
    THIEF_HAND = 1  # the thief's hand


class EmptyPick(IntEnum):
    """An untargeted "return a random/chosen card from your discard pile" with nothing to pick (RULES.md §8)."""

    ALLOWED = 0  # literal: only targets are required (R15); the ability may be used and does nothing
    FORBIDDEN = 1  # the ability cannot be used without a card to pick


class TurnBonus(IntEnum):
    """How a Spell's "has +N ATK this turn" over a group of Creatures counts (RULES.md §8)."""

    CONTINUOUS = 0  # literal: recounted at every moment of the turn, Creatures entering later included
    AT_RESOLUTION = 1  # counted once when the Spell resolves, for the Creatures in play then


class ValueBaseline(IntEnum):
    """The card that replaces the holder's copies in counterfactual value arm 1 (issue 9)."""

    VANILLA = 0  # a Creature of the same cost and Landscape with the four decks' vanilla stats, no ability
    NO_ABILITY = 1  # the same card (type, cost, Landscape, ATK/DEF) with its ability removed


class PlayedLane(IntEnum):
    """The lane a card was first played into (``cards.first_lane``)."""

    NONE = 0  # never played, or a Spell
    LANE_1 = 1
    LANE_2 = 2
    LANE_3 = 3
    LANE_4 = 4


class EndReason(IntEnum):
    """Why a game ended (``games.end_reason``)."""

    HP_ZERO = 0
    MUTUAL_HP_ZERO = 1
    TIMEOUT = 2


# -- abilities.csv vocabulary (RULES.md §3) ------------------------------------------------


class Part(IntEnum):
    """Column ``part`` of abilities.csv: which piece of a card's text a row encodes."""

    NONE = 0  # no ability (vanilla Creature)
    STAT = 1  # a continuous ATK/DEF modifier of the card itself
    AURA = 2  # a continuous ATK/DEF modifier the card gives other Creatures
    SPECIAL = 3  # a static rule of its own (Cool Dog, Immortal Maize Walker, Palace of Bone)
    PLAY_IF = 4  # the card may only be played while the condition holds
    DISCOUNT = 5  # the card costs fewer Actions while / per the count
    COST = 6  # an extra cost of the card's play, Floop or activation
    ENTERS = 7  # when it enters play
    LEAVES = 8  # when it leaves play
    TURN_START = 9  # at the start of its controller's turn
    ALLY_ENTERS = 10  # whenever another Creature (of ``land``) enters play under your control
    ANY_ENTERS = 11  # whenever it or another Creature enters play under your control
    MOVES = 12  # whenever it changes Lanes
    FLOOP = 13  # its FLOOP ability
    ACTIVATE = 14  # an activated ability without Floop (Actions or "destroy this" as its cost)
    SPELL = 15  # what a Spell does


TRIGGER_PARTS = (
    Part.ENTERS,
    Part.LEAVES,
    Part.TURN_START,
    Part.ALLY_ENTERS,
    Part.ANY_ENTERS,
    Part.MOVES,
    Part.FLOOP,
    Part.ACTIVATE,
    Part.SPELL,
)


class Stat(IntEnum):
    """Which stat a STAT/AURA row changes."""

    NONE = 0
    ATK = 1
    DEF = 2


class Mode(IntEnum):
    """How a count becomes a multiplier: per ``n`` (count // n), or 1/0 by a threshold."""

    PER = 0
    AT_LEAST = 1
    AT_MOST = 2


class Count(IntEnum):
    """What a row counts (``land`` filters Landscapes or Creatures; "own" = the card's controller)."""

    ONE = 0  # always 1
    OWN_LANDSCAPES = 1  # face-up Landscapes of ``land`` you control
    ALL_LANDSCAPES = 2  # face-up Landscapes of ``land`` on both sides
    ADJACENT_LANDSCAPES = 3  # your face-up Landscapes of ``land`` in Lanes adjacent to this card's Lane
    LANDSCAPE_TYPES = 4  # different face-up Landscape types you control
    OWN_OTHER_CREATURES = 5  # other Creatures of ``land`` you control
    OWN_LAND_CREATURES = 6  # Creatures of ``land`` you control
    OWN_COPIES = 7  # Creatures you control with this card's name (itself included)
    OWN_FLOOPED = 8  # Flooped Creatures you control
    OWN_DISCARD = 9  # cards in your discard pile
    OPPONENT_HAND = 10  # cards in the opponent's hand
    OPPOSING_IN_LANE = 11  # opposing Creatures in this Lane (0 or 1)
    OWN_SPELLS_THIS_TURN = 12  # Spells you played this turn (0 on the opponent's turn)
    OWN_OTHER_ENTERED_THIS_TURN = 13  # other Creatures of ``land`` that entered play under you during your turn
    OWN_EMPTY_LANES = 14  # your Lanes without a Creature
    ENTERED_THIS_TURN = 15  # Creatures that entered play this turn, both sides
    ADJACENT_ENTERED = 16  # Creatures that entered play this turn into Lanes adjacent to the target
    OWN_BUILDINGS_IN_LANE = 17  # your Buildings in this card's Lane (0 or 1)
    OWN_CREATURES_PLAYED = 18  # Creatures you played this turn (before this one)


class AuraTo(IntEnum):
    """Which Creatures an AURA row reaches (the last two reach anywhere: ``stats.refresh`` scans for them)."""

    NONE = 0
    ADJACENT_OWN = 1  # your Creatures in Lanes adjacent to it (X-Large Spirit Soldier)
    OWN_IN_LANE = 2  # your Creature in its Lane (Buildings)
    OWN_ENTERED_THIS_TURN = 3  # your Creatures of ``land`` that entered play during your turn (Shark)
    MOVED_CREATURES = 4  # every Creature that changed Lanes this turn, both sides (Punk Cat)


class Special(IntEnum):
    """Static rules with code of their own (RULES.md §3)."""

    NONE = 0
    COOL_DOG = 1  # R14
    TRIPLE_ON_CORNFIELD = 2  # Immortal Maize Walker (R22)
    PALACE_OF_BONE = 3  # R22


class Cost(IntEnum):
    """Extra costs (column ``effect`` of a COST row; ``actions`` sets the Action cost instead)."""

    NONE = 0
    DISCARD_CARD = 1  # discard a card from hand (Field Reaper, paid on play)
    DESTROY_SELF = 2  # destroy this Creature (Green Mermaid, Mace Stump)
    DESTROY_OWN_CREATURE = 3  # destroy one of your Creatures, this one included (Dr. Death)
    ACTIONS = 4  # pay ``amount`` Actions (Uni-Knight, Gray Eyebat, Silo of Truth, Spirit Tower)


class Effect(IntEnum):
    """What an effect row does; the first ones are shared patterns, the rest unique cards."""

    NONE = 0
    DAMAGE = 1  # amount x count damage to the target(s)
    DRAW = 2  # the target player(s) draw amount x count cards
    MILL = 3  # top amount x count cards of your deck to your discard pile
    DISCARD = 4  # the opponent discards amount x count cards of their choice
    TURN_ATK = 5  # +amount x count ATK this turn
    HEAL = 6  # "gains 1 DEF": remove 1 damage, or +1 DEF for good on an undamaged Creature (R12)
    GAIN_ACTION = 7  # +amount x count Actions this turn
    RETURN_RANDOM = 8  # a random card of the filter from your discard pile to your hand
    BOUNCE = 9  # return the target Creature to its owner's hand
    DESTROY = 10  # destroy the target
    FLIP_DOWN = 11  # flip the target face-up Landscape of ``land`` face down
    FLIP_UP = 12  # flip one of your face-down Landscapes face up
    MOVE_OWN = 13  # move one of your Creatures to one of your empty Lanes
    READY_FLOOPED = 14  # you may ready one of your Flooped Creatures (Psionic Architect)
    FIELD_REAPER = 15
    SILO = 16  # Silo of Truth (R18)
    RECLAIM = 17  # Reclaim Landscape
    GREEN_MERMAN = 18
    OGRE_GAS = 19
    SCHOOLHOUSE = 20
    MOVE_INTO_LANE = 21  # Woad Mobile Home
    SPIRIT_TOWER = 22
    MS_MUMMY = 23
    COFFIN = 24  # Unempty Coffin
    ZAZO = 25  # ZaZo's Magic Seeds
    RETURN_COST0 = 26  # Red Eyeling
    SPELL_TO_DECK_TOP = 27  # Heavenly Gazer


class Target(IntEnum):
    """Who or what an effect row reaches; "chosen" ones take a target from the action."""

    NONE = 0
    SELF = 1  # the card itself
    PLAYER = 2  # its controller
    EACH_PLAYER = 3  # both players, the controller first
    OPPONENT = 4  # the controller's opponent
    OPPOSING_CREATURES = 5  # every opposing Creature
    ALL_CREATURES = 6  # every Creature, both sides
    CREATURE = 7  # chosen: any Creature
    OPPOSING_IN_LANE = 8  # the opposing Creature in this Lane (required)
    CREATURE_IN_LANE = 9  # chosen: a Creature in this Lane, either side (R13)
    CREATURE_IN_LANE_OPTIONAL = 10  # as CREATURE_IN_LANE, or none ("you may")
    DISTINCT_CREATURES = 11  # chosen: amount x count different Creatures (Patchy, R15)
    OWN_CREATURES = 12  # each of your Creatures
    OWN_LAND_CREATURES = 13  # each of your Creatures of ``land``
    MOVED_CREATURES = 14  # every Creature that changed Lanes this turn, both sides
    OWN_LAND_CREATURE = 15  # chosen: one of your Creatures of ``land``
    LAND_CREATURE = 16  # chosen: a Creature of ``land``, either side
    CREATURE_ADJACENT_LANE = 17  # chosen: a Creature in a Lane adjacent to this one (R13)
    OWN_IN_LANE = 18  # your Creature in this Lane
    BUILDING_IN_LANE = 19  # chosen: a Building in this Lane, either side
    LANDSCAPE_IN_LANE = 20  # chosen: a face-up Landscape of ``land`` in this Lane, either side
    OWN_LANDSCAPE = 21  # chosen: one of your face-up Landscapes of ``land``
    OWN_FACE_DOWN = 22  # chosen: one of your face-down Landscapes
    CREATURE_CARD = 23  # random pick filter: a Creature card of ``land``
    ANY_CARD = 24  # random pick filter: any card of ``land``


# -- the card table --------------------------------------------------------------------------

# Shown in the card dimension (cards.parquet); the rest of CARD_DTYPE is kernel encoding.
SHOWN_FIELDS = ("type", "land", "cost", "atk", "def_", "floop", "in_finn", "in_jake", "in_bmo", "in_rainicorn")

_ROW = [("amount", np.int8), ("count", np.int8), ("land", np.int8), ("n", np.int8), ("mode", np.int8)]


def _slot(prefix: str, fields: list[tuple[str, type]]) -> list[tuple[str, type]]:
    return [(f"{prefix}_{name}", dtype) for name, dtype in fields]


CARD_DTYPE = np.dtype(
    [
        ("type", np.int8),  # CardType
        ("land", np.int8),  # Landscape (RAINBOW for Rainbow cards)
        ("cost", np.int8),  # printed Action cost = Landscapes of its type needed (R7)
        ("atk", np.int8),  # printed ATK (Creatures)
        ("def_", np.int8),  # printed DEF (CSV column ``def``)
        ("floop", np.int8),  # 1 = has a FLOOP ability
        ("in_finn", np.int8),  # copies in each starter deck
        ("in_jake", np.int8),
        ("in_bmo", np.int8),
        ("in_rainicorn", np.int8),
        ("baseline", np.int8),  # 1 = the counterfactual baseline row appended by prepare_pool
        # two STAT rows: stat (Stat) + amount x factor(count, land, n, mode)
        ("s1_stat", np.int8),
        *_slot("s1", _ROW),
        ("s2_stat", np.int8),
        *_slot("s2", _ROW),
        # one AURA row
        ("au_stat", np.int8),  # Stat
        ("au_amount", np.int8),
        ("au_to", np.int8),  # AuraTo
        ("au_land", np.int8),  # Landscape filter of the Creatures reached
        ("special", np.int8),  # Special
        ("sp_land", np.int8),  # its Landscape (TRIPLE_ON_CORNFIELD: the Landscape it must sit on)
        # PLAY_IF and DISCOUNT rows
        ("pf_on", np.int8),
        *_slot("pf", _ROW),
        ("dc_on", np.int8),
        *_slot("dc", _ROW),
        # costs of the trigger's use (or of the play, for DISCARD_CARD)
        ("xcost", np.int8),  # Cost (extra cost)
        ("act_cost", np.int8),  # Actions paid by an ACTIVATE or FLOOP use
        # the trigger and its two effect rows (resolved in order)
        ("trigger", np.int8),  # Part (one of TRIGGER_PARTS, or NONE)
        ("tland", np.int8),  # ALLY_ENTERS: Landscape filter of the entering Creature
        ("e1_effect", np.int8),
        ("e1_target", np.int8),
        *_slot("e1", _ROW),
        ("e2_effect", np.int8),
        ("e2_target", np.int8),
        *_slot("e2", _ROW),
    ],
    align=True,
)
# 59 bytes of fields in a 64-byte record: a card is one cache line, found at ``c << 6``
CARD_DTYPE = np.dtype(
    {
        "names": CARD_DTYPE.names,
        "formats": [CARD_DTYPE.fields[n][0] for n in CARD_DTYPE.names],
        "offsets": [CARD_DTYPE.fields[n][1] for n in CARD_DTYPE.names],
        "itemsize": 64,
        "aligned": True,
    }
)

# -- result records --------------------------------------------------------------------------

GAME_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game index within the run (0 .. n-1)
        ("seed", np.uint64),  # the game's own seed = hash(root seed, game)
        ("first_seat", np.int8),  # seat that took turn 1
        ("winner", np.int8),  # winning seat; -1 = draw (mutual_hp_zero) or timeout
        ("turns", np.int16),  # turns taken by both players together
        ("end_reason", np.int8),  # EndReason
        ("score_0", np.int16),  # seat 0's Hit Points at the end (may be negative)
        ("score_1", np.int16),  # seat 1's Hit Points at the end
        ("deck_0", np.int8),  # DeckName of seat 0
        ("deck_1", np.int8),  # DeckName of seat 1
    ],
    align=True,
)

SEAT_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("bot", np.int8),  # bot id (index into GameSpec.bots)
        ("score", np.int16),  # Hit Points at the end
        ("won", np.int8),  # 1 = this seat won; 0 = lost, draw or timeout
        ("first", np.int8),  # 1 = this seat took turn 1
        ("deck", np.int8),  # DeckName
        ("mulligan_taken", np.int8),  # 1 = took its mulligan (R5)
        ("damage_to_hero", np.int16),  # damage this seat dealt to the opponent's Hit Points
        ("creatures_destroyed", np.int16),  # opposing Creatures destroyed while this seat was moving
        ("cards_played", np.int16),  # cards played (Silo of Truth's free plays included)
        ("action_draws", np.int16),  # Actions spent on drawing
        ("floops", np.int16),  # Floops (Creatures and Buildings)
        ("activations", np.int16),  # activated abilities used (Action costs or "destroy this")
        ("deck_left", np.int16),  # cards left in the deck at the end
        ("hand_end", np.int16),  # cards in hand at the end
        ("creatures_end", np.int8),  # Creatures it controls at the end
    ],
    align=True,
)

CARD_RECORD_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("card", np.int16),  # card id (row of the prepared pool)
        ("won", np.int8),  # the seat's result, repeated so card metrics need no join
        ("in_opening_hand", np.int8),  # 1 = a copy was in the kept opening hand
        ("first_drawn_turn", np.int16),  # turn a copy first reached the hand (0 = opening hand, -1 = never)
        ("first_played_turn", np.int16),  # turn a copy was first played (-1 = never)
        ("times_played", np.int16),  # copies played (by anyone: Silo of Truth plays count for the owner)
        ("copies", np.int8),  # copies in the deck
        ("times_drawn", np.int16),  # times a copy entered the hand from the deck
        ("first_lane", np.int8),  # PlayedLane: lane of the first play of a Creature or Building (0 = none)
        ("damage_to_creatures", np.int16),  # damage its copies dealt to Creatures while their owner controlled them
        ("damage_to_hero", np.int16),  # damage its copies dealt to Hit Points while their owner controlled them
        ("floops", np.int16),  # times its copies Flooped (or were activated)
        ("times_died", np.int16),  # times a copy was destroyed (not replaced, not returned to hand)
    ],
    align=True,
)

TURN_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("turn", np.int16),  # 1-based global turn
        ("seat", np.int8),  # seat that moved
        ("round", np.int16),  # (turn + 1) // 2
        ("score_0", np.int16),  # Hit Points at the end of the turn (the tempo race)
        ("score_1", np.int16),
        ("creatures_0", np.int8),  # Creatures on each side at the end of the turn
        ("creatures_1", np.int8),
        ("buildings_0", np.int8),
        ("buildings_1", np.int8),
        ("hand_0", np.int8),  # cards in each hand
        ("hand_1", np.int8),
        ("faceup_0", np.int8),  # face-up Landscapes on each side
        ("faceup_1", np.int8),
        ("plays", np.int8),  # cards the mover played this turn
        ("floops", np.int8),  # Floops the mover made this turn
    ],
    align=True,
)
