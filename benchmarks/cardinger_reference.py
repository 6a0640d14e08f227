"""Cardinger in plain Python: a readable reference for the Numba kernel, and its speed baseline.

This file re-implements ``sims/cardinger`` (RULES.md, rulings R1-R21) with lists, small
classes and Python ints: no numpy and no Numba in the game loop. It plays *the same games*
as the kernel: the same RNG lanes and draws in the same order (set-up coin, deck building,
shuffles, the random bot's picks), the same deck building, the same legal-action order and
the same ``random``, ``greedy`` and ``tuned`` bot decisions (``cardinger_reference_bots.py``),
with the same float arithmetic in the same order. ``tests/sims/cardinger/test_differential.py``
checks that both agree game by game; ``benchmarks/pure_python.py`` times both.

Where the kernel and the rulebook could be read differently, this file follows the kernel
(it is the spec of the differential test) and says so in a comment.

Usage::

    import sims
    from benchmarks.cardinger_reference import Reference

    game = sims.load("cardinger")
    params = game.make_params("modern")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    ref = Reference(params, pool, ("greedy", "greedy"), [list(game.make_weights("greedy"))] * 2)
    result = ref.play(root_seed=1, game=0)  # dict: first_seat, winner, turns, ..., seats
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # benchmarks/ is not a package: its modules import each other by file name
    sys.path.insert(0, str(HERE))

from reference_rng import Rng, game_seed  # noqa: E402

# ---------------------------------------------------------------------------------------
# RNG: reference_rng.py (a bit-exact port of sims/core/rng.py)
# ---------------------------------------------------------------------------------------

N_LANES = 5
LANE_SETUP = 0  # first seat, deck building
LANE_SHUFFLE = 1  # + seat: that seat's deck shuffles
LANE_BOT = 3  # + seat: that seat's bot decisions


# ---------------------------------------------------------------------------------------
# Rules constants (mirroring sims/cardinger/state.py)
# ---------------------------------------------------------------------------------------

READY, DOUBLE, FRAGILE, OMNI, STEAL, DECAY, PROSPERITY, DEVOUR = 1, 2, 4, 8, 16, 32, 64, 128

# Parameter codes (state.DeckBuilder, DeckSource, FirstSeat, PlayLimit, ReplenishTiming)
RECOMMENDED_RANDOM, UNIFORM_RANDOM, FIXED = 0, 1, 2
OWN_SET, SHARED_SET = 0, 1
FIRST_RANDOM, FIRST_ALTERNATE = 0, 1
HALF_HAND_UP, UNLIMITED = 0, 1
END_OF_TURN, START_OF_NEXT_TURN = 0, 1
ONE_GAIN, SECOND_GAIN = 0, 1  # state.ProsperityGain
SAME_COST, BLANK = 0, 1  # state.ValueBaseline
UNLIMITED_PLAYS = 127

TARGET_SCORE, TIMEOUT = 0, 1  # end reasons (state.EndReason)
NO_WINNER = -1
NEVER = -1

# Phases of a turn that take decisions (state.Phase)
PLAY_PHASE, PAY_PHASE, ACTION_PHASE, OVER = 0, 1, 2, 3

# Actions are tuples (kind, i, j), kinds as in state.ActionKind
END, PLAY, PAY, RETIRE, ATTACK, DRAW, SCORE = range(7)
ALL_TARGETS = 63  # target of an OMNI attack
END_TURN = (END, 0, 0)

BOTS = ("random", "greedy", "tuned")  # cardinger_reference_bots.BOT_FUNCS


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the pool (its printed numbers)."""

    id: int
    name: str
    cost: int
    hp: int
    atk: int
    def_: int
    draw: int
    score: int
    keywords: int
    acts: int  # actions per turn: 2 attacks with DOUBLE, else 1 (R12)
    printed: bool = True  # False for the value baseline's blank row (``set`` 0): in no builder pile


def card_from_dict(c: int, row: Mapping[str, Any]) -> Card:
    """Return card ``c`` from a mapping with the ``CARD_DTYPE`` fields (``def_`` or ``def``; ``name`` optional)."""
    kw = int(row["keywords"])
    d = row["def_"] if "def_" in row else row["def"]
    stats = (int(row["cost"]), int(row["hp"]), int(row["atk"]), int(d), int(row["draw"]), int(row["score"]))
    return Card(c, str(row.get("name", c)), *stats, kw, 2 if kw & DOUBLE else 1, int(row.get("set", 1)) != 0)


def cards_from_pool(pool: Any) -> list[Card]:
    """Return the cards of a prepared ``CardPool`` (or a list of card dicts) as ``Card``s, id = row."""
    if isinstance(pool, list | tuple):
        return [c if isinstance(c, Card) else card_from_dict(i, c) for i, c in enumerate(pool)]
    fields = pool.table.dtype.names
    rows = pool.table.tolist()  # tuples of Python ints, in CARD_DTYPE field order
    return [
        card_from_dict(c, {"name": name, **dict(zip(fields, row, strict=True))})
        for c, (name, row) in enumerate(zip(pool.names, rows, strict=True))
    ]


@dataclass(frozen=True)
class Rules:
    """The rule parameters (``sims.cardinger.params.Params`` fields) as plain ints."""

    card_sets: int = 15
    include_placeholders: int = 0
    deck_builder: int = RECOMMENDED_RANDOM
    deck_source: int = OWN_SET
    builder_cost_target: int = 10
    builder_excluded_cost: int = 8
    first_seat: int = FIRST_RANDOM
    target_score: int = 20
    deck_size: int = 20
    opening_hand: int = 4
    hand_limit: int = 10
    field_limit: int = 5
    play_limit: int = HALF_HAND_UP
    first_turn_draw: int = 0
    idle_extra_draw: int = 1
    replenish_timing: int = END_OF_TURN
    replenish_point: int = 1
    prosperity_step: int = 5
    prosperity_gain: int = ONE_GAIN
    devour_hp_cap: int = 4
    max_turns: int = 200
    value_card: int = -1  # balance value (RULES.md §10): card under test, -1 = normal play
    value_swap: int = 0  # 1 = the holder's copy is replaced by the baseline
    value_baseline: int = SAME_COST

    @classmethod
    def of(cls, params: Any) -> Rules:
        """Return ``Rules`` from a ``Params`` NamedTuple, a mapping or a ``Rules``."""
        if isinstance(params, Rules):
            return params
        values = params._asdict() if hasattr(params, "_asdict") else dict(params)
        return cls(**{k: int(v) for k, v in values.items()})


# ---------------------------------------------------------------------------------------
# Per-game records
# ---------------------------------------------------------------------------------------


class SeatStats:
    """A seat's result counters (the ``seats`` table columns)."""

    __slots__ = (
        "attacks", "cards_destroyed", "cards_played", "deck", "deck_total_cost", "draws", "first",
        "own_fragile_losses", "points_prosperity", "points_replenish", "points_score", "points_steal",
        "replenishes", "scores",
    )  # fmt: skip

    def __init__(self) -> None:
        self.first = 0
        self.points_score = self.points_prosperity = self.points_steal = self.points_replenish = 0
        self.cards_played = self.attacks = self.draws = self.scores = 0
        self.cards_destroyed = self.own_fragile_losses = self.replenishes = self.deck_total_cost = 0
        self.deck: list[int] = []


class CardStats:
    """One deck card's counters (the ``cards`` table columns)."""

    __slots__ = (
        "cards_destroyed", "cards_drawn", "damage_dealt", "first_drawn_turn", "first_played_turn",
        "in_opening_hand", "points_scored", "steal_points", "times_destroyed", "times_discarded",
        "times_drawn", "times_played", "times_retired",
    )  # fmt: skip

    def __init__(self) -> None:
        self.in_opening_hand = 0
        self.first_drawn_turn = self.first_played_turn = NEVER
        self.times_played = self.times_drawn = self.points_scored = self.steal_points = 0
        self.damage_dealt = self.cards_destroyed = self.cards_drawn = 0
        self.times_destroyed = self.times_discarded = self.times_retired = 0


class InPlay:
    """A card in a field with its current HP and DEF and the actions it has left this turn."""

    __slots__ = ("acts", "card", "def_", "hp")

    def __init__(self, card: Card, acts: int) -> None:
        self.card = card
        self.hp = card.hp  # R18: printed stats on entering
        self.def_ = card.def_
        self.acts = acts


class EndOfGame(Exception):
    """Raised by a point gain that reaches the target score: nothing after it resolves (R10)."""


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------


class Game:
    """One game of Cardinger: set-up, then bot decisions until a win or the turn cap.

    Piles are lists of card ids; a deck's top is its last element, a hand keeps arrival
    order, a field keeps play order (a card leaving shifts the later ones down).
    """

    def __init__(self, ref: Reference, index: int, seed: int) -> None:
        self.ref = ref
        self.rules = rules = ref.rules
        self.cards = ref.cards
        self.index, self.seed = index, seed
        self.rng = Rng(seed, N_LANES)
        self.turn = 0
        self.mover = self.first_seat = 0
        self.phase = PLAY_PHASE
        self.plays_left = self.pending_cost = self.plays = self.actions = 0
        self.winner, self.end_reason = NO_WINNER, TIMEOUT
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.field: list[list[InPlay]] = [[], []]
        self.built: list[list[int]] = [[], []]
        self.score = [0, 0]
        self.replenished = [False, False]
        self.stats = [SeatStats(), SeatStats()]
        self.card_stats: list[dict[int, CardStats]] = [{}, {}]
        self.turn_rows: list[tuple] = []
        self.hand_limit = rules.hand_limit
        self.target = rules.target_score

    # -- set-up: R3 first seat, R2 decks, opening hands ---------------------------------

    def set_up(self, decks: Sequence[Sequence[int]] | None) -> None:
        """Choose the first seat, build and shuffle the decks, deal, and start turn 1."""
        rules = self.rules
        coin = self.rng.randint(LANE_SETUP, 2)  # drawn even with first_seat=alternate
        self.first_seat = coin if rules.first_seat == FIRST_RANDOM else self.index % 2
        self.mover = self.first_seat
        self.stats[self.first_seat].first = 1
        self.build_decks(decks)
        for p in range(2):
            self.stats[p].deck = list(self.built[p])
            self.stats[p].deck_total_cost = sum(self.cards[c].cost for c in self.built[p])
            self.card_stats[p] = {c: CardStats() for c in self.built[p]}
            self.deck[p] = list(self.built[p])
            self.rng.shuffle(self.deck[p], LANE_SHUFFLE + p)
            for _ in range(rules.opening_hand):
                c = self.draw(p)
                if c >= 0:
                    self.card_stats[p][c].in_opening_hand = 1
        self.start_turn()

    def build_decks(self, decks: Sequence[Sequence[int]] | None) -> None:
        """Fill ``built`` with both deck lists (R2), drawing on the set-up lane."""
        rules = self.rules
        size = rules.deck_size
        if rules.deck_builder == FIXED:
            self.built = [[int(c) for c in decks[p][:size]] for p in range(2)]
        elif rules.deck_source == SHARED_SET:
            piles = self.ref.fresh_piles()  # one copy of the set for both players
            if rules.value_card >= 0:
                take_from_piles(piles, rules.value_card)  # before any draw: the opponent may pick first
            first = self.rng.randint(LANE_SETUP, 2)
            totals = [0, 0]
            for k in range(2 * size):
                p = first ^ (k & 1)  # strict alternation, one card per draw
                c = self.value_first(piles, p, k >> 1)
                c = self.pick_card(piles, totals[p]) if c is None else c
                self.built[p].append(c)
                totals[p] += self.cards[c].cost
        else:
            for p in range(2):
                piles = self.ref.fresh_piles()  # each player's own full set
                total = 0
                for k in range(size):
                    c = self.value_first(piles, p, k)
                    c = self.pick_card(piles, total) if c is None else c
                    self.built[p].append(c)
                    total += self.cards[c].cost
        if rules.value_card >= 0:
            self.swap_in_baseline()

    # -- balance value arms (RULES.md §10) ------------------------------------------------

    def value_first(self, piles: dict[str, list[int]], p: int, k: int) -> int | None:
        """Return the card under test as the holder's first deck card, taken out of ``piles``; else None."""
        c = self.rules.value_card
        if c < 0 or k != 0 or p != self.index % 2:
            return None
        take_from_piles(piles, c)
        return c

    def swap_in_baseline(self) -> None:
        """Draw the card's baseline (both arms); in arm ``value_swap = 1`` it takes the card's place."""
        rules, holder = self.rules, self.index % 2
        card = rules.value_card
        deck = self.built[holder]
        if card not in deck:  # a fixed deck without the card takes it in place of its first card
            deck[0] = card
        others = set(deck) | (set(self.built[1 - holder]) if rules.deck_source == SHARED_SET else set())
        cost = self.cards[card].cost
        same = [c.id for c in self.cards if c.printed and c.id != card and c.cost == cost and c.id not in others]
        blank = next((c.id for c in reversed(self.cards) if not c.printed), None)
        b = blank
        if rules.value_baseline == SAME_COST and same:
            b = same[self.rng.randint(LANE_SETUP, len(same))]
        if rules.value_swap and b is not None:
            deck[deck.index(card)] = b

    def pick_card(self, piles: dict[str, list[int]], total_cost: int) -> int:
        """Draw the next card of a deck whose cards so far cost ``total_cost`` (R2)."""
        rules = self.rules
        if rules.deck_builder == UNIFORM_RANDOM:
            return self.draw_random(piles["all"])
        if total_cost < rules.builder_cost_target and piles["costly"]:
            return self.draw_random(piles["costly"])  # cost-1+ cards until the cost target
        if piles["free"]:
            return self.draw_random(piles["free"])  # then 0-cost cards
        return self.draw_random(piles["costly"])  # 0-cost cards ran out

    def draw_random(self, pile: list[int]) -> int:
        """Remove a uniformly random card from a face-down builder pile; return it.

        The kernel removes entry ``j`` by moving the pile's last card into its place; the
        pile order matters for the next draw, so this does the same.
        """
        j = self.rng.randint(LANE_SETUP, len(pile))
        c = pile[j]
        last = pile.pop()
        if j < len(pile):
            pile[j] = last
        return c

    # -- piles ----------------------------------------------------------------------------

    def draw(self, p: int) -> int:
        """Move seat ``p``'s top deck card to its hand; return it, or -1 (empty deck or full hand)."""
        deck, hand = self.deck[p], self.hand[p]
        if not deck or len(hand) >= self.hand_limit:
            return -1
        c = deck.pop()
        hand.append(c)
        cs = self.card_stats[p][c]
        cs.times_drawn += 1
        if cs.first_drawn_turn == NEVER:
            cs.first_drawn_turn = self.turn
        return c

    def replenish(self, p: int) -> None:
        """Shuffle seat ``p``'s discard pile into its empty deck (R15); nothing if the pile is empty."""
        if not self.discard[p]:
            return  # nothing replenished, no point
        self.deck[p] = self.discard[p]
        self.discard[p] = []
        self.rng.shuffle(self.deck[p], LANE_SHUFFLE + p)
        self.replenished[p] = True
        self.stats[p].replenishes += 1

    def add(self, p: int, n: int, source: str) -> None:
        """Give seat ``p`` ``n`` points from ``source``, without the win check."""
        self.score[p] += n
        st = self.stats[p]
        if source == "score":
            st.points_score += n
        elif source == "prosperity":
            st.points_prosperity += n
        elif source == "steal":
            st.points_steal += n
        else:
            st.points_replenish += n

    def check_win(self, p: int) -> None:
        """Raise ``EndOfGame`` if seat ``p`` has reached the target score (R10)."""
        if self.score[p] >= self.target:
            self.winner, self.end_reason, self.phase = p, TARGET_SCORE, OVER
            raise EndOfGame

    def gain(self, p: int, n: int, source: str) -> None:
        """Give seat ``p`` ``n`` points from ``source`` as one gain; raise ``EndOfGame`` if that wins (R10)."""
        self.add(p, n, source)
        self.check_win(p)

    # -- phase 1 and phase 4 --------------------------------------------------------------

    def start_turn(self) -> None:
        """Phase 1 for the mover: replenish point (R15), draw (R16), play allowance (R4), untap."""
        rules = self.rules
        p = self.mover
        self.turn += 1
        self.phase, self.plays, self.actions, self.pending_cost = PLAY_PHASE, 0, 0, 0
        if rules.replenish_timing == START_OF_NEXT_TURN and not self.deck[p]:
            self.replenish(p)  # digital: includes cards destroyed on the opponent's turn
        if self.replenished[p]:
            self.replenished[p] = False
            if rules.replenish_point > 0:
                self.gain(p, rules.replenish_point, "replenish")  # may win before the draw (E19)
        if self.turn > 1 or rules.first_turn_draw:  # no draw on the game's first turn
            self.draw(p)  # nothing with a full hand or an empty deck
        n = len(self.hand[p])
        self.plays_left = UNLIMITED_PLAYS if rules.play_limit == UNLIMITED else (n + 1) // 2
        for f in self.field[p]:
            f.acts = f.card.acts  # untap

    def record_turn(self) -> None:
        """Append the turn row of the current turn (the ``turns`` table)."""
        self.turn_rows.append(
            (
                self.turn, self.mover, self.score[0], self.score[1], len(self.field[0]), len(self.field[1]),
                len(self.hand[0]), len(self.hand[1]), len(self.deck[0]), len(self.deck[1]), self.plays, self.actions,
            )
        )  # fmt: skip

    def end_turn(self) -> None:
        """Phase 4 for the mover: idle draw (R17), tabletop replenish (R15), turn cap (R20), next turn."""
        rules = self.rules
        p = self.mover
        if rules.idle_extra_draw and self.plays == 0 and self.actions == 0:  # retiring alone is idle
            self.draw(p)
        if rules.replenish_timing == END_OF_TURN and not self.deck[p]:
            self.replenish(p)  # after the idle draw
        self.record_turn()
        if self.turn >= rules.max_turns:
            self.phase, self.winner, self.end_reason = OVER, NO_WINNER, TIMEOUT
            return
        self.mover = 1 - p
        self.start_turn()

    # -- legality -------------------------------------------------------------------------

    def can_play(self, p: int, i: int) -> bool:
        """Seat ``p`` may play hand card ``i``: allowance left (R4), room in the field, ``cost`` other cards (R5)."""
        hand = self.hand[p]
        return (
            self.plays_left > 0
            and len(self.field[p]) < self.rules.field_limit
            and len(hand) - 1 >= self.cards[hand[i]].cost
        )

    def can_retire(self, p: int) -> bool:
        """Seat ``p`` may retire only while its field is full (R6).

        Kernel reading (RULES.md §8.3): allowed even with no plays left this turn.
        """
        return len(self.field[p]) >= self.rules.field_limit

    def can_draw(self, p: int, f: InPlay) -> bool:
        """Field card ``f`` may draw: untouched this turn, DRAW > 0, deck not empty, hand not full (R9, R12)."""
        card = f.card
        return f.acts == card.acts and card.draw > 0 and bool(self.deck[p]) and len(self.hand[p]) < self.hand_limit

    @staticmethod
    def can_score(f: InPlay) -> bool:
        """Field card ``f`` may score: untouched this turn and SCORE > 0 (R12)."""
        return f.acts == f.card.acts and f.card.score > 0

    def legal_actions(self) -> list[tuple[int, int, int]]:
        """Return the mover's legal actions in the kernel's order (``kernel.legal_actions``)."""
        p = self.mover
        if self.phase == OVER:
            return []
        if self.phase == PAY_PHASE:  # any hand card pays (the played card is already in the field)
            return [(PAY, i, 0) for i in range(len(self.hand[p]))]
        out = []
        field, foes = self.field[p], self.field[1 - p]
        if self.phase == PLAY_PHASE:
            out += [(PLAY, i, 0) for i in range(len(self.hand[p])) if self.can_play(p, i)]
            if self.can_retire(p):
                out += [(RETIRE, slot, 0) for slot in range(len(field))]
        for slot, f in enumerate(field):  # declaring an action closes phase 2 (R7)
            if f.acts == 0:
                continue
            card = f.card
            if card.keywords & OMNI:
                if any(card.atk > g.def_ for g in foes):  # one action hits every eligible card (R13)
                    out.append((ATTACK, slot, ALL_TARGETS))
            else:
                out += [(ATTACK, slot, t) for t, g in enumerate(foes) if card.atk > g.def_]  # R8
            if self.can_draw(p, f):
                out.append((DRAW, slot, 0))
            if self.can_score(f):
                out.append((SCORE, slot, 0))
        out.append(END_TURN)  # every action is optional (R7)
        return out

    # -- applying actions ---------------------------------------------------------------------

    def apply(self, action: tuple[int, int, int]) -> None:
        """Apply one legal action of the mover (END also runs phase 4 and the next phase 1)."""
        kind, i, j = action
        if kind == END:
            self.end_turn()
        elif kind == PLAY:
            self.play_card(i)
        elif kind == PAY:
            self.pay_cost(i)
        elif kind == RETIRE:
            self.retire(i)
        else:
            self.phase = ACTION_PHASE  # the first action closes phase 2 (R7)
            self.actions += 1
            if kind == ATTACK:
                self.attack(i, j)
            elif kind == DRAW:
                self.draw_action(i)
            else:
                self.score_action(i)

    def play_card(self, i: int) -> None:
        """Play hand card ``i`` to the field; PAY decisions then pay its cost (R4, R5)."""
        p = self.mover
        c = self.hand[p].pop(i)
        card = self.cards[c]
        self.field[p].append(InPlay(card, card.acts if card.keywords & READY else 0))  # E5
        self.plays_left -= 1  # cost cards do not use allowance (R4)
        self.plays += 1
        self.stats[p].cards_played += 1
        cs = self.card_stats[p][c]
        cs.times_played += 1
        if cs.first_played_turn == NEVER:
            cs.first_played_turn = self.turn
        self.pending_cost = card.cost
        if card.cost > 0:
            self.phase = PAY_PHASE

    def pay_cost(self, i: int) -> None:
        """Discard hand card ``i`` towards the pending cost (R5)."""
        p = self.mover
        c = self.hand[p].pop(i)
        self.discard[p].append(c)
        self.card_stats[p][c].times_discarded += 1
        self.pending_cost -= 1
        if self.pending_cost == 0:
            self.phase = PLAY_PHASE

    def leave_field(self, p: int, slot: int) -> int:
        """Move seat ``p``'s field card at ``slot`` to its discard pile (R18); return its id."""
        c = self.field[p].pop(slot).card.id
        self.discard[p].append(c)
        return c

    def retire(self, slot: int) -> None:
        """Retire the mover's field card at ``slot`` (R6)."""
        p = self.mover
        c = self.leave_field(p, slot)
        self.card_stats[p][c].times_retired += 1

    def destroy(self, p: int, slot: int) -> None:
        """Destroy seat ``p``'s field card at ``slot`` (to its owner's discard pile)."""
        c = self.leave_field(p, slot)
        self.card_stats[p][c].times_destroyed += 1

    def self_effects(self, p: int, slot: int) -> None:
        """After an action: DEVOUR, then DECAY, then FRAGILE on the card that acted (R11)."""
        f = self.field[p][slot]
        kw = f.card.keywords
        if kw & DEVOUR and f.hp < self.rules.devour_hp_cap:  # never lowers HP above the cap (RULES.md §8.8)
            f.hp += 1
        if kw & DECAY and f.def_ > 0:
            f.def_ -= 1
        if kw & FRAGILE:
            f.hp -= 1
            if f.hp <= 0:  # destroyed after its action resolved (E6, E8)
                self.destroy(p, slot)
                self.stats[p].own_fragile_losses += 1

    def hit(self, p: int, cs: CardStats, t: int) -> int:
        """Deal 1 damage to the opposing card at slot ``t`` (R8); return 1 if it is destroyed."""
        o = 1 - p
        target = self.field[o][t]
        target.hp -= 1
        cs.damage_dealt += 1
        if target.hp > 0:
            return 0
        self.destroy(o, t)
        cs.cards_destroyed += 1
        self.stats[p].cards_destroyed += 1
        return 1

    def attack(self, slot: int, t: int) -> None:
        """Resolve an attack of the mover's card at ``slot`` on opposing slot ``t`` (R8, R12, R13)."""
        p = self.mover
        f = self.field[p][slot]
        card = f.card
        cs = self.card_stats[p][card.id]
        f.acts -= 1  # DOUBLE: one of two attacks
        self.stats[p].attacks += 1
        if card.keywords & OMNI:  # every eligible card at once; back to front keeps slots valid
            destroyed = 0
            foes = self.field[1 - p]
            for u in range(len(foes) - 1, -1, -1):
                if card.atk > foes[u].def_:
                    destroyed += self.hit(p, cs, u)
        else:
            destroyed = self.hit(p, cs, t)
        if card.keywords & STEAL:
            for _ in range(destroyed):  # a point per destroyed card, each may win (R13, R10)
                cs.steal_points += 1
                self.gain(p, 1, "steal")
        self.self_effects(p, slot)

    def draw_action(self, slot: int) -> None:
        """Resolve a draw action: min(DRAW, deck, room in hand) cards (R9, E14)."""
        p = self.mover
        f = self.field[p][slot]
        n = min(f.card.draw, len(self.deck[p]), self.hand_limit - len(self.hand[p]))
        f.acts = 0
        self.stats[p].draws += 1
        self.card_stats[p][f.card.id].cards_drawn += n
        for _ in range(n):
            self.draw(p)
        self.self_effects(p, slot)

    def score_action(self, slot: int) -> None:
        """Resolve a score action: SCORE and the PROSPERITY bonus, one gain or two (R10, R14, RULES.md §8.6)."""
        p = self.mover
        f = self.field[p][slot]
        card = f.card
        f.acts = 0
        self.stats[p].scores += 1
        cs = self.card_stats[p][card.id]
        cs.points_scored += card.score
        bonus = len(self.hand[p]) // self.rules.prosperity_step if card.keywords & PROSPERITY else 0
        if self.rules.prosperity_gain == SECOND_GAIN:
            self.gain(p, card.score, "score")  # a winning SCORE skips the bonus
            if bonus > 0:
                cs.points_scored += bonus
                self.gain(p, bonus, "prosperity")
        else:  # one gain: both parts land, then the win check
            self.add(p, card.score, "score")
            if bonus > 0:
                cs.points_scored += bonus
                self.add(p, bonus, "prosperity")
            self.check_win(p)
        self.self_effects(p, slot)

    # -- the game loop ------------------------------------------------------------------------

    def play(self, decks: Sequence[Sequence[int]] | None = None) -> None:
        """Play the game to its end (a win or the turn cap)."""
        rules = self.rules
        bots = self.ref.bot_funcs
        cap = 64 * rules.max_turns * (rules.deck_size + rules.field_limit)  # as the kernel (only a bug reaches it)
        try:
            self.set_up(decks)
            while self.phase != OVER and cap > 0:
                cap -= 1
                self.apply(bots[self.mover](self))
        except EndOfGame:
            self.record_turn()  # the winning turn ended mid-turn

    def result(self, tables: Sequence[str] = ("games", "seats")) -> dict:
        """Return the game's records: the ``games`` columns at top level, plus the requested tables."""
        out = {
            "game": self.index,
            "seed": self.seed,
            "first_seat": self.first_seat,
            "winner": self.winner,
            "turns": self.turn,
            "end_reason": self.end_reason,
            "score_0": self.score[0],
            "score_1": self.score[1],
        }
        if "seats" in tables:
            out["seats"] = [self.seat_row(p) for p in range(2)]
        if "cards" in tables:
            out["cards"] = [self.card_row(p, c) for p in range(2) for c in self.built[p]]
        if "turns" in tables:
            names = ("turn", "seat", "score_0", "score_1", "field_0", "field_1")
            names += ("hand_0", "hand_1", "deck_0", "deck_1", "plays", "actions")
            out["turn_rows"] = [dict(zip(names, row, strict=True)) for row in self.turn_rows]
        return out

    def seat_row(self, p: int) -> dict:
        """Return seat ``p``'s ``seats`` row (deck list unpadded)."""
        st = self.stats[p]
        row = {name: getattr(st, name) for name in SeatStats.__slots__}
        row.update(seat=p, bot=self.ref.bot_ids[p], score=self.score[p], won=int(self.winner == p), deck=list(st.deck))
        return row

    def card_row(self, p: int, c: int) -> dict:
        """Return the ``cards`` row of seat ``p``'s deck card ``c``."""
        cs = self.card_stats[p][c]
        row = {name: getattr(cs, name) for name in CardStats.__slots__}
        row.update(seat=p, card=c, won=int(self.winner == p))
        return row


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


def take_from_piles(piles: dict[str, list[int]], c: int) -> None:
    """Remove card ``c`` from every builder pile holding it, as the kernel removes a drawn card (the last fills in)."""
    for name in ("costly", "free", "all"):
        pile = piles[name]
        if c in pile:
            j = pile.index(c)
            last = pile.pop()
            if j < len(pile):
                pile[j] = last


class Reference:
    """A batch set-up (like ``kernel.prepare``): rules, cards, builder piles and bot values, reused per game."""

    def __init__(
        self,
        params: Any,
        cards: Any,
        bot_names: Sequence[str],
        weights: Sequence[Sequence[float]],
        decks: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.rules = rules = Rules.of(params)
        self.cards = cards_from_pool(cards)  # a CardPool, Card objects or card dicts
        from cardinger_reference_bots import BOT_FUNCS, BotView, max_gain  # imports this module: load it here

        unknown = [b for b in bot_names if b not in BOT_FUNCS]
        if unknown:
            raise ValueError(f"the reference implements only the bots {', '.join(BOTS)}; got {unknown}")
        self.bot_funcs = [BOT_FUNCS[b] for b in bot_names]
        self.bot_ids = [BOTS.index(b) for b in bot_names]
        self.views = [BotView(self.cards, w) for w in weights]
        self.max_gain = max_gain(self.cards, rules)
        self.decks = None if decks is None else [[int(c) for c in d] for d in decks]
        # the builder's face-down piles in card order (kernel.lay_out_piles)
        self.piles = {"costly": [], "free": [], "all": []}
        for card in self.cards:
            if not card.printed:
                continue  # the value baseline's blank row
            self.piles["all"].append(card.id)
            if card.cost != rules.builder_excluded_cost:
                self.piles["free" if card.cost == 0 else "costly"].append(card.id)

    def fresh_piles(self) -> dict[str, list[int]]:
        """Return a fresh copy of the builder piles (one full set)."""
        return {k: list(v) for k, v in self.piles.items()}

    def play(self, root_seed: int, game: int, tables: Sequence[str] = ("games", "seats")) -> dict:
        """Play game ``game`` of a run with ``root_seed``; return its records (``Game.result``)."""
        g = Game(self, game, game_seed(root_seed, game))
        g.play(self.decks)
        return g.result(tables)


def play_game(
    params: Any,
    cards: Any,
    bot_names: Sequence[str],
    weights: Sequence[Sequence[float]],
    root_seed: int,
    game_index: int,
    decks: Sequence[Sequence[int]] | None = None,
    tables: Sequence[str] = ("games", "seats"),
) -> dict:
    """Play one game with the reference rules; see ``Reference`` (build one to play many games)."""
    return Reference(params, cards, bot_names, weights, decks).play(root_seed, game_index, tables)


def play_games(ref: Reference, root_seed: int, first_game: int, n_games: int, tables=("games", "seats")) -> list:
    """Play games ``first_game ..`` of a run; return their records."""
    return [ref.play(root_seed, g, tables) for g in range(first_game, first_game + n_games)]


def to_rows(results: list[dict]) -> Mapping[str, list[dict]]:
    """Return the results as flat rows per table (``games``, ``seats``, ``cards``, ``turns``)."""
    out: dict[str, list[dict]] = {"games": [], "seats": [], "cards": [], "turns": []}
    keys = ("game", "seed", "first_seat", "winner", "turns", "end_reason", "score_0", "score_1")
    for r in results:
        out["games"].append({k: r[k] for k in keys})
        for row in r.get("seats", []):
            out["seats"].append({"game": r["game"], **row})
        for row in r.get("cards", []):
            out["cards"].append({"game": r["game"], **row})
        for row in r.get("turn_rows", []):
            out["turns"].append({"game": r["game"], **row})
    return out
