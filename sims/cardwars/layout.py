"""The in-game state of Card Wars: one structured record (as in Cardinger), actions, events, RNG lanes.

The whole position is ONE record, ``STATE_DTYPE``, made of nested records with fixed-size
array fields; kernels take ``s = state[0]`` and read it like a C struct
(``s.board.cr_card[q, lane]``, ``s.piles.hand[p, i]``, ``s.cards[c].atk``). ``s`` holds no
reference to ``state`` (Numba frees an array right after its last use), so a kernel that
allocates ``state`` must keep it alive while ``s`` is used (``kernel.play_games`` takes
``state[0]`` inside its loop). A record, not a NamedTuple of arrays: see the reasoning in
``sims/cardinger/state.py`` (per-array reference counting cost 100x).

``state`` holds two records: ``state[0]`` is the game, ``state[1]`` the planner bot's
scratch copy (``bots.plan``): copying the position (meta, board, piles, turnfx) is one
record assignment each.

Sides are seats ``q`` in {0, 1}; lanes ``0..3`` on both sides (lane ``i`` faces lane ``i``;
RULES.md numbers them 1-4). A Creature slot of the board holds its card, owner, damage and
turn state, plus its current ATK/DEF as last computed by ``stats.refresh`` (R12: after
every event). Ordered piles are id rows plus lengths; a deck's top is its last entry.
"""

from enum import IntEnum

import numpy as np

from sims.cardwars.params import Params
from sims.cardwars.state import (
    CARD_DTYPE,
    CARD_RECORD_DTYPE,
    MAX_CARDS,
    MAX_DECK,
    MAX_TURNS,
    N_LANES,
    N_STARTERS,
    N_TYPES,
    SEAT_DTYPE,
    TURN_DTYPE,
)
from sims.core.records import EVENT_DTYPE

MAX_HAND = 2 * MAX_DECK  # a hand can hold stolen cards (silo_unplayable = thief_hand)
MAX_ACTIONS = 1024  # legal-action buffer
MAX_OPTIONS = 512  # target codes of one effect (Patchy's masks: at most 162; Reclaim: 85)
MAX_EVENTS = 8192  # replay log capacity per game
MAX_TURN_AURAS = 16  # continuous "this turn" Spell bonuses per side and turn
N_WEIGHTS = 32  # capacity of a bot weight vector (bots.BotParams fields)
NO_CARD = -1
PENDING_SRC = 255  # PLAY source meaning "the card Silo of Truth took" (R18)
NO_LANE = 4  # a lane choice meaning "none"
LAND_SLOTS = 7  # Landscape codes 0..6 (types, Rainbow, Any) for per-Landscape counters


class Lane(IntEnum):
    """RNG lanes of one game: one per concern, so paired runs stay paired (DESIGN.md)."""

    SETUP = 0  # first player, deck choice, value-mode holder deck
    SHUFFLE = 1  # + seat: that seat's shuffles (opening, mulligan)
    BOT = 3  # + seat: that seat's bot decisions (random bot, planner's hidden-information shuffles)
    EFFECT = 5  # + seat: random picks of that seat's effects (Silo of Truth, Gray Eyebat, ...)


N_RNG = 7


class Phase(IntEnum):
    """Where the game stands; only MAIN, FIGHT and CHOOSE wait for a decision."""

    MAIN = 0  # the mover's main phase: play, draw, Floop, activate, END
    FIGHT = 1  # the mover picks the next Creature to fight
    CHOOSE = 2  # a pending choice (meta.pending) by meta.decider
    OVER = 3


class Choice(IntEnum):
    """Pending choices (``meta.pending``)."""

    NONE = 0
    MULLIGAN = 1  # keep (0) or mulligan (1) the opening hand (R5)
    MUMMY = 2  # Ms. Mummy at the start of the turn: stay (0) or return, healing 1 + lane
    DISCARD = 3  # the decider discards a card of their choice (hand index)
    SILO = 4  # play the card Silo of Truth took (PLAY with src PENDING_SRC)
    OGRE = 5  # Ogre Gas: which revealed card goes to the bottom (index into meta.reveal)


class Resume(IntEnum):
    """Where the flow continues after a pending choice."""

    MAIN = 0
    TURN_START = 1  # the remaining start-of-turn triggers, then the draw
    SETUP = 2  # the next mulligan, then the first turn


class ActionKind(IntEnum):
    """What an encoded action does: ``kind << 24 | src << 16 | a << 8 | b``."""

    END = 0  # end the main phase: go to the Fight
    PLAY = 1  # src = hand index; a = lane | choice << 2; b = target / discard / mask
    DRAW = 2  # spend 1 Action to draw 1 card
    FLOOP = 3  # src = slot (0-3 Creature lane, 4-7 Building lane); a = cost choice; b = target
    ACTIVATE = 4  # src = slot; b = target
    FIGHT = 5  # src = lane of the Creature that fights next
    CHOOSE = 6  # src = the option of the pending choice


END_MAIN = 0  # the encoded END action


class EventKind(IntEnum):
    """Replay-log events (``EVENT_DTYPE``); the fields each kind uses are in its comment."""

    DECK = 0  # card = a card of the seat's deck list, value = copies, extra = DeckName
    DEAL = 1  # value = hand size, extra = deck size
    MULLIGAN = 2  # value = 1 mulligan taken / 0 kept
    TURN_START = 3  # value = own HP, extra = opponent's HP; card = hand size, target = deck size
    DRAW = 4  # card drawn
    PLAY = 5  # card, value = lane (-1 spell), extra = Actions paid
    REPLACE = 6  # card = newcomer, target = replaced card
    ENTER = 7  # card entering, value = lane
    LEAVE = 8  # card leaving play, value = lane, extra = 1 to hand / 0 to discard
    DESTROY = 9  # target destroyed, value = lane
    FLOOP = 10  # card, value = slot
    ACTIVATE = 11  # card, value = slot
    FIGHT = 12  # card = attacker, target = defender (-1 = Hit Points), value = lane
    DAMAGE = 13  # target = Creature damaged, value = damage, extra = damage now; card = source
    HERO_DAMAGE = 14  # seat = damaged player, value = damage, extra = HP left; card = source
    HEAL = 15  # target, value = damage removed (0: +1 DEF for good)
    FLIP = 16  # seat = Landscape's side, value = lane, extra = 1 up / 0 down
    MOVE = 17  # card, value = from lane, extra = to lane (+4: to the other side)
    TO_HAND = 18  # card returned to its owner's hand (from discard or play)
    MILL = 19  # card put from the deck into the discard pile
    DISCARD = 20  # card discarded from hand
    ACTION_DRAW = 21  # card drawn with an Action
    GAIN_ACTION = 22  # value = Actions now
    READY = 23  # card readied (Psionic Architect), value = lane
    STEAL = 24  # card taken (Silo of Truth, Field Reaper, Spirit Tower), value = lane
    RETURN = 25  # card given back at the end of the turn (Spirit Tower), value = lane
    TURN_ATK = 26  # target, value = ATK change this turn
    COPY = 27  # Schoolhouse: target = Creature, card = Floop copied
    END_TURN = 28  # value = hand size, extra = deck size
    WIN = 29  # seat = winner, value = its HP, extra = the loser's
    DRAWN_GAME = 30  # both players at 0 at once
    TIMEOUT = 31  # value = turns played
    DECK_TOP = 32  # card put on top of the deck (Heavenly Gazer)
    BOTTOM = 33  # card put on the bottom of the deck (Ogre Gas)
    SPELL = 34  # card resolved


META_DTYPE = np.dtype(
    [
        ("game", np.int64),  # game index of the run
        ("seed", np.uint64),  # the game's seed
        ("n_cards", np.int16),  # rows of ``cards`` in use
        ("turn", np.int16),  # global turn number, 1-based (0 = set-up)
        ("mover", np.uint8),  # seat taking the current turn (unsigned: an index with no negative fix-up, RULES.md §13)
        ("first_seat", np.uint8),  # seat that took turn 1
        ("phase", np.int8),  # Phase
        ("actions", np.int16),  # Actions left this turn
        ("pending", np.int8),  # Choice
        ("decider", np.uint8),  # seat deciding the pending choice
        ("resume", np.int8),  # Resume
        ("pend_left", np.int8),  # DISCARD: cards still to discard; MULLIGAN: seats still to decide
        ("pend_card", np.int16),  # SILO: the card taken; MUMMY: unused
        ("pend_owner", np.uint8),  # SILO: its owner
        ("sot_lane", np.int8),  # next lane of the start-of-turn triggers
        ("reveal", np.int16, (3,)),  # OGRE: the revealed cards (-1 = none)
        ("reveal_n", np.int8),
        ("winner", np.int8),  # winning seat; -1 = none (yet), draw or timeout
        ("end_reason", np.int8),  # EndReason
        ("plays", np.int8),  # cards the mover played this turn
        ("floops", np.int8),  # Floops the mover made this turn
        ("log_on", np.int8),  # 1 = write events to scratch.log
        ("log_n", np.int32),  # events written
        ("holder", np.int8),  # value mode: the holder seat (game % 2), else -1
        ("series_winner", np.int8),  # cool_guy_series: the previous game's winner (-1 none)
        ("record_turns", np.int8),  # 1 = write tally.turns (the turns table is wanted; set by kernel.drive)
    ],
    align=True,
)

BOARD_DTYPE = np.dtype(
    [
        ("cr_card", np.int16, (2, N_LANES)),  # Creature in each slot (-1 none)
        ("cr_owner", np.uint8, (2, N_LANES)),  # its owner (the seat whose deck it came from)
        ("cr_dmg", np.int16, (2, N_LANES)),  # damage on it
        ("cr_exh", np.int8, (2, N_LANES)),  # 1 = exhausted (fought, Flooped or stolen)
        ("cr_floop", np.int8, (2, N_LANES)),  # 1 = Flooped (until its controller's next Ready, R10)
        ("cr_pdef", np.int8, (2, N_LANES)),  # +DEF for good from "gains 1 DEF" on no damage (R12)
        ("cr_tatk", np.int16, (2, N_LANES)),  # ATK change this turn (Peach Djinni, Talisman, Uni-Knight ...)
        ("cr_zazo", np.int8, (2, N_LANES)),  # ZaZo's Magic Seeds: ATK per adjacent entry this turn
        ("cr_moved", np.int8, (2, N_LANES)),  # 1 = changed Lanes this turn
        ("cr_entered", np.int16, (2, N_LANES)),  # turn it entered play
        ("cr_copy", np.int16, (2, N_LANES)),  # Schoolhouse: the Floop Creature copied this turn (-1 none)
        ("cr_stolen", np.int8, (2, N_LANES)),  # 1 = taken by Spirit Tower: goes back at the end of the turn
        ("cr_hit_by", np.uint8, (2, N_LANES)),  # side that last damaged it (credit for its death)
        ("cr_atk", np.int16, (2, N_LANES)),  # current ATK (board.refresh)
        ("cr_def", np.int16, (2, N_LANES)),  # current DEF (board.refresh)
        ("bu_card", np.int16, (2, N_LANES)),  # Building in each slot (-1 none)
        ("bu_owner", np.uint8, (2, N_LANES)),
        ("bu_exh", np.int8, (2, N_LANES)),  # 1 = Flooped this turn
        ("land", np.int8, (2, N_LANES)),  # Landscape type under each slot
        ("up", np.int8, (2, N_LANES)),  # 1 = face up
        ("hp", np.int16, (2,)),  # Hit Points
        ("st_fresh", np.int8),  # 1 = cr_atk/cr_def are what a recompute gives (stats.refresh)
        ("st_dying", np.int8),  # while st_fresh: 1 = a Creature has damage >= DEF (stats.refresh)
        ("st_turn", np.int16),  # what the stats of each side read of the turn, the mover, turnfx, Flooped (marks.SIDE)
        ("st_piles", np.int8),  # the hands and discard piles whose size a stat in play reads (marks.HAND/DISC bits)
        ("st_board", np.int8),  # bit q = a stat in play (or a Spell's) counts side q's Creatures (marks.stale_board)
    ],
    align=True,
)

PILES_DTYPE = np.dtype(
    [
        ("deck", np.int16, (2, MAX_DECK)),  # deck[p, :deck_n[p]]: draw pile, top = last
        ("deck_n", np.int16, (2,)),
        ("hand", np.int16, (2, MAX_HAND)),  # hand[p, :hand_n[p]] in arrival order
        ("hand_own", np.uint8, (2, MAX_HAND)),  # owner of each hand card (thief_hand variant)
        ("hand_n", np.int16, (2,)),
        ("disc", np.int16, (2, MAX_DECK)),  # disc[p, :disc_n[p]]: owner p's discard pile, newest last
        ("disc_n", np.int16, (2,)),
        ("built", np.int16, (2, MAX_DECK)),  # each seat's deck list (-1 padded)
        ("built_n", np.int16, (2,)),
        ("deck_name", np.int8, (2,)),  # DeckName of each seat
    ],
    align=True,
)

TURNFX_DTYPE = np.dtype(
    [
        ("spells", np.int8, (2,)),  # Spells each seat played this turn (Woadic Chief)
        ("played_cr", np.int8, (2,)),  # Creatures each seat played this turn (Lost Golem)
        ("entered", np.int8, (2,)),  # Creatures that entered play under each seat this turn
        ("entered_land", np.int8, (2, LAND_SLOTS)),  # ... by Landscape code of the card
        ("entered_lane", np.int8, (2, N_LANES)),  # ... by lane
        ("coffins", np.int8, (2,)),  # Unempty Coffins waiting for the next Creature
        ("aura_card", np.int16, (2, MAX_TURN_AURAS)),  # continuous "this turn" Spells of each seat
        ("aura_n", np.int8, (2,)),
    ],
    align=True,
)

MAX_QUEUE = 32  # triggers waiting to resolve (a few at most in practice)

QUEUE_DTYPE = np.dtype(
    [
        ("card", np.int16, (MAX_QUEUE,)),  # the card whose effect rows resolve
        ("side", np.uint8, (MAX_QUEUE,)),  # its controller
        ("lane", np.int8, (MAX_QUEUE,)),  # its lane (where it was, for a card that left play)
        ("owner", np.uint8, (MAX_QUEUE,)),
        ("choice", np.int16, (MAX_QUEUE,)),  # its enters-play choice
        ("tgt", np.int16, (MAX_QUEUE,)),  # its target code
        ("batch", np.int32, (MAX_QUEUE,)),  # triggers of one event share a batch: one moment (R19, R21)
        ("head", np.int16),  # next entry to resolve
        ("tail", np.int16),  # next free entry
        ("next_batch", np.int32),  # batch of the triggers being queued now
    ],
    align=True,
)

TALLY_DTYPE = np.dtype(
    [
        ("seats", SEAT_DTYPE, (2,)),  # per-seat counters (the SEAT rows)
        ("cards", CARD_RECORD_DTYPE, (2, MAX_CARDS)),  # per seat x card id (deck cards only)
        ("turns", TURN_DTYPE, (MAX_TURNS,)),  # turns[t - 1]: the TURN row of turn t
    ],
    align=True,
)

SCRATCH_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (N_RNG,)),  # the game's random lanes (see Lane)
        ("legal", np.int32, (MAX_ACTIONS,)),  # legal actions of the current decision
        ("n_legal", np.int32),
        ("work", np.int32, (MAX_ACTIONS,)),  # the bots' own list of candidate actions
        ("g_fight", np.float64, (N_LANES,)),  # greedy, per decision: value of each own Creature's fight now
        ("g_block", np.float64, (N_LANES,)),  # ... value of blocking each opposing Creature facing an empty lane
        ("g_attack", np.int8, (N_LANES,)),  # ... 1 = a Creature placed in the lane could fight now
        ("g_ally", np.float64, (LAND_SLOTS,)),  # ... others' "a Creature enters" triggers, by the newcomer's Landscape
        ("opts", np.int32, (MAX_OPTIONS,)),  # target codes of one effect (effects.options)
        ("subs", np.int32, (8,)),  # enters-play choices of one Creature (effects.enter_options)
        ("seen", np.int16, (2, MAX_CARDS)),  # card-conservation audit counts per owner
        ("weights", np.float64, (2, N_WEIGHTS)),  # each seat's bot weights (bots.BotParams)
        ("starter", np.int16, (N_STARTERS, MAX_DECK)),  # the four starter deck lists (prepare)
        ("starter_n", np.int16, (N_STARTERS,)),
        ("fixed_land", np.int8, (2, N_LANES)),  # Landscapes of the fixed decks (prepare)
        ("fixed_name", np.int8, (2,)),  # DeckName of the fixed decks
        ("dying_card", np.int16, (2 * N_LANES,)),  # Creatures leaving play together (board.settle)
        ("dying_side", np.uint8, (2 * N_LANES,)),
        ("dying_lane", np.uint8, (2 * N_LANES,)),
        ("dying_on", np.int8, (2 * N_LANES,)),
        ("dying_owner", np.uint8, (2 * N_LANES,)),  # 1 = its leaves-play effect fires
        ("log", EVENT_DTYPE, (MAX_EVENTS,)),  # replay log (when meta.log_on)
    ],
    align=True,
)

# The rule parameters, copied into the state so kernels read ``s.params.max_turns``.
PARAMS_DTYPE = np.dtype([(name, np.int32) for name in Params._fields], align=True)

STATE_DTYPE = np.dtype(
    [
        ("params", PARAMS_DTYPE),
        ("meta", META_DTYPE),
        ("board", BOARD_DTYPE),
        ("piles", PILES_DTYPE),
        ("turnfx", TURNFX_DTYPE),
        ("queue", QUEUE_DTYPE),  # triggered effects waiting to resolve (effects.run_queue)
        ("cards", CARD_DTYPE, (MAX_CARDS,)),  # the card table (copy of the prepared pool)
        ("tally", TALLY_DTYPE),  # result accumulators, copied to the output tables
        ("scratch", SCRATCH_DTYPE),  # work buffers reused across decisions and games
    ],
    align=True,
)
# As ``np.record`` elements, a state also allows ``s.meta.turn`` attribute access in plain
# Python, so the kernels run unchanged with NUMBA_DISABLE_JIT=1 (Makefile ``test-nojit``).
STATE_DTYPE = np.dtype((np.record, STATE_DTYPE))

assert N_TYPES == 5
