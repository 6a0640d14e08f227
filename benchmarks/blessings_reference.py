"""Blessings & Curses in plain Python: a readable reference for the Numba kernel, and its speed baseline.

This file re-implements ``sims/blessings`` (RULES.md; rulings R1-R19 in
``../shared/rulings/blessings.md``) with lists, small classes and Python ints: no numpy
and no Numba in the game loop. It plays *the same games* as the kernel:

- the same RNG: the splitmix64 port in ``benchmarks/reference_rng.py`` (imported,
  with the 6 lanes of ``state.Lane``: SETUP 0, SHUFFLE 1 + seat, BOT 3 + seat, REVEAL 5);
- the same random numbers in the same order: the ``split_one_deck`` deal, each battle's
  gather + shuffle, the first-player reveals and the two reshuffles after them, the
  opening draws, reshuffles of the discard pile, the random bot's picks and shuffles;
- the same ``random``, ``greedy`` and ``tactician`` decisions, with the same float
  arithmetic in the same order (explicit loops, never ``sum()`` over floats; the bots are
  in ``blessings_reference_bots.py``);
- the same battle and turn flow and every ``Params`` switch.

``tests/sims/blessings/test_differential.py`` checks that both agree game by game on
every column of the ``games``, ``seats``, ``cards`` and ``turns`` tables;
``benchmarks/pure_python.py --game blessings`` times both.

The kernel is a phase machine (``kernel.advance``); here one battle is one loop
(``Game.play_battle``), which visits the same steps in the same order. Where the kernel
and the rulebook could be read differently, this file follows the kernel (it is the spec
of the differential test) and says so in a comment marked "kernel reading".

Usage::

    import sims
    from blessings_reference import Reference  # with benchmarks/ on sys.path

    game = sims.load("blessings")
    params = game.make_params("modern")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    weights = [list(game.make_weights("greedy"))] * 2
    ref = Reference(params, pool, ("greedy", "greedy"), weights)
    result = ref.play(root_seed=1, game=0, tables=("games", "seats", "cards", "turns"))
"""

from __future__ import annotations

import sys
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
LANE_SETUP = 0  # split_one_deck deal
LANE_SHUFFLE = 1  # + seat: gathers, first-player reshuffles, discard-pile reshuffles
LANE_BOT = 3  # + seat: that seat's bot (random picks, random arranging)
LANE_REVEAL = 5  # first-player reveals (R5)

# ---------------------------------------------------------------------------------------
# Constants (mirroring sims/blessings/state.py and kernel.py)
# ---------------------------------------------------------------------------------------

OWN_52, SPLIT_ONE_DECK = 0, 1  # DeckMode (R3)
DRAW_ORDER, PLAYER_ARRANGED = 0, 1  # HandOrder (R4)
FIVE_AT_SETUP, THREE_PLUS_TWO = 0, 1  # Opening (R6)
OUT_FOR_BATTLE, RECYCLE = 0, 1  # DestroyedCards (R10)
TURN_START, NEVER_SURRENDER, OWN_TURN = 0, 1, 2  # Surrender (R13)
FRESH_HAND, CARRYOVER_HAND = 0, 1  # PoolTarget (R15)
BLANK, NEXT_SUIT = 0, 1  # ValueBaseline (the row is built by pool.prepare_pool; the deal only needs its id)
BLESSING, CURSE_TYPE = 0, 1  # CardType
SEAT_0, SEAT_1, BOTH_SEATS = 1, 2, 3  # Seats flags (face_bonus_seats)

WIPEOUT, MUTUAL_WIPEOUT, BATTLE_CAP = 0, 1, 2  # EndReason
EXHAUSTION, SURRENDERED, TURN_CAP = 0, 1, 2  # BattleEnd
POOLS, BONUS = 0, 1  # Purpose of arranging a hand

NO_WINNER = -1
NEVER = -1
NO_CARD = -1
REVEAL_TRIES = 64  # battles.REVEAL_TRIES

# Decisions: SURRENDER_PHASE (play on or give up at a turn start), PLAY_PHASE (one card) and
# SURRENDER_END_PHASE (give up or pass at a turn's end, own_turn) (state.Phase)
SURRENDER_PHASE, PLAY_PHASE, SURRENDER_END_PHASE = 0, 1, 7

# Actions are tuples (kind, i, j), kinds as in state.ActionKind
PLAY_ON, SURRENDER, ATTACK, BLESS, CURSE, DISCARD = range(6)
PLAY_ON_ACTION = (PLAY_ON, 0, 0)
SURRENDER_ACTION = (SURRENDER, 0, 0)

# Bot weights: the order of bots.BotParams fields (bots.W)
(
    W_SURRENDER_RATE, W_ATTACK, W_KILL, W_CURSE, W_BLESS, W_DISCARD, W_DENY, W_FOCUS, W_OVERKILL, W_EXCESS,
    W_GUARD, W_RACE, W_EXPECT, W_PRESS, W_ORDER,
) = range(15)  # fmt: skip
ORDER_LEFTMOST, ORDER_BEST, ORDER_ATTACKS_FIRST = 0, 1, 2  # codes of the ``order`` weight (weights.ORDER_*)

BOTS = ("random", "greedy", "tactician")  # bot ids = positions (bots.Bot)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the table (``CARD_DTYPE`` fields)."""

    id: int
    name: str
    suit: int
    rank: int
    attack: int
    impact: int
    type: int  # BLESSING or CURSE_TYPE
    face: int


def cards_from_pool(pool: Any) -> list[Card]:
    """Return the cards of a ``CardPool`` (or a list of ``Card``s / card dicts) as ``Card``s, id = row."""
    if isinstance(pool, list | tuple):
        out = []
        for c, row in enumerate(pool):
            if isinstance(row, Card):
                out.append(row)
            else:
                keys = ("suit", "rank", "attack", "impact", "type", "face")
                out.append(Card(c, str(row.get("name", c)), *(int(row[k]) for k in keys)))
        return out
    names = pool.table.dtype.names
    rows = pool.table.tolist()  # tuples of Python ints, in CARD_DTYPE field order
    return [
        Card(c, name, **{k: int(v) for k, v in zip(names, row, strict=True)})
        for c, (name, row) in enumerate(zip(pool.names, rows, strict=True))
    ]


@dataclass(frozen=True)
class Rules:
    """The rule parameters (``sims.blessings.params.Params`` fields) as plain ints."""

    deck_mode: int = OWN_52
    hand_order: int = DRAW_ORDER
    open_hands: int = 1
    opening: int = FIVE_AT_SETUP
    destroyed_cards: int = OUT_FOR_BATTLE
    midbattle_reshuffle: int = 1
    surrender: int = OWN_TURN
    pool_target: int = CARRYOVER_HAND
    blessing_before_curses: int = 0
    face_bonus: int = 5
    face_bonus_seats: int = BOTH_SEATS
    card_health: int = 20
    turn_draw: int = 2
    max_turns_per_battle: int = 200
    max_battles: int = 50
    value_card: int = -1  # counterfactual card value: the card under test (-1: normal play)
    value_swap: int = 0  # 1 = the holder's copy is the baseline row (the pool's last)
    value_baseline: int = BLANK

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
# Per-game records
# ---------------------------------------------------------------------------------------


class SeatStats:
    """A seat's counters (the ``seats`` table columns besides game, seat, bot, score, won)."""

    __slots__ = (
        "attacks", "battles_started", "battles_surrendered", "blesses", "blessing_gained", "bonus_gained",
        "cards_destroyed", "cards_lost_to_curses", "cards_owned", "curse_sent", "curses", "damage_dealt",
        "discards", "first",
    )  # fmt: skip

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, 0)


class CardStats:
    """One owned card's counters (the ``cards`` table columns besides game, seat, card, won)."""

    __slots__ = (
        "attacks", "blesses", "blessing_gained", "cards_destroyed", "curse_sent", "curses", "damage_dealt",
        "discards", "first_drawn_turn", "first_played_turn", "in_opening_hand", "times_cursed", "times_destroyed",
        "times_drawn", "times_played",
    )  # fmt: skip

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, 0)
        self.first_drawn_turn = self.first_played_turn = NEVER


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------


class Game:
    """One game of Blessings & Curses: the deal, then battles until a wipe-out or the battle cap.

    Piles are lists of card ids: a deck's top is its last element, a hand is the ordered
    face-up row (index 0 = leftmost, new cards appended at the right, R4), discard and
    destroyed piles grow at the end. ``hp[p][c]`` is the Health of seat ``p``'s card ``c``
    while it is in the hand (R18), as in ``piles.hp``.
    """

    def __init__(self, ref: Reference, index: int, seed: int) -> None:
        self.ref = ref
        self.rules = ref.rules
        self.cards = ref.cards
        self.index, self.seed = index, seed
        self.rng = Rng(seed, N_LANES)
        self.turn = self.battle = self.battle_turn = 0
        self.own_turns = [0, 0]
        self.mover = self.first_seat = self.battle_first = 0
        self.phase = SURRENDER_PHASE
        self.to_play = 0
        self.over = False
        self.winner, self.end_reason, self.final_how = NO_WINNER, BATTLE_CAP, TURN_CAP
        n = len(self.cards)
        self.owned: list[list[int]] = [[], []]
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.gone: list[list[int]] = [[], []]  # destroyed pile: out until the next battle (R10)
        self.hp = [[0] * n, [0] * n]
        self.curse = [0, 0]  # curse that hits seat p at the next battle start
        self.blessing = [0, 0]  # seat p's blessing pool for the next battle
        self.wins = [0, 0]
        self.bonus = 0  # last battle's winner's bonus
        self.stats = [SeatStats(), SeatStats()]
        self.card_stats: list[list[CardStats | None]] = [[None] * n, [None] * n]
        self.battle_rows: list[dict] = []  # battle_rows[b - 1]: the row of battle b

    # -- the deal (R3) ---------------------------------------------------------------------

    def deal_owned(self) -> None:
        """Give each seat its cards for the game: the whole table each, or half a shuffled table each.

        A value run (``value_card`` >= 0) makes sure the holder (seat ``game % 2``) owns the
        card: if the split dealt it elsewhere, it trades places with the holder's card at the
        same position of its half (the first, for a card left out of an odd table). With
        ``value_swap`` the holder's copy then becomes the baseline row (the table's last),
        in the same place of its list, so every shuffle permutes alike in both arms.
        """
        rules = self.rules
        n = self.ref.n_real  # the baseline row is not dealt
        holder = self.index % 2
        if rules.deck_mode == SPLIT_ONE_DECK:
            order = list(range(n))
            self.rng.shuffle(order, LANE_SETUP)
            half = n // 2  # an odd table leaves its last card out
            if rules.value_card >= 0:
                k = order.index(rules.value_card)
                if min(k // half, 2) != holder:
                    slot = holder * half + (k % half if k < 2 * half else 0)
                    order[k], order[slot] = order[slot], order[k]
            self.owned = [sorted(order[:half]), sorted(order[half : 2 * half])]  # id order, as the kernel sorts
        else:
            self.owned = [list(range(n)), list(range(n))]
        if rules.value_card >= 0 and rules.value_swap:
            mine = self.owned[holder]
            mine[mine.index(rules.value_card)] = len(self.cards) - 1
        for p in range(2):
            self.stats[p].cards_owned = len(self.owned[p])
            for c in self.owned[p]:
                self.card_stats[p][c] = CardStats()

    # -- piles (R10, R11, R18) -------------------------------------------------------------

    def reshuffle(self, p: int) -> None:
        """Shuffle seat ``p``'s discard pile into its empty deck (R11; never the destroyed pile)."""
        self.deck[p] = self.discard[p]
        self.discard[p] = []
        self.rng.shuffle(self.deck[p], LANE_SHUFFLE + p)

    def draw(self, p: int) -> int:
        """Draw seat ``p``'s top card to the right end of its hand at full Health; return it (-1: nothing)."""
        if not self.deck[p] and self.rules.midbattle_reshuffle and self.discard[p]:
            self.reshuffle(p)
        deck = self.deck[p]
        if not deck:
            return NO_CARD  # R11: skipped, no penalty
        c = deck.pop()
        self.hand[p].append(c)
        self.hp[p][c] = self.rules.card_health  # R18
        cs = self.card_stats[p][c]
        cs.times_drawn += 1
        if cs.first_drawn_turn == NEVER:
            cs.first_drawn_turn = self.turn
        return c

    def destroy(self, p: int, i: int) -> int:
        """Remove seat ``p``'s hand card ``i`` to its destroyed pile (or discard pile with ``recycle``, R10)."""
        c = self.hand[p].pop(i)
        (self.discard[p] if self.rules.destroyed_cards == RECYCLE else self.gone[p]).append(c)
        return c

    def cards_left(self, p: int) -> int:
        """Return seat ``p``'s cards that can still reach its hand this battle (R12)."""
        n = len(self.hand[p]) + len(self.deck[p])
        return n + len(self.discard[p]) if self.rules.midbattle_reshuffle else n

    # -- battle start: pools (R15-R17), gather, first player (R5), opening hands (R6) -------

    def bless_rightmost(self, p: int) -> None:
        """Add seat ``p``'s whole blessing pool to its rightmost card's Health (R16; no cap)."""
        b = self.blessing[p]
        if b <= 0 or not self.hand[p]:
            return
        self.hp[p][self.hand[p][-1]] += b

    def curse_hand(self, p: int) -> int:
        """Let seat ``p``'s curse pool hit its hand from the left, overflowing (R16); return cards destroyed."""
        left = self.curse[p]
        hand, hp = self.hand[p], self.hp[p]
        lost = 0
        while left > 0 and hand:
            c = hand[0]
            h = hp[c]
            if left >= h:
                left -= h
                hp[c] = 0
                self.destroy(p, 0)
                lost += 1
                self.card_stats[p][c].times_cursed += 1
            else:
                hp[c] = h - left
                left = 0
        self.stats[p].cards_lost_to_curses += lost
        return lost

    def apply_pools(self, p: int) -> bool:
        """Apply seat ``p``'s curse and blessing pools to its hand (R16, R17); return True if wiped out."""
        rules = self.rules
        if rules.hand_order == PLAYER_ARRANGED:
            self.ref.arrange(self, p, POOLS)
        if rules.blessing_before_curses:
            self.bless_rightmost(p)
        lost = self.curse_hand(p)
        wiped = self.curse[p] > 0 and not self.hand[p]  # R17: no curse, no wipe-out
        if not rules.blessing_before_curses:
            self.bless_rightmost(p)
        if self.battle >= 1:  # the row of the battle whose pools these are
            row = self.battle_rows[self.battle - 1]
            row[f"lost_to_curses_{p}"], row[f"wiped_{p}"] = lost, int(wiped)
        return wiped

    def apply_both_pools(self) -> bool:
        """Apply both seats' pools, reset them (R17) and end the game on a wipe-out; return True if it ended."""
        w0 = self.apply_pools(0)
        w1 = self.apply_pools(1)
        self.curse = [0, 0]
        self.blessing = [0, 0]
        if not (w0 or w1):
            return False
        self.over = True
        if w0 and w1:
            self.winner, self.end_reason = NO_WINNER, MUTUAL_WIPEOUT
        else:
            self.winner, self.end_reason = (1 if w0 else 0), WIPEOUT
        return True

    def gather(self, p: int) -> None:
        """Put every card seat ``p`` owns into its deck, in owned order, and shuffle it (R15 step 1)."""
        self.deck[p] = list(self.owned[p])
        self.hand[p], self.discard[p], self.gone[p] = [], [], []
        self.rng.shuffle(self.deck[p], LANE_SHUFFLE + p)

    def choose_first(self) -> int:
        """Return the battle's first player (R5): each seat reveals a random deck card, higher Attack starts.

        Kernel reading (RULES.md §8.4): a reveal is a uniformly random card of the shuffled
        deck, on the REVEAL lane (seat 0's first), put back; ties reveal again; after
        ``REVEAL_TRIES`` ties a coin decides; then both decks are reshuffled.
        """
        rng, deck, cards = self.rng, self.deck, self.cards
        first = -1
        for _ in range(REVEAL_TRIES):
            c0 = deck[0][rng.randint(LANE_REVEAL, len(deck[0]))]
            c1 = deck[1][rng.randint(LANE_REVEAL, len(deck[1]))]
            a0, a1 = cards[c0].attack, cards[c1].attack
            if a0 != a1:
                first = 0 if a0 > a1 else 1
                break
        if first < 0:
            first = rng.randint(LANE_REVEAL, 2)
        for p in range(2):
            rng.shuffle(deck[p], LANE_SHUFFLE + p)
        return first

    def start_battle(self) -> bool:
        """Run the start of the next battle; return True if it begins, False if the game is over.

        ``self.battle`` still numbers the battle that just ended while its pools are applied.
        With ``carryover_hand`` the battle cap is checked before any card is dealt; with
        ``fresh_hand`` the last deal is needed, since the last pools hit it (RULES.md §8.1).
        """
        rules = self.rules
        carry = rules.pool_target == CARRYOVER_HAND
        if self.battle >= 1 and carry:
            if self.apply_both_pools():
                return False  # R15 carryover: pools hit the hand left from the last battle
            if self.battle >= rules.max_battles:  # R19: no hands for a battle that is not played
                self.over, self.winner, self.end_reason = True, NO_WINNER, BATTLE_CAP
                return False
        for p in range(2):
            self.gather(p)
        first = self.choose_first()
        opening = 3 if rules.opening == THREE_PLUS_TWO else 5
        for p in range(2):
            for _ in range(opening):
                c = self.draw(p)
                if c != NO_CARD and self.battle == 0:
                    self.card_stats[p][c].in_opening_hand = 1
        if self.battle >= 1 and not carry and self.apply_both_pools():
            return False  # R15 fresh hand: pools hit the new hands
        if self.battle >= rules.max_battles:  # R19 (RULES.md §8.1): the last pools applied, nobody wiped out
            self.over, self.winner, self.end_reason = True, NO_WINNER, BATTLE_CAP
            return False
        self.battle += 1
        self.battle_first = self.mover = first
        if self.battle == 1:
            self.first_seat = first
            self.stats[first].first = 1
        self.stats[first].battles_started += 1
        self.battle_turn = 0
        self.own_turns = [0, 0]
        return True

    # -- battle end (R12-R14, R19) ---------------------------------------------------------

    def end_battle(self, winner: int, how: int) -> None:
        """End the current battle: winner's bonus (R14), then the battle's row."""
        self.bonus = 0
        if winner != NO_WINNER:
            if self.rules.hand_order == PLAYER_ARRANGED:
                self.ref.arrange(self, winner, BONUS)
            hand = self.hand[winner]
            bonus = self.cards[hand[-1]].attack if hand else 0  # R14: 0 for a face card or an empty hand
            self.bonus = bonus
            self.blessing[winner] += bonus
            self.wins[winner] += 1
            self.stats[winner].bonus_gained += bonus
        self.final_how = how
        self.battle_rows.append(
            {
                "turn": self.battle,
                "seat": self.battle_first,
                "turns": self.battle_turn,
                "winner": winner,
                "how": how,
                "score_0": self.wins[0],
                "score_1": self.wins[1],
                "curse_pool_0": self.curse[0],
                "curse_pool_1": self.curse[1],
                "blessing_pool_0": self.blessing[0],
                "blessing_pool_1": self.blessing[1],
                "winner_bonus": self.bonus,
                "cards_left_0": len(self.hand[0]) + len(self.deck[0]) + len(self.discard[0]),
                "cards_left_1": len(self.hand[1]) + len(self.deck[1]) + len(self.discard[1]),
                "hand_0": len(self.hand[0]),
                "hand_1": len(self.hand[1]),
                "lost_to_curses_0": 0,  # filled in when these pools are applied
                "lost_to_curses_1": 0,
                "wiped_0": 0,
                "wiped_1": 0,
            }
        )

    # -- the four card actions (R7-R9) ---------------------------------------------------

    def attack(self, p: int, c: int, j: int) -> None:
        """Card ``c`` of seat ``p`` hits the opposing hand card ``j`` (R8): Attack x Impact, overkill lost."""
        o = 1 - p
        t = self.hand[o][j]
        dmg = self.ref.damage[c]
        h = self.hp[o][t]
        dealt = min(dmg, h)
        self.hp[o][t] = h - dealt
        cs, st = self.card_stats[p][c], self.stats[p]
        cs.attacks += 1
        st.attacks += 1
        cs.damage_dealt += dealt
        st.damage_dealt += dealt
        if h - dealt <= 0:
            self.destroy(o, j)
            cs.cards_destroyed += 1
            st.cards_destroyed += 1
            self.card_stats[o][t].times_destroyed += 1

    def play_card(self, kind: int, i: int, j: int) -> None:
        """Play the mover's hand card ``i`` as ``kind``, discard it and draw its replacement (R7)."""
        p = self.mover
        hand = self.hand[p]
        c = hand[i]
        cs, st = self.card_stats[p][c], self.stats[p]
        if kind == ATTACK:
            self.attack(p, c, j)
        elif kind == BLESS:
            v = self.ref.pool_value[p][c]
            self.blessing[p] += v
            cs.blesses += 1
            st.blesses += 1
            cs.blessing_gained += v
            st.blessing_gained += v
        elif kind == CURSE:
            v = self.ref.pool_value[p][c]
            self.curse[1 - p] += v
            cs.curses += 1
            st.curses += 1
            cs.curse_sent += v
            st.curse_sent += v
        else:  # DISCARD: discard for blessing
            v = self.ref.discard_value[p][c]
            self.blessing[p] += v
            cs.discards += 1
            st.discards += 1
            cs.blessing_gained += v
            st.blessing_gained += v
        cs.times_played += 1
        if cs.first_played_turn == NEVER:
            cs.first_played_turn = self.turn
        del hand[i]
        self.discard[p].append(c)
        self.to_play -= 1
        self.draw(p)  # the replacement waits for the next turn (R7)

    # -- the game loop ---------------------------------------------------------------------

    def play_battle(self) -> None:
        """Play the current battle's turns until it ends (exhaustion, surrender or the turn cap).

        Each turn: count it, the surrender decision (R13; a turn that is only a surrender
        is taken back: ``games.turns`` counts turns played, RULES.md §8.2), the turn draw
        (R6: none on a seat's first turn with ``five_at_setup``), one decision per card
        held (R7), the end-of-turn checks (R12 exhaustion before R19's turn cap), then,
        with ``own_turn``, the end-of-turn surrender decision.
        """
        rules = self.rules
        bots = self.ref.bot_funcs
        ask = rules.surrender != NEVER_SURRENDER
        ask_at_end = rules.surrender == OWN_TURN
        draw_always = rules.opening == THREE_PLUS_TWO
        while True:
            p = self.mover
            self.turn += 1
            self.battle_turn += 1
            self.own_turns[p] += 1
            if ask:
                self.phase = SURRENDER_PHASE
                if bots[p](self)[0] == SURRENDER:
                    self.turn -= 1  # nothing of this turn was played
                    self.battle_turn -= 1
                    self.own_turns[p] -= 1
                    self.stats[p].battles_surrendered += 1
                    self.end_battle(1 - p, SURRENDERED)
                    return
            if draw_always or self.own_turns[p] > 1:
                for _ in range(rules.turn_draw):
                    self.draw(p)
            self.to_play = len(self.hand[p])
            self.phase = PLAY_PHASE
            while self.to_play > 0:
                kind, i, j = bots[p](self)
                self.play_card(kind, i, j)
            out0, out1 = self.cards_left(0) == 0, self.cards_left(1) == 0
            if out0 or out1:
                self.end_battle(NO_WINNER if out0 and out1 else (1 if out0 else 0), EXHAUSTION)
                return
            if self.battle_turn >= rules.max_turns_per_battle:
                self.end_battle(NO_WINNER, TURN_CAP)
                return
            if ask_at_end:
                self.phase = SURRENDER_END_PHASE
                if bots[p](self)[0] == SURRENDER:
                    self.stats[p].battles_surrendered += 1
                    self.end_battle(1 - p, SURRENDERED)
                    return
            self.mover = 1 - p

    def play(self) -> None:
        """Play the game to its end: a wipe-out at a battle start or the battle cap.

        The kernel also stops after a huge number of decisions (only a bug reaches it);
        here every loop is bounded by the caps of R19 already.
        """
        self.deal_owned()
        while self.start_battle():
            self.play_battle()

    # -- records ---------------------------------------------------------------------------

    def result(self, tables: Sequence[str] = ("games", "seats")) -> dict:
        """Return the game's records: the ``games`` columns at top level, plus the requested tables."""
        out = {
            "game": self.index,
            "seed": self.seed,
            "first_seat": self.first_seat,
            "winner": self.winner,
            "turns": self.turn,
            "end_reason": self.end_reason,
            "score_0": self.wins[0],
            "score_1": self.wins[1],
            "battles": self.battle,
            "final_how": self.final_how,
        }
        if "seats" in tables:
            out["seats"] = [self.seat_row(p) for p in range(2)]
        if "cards" in tables:
            out["cards"] = [self.card_row(p, c) for p in range(2) for c in self.owned[p]]
        if "turns" in tables:
            out["turn_rows"] = [dict(row) for row in self.battle_rows]
        return out

    def seat_row(self, p: int) -> dict:
        """Return seat ``p``'s ``seats`` row."""
        st = self.stats[p]
        row = {"seat": p, "bot": self.ref.bot_ids[p], "score": self.wins[p], "won": int(self.winner == p)}
        row.update({name: getattr(st, name) for name in SeatStats.__slots__})
        return row

    def card_row(self, p: int, c: int) -> dict:
        """Return the ``cards`` row of seat ``p``'s card ``c``."""
        cs = self.card_stats[p][c]
        row = {"seat": p, "card": c, "won": int(self.winner == p)}
        row.update({name: getattr(cs, name) for name in CardStats.__slots__})
        return row


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


class Reference:
    """A batch set-up (like ``kernel.prepare``): rules, cards, card values and bot weights, reused per game."""

    def __init__(
        self,
        params: Any,
        cards: Any,
        bot_names: Sequence[str],
        weights: Sequence[Sequence[float]],
    ) -> None:
        self.rules = rules = Rules.of(params)
        self.cards = cards_from_pool(cards)  # a CardPool, Card objects or card dicts
        from blessings_reference_bots import BOT_FUNCS, arrange, modelled_play  # the bots need the rules

        self.arrange = arrange  # the rules call it for player-arranged hands (R16)
        unknown = [b for b in bot_names if b not in BOT_FUNCS]
        if unknown:
            raise ValueError(f"unknown bot(s) {unknown}; the reference has {', '.join(BOTS)}")
        self.bot_names = tuple(bot_names)
        self.bot_funcs = [BOT_FUNCS[b] for b in bot_names]
        self.bot_ids = [BOTS.index(b) for b in bot_names]
        self.weights = [[float(x) for x in w] for w in weights]
        # the values of the four actions (R8, R9): kernel.attack_damage, and pool_value and
        # discard_value per seat, since each seat's face cards get that seat's face bonus
        self.damage = [card.attack * card.impact for card in self.cards]
        bonus = [rules.face_bonus if (rules.face_bonus_seats >> p) & 1 else 0 for p in range(2)]
        self.pool_value = [[card.attack + card.impact + (b if card.face else 0) for card in self.cards] for b in bonus]
        self.discard_value = [
            [max(0, card.attack + card.impact - (b if card.face else 0)) for card in self.cards] for b in bonus
        ]
        # a value run's pool ends with the baseline row, which is not a card of the pool
        self.n_real = len(self.cards) - (1 if rules.value_card >= 0 else 0)
        # kernel.prepare: the mean curse of a card of the pool played by each seat (hidden hands)
        self.mean_curse = []
        for values in self.pool_value:
            total = 0.0
            for card, v in zip(self.cards[: self.n_real], values, strict=False):
                total += v if card.type == CURSE_TYPE else 0.0
            self.mean_curse.append(total / max(1, self.n_real))
        # bots.prime: what each seat's cards are expected to do when played (its opponent's model), and means
        self.next_curse: list[list[float]] = [[], []]
        self.next_hit: list[list[float]] = [[], []]
        self.mean_next: list[list[float]] = []
        for o in range(2):
            curse, hit = 0.0, 0.0
            for c in range(len(self.cards)):
                nc, nh = modelled_play(self, 1 - o, o, c, rules.card_health)
                self.next_curse[o].append(nc)
                self.next_hit[o].append(nh)
                if c < self.n_real:
                    curse += nc
                    hit += nh
            self.mean_next.append([curse / max(1, self.n_real), hit / max(1, self.n_real)])

    def game(self, root_seed: int, game: int) -> Game:
        """Return game ``game`` of a run with ``root_seed``, not yet played."""
        return Game(self, game, game_seed(root_seed, game))

    def play(self, root_seed: int, game: int, tables: Sequence[str] = ("games", "seats")) -> dict:
        """Play game ``game`` of a run with ``root_seed``; return its records (``Game.result``)."""
        g = self.game(root_seed, game)
        g.play()
        return g.result(tables)


def play_game(
    params: Any,
    cards: Any,
    bot_names: Sequence[str],
    weights: Sequence[Sequence[float]],
    root_seed: int,
    game_index: int,
    tables: Sequence[str] = ("games", "seats"),
) -> dict:
    """Play one game with the reference rules; see ``Reference`` (build one to play many games)."""
    return Reference(params, cards, bot_names, weights).play(root_seed, game_index, tables)


def play_games(ref: Reference, root_seed: int, first_game: int, n_games: int, tables=("games", "seats")) -> list:
    """Play games ``first_game ..`` of a run; return their records."""
    return [ref.play(root_seed, g, tables) for g in range(first_game, first_game + n_games)]


GAME_COLUMNS = ("game", "seed", "first_seat", "winner", "turns", "end_reason", "score_0", "score_1")
GAME_COLUMNS += ("battles", "final_how")


def to_rows(results: list[dict]) -> Mapping[str, list[dict]]:
    """Return the results as flat rows per table (``games``, ``seats``, ``cards``, ``turns``)."""
    out: dict[str, list[dict]] = {"games": [], "seats": [], "cards": [], "turns": []}
    for r in results:
        out["games"].append({k: r[k] for k in GAME_COLUMNS})
        for row in r.get("seats", []):
            out["seats"].append({"game": r["game"], **row})
        for row in r.get("cards", []):
            out["cards"].append({"game": r["game"], **row})
        for row in r.get("turn_rows", []):
            out["turns"].append({"game": r["game"], **row})
    return out
