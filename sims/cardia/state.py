"""Cardia enums, card table dtype, result record dtypes and the in-game state record.

Layout of the state (one structured record, as in Cardinger: see that module's note on
why a record and not a NamedTuple of arrays, and why whoever allocates ``state`` must
keep it referenced while ``s = state[0]`` is used):

    s.params    PARAMS_DTYPE   the rule parameters (int32 fields named as ``Params``)
    s.meta      META_DTYPE     game index, seed, bots, log and script bookkeeping
    s.cards     CARD_DTYPE[MAX_CARDS]   the card table (pool + baseline rows)
    s.pos       POS_DTYPE      the position: everything the rules change (see below)
    s.tally     TALLY_DTYPE    result rows being filled (seats, cards, turns)
    s.scratch   SCRATCH_DTYPE  decision buffers, scripts, the replay log, bot work space

The position ``POS_DTYPE`` is a record of its own so that a bot can copy it
(``s.scratch.sim[i] = s.pos``) and play a hypothetical round on the copy with the very
same rule functions: every rule takes ``(s, g)``, the state for context and the position
``g`` it changes; a copy has ``g.sim = 1`` and writes no records and no log.

The table is a row of encounters ``0 .. n_enc-1`` in the direction of play. Encounter
``k`` holds ``card[k, p]`` for each seat ``p`` with its modifier sum ``mod[k, p]`` and
ongoing tokens ``tok[k, p]``. Results and signets are *derived* (R5): ``res[k]`` and
``sig[k, p]`` are recomputed from influence and the ongoing effects in force after every
change (``table.derive``) and never set by hand, so they cannot drift.
"""

from enum import IntEnum, IntFlag

import numpy as np

from sims.cardia.params import Params
from sims.core.jit import kernel
from sims.core.records import EVENT_DTYPE


class Faction(IntEnum):
    """The four factions; they cycle with influence (1 Rebellion, 2 Academy, 3 Guild, 4 Dynasty, 5 ...)."""

    REBELLION = 0
    ACADEMY = 1
    GUILD = 2
    DYNASTY = 3


class FactionSet(IntFlag):
    """Factions as flags (``faction_decks``: which factions use their deck II cards)."""

    REBELLION = 1
    ACADEMY = 2
    GUILD = 4
    DYNASTY = 8


class Deck(IntEnum):
    """The printed deck of a card (column ``deck`` of cards.csv)."""

    I = 0  # noqa: E741  (the printed mark)
    II = 1


class DeckChoice(IntEnum):
    """Which cards the (identical) decks hold (R2); ``games.deck``."""

    I = 0  # noqa: E741
    II = 1
    MIXED = 2  # per faction, deck II where ``faction_decks`` says so
    SWEEP = 3  # parameter only: game g uses deck I or II by g % 2 (g // 9 % 2 with a location sweep)


class Location(IntEnum):
    """The location in play (R3); ``games.location``."""

    NONE = 0
    SERPENT_TEMPLE = 1
    BAZAAR = 2
    FOUNDERS_DAY = 3
    GRAND_LIBRARY = 4
    SCRAPYARD = 5
    AUCTION_HOUSE = 6
    HAUNTED_CATACOMBS = 7
    FOGGY_SWAMP = 8
    SWEEP = 9  # parameter only: game g uses location g % 9 (every location and none, equally often)


N_LOCATIONS = 9  # none + the eight location cards
LOCATION_DIFFICULTY = (0, 1, 1, 1, 2, 2, 2, 3, 3)  # skulls printed on each location (locations.csv)
DECK_DIFFICULTY = (0, 1, 1)  # deck I 0, deck II 1, a mixed deck counts as deck II (R3)


class MatchFormat(IntEnum):
    """The unit of play (R1)."""

    SINGLE = 0
    BEST_OF_3 = 1


class PostTieWin(IntEnum):
    """What wins after a phase-3 tie at 5 or more signets (R12)."""

    FIVE_PLUS = 0  # still 5 or more, and more than the opponent
    MORE_SIGNETS = 1  # more signets than the opponent at the end of a round


class DjinnCheck(IntEnum):
    """When the Mechanical Djinn's condition is checked (R16)."""

    END_OF_PHASE2 = 0
    IMMEDIATE = 1  # whenever results change
    ONCE = 2  # only at the end of phase 2 of the round right after the Djinn's


class FoggyFinalReveal(IntEnum):
    """Foggy Swamp: the face-down encounter when a player cannot place a card (R17)."""

    DISCARD = 0
    RESOLVE = 1


class ValueBaseline(IntEnum):
    """What replaces the holder's copy of the card under test (balance value)."""

    BLANK = 0  # the same card without its ability (influence and faction kept)
    COUNTERPART = 1  # the card of the other deck with the same influence


VALUE_BASELINES = {
    "blank": "the holder's copy keeps its influence and faction but has no ability",
    "counterpart": "the holder's copy is replaced by the other deck's card of the same influence",
}


class AbilityType(IntEnum):
    """Instant (resolved once) or ongoing (a token; in effect while the token stays)."""

    INSTANT = 0
    ONGOING = 1


class Ability(IntEnum):
    """Every printed ability, by card name (cards.csv ``name`` upper-cased, spaces to ``_``)."""

    NONE = 0  # a baseline card without ability
    HIRED_BLADE = 1
    VOID_MAGE = 2
    SURGEON = 3
    MEDIATOR = 4
    SABOTEUR = 5
    FORTUNE_TELLER = 6
    PALACE_GUARD = 7
    JUDGE = 8
    AMBUSHER = 9
    PUPPETEER = 10
    CLOCKMAKER = 11
    TREASURER = 12
    SWAMP_GUARDIAN = 13
    MAGISTRA = 14
    INVENTOR = 15
    DJINN = 16
    POISONER = 17
    KINESIS_MAGE = 18
    ENVOY = 19
    TAX_COLLECTOR = 20
    REVOLUTIONARY = 21
    LIBRARIAN = 22
    PRODIGY = 23
    ARISTOCRAT = 24
    BLACKMAILER = 25
    ILLUSIONIST = 26
    ENGINEER = 27
    COUNSELOR = 28
    WITCH_KING = 29
    ELEMENTAL = 30
    MECHANICAL_DJINN = 31
    SUCCESSOR = 32


N_ABILITIES = 33
ONGOING_ABILITIES = (
    Ability.MEDIATOR,
    Ability.JUDGE,
    Ability.TREASURER,
    Ability.ARISTOCRAT,
    Ability.COUNSELOR,
    Ability.MECHANICAL_DJINN,
)


class EndReason(IntEnum):
    """Why a game ended (``games.end_reason``; the rulings' "Game result")."""

    SIGNETS = 0
    OPPONENT_CANNOT_PLAY = 1
    BOTH_CANNOT_PLAY = 2
    DJINN = 3
    MECHANICAL_DJINN = 4
    FOUNDERS_DAY = 5
    HAUNTED_CATACOMBS = 6
    DRAW_EQUAL_SIGNETS = 7
    DRAW_SIMULTANEOUS = 8
    TIMEOUT = 9


class Result(IntEnum):
    """The derived result of an encounter (``pos.res[k]``)."""

    SEAT_0 = 0  # seat 0's card wins
    SEAT_1 = 1  # seat 1's card wins
    TIE = 2
    BOTH = 3  # a tie won by both cards (two active Judges, R10)
    HIDDEN = 4  # face down (Foggy Swamp): not a played card yet


class Decision(IntEnum):
    """The choices the rules ask a seat to make; options are ints (see each comment)."""

    PLAY = 0  # card id from hand to place
    VOID_TARGET = 1  # table position (k * 2 + side) of a card with modifiers or tokens
    VOID_MODE = 2  # VoidMode
    GUARD_FACTION = 3  # Faction named by the Palace Guard's owner
    GUARD_DISCARD = 4  # (opponent) card id of the named faction to discard, or NO_CARD to decline
    AMBUSH_FACTION = 5  # Faction
    SWAMP_TARGET = 6  # position of one of your other played cards
    MAGISTRA_TARGET = 7  # position of the card whose instant ability is copied
    INVENTOR_PLUS = 8  # position that gets +3
    INVENTOR_MINUS = 9  # position that gets -3
    KINESIS_FROM = 10  # position of your card giving its modifiers and tokens
    KINESIS_TO = 11  # position of your card receiving them
    ENVOY_TARGET = 12  # position that gets -3, or ENVOY_NEXT (your next card)
    DISCARD_HAND = 13  # card id discarded from hand (Revolutionary, Successor, Blackmailer, Serpent Temple)
    LIBRARIAN_SIGN = 14  # 0 = +2, 1 = -2 on the card just revealed
    PRODIGY_TARGET = 15  # position of your card of influence 8 or less
    BLACKMAIL_FACTION = 16  # Faction named for the opponent's next card
    ILLUSIONIST_TARGET = 17  # position of your card currently losing its encounter
    WITCH_FACTION = 18  # Faction
    ELEMENTAL_CARD = 19  # card id of an instant card in hand
    SCRAPYARD_CARD = 20  # card id put under the deck


N_DECISIONS = 21


class VoidMode(IntEnum):
    """What the Void Mage removes."""

    MODIFIERS = 0
    TOKENS = 1


class ScriptTag(IntEnum):
    """Kinds of scripted choices (scenarios): ``tag << 16 | value``."""

    CARD = 1  # value = card id (a card in hand)
    TARGET = 2  # value = seat * 64 + card id (a card on the table)
    FACTION = 3  # value = Faction
    SIGN = 4  # value = 0 (+2) or 1 (-2)
    NEXT = 5  # the Envoy's "next card you play"
    NONE = 6  # decline (Palace Guard: keep the hand)
    MODE = 7  # value = VoidMode


class Lane(IntEnum):
    """RNG lanes of one game: one per concern, so paired runs stay paired (DESIGN.md)."""

    SETUP = 0  # reserved (deck and location sweeps follow the game index, not a draw)
    SHUFFLE = 1  # + seat: that seat's deck shuffles (set-up, Witch King)
    BOT = 3  # + seat: that seat's bot (random picks, the expert's samples)
    PUPPET = 5  # the Puppeteer's random replacement (R14)


class EventKind(IntEnum):
    """Replay-log events (``EVENT_DTYPE``); the fields each kind uses are in its comment."""

    DECK = 0  # card = a card of the seat's deck, value = position (set-up)
    DEAL = 1  # value = opening hand size, extra = deck size
    ROUND = 2  # value = signets of seat 0, extra = of seat 1 (round start)
    PLACE = 3  # card = card placed, value = 1 if face up first (Fortune Teller), extra = hand size left
    REVEAL = 4  # card = seat 0's card, target = seat 1's card, value/extra = their influence
    ACTIVATE = 5  # card = card whose ability activates, value = Ability
    COPY = 6  # card = the copying card, target = the card copied, value = Ability
    MODIFIER = 7  # card = card modified, target = owner seat, value = change, extra = influence after
    TOKEN = 8  # card = card, target = owner seat, value = tokens after
    RESULT = 9  # value = encounter (1-based), extra = new Result; card/target = the two cards
    DISCARD = 10  # card = card discarded, value = Zone it left
    DRAW = 11  # card = card drawn
    RETURN = 12  # card = card taken back to hand (Swamp Guardian)
    REMOVE = 13  # value = encounter removed (1-based), card/target = its cards
    REPLACE = 14  # card = new card, target = card it replaced (Puppeteer)
    NAME = 15  # value = Faction named, card = the naming card
    PENDING = 16  # value = pending next-card modifier after, extra = Ability that set it
    SHUFFLE = 17  # the seat's deck was shuffled (Witch King), value = deck size
    UNDER = 18  # card = card put under the deck (Scrapyard)
    SIGNETS = 19  # value = signets of seat 0, extra = of seat 1 (round end)
    WIN = 20  # seat = winner (-1 = draw), value = EndReason
    TIMEOUT = 21  # value = rounds played
    FACE_UP = 22  # card = card the opponent placed face up (Fortune Teller)
    LIBRARIAN = 23  # card = card, value = +2 / -2
    MATCH_GAME = 24  # value = game of the match (1-based), extra = games won by seat 0 * 16 + seat 1


class Zone(IntEnum):
    """Where a discarded card came from (``EventKind.DISCARD``)."""

    HAND = 0
    DECK = 1
    TABLE = 2


MAX_CARDS = 48  # card table rows (32 printed + baseline rows appended by prepare_pool)
MAX_DECK = 24  # largest deck (16 in the printed game)
MAX_ROUNDS = 64  # largest max_rounds (encounters on the table at once)
MAX_MATCH_GAMES = 9  # largest match_games_cap
MAX_TURN_ROWS = MAX_ROUNDS * MAX_MATCH_GAMES
MAX_EVENTS = 4096  # replay log capacity per game (a game logs a few hundred)
MAX_LEGAL = 160  # options of one decision (table positions: 2 * MAX_ROUNDS, plus "next")
MAX_SCRIPT = 64  # scripted choices per seat (scenarios)
N_SIMS = 3  # position copies: the expert's template (0) and trial (1), option trials and audits (2)
N_LANES = 6
N_WEIGHTS = 24  # capacity for a bot's weight vector (bots.BotParams fields)

NO_CARD = -1
BOT_PLAY = -2  # a scenario's placement left to the seat's bot ("?")
NO_POS = -1
ENVOY_NEXT = 2 * MAX_ROUNDS  # Envoy option: the next card you play
ANY = -1  # no faction named

CARD_DTYPE = np.dtype(
    [
        ("deck", np.int8),  # Deck: the printed deck (I or II)
        ("influence", np.int8),  # printed influence
        ("faction", np.int8),  # Faction
        ("effect", np.int8),  # Ability of the card (NONE for a baseline row); "ability" in cards.csv is its text
        ("ongoing", np.int8),  # AbilityType: 1 = ongoing (a token keeps it in effect)
        ("baseline", np.int8),  # 1 = a row prepare_pool appended for the value command (never dealt normally)
    ],
    align=True,
)

GAME_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game (or match) index within the run
        ("seed", np.uint64),  # its seed = hash(root seed, game)
        ("first_seat", np.int8),  # always -1: both players choose at once (R4)
        ("winner", np.int8),  # winning seat; -1 = draw or timeout
        ("turns", np.int16),  # rounds played (encounters placed, including any removed later)
        ("end_reason", np.int8),  # EndReason (of the match's last game)
        ("score_0", np.int8),  # signets at the end (of the last game)
        ("score_1", np.int8),
        ("deck", np.int8),  # DeckChoice of this game (I, II or mixed)
        ("location", np.int8),  # Location of this game
        ("difficulty", np.int8),  # the rulebook's skulls: deck (0/1) + location (0-3)
        ("match_games", np.int8),  # games played (1 unless best_of_3)
        ("games_won_0", np.int8),  # games of the match won by each seat
        ("games_won_1", np.int8),
    ],
    align=True,
)

SEAT_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("bot", np.int8),  # bot id (index into GameSpec.bots)
        ("score", np.int8),  # signets at the end
        ("won", np.int8),  # 1 = this seat won the game (match)
        ("encounters_won", np.int8),  # encounters its cards win at the end
        ("abilities_activated", np.int16),  # abilities it activated (its card lost at reveal)
        ("hand_left", np.int8),  # cards left in hand
        ("deck_left", np.int8),  # cards left in deck
        ("cards_discarded", np.int16),  # its cards that went to its discard pile
        ("holder", np.int8),  # 1 = holds the card under test (value_card >= 0 and seat == game % 2)
    ],
    align=True,
)

CARD_RECORD_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("seat", np.int8),
        ("card", np.int16),  # card id (row of the prepared pool)
        ("won", np.int8),  # the seat's result, repeated so card metrics need no join
        ("in_opening_hand", np.int8),  # 1 = among the opening hand
        ("first_drawn_turn", np.int16),  # round it first reached the hand (0 = opening hand, -1 = never)
        ("first_played_turn", np.int16),  # round it was first placed (-1 = never)
        ("times_played", np.int8),  # times placed (a Swamp Guardian return allows a second time)
        ("match_game", np.int8),  # game of the match (1 unless best_of_3)
        ("reveals_won", np.int8),  # its encounter won at reveal
        ("reveals_lost", np.int8),  # lost at reveal (so its ability activated)
        ("reveals_tied", np.int8),  # tied at reveal
        ("activations", np.int8),  # its ability activated (lost at reveal, or activated by Illusionist)
        ("copied", np.int8),  # its ability copied by Magistra or Elemental
        ("signets_end", np.int8),  # signets on it at the end
        ("winning_end", np.int8),  # 1 = on the table and winning its encounter at the end
        ("flips", np.int8),  # times its encounter's result changed after the reveal
        ("discarded", np.int8),  # times it went to the discard pile
        ("returned", np.int8),  # times taken back to hand (Swamp Guardian)
    ],
    align=True,
)

TURN_DTYPE = np.dtype(
    [
        ("game", np.int64),
        ("turn", np.int16),  # round, 1-based (counting on through the games of a match)
        ("seat", np.int8),  # always -1: no seat moves alone
        ("match_game", np.int8),  # game of the match
        ("score_0", np.int8),  # signets at the end of the round
        ("score_1", np.int8),
        ("hand_0", np.int8),  # cards in hand at the end of the round
        ("hand_1", np.int8),
        ("deck_0", np.int8),  # cards in deck at the end of the round
        ("deck_1", np.int8),
        ("encounters", np.int8),  # encounters on the table
        ("reveal", np.int8),  # Result of this round's reveal (before abilities); 4 = nothing revealed
        ("activated", np.int8),  # seat that activated an ability this round (-1 none)
    ],
    align=True,
)

PARAMS_DTYPE = np.dtype([(name, np.int32) for name in Params._fields], align=True)

META_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game (match) index of the run
        ("seed", np.uint64),  # the game's seed
        ("n_cards", np.int16),  # rows of ``cards`` in use
        ("bots", np.int8, (2,)),  # bot id of each seat
        ("log_on", np.int8),  # 1 = write events to scratch.log
        ("log_n", np.int32),  # events written
        ("scripted", np.int8),  # 1 = choices come from scratch.script (scenarios), not bots
        ("stop_phase3", np.int8),  # 1 = a scenario stops the round before phase 3
        ("bot_seat", np.int8, (2,)),  # 1 = in a scenario, this seat's choices come from its bot
        ("script_error", np.int8),  # 0 ok; 1 illegal scripted choice; 2 script ran out; 3 wrong kind
        ("error_seat", np.int8),  # seat, decision and script entry of the first script error
        ("error_kind", np.int8),
        ("error_index", np.int16),
        ("checking", np.int8),  # 1 = audit every decision (conformance)
        ("decisions", np.int64),  # audit: decisions taken
        ("illegal", np.int64),  # audit: options chosen outside the legal list
        ("match_game", np.int8),  # game of the match being played (1-based)
        ("turn_base", np.int16),  # rounds played in earlier games of the match
        ("games_won", np.int8, (2,)),
        ("holder", np.int8),  # seat holding the card under test (-1 none)
    ],
    align=True,
)

POS_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (N_LANES,)),  # random lanes (see Lane); a copy carries its own
        ("sim", np.int8),  # 1 = a bot's look-ahead copy: no records, no log
        ("round_no", np.int16),  # rounds begun, 1-based ("round" would clash with np.record.round)
        ("n_enc", np.int16),  # encounters on the table
        ("cur", np.int16),  # the encounter being resolved (-1: none, or removed)
        ("over", np.int8),  # 1 = the game has ended
        ("winner", np.int8),  # winning seat; -1 = none / draw
        ("end_reason", np.int8),  # EndReason
        ("deck_kind", np.int8),  # DeckChoice of this game
        ("location", np.int8),  # Location of this game
        ("tied_five", np.int8),  # 1 = a phase-3 tie at win_signets or more has happened (R12)
        ("acted", np.int8),  # seat that activated an ability this round (-1 none)
        ("reveal_res", np.int8),  # Result of this round's reveal
        ("focus", np.int16),  # position of "this card" of the ability being resolved (k * 2 + seat)
        ("chosen", np.int16),  # the first choice of a two-part one (Void Mage target, Kinesis Mage source)
        ("deck", np.int16, (2, MAX_DECK)),  # deck[p, :deck_n[p]]: draw pile, top = last
        ("deck_n", np.int16, (2,)),
        ("hand", np.int16, (2, MAX_DECK)),  # hand[p, :hand_n[p]] in arrival order
        ("hand_n", np.int16, (2,)),
        ("discard", np.int16, (2, MAX_DECK)),  # discard[p, :discard_n[p]], newest last (public)
        ("discard_n", np.int16, (2,)),
        ("listed", np.int16, (2, MAX_DECK)),  # each seat's deck list (every card it owns this game)
        ("listed_n", np.int16, (2,)),
        ("card", np.int16, (MAX_ROUNDS, 2)),  # card[k, p]: seat p's card in encounter k
        ("mod", np.int16, (MAX_ROUNDS, 2)),  # modifier sum on it (may be negative)
        ("tok", np.int8, (MAX_ROUNDS, 2)),  # ongoing tokens on it
        ("up", np.int8, (MAX_ROUNDS,)),  # 1 = revealed (0 only for Foggy Swamp's face-down encounter)
        ("placed", np.int16, (MAX_ROUNDS,)),  # round the encounter was placed
        ("res", np.int8, (MAX_ROUNDS,)),  # derived Result (R5)
        ("prev_res", np.int8, (MAX_ROUNDS,)),  # results before the last change (table.refresh)
        ("sig", np.int8, (MAX_ROUNDS, 2)),  # derived signets on each card (R5)
        ("due_mod", np.int16, (MAX_ROUNDS, 2)),  # "next card" modifiers bound at placement, added at reveal (R8)
        ("due_lib", np.int8, (MAX_ROUNDS, 2)),  # Librarian +-2 choices due at reveal
        ("due_eng", np.int8, (MAX_ROUNDS, 2)),  # Engineer +5s due after phase 2
        ("due_bm", np.int8, (MAX_ROUNDS, 2)),  # faction a Blackmailer named for this card (-1 none)
        ("pend_mod", np.int16, (2,)),  # pending "next card" modifiers of each seat (Surgeon, Clockmaker, Envoy)
        ("pend_lib", np.int8, (2,)),  # pending Librarian choices
        ("pend_eng", np.int8, (2,)),  # pending Engineer +5s
        ("pend_bm", np.int8, (2,)),  # faction named for this seat's next card (-1 none)
        ("fortune", np.int8, (2,)),  # 1 = at the next placement this seat's opponent places face up first
        ("signets", np.int16, (2,)),  # derived totals (R5)
    ],
    align=True,
)

TALLY_DTYPE = np.dtype(
    [
        ("seats", SEAT_DTYPE, (2,)),  # per-seat counters (SEAT rows)
        ("cards", CARD_RECORD_DTYPE, (MAX_MATCH_GAMES, 2, MAX_CARDS)),  # [match game, seat, card id]
        ("turns", TURN_DTYPE, (MAX_TURN_ROWS,)),  # turns[t - 1]: the row of round t of the match
        ("n_turns", np.int16),  # turn rows written
    ],
    align=True,
)

SCRATCH_DTYPE = np.dtype(
    [
        ("legal", np.int32, (MAX_LEGAL,)),  # options of the current decision
        ("n_legal", np.int32),
        ("script", np.int32, (2, MAX_SCRIPT)),  # scripted choices per seat (ScriptTag << 16 | value)
        ("script_n", np.int16, (2,)),
        ("script_k", np.int16, (2,)),  # next scripted choice to use
        ("plays", np.int16, (2, MAX_ROUNDS)),  # scripted placements: card id per round (scenarios)
        ("plays_n", np.int16),
        ("plays_k", np.int16),
        ("weights", np.float64, (2, N_WEIGHTS)),  # each seat's bot weights (bots.BotParams)
        ("seen", np.int16, (MAX_CARDS,)),  # marks (conservation audit, unseen cards)
        ("act", np.int8, (MAX_ROUNDS, 2)),  # ongoing ability in effect on each card (table.derive)
        ("unseen", np.int16, (MAX_DECK,)),  # a bot's candidate opposing cards
        ("tmp", np.int16, (MAX_DECK,)),  # rule work space (cards collected before they are discarded)
        ("value", np.float64, (MAX_LEGAL,)),  # a bot's value per option (greedy: opposing abilities)
        ("est_thr", np.int16, (MAX_DECK,)),  # greedy: thresholds of the opposing ability estimates
        ("est_infl", np.int16, (MAX_DECK,)),  # greedy: influence the opposing cards would reveal with
        ("hidden", np.int16, (MAX_DECK,)),  # expert: every card the opponent may hold (hand and deck)
        ("cand", np.int16, (MAX_DECK,)),  # expert: the opposing cards it plays against
        ("matrix", np.float64, (MAX_DECK * MAX_DECK,)),  # expert: value of own card i against opposing card j
        ("sim", POS_DTYPE, (N_SIMS,)),  # positions for the bots' look-ahead
        ("log", EVENT_DTYPE, (MAX_EVENTS,)),  # replay log (when meta.log_on)
    ],
    align=True,
)

STATE_DTYPE = np.dtype(
    [
        ("params", PARAMS_DTYPE),
        ("meta", META_DTYPE),
        ("cards", CARD_DTYPE, (MAX_CARDS,)),
        ("pos", POS_DTYPE),
        ("tally", TALLY_DTYPE),
        ("scratch", SCRATCH_DTYPE),
    ],
    align=True,
)
# As ``np.record`` elements, a state also allows attribute access in plain Python, so the
# kernels run unchanged with NUMBA_DISABLE_JIT=1 (Makefile ``test-nojit``).
STATE_DTYPE = np.dtype((np.record, STATE_DTYPE))


@kernel
def load_params(q, params: Params) -> None:
    """Copy every field of ``params`` into the ``PARAMS_DTYPE`` record ``q`` in place."""
    q.deck, q.faction_decks, q.location = params.deck, params.faction_decks, params.location
    q.match_format, q.match_games_cap, q.post_tie_win = params.match_format, params.match_games_cap, params.post_tie_win
    q.mechanical_djinn_check, q.foggy_final_reveal = params.mechanical_djinn_check, params.foggy_final_reveal
    q.win_signets, q.opening_hand, q.round_draw = params.win_signets, params.opening_hand, params.round_draw
    q.library_opening_hand, q.library_draw = params.library_opening_hand, params.library_draw
    q.scrapyard_draw, q.bazaar_threshold, q.bazaar_refill = (
        params.scrapyard_draw,
        params.bazaar_threshold,
        params.bazaar_refill,
    )
    q.founders_run, q.max_rounds = params.founders_run, params.max_rounds
    q.value_card, q.value_swap, q.value_baseline = params.value_card, params.value_swap, params.value_baseline
    q.serpent_current, q.serpent_per_change = params.serpent_current, params.serpent_per_change


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
def position(k: int, side: int) -> int:
    """Return the option code of seat ``side``'s card in encounter ``k``."""
    return k * 2 + side
