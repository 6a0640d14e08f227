"""CardRPG Advanced in plain Python: a readable reference for the Numba kernel, and its speed baseline.

This file re-implements ``sims/cardrpg`` (rulings R1-R22 in ``../shared/rulings/cardrpg.md``)
with lists, a deque, small classes and Python ints: no numpy and no Numba in the game loop.
It plays *the same characters and sessions* as the kernel:

- the same RNG: the splitmix64 port in ``benchmarks/reference_rng.py`` (imported),
  with the 6 lanes of ``state.Lane`` (SETUP 0, SHUFFLE 1, DICE 2, THEFT 3, BOT 4, SPARE 5);
- the same random numbers in the same order: the creation dice (or the diceless creation
  deck), each session's shuffle of the 53 cards in id order minus the class card, monster
  HP and level-up dice, the theft chance, Joker reshuffles, and the random bot's picks over
  the kernel's legal-action order;
- the same ``random``, ``greedy`` and ``planner`` decisions, with the same float arithmetic
  in the same order (the bots are in ``cardrpg_reference_bots.py``);
- the same phase machine (``advance``: BATTLE_START, MONSTER and SESSION_END run alone; the
  bot decides in PLAYER, BETWEEN, BUY, KING_KEEP, PRE_STRIKE and BLITZ) and every ``Params`` switch.

``tests/sims/cardrpg/test_differential.py`` checks that both agree session by session on
every column of the ``games``, ``seats``, ``cards`` and ``turns`` tables;
``benchmarks/pure_python.py --game cardrpg`` times both.

One simulated "game" of the batch is one *character*: ``n_sessions`` sessions, each a
``games`` row whose ``game`` id is ``character * n_sessions + session`` (R1). Where the
kernel and the rulebook or rulings could be read differently, this file follows the kernel
(it is the spec of the differential test) and says so in a comment marked "kernel reading".

Usage::

    import sims
    from cardrpg_reference import Reference  # with benchmarks/ on sys.path

    game = sims.load("cardrpg")
    params = game.make_params("advanced")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    ref = Reference(params, pool, "greedy", list(game.make_weights("greedy")))
    result = ref.play(root_seed=1, game=0)  # one character: result["rows"]["games"], ...
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # benchmarks/ is not a package: its modules import each other by file name
    sys.path.insert(0, str(HERE))

from reference_rng import Rng, game_seed  # noqa: E402

# ---------------------------------------------------------------------------------------
# RNG: reference_rng.py (a bit-exact port of sims/core/rng.py)
# ---------------------------------------------------------------------------------------


N_LANES = 6  # state.N_LANES
LANE_SETUP = 0  # creation dice, the diceless creation deck
LANE_SHUFFLE = 1  # session shuffles, Joker reshuffles
LANE_DICE = 2  # monster HP and level-up dice
LANE_THEFT = 3  # theft chance
LANE_BOT = 4  # the random bot's picks
LANE_SPARE = 5  # unused

# ---------------------------------------------------------------------------------------
# Constants (mirroring sims/cardrpg/state.py)
# ---------------------------------------------------------------------------------------

SPADE, HEART, DIAMOND, CLUB, NO_SUIT = range(5)  # Suit
NUMBER, FACE, ACE, JOKER = range(4)  # Kind (deck.csv)
MK_NUMBER, MK_ACE, MK_FACE, MK_JOKER = range(4)  # MonsterKind (note: not Kind's order)
MONSTER_KIND = {NUMBER: MK_NUMBER, FACE: MK_FACE, ACE: MK_ACE, JOKER: MK_JOKER}  # kernel.monster_kind
WON, DIED, FORFEIT, ABANDONED = range(4)  # Outcome
ACE_RANK, JACK, QUEEN, KING, JOKER_RANK = 1, 11, 12, 13, 14
A_SPADES, A_HEARTS, A_DIAMONDS, A_CLUBS = 1, 2, 4, 8  # AcePower bits

(
    DRAW_FAILED_HAND, DRAW_FAILED_MONSTER, DRAW_FAILED_BONUS, DRAW_FAILED_ATTACK_PILE, DRAW_FAILED_INVENTORY,
    DRAW_FAILED_RANDOM_ATTACK, DRAW_FAILED_FRESH_CARDS, DRAW_FAILED_DICE, DEATH_ONE_LIFE, FORFEIT_ONE_LIFE,
    VOLUNTARY, BATTLE_CAP,
) = range(12)  # EndReason  # fmt: skip

# Params codes
PER_BATTLE, BOTH_OUT_ONLY = 0, 1  # HandRefill (R4); HpReset uses PER_BATTLE / NEVER_RESET
NEVER_RESET = 1  # HpReset.NEVER (R5)
SAME_RANK, ANY_FACE = 0, 1  # FaceCombo (R8)
INSTANT_KILL, NO_DAMAGE = 0, 1  # RandomAttackJoker (R9)
CONTINUE, FORFEIT_OUT = 0, 1  # BothOut (R11)
ALTERNATE, FIRST_STRIKER = 0, 1  # BothOutOrder (RULES.md §7 Q4)
BUY_BACK, LOSE_TURN = 0, 1  # EmptyHand (Q13)
ANY_SET, WHOLE_HAND_SET = 0, 1  # AceClubSet (R14, Q1)
ONE_AT_A_TIME, BOTH_OR_NONE = 0, 1  # JackDraws (R13, Q9)
PICK_RANK, PICK_WHOLE_HAND, PICK_CHOSEN = 0, 1, 2  # state.Pick: which hand cards one attack plays
TO_HAND, TO_DRAW_PILE_BOTTOM = 0, 1  # BuybackDestination (R15)
XP_LOST, XP_CARRY = 0, 1  # XpOverflow (R17)
D6, CARDS = 0, 1  # Dice (R20)
REDRAW, SPECIAL = 0, 1  # DicelessKingJoker (R20)
ROLLED, PRESET = 0, 1  # MonsterHp (R21)
SWEEP = 0  # ClassCard: character g plays class 1 + g % 12 (1 + g % 16 with jqka)
JQK, JQKA = 0, 1  # ClassRanks (R22; classic: Aces may be the class card)
ADVANCED_ROLL, D6_REROLL_LOW = 0, 1  # StatRoll (R2; classic: each a d6, 1s and 2s rolled again)

# Phases (state.Phase): the first five wait for the bot
PLAYER, BETWEEN, BUY, KING_KEEP, PRE_STRIKE, OVER, BATTLE_START, MONSTER, SESSION_END, BLITZ = range(10)

# Actions are tuples (kind, a, b), kinds as in state.ActionKind
END, ATTACK, SPADE_ACT, CLUB_ACT, ACE_SPADE, ACE_CLUB, BUYBACK, SELL, REVEAL, BUY_ACT, PASS, QUIT, KEEP = range(13)
END_ACTION = (END, 0, 0)
PASS_ACTION = (PASS, 0, 0)
QUIT_ACTION = (QUIT, 0, 0)

HP_DICE = (0, 3, 3, 5, 5, 5, 7, 7, 7, 10, 10)  # index = level (E4)
XP_NEXT = (0, 10, 20, 40, 60, 80, 110, 140, 170, 200, 0)  # XP to go from this level to the next (R17)
MAX_LEVEL = 10
NO_CARD = -1

# Bot weights: the order of estimates.BotParams fields (estimates.W)
W_FACE_VALUE, W_BUYBACK_MIN, W_BUY_MIN, W_REVEAL_ODDS, W_REVEAL_PILE, W_KEEP_HAND, W_HAND_CAP, W_QUIT_PILE = range(8)

BOTS = ("random", "greedy", "planner")  # bot ids = positions (bots.Bot)


def int16(x: int) -> int:
    """Return ``x`` wrapped to a signed 16-bit integer, as the kernel's int16 fields store it."""
    return ((x + 32768) & 0xFFFF) - 32768


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck (``CARD_DTYPE`` fields)."""

    id: int
    name: str
    suit: int
    rank: int  # 1 ace .. 10, 11 J, 12 Q, 13 K, 14 Joker
    value: int  # 1-10 for Aces and numbers, 0 for face cards and Jokers (R3)
    kind: int


def cards_from_pool(pool: Any) -> list[Card]:
    """Return the cards of a ``CardPool`` (or a list of ``Card``s / card dicts) as ``Card``s, id = row."""
    if isinstance(pool, list | tuple):
        out = []
        for c, row in enumerate(pool):
            if isinstance(row, Card):
                out.append(row)
            else:
                out.append(Card(c, str(row.get("name", c)), *(int(row[k]) for k in ("suit", "rank", "value", "kind"))))
        return out
    names = pool.table.dtype.names
    rows = pool.table.tolist()  # tuples of Python ints, in CARD_DTYPE field order
    return [
        Card(c, name, **{k: int(v) for k, v in zip(names, row, strict=True)})
        for c, (name, row) in enumerate(zip(pool.names, rows, strict=True))
    ]


@dataclass(frozen=True)
class Rules:
    """The rule parameters (``sims.cardrpg.params.Params`` fields) as plain ints."""

    class_card: int = SWEEP
    n_sessions: int = 1
    death_ends_session: int = 0
    hand_refill: int = PER_BATTLE
    hp_reset: int = PER_BATTLE
    face_combo: int = SAME_RANK
    random_attack_joker: int = INSTANT_KILL
    both_out: int = CONTINUE
    both_out_order: int = ALTERNATE
    empty_hand: int = BUY_BACK
    ace_club_set: int = ANY_SET
    jack_draws: int = ONE_AT_A_TIME
    theft_chance_pct: int = 100
    affinity_includes_aces: int = 0
    buyback_destination: int = TO_HAND
    ace_diamond_buybacks: int = -1  # unlimited (the rulebook); 1 = the R15 ruling
    xp_overflow: int = XP_LOST
    dice: int = D6
    diceless_king_joker: int = REDRAW
    monster_hp: int = ROLLED
    ace_powers: int = A_SPADES | A_HEARTS | A_DIAMONDS | A_CLUBS
    jokers: int = 1  # 0 = no Jokers: ``prepare_pool`` leaves them out, so the cards passed in have none
    class_ranks: int = JQK
    stat_roll: int = ADVANCED_ROLL
    class_powers: int = 1  # 0 = no class abilities (Jack's extra draw, Queen's XP, King's hand, affinity, selling)
    inventory: int = 1  # 0 = no Inventory draws
    max_battles: int = 500

    @classmethod
    def of(cls, params: Any) -> Rules:
        """Return ``Rules`` from a ``Params`` NamedTuple, a mapping or a ``Rules``."""
        if isinstance(params, Rules):
            return params
        values = params._asdict() if hasattr(params, "_asdict") else dict(params)
        known = {f.name for f in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"the reference does not know the parameter(s) {sorted(unknown)}")
        return cls(**{k: int(v) for k, v in values.items()})


# ---------------------------------------------------------------------------------------
# Per-session records (column names and order of the kernel's dtypes)
# ---------------------------------------------------------------------------------------

GAME_COLUMNS = (
    "game", "seed", "end_reason", "turns", "character_id", "session_index", "class_card", "class_rank",
    "class_suit", "level_start", "level_end", "xp_end", "str_end", "hp_max_end", "gold_end", "kills", "deaths",
    "jokers_killed", "battles", "battles_abandoned", "level_ups", "heart_saves", "ace_uses", "thefts",
    "draw_pile_left",
)  # fmt: skip
SEAT_COUNTERS = (
    "damage_dealt", "damage_taken", "attacks", "cards_attacked", "random_attacks", "criticals_taken",
    "spades_used", "clubs_used", "hearts_used", "sold", "buybacks", "cards_bought", "gold_gained", "gold_spent",
)  # fmt: skip
SEAT_COLUMNS = ("game", "seat", "bot", "class_card", *SEAT_COUNTERS)
TURN_COLUMNS = (
    "game", "turn", "seat", "level", "str", "hp_max", "hand_start", "monster_kind", "monster_rank", "monster_card",
    "monster_hp", "exchanges", "damage_taken", "damage_dealt", "outcome", "xp_gained", "gold_gained",
    "inventory_size", "hp_end",
)  # fmt: skip


class CardStats:
    """One card's counters in one session (the ``cards`` table columns besides game, seat, card)."""

    __slots__ = (
        "damage", "extra_attacks", "gold", "hp_restored", "kills", "times_gained", "times_lost", "times_sold",
        "times_stolen", "times_used",
    )  # fmt: skip

    def __init__(self) -> None:
        self.times_gained = self.times_used = self.times_stolen = self.times_sold = self.times_lost = 0
        self.damage = self.hp_restored = self.gold = self.extra_attacks = self.kills = 0


CARD_COUNTERS = (
    "times_gained", "times_used", "times_stolen", "times_sold", "times_lost", "damage", "hp_restored", "gold",
    "extra_attacks", "kills",
)  # fmt: skip
CARD_COLUMNS = ("game", "seat", "card", *CARD_COUNTERS)


# ---------------------------------------------------------------------------------------
# One character: its sessions and battles
# ---------------------------------------------------------------------------------------


class Character:
    """One simulated character: creation (R2, R22), then ``n_sessions`` sessions of battles.

    Piles are lists of card ids. The draw pile is a deque whose *right* end is the top
    (``pop``) and whose left end is the bottom (``appendleft``), like the kernel's ring
    buffer. The hand, the Inventory and the discard pile keep arrival order (the discard
    pile's newest card last); the monster's attack pile has its top last; the bone pile
    holds ``(card, face_up)`` pairs.
    """

    def __init__(self, ref: Reference, index: int, seed: int) -> None:
        self.ref = ref
        self.rules = ref.rules
        self.cards = ref.cards
        self.w = ref.weights
        self.index, self.seed = index, seed
        self.rng = Rng(seed, N_LANES)
        # meta
        self.game = self.session = self.battle = self.exchange = 0
        self.phase, self.end_reason = SESSION_END, BATTLE_CAP  # kernel.reset
        self.sick = self.kept_hand = self.jack_first = 0
        self.attacks_left = self.attacks_made = self.luck_used = 0
        self.revealed = NO_CARD
        self.blitz = [0] * 16  # BLITZ: hand cards chosen per combo key
        self.blitz_n = 0
        # hero
        self.class_card = self.class_id = self.rank = self.suit = 0
        self.level = self.str = self.hp_max = self.hp = self.xp = self.gold = 0
        # monster
        self.mcard, self.mkind, self.mhp, self.mhp_start, self.mxp = NO_CARD, MK_NUMBER, 0, 0, 0
        # zones
        self.draw: deque[int] = deque()
        self.hand: list[int] = []
        self.inv: list[int] = []
        self.discard: list[int] = []
        self.bone: list[tuple[int, int]] = []
        self.bonus: list[int] = []
        self.mpile: list[int] = []
        self.play_pile: list[int] = []  # attack cards in play (both sides)
        # tallies
        self.g: dict[str, int] = {}  # this session's games row
        self.st: dict[str, int] = {}  # and its seats counters
        self.touched: dict[int, CardStats] = {}  # this session's card rows
        self.row: dict[str, int] = {}  # the current battle's turns row
        self.games_rows: list[dict] = []
        self.seats_rows: list[dict] = []
        self.card_rows: list[dict] = []
        self.battle_rows: list[dict] = []

    # -- bookkeeping ----------------------------------------------------------------------

    def card_row(self, c: int) -> CardStats:
        """Return card ``c``'s counters of this session, starting them if needed."""
        r = self.touched.get(c)
        if r is None:
            r = self.touched[c] = CardStats()
        return r

    def end_session(self, reason: int) -> None:
        """Stop the session for ``reason``; the battle in progress is abandoned (R16).

        The first reason stands (a no-op once the session is ending).
        """
        if self.phase == SESSION_END:
            return
        self.end_reason = reason
        self.phase = SESSION_END

    def need(self, n: int, reason: int) -> bool:
        """Return True if ``n`` cards can be drawn; else end the session for ``reason`` (R16: never partly)."""
        if len(self.draw) >= n:
            return True
        self.end_session(reason)
        return False

    # -- dice (R2, R20) -------------------------------------------------------------------

    def card_die(self) -> int:
        """Return one die rolled with a card (R20); -1 = no card. The card goes under the draw pile.

        Kernel reading: with ``redraw`` the pile is tried at most once around (a pile of
        Kings and Jokers only gives -1, a failed draw).
        """
        draw, cards = self.draw, self.cards
        for _ in range(len(draw)):
            c = draw.pop()
            draw.appendleft(c)
            card = cards[c]
            if card.kind == NUMBER or card.kind == ACE:
                return (card.value + 1) // 2
            if card.rank == JACK or card.rank == QUEEN:
                return 6
            if self.rules.diceless_king_joker == SPECIAL:
                return 7 if card.rank == KING else 0
        return -1

    def roll(self, lane: int) -> int:
        """Return one die: a d6 on ``lane``, or a card die (R20)."""
        if self.rules.dice == CARDS:
            return self.card_die()
        return self.rng.randint(lane, 6) + 1

    # -- the character (R2, R22) ----------------------------------------------------------

    def create_character(self) -> bool:
        """Create the level-1 character (E1-E3); False if card dice fail."""
        rules = self.rules
        n_classes = 16 if rules.class_ranks == JQKA else 12
        self.class_card = 1 + self.index % n_classes if rules.class_card == SWEEP else rules.class_card
        k = self.class_card - 1
        suit, rank = (k // 3, JACK + k % 3) if k < 12 else (k - 12, ACE_RANK)  # suit-major J Q K, then the Aces
        self.class_id = next((c.id for c in self.cards if c.suit == suit and c.rank == rank), NO_CARD)
        card = self.cards[self.class_id]
        self.suit, self.rank = card.suit, card.rank
        self.level, self.xp, self.gold = 1, 0, 0
        if rules.dice == CARDS:  # R20: the creation rolls come from a shuffled deck before the session
            self.lay_out_deck(LANE_SETUP)
        if rules.stat_roll == D6_REROLL_LOW:  # classic: each a d6, 1s and 2s rolled again
            a = self.roll_above(2)
            b = self.roll_above(2)
            if a < 0 or b < 0:
                return False
            self.str, self.hp_max = a, b
        else:
            a = self.roll(LANE_SETUP)
            b = self.roll(LANE_SETUP)
            if a < 0 or b < 0:
                return False
            self.str = (a + 1) // 2 + 2  # E2
            self.hp_max = b + 2  # E3
        self.hp = self.hp_max
        return True

    def roll_above(self, low: int) -> int:
        """Return a die on the SETUP lane rolled again while it shows ``low`` or less (1000 tries); -1 on failure."""
        for _ in range(1000):
            d = self.roll(LANE_SETUP)
            if d < 0 or d > low:
                return d
        return -1

    # -- sessions -------------------------------------------------------------------------

    def lay_out_deck(self, lane: int) -> None:
        """Every card but the class card, in id order, shuffled, into the draw pile; every other zone empty."""
        work = [c for c in range(len(self.cards)) if c != self.class_id]
        self.rng.shuffle(work, lane)
        self.draw = deque(work)  # work[0] at the bottom, the last card on top
        self.hand, self.inv, self.discard, self.bone = [], [], [], []
        self.bonus, self.mpile, self.play_pile = [], [], []
        self.mcard = NO_CARD

    def start_session(self) -> None:
        """Begin a session: fresh rows, shuffle, the summoning-sickness deal (R4, R16)."""
        self.game = self.index * self.rules.n_sessions + self.session
        self.phase = BATTLE_START  # before the deal, as the kernel: a failed deal records its own reason
        self.battle = 0
        self.end_reason = BATTLE_CAP
        self.touched = {}
        self.g = {
            "game": self.game, "seed": self.seed, "character_id": self.index, "session_index": self.session,
            "class_card": self.class_card, "class_rank": self.rank, "class_suit": self.suit,
            "level_start": self.level, "kills": 0, "deaths": 0, "jokers_killed": 0, "battles": 0,
            "battles_abandoned": 0, "level_ups": 0, "heart_saves": 0, "ace_uses": 0, "thefts": 0,
        }  # fmt: skip
        self.st = dict.fromkeys(SEAT_COUNTERS, 0)
        self.lay_out_deck(LANE_SHUFFLE)
        self.hp = self.hp_max
        deal = self.str if self.session == 0 else (self.str + 1) // 2  # R4: full STR in the first session
        self.sick, self.kept_hand = 1, 0
        if not self.need(deal, DRAW_FAILED_HAND):
            return
        for _ in range(deal):
            self.hand.append(self.draw.pop())
        self.phase = BATTLE_START

    def close_session(self) -> None:
        """End the session (R16, R19): tallies from the bone pile; the session's rows.

        The kernel then moves every card to the discard pile; the next session lays the
        whole deck out again in id order, so nothing here depends on where they go.
        """
        g = self.g
        b = self.battle
        if b > 0 and self.battle_rows[-1]["outcome"] == ABANDONED:
            g["battles_abandoned"] = 1
        kills = deaths = jokers = 0
        for c, up in self.bone:
            if up:
                kills += 1
                jokers += self.cards[c].kind == JOKER
            else:
                deaths += 1
        g["kills"], g["deaths"], g["jokers_killed"], g["battles"], g["turns"] = kills, deaths, jokers, b, b
        g["end_reason"] = self.end_reason
        g["level_end"], g["xp_end"], g["str_end"] = self.level, self.xp, self.str
        g["hp_max_end"], g["gold_end"] = self.hp_max, self.gold
        g["draw_pile_left"] = len(self.draw)
        self.games_rows.append({k: g[k] for k in GAME_COLUMNS})
        seat = {"game": self.game, "seat": 0, "bot": self.ref.bot_id, "class_card": self.class_card}
        seat.update(self.st)
        self.seats_rows.append(seat)
        for c in sorted(self.touched):  # kernel.store_session: card id order
            r = self.touched[c]
            row = {"game": self.game, "seat": 0, "card": c}
            row.update({k: getattr(r, k) for k in CARD_COUNTERS})
            self.card_rows.append(row)

    # -- battles (R4-R6) ------------------------------------------------------------------

    def start_battle(self) -> None:
        """Set up the next battle (R4, R6): refill, monster, bonus cards, attack pile, HP."""
        rules = self.rules
        hand, draw = self.hand, self.draw
        if self.battle >= rules.max_battles:
            self.end_session(BATTLE_CAP)
            return
        if not self.sick and rules.hand_refill == PER_BATTLE and len(hand) < self.str:
            if not self.need(self.str - len(hand), DRAW_FAILED_HAND):
                return
            while len(hand) < self.str:
                hand.append(draw.pop())
        # after a death (R4, R18): the summoning-sickness deal, on top of any cards bought
        # back into the hand since (the A-diamond pays even with no gold)
        if self.sick and self.kept_hand == 0 and self.battle > 0:
            deal = (self.str + 1) // 2
            if not self.need(deal, DRAW_FAILED_HAND):
                return
            for _ in range(deal):
                hand.append(draw.pop())
        self.sick, self.kept_hand = 0, 0
        if not self.need(1, DRAW_FAILED_MONSTER):
            return
        self.battle += 1
        self.exchange, self.luck_used = 0, 0
        c = self.mcard = draw.pop()
        card = self.cards[c]
        kind = self.mkind = MONSTER_KIND[card.kind]
        self.row = row = {
            "game": self.game, "turn": self.battle, "seat": 0, "level": self.level, "str": self.str,
            "hp_max": self.hp_max, "hand_start": len(hand), "monster_kind": kind, "monster_rank": card.rank,
            "monster_card": c, "monster_hp": 0, "exchanges": 0, "damage_taken": 0, "damage_dealt": 0,
            "outcome": ABANDONED, "xp_gained": 0, "gold_gained": 0, "inventory_size": len(self.inv),
            "hp_end": self.hp,  # kernel reading: an abandoned battle keeps the HP it started with (before R5)
        }  # fmt: skip
        self.battle_rows.append(row)
        n_bonus = 2 if kind == MK_JOKER else (1 if kind == MK_FACE else 0)
        if not self.need(n_bonus, DRAW_FAILED_BONUS):
            return
        self.bonus = [draw.pop() for _ in range(n_bonus)]
        pile = self.level * (2 if kind == MK_JOKER else 1)
        if not self.need(pile, DRAW_FAILED_ATTACK_PILE):
            return
        self.mpile = [draw.pop() for _ in range(pile)]  # the first card dealt ends at the bottom
        if not self.roll_monster_hp():
            return
        row["monster_hp"] = self.mhp_start
        if rules.hp_reset == PER_BATTLE:
            self.hp = self.hp_max  # R5
        self.jack_first = int(card.rank == JACK)  # E14
        if self.jack_first:
            self.phase = PRE_STRIKE if self.find_ace(SPADE, A_SPADES) >= 0 else MONSTER
        else:
            self.begin_player_turn()

    def roll_monster_hp(self) -> bool:
        """Set the monster's HP and XP value (R17, R21, E5-E7); False if a card die fails (R16)."""
        n = HP_DICE[min(self.level, MAX_LEVEL)]
        kind = self.mkind
        if kind == MK_JOKER:
            hp = 6 * n  # Jokers always get the highest roll
        elif self.rules.monster_hp == PRESET:
            hp = (4 if kind == MK_FACE else 2) * n
        else:
            hp = 0
            for _ in range(n):
                d = self.roll(LANE_DICE)
                if d < 0:
                    self.end_session(DRAW_FAILED_DICE)
                    return False
                hp += d
        self.mhp = self.mhp_start = hp
        if kind == MK_JOKER:
            self.mxp = hp // 2
        elif kind == MK_FACE:
            self.mxp = hp
        else:
            self.mxp = self.cards[self.mcard].value
        return True

    # -- the player's turn (R8, R9, R11, R14, R15) ----------------------------------------

    def begin_player_turn(self) -> None:
        """Open the player's attack turn: one hand attack plus one per Club (R14).

        An empty hand loses the turn (R11) unless a Spade or the A-spade can be played or
        (``empty_hand = buy_back``, Q13) a card can be bought back into the hand.
        """
        self.attacks_left, self.attacks_made = 1, 0
        self.phase = PLAYER
        if not self.hand and not self.has_inventory_play() and not self.can_refill_hand():
            self.phase = MONSTER  # R11: out of attack cards, the turn is lost

    def can_refill_hand(self) -> bool:
        """Return True if an empty-handed player may buy a card back into the hand instead of losing the turn (Q13)."""
        rules = self.rules
        return rules.empty_hand == BUY_BACK and rules.buyback_destination == TO_HAND and self.can_buyback()

    def has_inventory_play(self) -> bool:
        """Return True if an Inventory card could be played on an attack turn (a Spade or the A-spade).

        Kernel reading: Clubs, the A-club and buy-backs do not keep an empty-handed turn open.
        """
        return any(self.acts_as(c, SPADE) or self.is_ace_power(c, SPADE, A_SPADES) for c in self.inv)

    def acts_as(self, c: int, suit: int) -> bool:
        """Return True if Inventory card ``c`` may be played as a number card of ``suit`` (R14 affinity)."""
        card = self.cards[c]
        affinity = self.rules.class_powers and self.suit == suit  # classic: no class abilities
        if card.kind == NUMBER:
            return card.suit == suit or bool(affinity)
        if card.kind == ACE and self.rules.affinity_includes_aces:
            return bool(affinity)  # an Ace played as a 1 of the class suit (whatever its own suit)
        return False

    def is_ace_power(self, c: int, suit: int, power: int) -> bool:
        """Return True if ``c`` is the Ace of ``suit`` and its power is in play."""
        card = self.cards[c]
        return card.kind == ACE and card.suit == suit and (self.rules.ace_powers & power) != 0

    def find_ace(self, suit: int, power: int) -> int:
        """Return the Inventory index of the Ace of ``suit`` with its power in play, or -1."""
        for k, c in enumerate(self.inv):
            if self.is_ace_power(c, suit, power):
                return k
        return -1

    def combo_rank_of(self, c: int) -> int:
        """Return the combo key of hand card ``c``: its rank, or 11 for any face card under ``any_face`` (R8)."""
        card = self.cards[c]
        if self.rules.face_combo == ANY_FACE and card.kind == FACE:
            return JACK
        return card.rank

    def count_rank(self, rank: int) -> int:
        """Return how many hand cards have combo key ``rank``."""
        n = 0
        for c in self.hand:
            n += self.combo_rank_of(c) == rank
        return n

    def hit_monster(self, dmg: int) -> bool:
        """Take ``dmg`` from the monster's HP; return True if it is dead (R7)."""
        self.mhp -= dmg
        self.st["damage_dealt"] += max(0, dmg)
        self.row["damage_dealt"] += max(0, dmg)
        return self.mhp <= 0

    def random_attack(self, mult: int) -> int:
        """Resolve one random attack by the player (R9); the damage, -1 = a Joker kills, -2 = the draw failed."""
        draw, play, cards = self.draw, self.play_pile, self.cards
        while True:
            if not self.need(1, DRAW_FAILED_RANDOM_ATTACK):
                return -2
            c = draw.pop()
            play.append(c)
            card = cards[c]
            if card.kind == NUMBER or card.kind == ACE:
                return mult * card.value
            if card.kind == JOKER:
                return -1 if self.rules.random_attack_joker == INSTANT_KILL else 0
            mult += 1

    def takes(self, c: int, pick: int, cards_rank: int) -> bool:
        """Return True if hand card ``c`` joins an attack that plays ``pick``; CHOSEN counts it off the BLITZ choice."""
        if pick == PICK_WHOLE_HAND:
            return True
        key = self.combo_rank_of(c)
        if pick == PICK_RANK:
            return key == cards_rank
        if self.blitz[key] > 0:
            self.blitz[key] -= 1
            return True
        return False

    def hand_attack(self, cards_rank: int, count: int, pick: int) -> None:
        """Play hand cards as one attack (R8, R9), in hand order: a combo (RANK), the whole hand, or BLITZ's choice.

        A turned-up Joker kills the monster outright (R9): the rest of the combo is played
        without random attacks.
        """
        hand, cards, st = self.hand, self.cards, self.st
        dmg = played = k = 0
        kill = False
        while k < len(hand) and (pick != PICK_RANK or played < count):
            c = hand[k]
            if not self.takes(c, pick, cards_rank):
                k += 1
                continue
            del hand[k]
            self.play_pile.append(c)
            played += 1
            card = cards[c]
            if kill:
                continue
            if card.kind == FACE or card.kind == JOKER:
                st["random_attacks"] += 1
                d = self.random_attack(2 if card.kind == JOKER else 1)
                if d == -2:
                    return  # R16: the session ends, the battle is abandoned
                if d == -1:
                    kill = True
                else:
                    dmg += d
            else:
                dmg += card.value
        self.blitz_n = 0
        self.attacks_left -= 1
        self.attacks_made += 1
        st["attacks"] += 1
        st["cards_attacked"] += played
        dead = self.hit_monster(dmg) or kill
        if dead:
            self.victory()

    def spend_ace(self, k: int) -> int:
        """Use the Ace at Inventory index ``k``: under the draw pile (R14); return it."""
        c = self.inv.pop(k)
        self.draw.appendleft(c)
        self.card_row(c).times_used += 1
        self.g["ace_uses"] += 1
        return c

    def use_spade(self, k: int) -> None:
        """Play Inventory card ``k`` as a Spade: bonus damage = its value (R14)."""
        c = self.inv.pop(k)
        self.discard.append(c)
        v = self.cards[c].value
        r = self.card_row(c)
        r.times_used += 1
        r.damage += v
        self.st["spades_used"] += 1
        if self.hit_monster(v):
            self.victory()

    def use_club(self, k: int) -> None:
        """Play Inventory card ``k`` as a Club: one more attack this turn (R14)."""
        c = self.inv.pop(k)
        self.discard.append(c)
        r = self.card_row(c)
        r.times_used += 1
        r.extra_attacks += 1
        self.st["clubs_used"] += 1
        self.attacks_left += 1

    def ace_spade(self, k: int) -> None:
        """Kill the monster with the A-spade at Inventory index ``k`` (R14); its damage is the HP left."""
        c = self.spend_ace(k)
        r = self.card_row(c)
        r.kills += 1
        r.damage += max(0, self.mhp)
        self.mhp = 0
        self.victory()

    def ace_club(self, k: int) -> None:
        """Blitz with the A-club at Inventory index ``k`` (R14): choose any hand cards (BLITZ), then one attack.

        ``ace_club_set = whole_hand`` (Q1) plays the whole hand at once.
        """
        c = self.spend_ace(k)
        self.card_row(c).extra_attacks += 1
        if self.rules.ace_club_set == WHOLE_HAND_SET:
            self.hand_attack(0, 0, PICK_WHOLE_HAND)
            return
        self.blitz = [0] * 16
        self.blitz_n = 0
        self.phase = BLITZ

    def blitz_attack(self) -> None:
        """BLITZ: make the A-club's attack with the chosen cards (one attack, R14)."""
        self.phase = PLAYER
        self.hand_attack(0, 0, PICK_CHOSEN)

    def can_buyback(self) -> bool:
        """Return True if a buy-back can be paid: 1 gold, or the A-diamond's free buy-back (R15)."""
        if not self.discard:
            return False
        if self.gold >= 1:
            return True
        limit = self.rules.ace_diamond_buybacks
        return self.find_ace(DIAMOND, A_DIAMONDS) >= 0 and (limit < 0 or self.luck_used < limit)

    def buyback(self, i: int) -> None:
        """Buy back discard-pile card ``i`` (R15): the A-diamond pays first, else 1 gold."""
        c = self.discard.pop(i)
        limit = self.rules.ace_diamond_buybacks
        a = self.find_ace(DIAMOND, A_DIAMONDS)
        if a >= 0 and (limit < 0 or self.luck_used < limit):
            if limit >= 0:
                self.luck_used += 1  # counted only against a limit
            self.card_row(self.inv[a]).times_used += 1
        else:
            self.gold -= 1
            self.st["gold_spent"] += 1
        self.st["buybacks"] += 1
        if self.rules.buyback_destination == TO_HAND:
            self.hand.append(c)
        else:
            self.draw.appendleft(c)

    def sell(self, k: int) -> None:
        """A Diamond character sells Inventory card ``k`` for gold equal to its value (R14)."""
        c = self.inv.pop(k)
        self.discard.append(c)
        v = self.cards[c].value
        self.gold += v
        r = self.card_row(c)
        r.times_sold += 1
        r.gold += v
        self.st["sold"] += 1
        self.st["gold_gained"] += v

    # -- the monster's turn (R10, R12, R14, R18) ------------------------------------------

    def monster_turn(self) -> None:
        """The monster attacks once (R10): damage, Hearts, theft, death; then the player's turn."""
        self.exchange += 1
        self.row["exchanges"] = self.exchange
        mpile, play, cards = self.mpile, self.play_pile, self.cards
        if not mpile:
            if not self.hand:
                self.both_out()  # R11 (Inventory cards are not attack cards)
                return
            self.begin_player_turn()
            return
        mult = 1
        dmg = 0
        joker = False
        while mpile:
            c = mpile.pop()
            play.append(c)
            card = cards[c]
            if card.kind == JOKER:
                joker = True
                break
            if card.kind == FACE:
                mult += 1
                continue
            dmg = mult * card.value
            break
        # (a chain cut short by the end of the pile deals 0, R10)
        if mult > 1:
            self.st["criticals_taken"] += 1
        if joker:
            a = self.find_ace(HEART, A_HEARTS)
            if a < 0:
                self.death()
                return
            c = self.spend_ace(a)  # R10: the A-heart is the only way to survive a Joker
            self.card_row(c).hp_restored += self.hp_max - self.hp
            self.hp = self.hp_max
            self.g["heart_saves"] += 1
        else:
            self.hp -= dmg
            self.st["damage_taken"] += dmg
            self.row["damage_taken"] += dmg
            if self.hp <= 0 and not self.save():
                self.death()
                return
        self.theft()
        self.begin_player_turn()

    def save(self) -> bool:
        """Keep the character alive at HP <= 0 if the Inventory allows (R7, R14); return True if saved."""
        best, best_v = -1, 0
        for k, c in enumerate(self.inv):
            v = self.cards[c].value
            if self.acts_as(c, HEART) and v > best_v:
                best, best_v = k, v
        if best >= 0:
            c = self.inv.pop(best)
            self.discard.append(c)
            r = self.card_row(c)
            r.times_used += 1
            r.hp_restored += best_v - self.hp
            self.hp = best_v
            self.st["hearts_used"] += 1
        else:
            a = self.find_ace(HEART, A_HEARTS)
            if a < 0:
                return False
            c = self.spend_ace(a)
            self.card_row(c).hp_restored += self.hp_max - self.hp
            self.hp = self.hp_max
        self.g["heart_saves"] += 1
        return True

    def can_steal(self) -> bool:
        """Return True if the monster may steal from this class (R12)."""
        mr = self.cards[self.mcard].rank
        cr = self.rank
        if mr == JOKER_RANK:
            return True
        if cr == JACK:
            return mr in (QUEEN, KING)
        if cr == QUEEN:
            return mr == KING
        return cr == KING and mr == QUEEN  # an Ace class (classic) has no thieves but Jokers

    def suit_order(self, suit: int, joker: bool) -> int:
        """Return the tie-break place of ``suit`` (0 = taken first) (R12)."""
        cs = self.suit
        if joker:  # spades, hearts, clubs, then the character's suit (a non-class Diamond before it)
            if suit == cs:
                return 4
            return 0 if suit == SPADE else (1 if suit == HEART else (2 if suit == CLUB else 3))
        if suit == cs:  # the character's suit, then clubs, hearts, spades
            return 0
        return 1 if suit == CLUB else (2 if suit == HEART else (3 if suit == SPADE else 4))

    def theft(self) -> None:
        """An eligible monster steals one Inventory card after its attack (R12)."""
        if self.mcard == NO_CARD or not self.can_steal():
            return
        pct = self.rules.theft_chance_pct
        if pct < 100 and self.rng.randint(LANE_THEFT, 100) >= pct:
            return
        cards = self.cards
        joker = cards[self.mcard].kind == JOKER
        self.g["thefts"] += 1  # kernel reading: counted even when there is nothing to take
        if not self.inv:
            if self.draw:
                self.discard.append(self.draw.pop())
            return
        best, best_key = -1, 0
        for k, c in enumerate(self.inv):
            card = cards[c]
            if joker:  # Aces first, then the highest value
                key = (0 if card.kind == ACE else 100 - card.value) * 8 + self.suit_order(card.suit, True)
            else:  # the lowest value first
                key = card.value * 8 + self.suit_order(card.suit, False)
            if best < 0 or key < best_key:
                best, best_key = k, key
        c = self.inv.pop(best)
        self.discard.append(c)
        self.card_row(c).times_stolen += 1

    def both_out(self) -> None:
        """Both sides out of attack cards (R11): fresh cards for both, or a forfeit (a death)."""
        rules = self.rules
        if rules.both_out == FORFEIT_OUT:
            self.death()  # the hand is empty, so a King is never asked to keep it
            self.row["outcome"] = FORFEIT
            if rules.death_ends_session and self.phase == SESSION_END:
                self.end_reason = FORFEIT_ONE_LIFE
            return
        pile = self.level * (2 if self.mkind == MK_JOKER else 1)
        need_n = max(0, self.str - len(self.hand)) + pile
        if not self.need(need_n, DRAW_FAILED_FRESH_CARDS):
            return
        draw, hand = self.draw, self.hand
        while len(hand) < self.str:
            hand.append(draw.pop())
        self.mpile = [draw.pop() for _ in range(pile)]
        if self.jack_first and rules.both_out_order == FIRST_STRIKER:
            self.phase = MONSTER  # Q4 (rules_version 1): the Jack strikes first again
        else:
            self.begin_player_turn()

    # -- victory, Inventory, levels (R13, R17) --------------------------------------------

    def victory(self) -> None:
        """The monster is dead (R17): cards under the draw pile, bone pile, XP, Inventory draws, level-up.

        Kernel reading: when the victory's Inventory draw fails (R16, the kill stands) the
        level-up check still runs, so the character can still level up; if a card die then
        fails too, the first reason (``draw_failed_inventory``) stands.
        """
        row = self.row
        row["outcome"] = WON
        draw = self.draw
        for c in self.play_pile:
            draw.appendleft(c)
        for c in self.mpile:
            draw.appendleft(c)
        self.play_pile, self.mpile = [], []
        self.bone.append((self.mcard, 1))
        self.mcard = NO_CARD
        self.xp = int16(self.xp + self.mxp)  # hero.xp is an int16
        row["xp_gained"] = self.mxp
        gold0 = self.gold
        inventory = self.rules.inventory
        for c in self.bonus:  # bonus cards first (R13); classic (no Inventory): discarded
            if inventory:
                self.enter_inventory(c)
            else:
                self.discard.append(c)
        self.bonus = []
        draws = (2 if self.rank == JACK and self.rules.class_powers else 1) if inventory else 0
        if self.rules.jack_draws == BOTH_OR_NONE:  # Q9 (rules_version 1): a Jack's two cards, both or none
            if draws > 0 and self.need(draws, DRAW_FAILED_INVENTORY):
                for _ in range(draws):
                    self.enter_inventory(draw.pop())  # a Joker puts cards under the pile: the rest are still there
        else:
            for _ in range(draws):  # R13: one at a time, each a required draw (R16)
                if not self.need(1, DRAW_FAILED_INVENTORY):
                    break
                self.enter_inventory(draw.pop())  # a face card, Diamond or Joker goes under: drawn again
        row["gold_gained"] = self.gold - gold0
        self.level_up()
        row["inventory_size"], row["hp_end"] = len(self.inv), self.hp
        if self.phase != SESSION_END:
            self.phase = BETWEEN

    def enter_inventory(self, c: int) -> None:
        """Card ``c`` enters the Inventory, one at a time (R13)."""
        card = self.cards[c]
        if card.kind == FACE:
            self.draw.appendleft(c)
            return
        if card.kind == JOKER:
            self.joker_shuffle(c)
            return
        r = self.card_row(c)
        r.times_gained += 1
        if card.kind == NUMBER and card.suit == DIAMOND:
            self.gold += card.value  # a Diamond is gold: under the draw pile
            r.gold += card.value
            self.st["gold_gained"] += card.value
            self.draw.appendleft(c)
            return
        self.inv.append(c)

    def joker_shuffle(self, joker: int) -> None:
        """A Joker drawn into the Inventory (R13): it, the Inventory (not the A-diamond) and the discards go under."""
        work = [joker]
        kept = []
        for c in self.inv:
            if self.is_ace_power(c, DIAMOND, A_DIAMONDS):
                kept.append(c)
            else:
                work.append(c)
        self.inv = kept
        work.extend(self.discard)
        self.discard = []
        self.rng.shuffle(work, LANE_SHUFFLE)
        self.draw.extendleft(work)  # work[0] first under the pile, work[-1] ends at the bottom

    def level_up(self) -> None:
        """Advance levels while XP reaches the next threshold (R17, E19): STR and HP + ceil(die/2) each."""
        while self.level < MAX_LEVEL and self.xp >= XP_NEXT[self.level]:
            a = self.roll(LANE_DICE)
            b = self.roll(LANE_DICE)
            if a < 0 or b < 0:
                self.end_session(DRAW_FAILED_DICE)
                return
            need_xp = XP_NEXT[self.level]
            self.str += (a + 1) // 2
            inc = (b + 1) // 2
            self.hp_max += inc
            self.hp += inc
            self.level += 1
            self.xp = self.xp - need_xp if self.rules.xp_overflow == XP_CARRY else 0
            self.g["level_ups"] += 1

    # -- death (R18) ----------------------------------------------------------------------

    def death(self) -> None:
        """The character dies (R18); the King's hand decision comes next if it applies."""
        row = self.row
        row["outcome"] = DIED
        self.bone.append((self.mcard, 0))  # face down: a death
        self.mcard = NO_CARD
        discard = self.discard
        discard.extend(self.play_pile)  # cards in play, the attack pile (bottom first), the bonus cards
        discard.extend(self.mpile)
        discard.extend(self.bonus)
        self.play_pile, self.mpile, self.bonus = [], [], []
        kept = []
        for c in self.inv:  # the Inventory, all but the A-diamond
            if self.is_ace_power(c, DIAMOND, A_DIAMONDS):
                kept.append(c)
                continue
            discard.append(c)
            self.card_row(c).times_lost += 1
        self.inv = kept
        self.gold = 0
        powers = self.rules.class_powers
        if self.rank != QUEEN or not powers:
            self.xp = 0
        row["inventory_size"], row["hp_end"] = len(self.inv), self.hp
        if self.rank == KING and self.hand and powers:
            self.phase = KING_KEEP
        else:
            self.after_death(False)

    def after_death(self, keep: bool) -> None:
        """Finish a death: the hand (kept by a King who chooses so), then go on or end (R1, R18)."""
        if not keep:
            self.discard.extend(reversed(self.hand))  # the kernel discards from the end of the hand
            self.hand = []
        self.kept_hand = 1 if keep else 0
        self.sick = 1
        self.hp = self.hp_max
        if self.rules.death_ends_session:
            forfeit = self.battle_rows[-1]["outcome"] == FORFEIT
            self.end_session(FORFEIT_ONE_LIFE if forfeit else DEATH_ONE_LIFE)
        else:
            self.phase = BETWEEN

    # -- actions --------------------------------------------------------------------------

    def legal_actions(self) -> list[tuple[int, int, int]]:
        """Return every legal action of the current decision, in the kernel's order (``kernel.legal_actions``)."""
        ph = self.phase
        if ph == PRE_STRIKE:
            return [(ACE_SPADE, self.find_ace(SPADE, A_SPADES), 0), PASS_ACTION]
        if ph == KING_KEEP:
            return [(KEEP, 0, 0), PASS_ACTION]
        if ph == BUY:
            return [PASS_ACTION, (BUY_ACT, 0, 0)] if self.can_buy() else [PASS_ACTION]
        if ph == BLITZ:
            out = [
                (ATTACK, rank, k)
                for rank in range(1, 15)
                for k in range(1, self.count_rank(rank) - self.blitz[rank] + 1)
            ]
            return [*out, END_ACTION] if self.blitz_n > 0 else out
        if ph != PLAYER and ph != BETWEEN:
            return []
        cards = self.cards
        out = []
        if self.can_buyback():
            out.extend((BUYBACK, i, 0) for i in range(len(self.discard)))
        if self.suit == DIAMOND and self.rules.class_powers:
            out.extend((SELL, k, 0) for k, c in enumerate(self.inv) if cards[c].kind == NUMBER)
        if ph == BETWEEN:
            out.append(END_ACTION)
            out.append(QUIT_ACTION)
            if self.draw:
                out.append((REVEAL, 0, 0))
            return out
        for k, c in enumerate(self.inv):
            if self.acts_as(c, SPADE) and self.attacks_left > 0:  # R14: before a hand attack
                out.append((SPADE_ACT, k, 0))
            if self.acts_as(c, CLUB):
                out.append((CLUB_ACT, k, 0))
            if self.is_ace_power(c, SPADE, A_SPADES):
                out.append((ACE_SPADE, k, 0))
            if self.is_ace_power(c, CLUB, A_CLUBS) and self.hand and self.attacks_left > 0:
                out.append((ACE_CLUB, k, 0))
        if self.attacks_left > 0:
            for rank in range(1, 15):
                for k in range(1, self.count_rank(rank) + 1):
                    out.append((ATTACK, rank, k))
        if self.attacks_made > 0 or not self.hand or self.attacks_left == 0:  # R8: play a card if you hold any
            out.append(END_ACTION)
        return out

    def price(self, c: int) -> int:
        """Return the price of buying card ``c`` off the draw pile (R15): its value, 20 for an Ace."""
        return 20 if self.cards[c].kind == ACE else self.cards[c].value

    def can_buy(self) -> bool:
        """Return True if the revealed card may be bought (R15): a number card or an Ace the gold covers."""
        card = self.cards[self.revealed]
        if card.kind == FACE or card.kind == JOKER:
            return False
        return self.gold >= self.price(self.revealed)

    def apply_action(self, action: tuple[int, int, int]) -> None:
        """Apply ``action``, then run on to the next decision (``kernel.apply_action``)."""
        kind, x, y = action
        ph = self.phase
        if ph == PRE_STRIKE:
            if kind == ACE_SPADE:
                self.ace_spade(x)
            else:
                self.phase = MONSTER
        elif ph == KING_KEEP:
            self.after_death(kind == KEEP)
        elif ph == BLITZ:
            if kind == ATTACK:
                self.blitz[x] += y
                self.blitz_n += y
            else:
                self.blitz_attack()
        elif ph == BUY:
            c = self.revealed
            self.draw.pop()  # the revealed card leaves the pile either way
            if kind == BUY_ACT:
                p = self.price(c)
                self.gold -= p
                self.st["gold_spent"] += p
                self.st["cards_bought"] += 1
                self.enter_inventory(c)  # kernel reading: a bought Diamond turns into gold at once
            else:
                self.discard.append(c)
            self.phase = BETWEEN
        elif kind == BUYBACK:
            self.buyback(x)
        elif kind == SELL:
            self.sell(x)
        elif ph == BETWEEN:
            if kind == END:
                self.phase = BATTLE_START
            elif kind == QUIT:
                self.end_session(VOLUNTARY)
            else:  # REVEAL
                self.revealed = self.draw[-1]
                self.phase = BUY
        elif kind == END:
            self.phase = MONSTER
        elif kind == ATTACK:
            self.hand_attack(x, y, PICK_RANK)
        elif kind == SPADE_ACT:
            self.use_spade(x)
        elif kind == CLUB_ACT:
            self.use_club(x)
        elif kind == ACE_SPADE:
            self.ace_spade(x)
        elif kind == ACE_CLUB:
            self.ace_club(x)
        self.advance()

    def advance(self) -> None:
        """Run the phases that need no decision until the bot must decide or the run is over."""
        while True:
            ph = self.phase
            if ph == BATTLE_START:
                self.start_battle()
            elif ph == MONSTER:
                self.monster_turn()
            elif ph == SESSION_END:
                self.close_session()
                self.session += 1
                if self.session >= self.rules.n_sessions:
                    self.phase = OVER
                else:
                    self.start_session()
            else:
                return

    def play(self) -> None:
        """Create the character and play all its sessions (``kernel.play_character``).

        A character whose card-dice creation fails plays nothing and has no rows (as in
        the kernel; impossible with the real deck).
        """
        if not self.create_character():
            self.phase = OVER
            return
        self.start_session()
        self.advance()
        bot = self.ref.bot_func
        while self.phase != OVER:
            self.apply_action(bot(self))

    def result(self, tables: Sequence[str] = ("games", "seats", "cards", "turns")) -> dict:
        """Return the character's records: its session ids and the requested tables' rows."""
        rows = {
            "games": self.games_rows,
            "seats": self.seats_rows,
            "cards": self.card_rows,
            "turns": self.battle_rows,
        }
        n = self.rules.n_sessions
        return {
            "character": self.index,
            "game": self.index * n,
            "game_ids": [self.index * n + k for k in range(len(self.games_rows))],
            "rows": {t: rows[t] for t in tables},
        }


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


class Reference:
    """A batch set-up (like ``kernel.prepare``): rules, cards, the bot and its weights, reused per character.

    ``bot`` is a bot name or a one-element sequence of names (the kernel's ``bot_ids``);
    ``weights`` one weight vector or a one-row matrix (the kernel reads row 0).
    """

    def __init__(self, params: Any, cards: Any, bot: str | Sequence[str], weights: Sequence) -> None:
        self.rules = Rules.of(params)
        self.cards = cards_from_pool(cards)  # a CardPool, Card objects or card dicts
        self.n_faces = sum(card.kind == FACE for card in self.cards)  # meta.n_faces
        from cardrpg_reference_bots import BOT_FUNCS  # the bots need the rules: imported once they exist

        name = bot if isinstance(bot, str) else bot[0]
        if name not in BOT_FUNCS:
            raise ValueError(f"unknown bot {name!r}; the reference has {', '.join(BOTS)}")
        self.bot_name = name
        self.bot_func = BOT_FUNCS[name]
        self.bot_id = BOTS.index(name)
        row = weights[0] if len(weights) and hasattr(weights[0], "__len__") else weights
        self.weights = [float(x) for x in row]

    def character(self, root_seed: int, game: int) -> Character:
        """Return character ``game`` of a run with ``root_seed``, not yet played."""
        return Character(self, game, game_seed(root_seed, game))

    def play(self, root_seed: int, game: int, tables: Sequence[str] = ("games", "seats", "cards", "turns")) -> dict:
        """Play character ``game`` of a run with ``root_seed`` (all its sessions); return ``Character.result``."""
        ch = self.character(root_seed, game)
        ch.play()
        return ch.result(tables)


def play_games(ref: Reference, root_seed: int, first_game: int, n_games: int, tables=("games", "seats")) -> list:
    """Play characters ``first_game ..`` of a run; return their results."""
    return [ref.play(root_seed, g, tables) for g in range(first_game, first_game + n_games)]


def to_rows(results: list[dict]) -> Mapping[str, list[dict]]:
    """Return the results as flat rows per table (``games``, ``seats``, ``cards``, ``turns``)."""
    out: dict[str, list[dict]] = {"games": [], "seats": [], "cards": [], "turns": []}
    for r in results:
        for table, rows in r["rows"].items():
            out[table].extend(rows)
    return out
