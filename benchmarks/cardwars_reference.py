"""Card Wars in plain Python: a readable reference for the Numba kernel, and its speed baseline.

This file re-implements ``sims/cardwars`` (RULES.md; rulings R1-R22 in
``../shared/rulings/cardwars.md``) with lists, small classes and Python ints: no numpy and
no Numba in the game loop. It plays *the same games* as the kernel:

- the same RNG: the splitmix64 port in ``benchmarks/reference_rng.py`` with the 7 lanes of
  ``layout.Lane`` (SETUP 0, SHUFFLE 1 + seat, BOT 3 + seat, EFFECT 5 + seat);
- the same random numbers in the same order: the set-up draws (coin, two deck rolls, the
  value holder's pick), the opening and mulligan shuffles, random picks of effects, the
  random bot's picks and the planner's hidden-information shuffles;
- the same legal actions in the same order (so the random bot picks the same one), the
  same ``greedy`` and ``planner`` decisions with the same float arithmetic in the same order;
- the same trigger queue (batches, R19/R21), the same tallies and every ``Params`` switch.

``tests/sims/cardwars/test_differential.py`` checks that both agree game by game on every
column of the ``games``, ``seats``, ``cards`` and ``turns`` tables;
``benchmarks/pure_python.py --game cardwars`` times both. Where the kernel and the rulebook
could be read differently, this file follows the kernel (it is the spec of the differential
test).

Usage::

    import sims
    from cardwars_reference import Reference  # with benchmarks/ on sys.path

    game = sims.load("cardwars")
    params = game.make_params("standard")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    weights = [list(game.make_weights("greedy"))] * 2
    ref = Reference(params, pool, ("greedy", "greedy"), weights)
    result = ref.play(root_seed=1, game=0, tables=("games", "seats", "cards", "turns"))
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # benchmarks/ is not a package: its modules import each other by file name
    sys.path.insert(0, str(HERE))

from reference_rng import MASK64, Rng, game_seed, mix64  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Constants (mirroring sims/cardwars/state.py and layout.py)
# ---------------------------------------------------------------------------------------------

N_LANES, N_RNG, NO_CARD, PENDING_SRC, NO_LANE, MAX_QUEUE, MAX_AURAS = 4, 7, -1, 255, 4, 32, 16
LANE_SETUP, LANE_SHUFFLE, LANE_BOT, LANE_EFFECT = 0, 1, 3, 5
CREATURE, BUILDING, SPELL = 0, 1, 2  # CardType
BLUE_PLAINS, CORNFIELD, USELESS_SWAMP, SANDYLANDS, NICELANDS, RAINBOW, ANY = range(7)  # Landscape
STARTER_LAND = (BLUE_PLAINS, CORNFIELD, USELESS_SWAMP, SANDYLANDS)
CUSTOM_0, CUSTOM_1 = 4, 5  # DeckName
MAIN, FIGHT, CHOOSE, OVER = range(4)  # Phase
C_NONE, C_MULLIGAN, C_MUMMY, C_DISCARD, C_SILO, C_OGRE = range(6)  # Choice
R_MAIN, R_TURN_START, R_SETUP = range(3)  # Resume
A_END, A_PLAY, A_DRAW, A_FLOOP, A_ACTIVATE, A_FIGHT, A_CHOOSE = range(7)  # ActionKind
HP_ZERO, MUTUAL_HP_ZERO, TIMEOUT = range(3)  # EndReason
(P_NONE, P_STAT, P_AURA, P_SPECIAL, P_PLAY_IF, P_DISCOUNT, P_COST, P_ENTERS, P_LEAVES, P_TURN_START,
 P_ALLY_ENTERS, P_ANY_ENTERS, P_MOVES, P_FLOOP, P_ACTIVATE, P_SPELL) = range(16)  # fmt: skip  # Part
S_NONE, S_ATK, S_DEF = range(3)  # Stat
PER, AT_LEAST, AT_MOST = range(3)  # Mode
(K_ONE, K_OWN_LANDSCAPES, K_ALL_LANDSCAPES, K_ADJACENT_LANDSCAPES, K_LANDSCAPE_TYPES, K_OWN_OTHER_CREATURES,
 K_OWN_LAND_CREATURES, K_OWN_COPIES, K_OWN_FLOOPED, K_OWN_DISCARD, K_OPPONENT_HAND, K_OPPOSING_IN_LANE,
 K_OWN_SPELLS_THIS_TURN, K_OWN_OTHER_ENTERED_THIS_TURN, K_OWN_EMPTY_LANES, K_ENTERED_THIS_TURN, K_ADJACENT_ENTERED,
 K_OWN_BUILDINGS_IN_LANE, K_OWN_CREATURES_PLAYED) = range(19)  # fmt: skip  # Count
AU_NONE, AU_ADJACENT_OWN, AU_OWN_IN_LANE, AU_OWN_ENTERED, AU_MOVED = range(5)  # AuraTo
SP_NONE, SP_COOL_DOG, SP_TRIPLE, SP_PALACE = range(4)  # Special
X_NONE, X_DISCARD_CARD, X_DESTROY_SELF, X_DESTROY_OWN_CREATURE = range(4)  # Cost
(E_NONE, E_DAMAGE, E_DRAW, E_MILL, E_DISCARD, E_TURN_ATK, E_HEAL, E_GAIN_ACTION, E_RETURN_RANDOM, E_BOUNCE, E_DESTROY,
 E_FLIP_DOWN, E_FLIP_UP, E_MOVE_OWN, E_READY_FLOOPED, E_FIELD_REAPER, E_SILO, E_RECLAIM, E_GREEN_MERMAN, E_OGRE_GAS,
 E_SCHOOLHOUSE, E_MOVE_INTO_LANE, E_SPIRIT_TOWER, E_MS_MUMMY, E_COFFIN, E_ZAZO, E_RETURN_COST0,
 E_SPELL_TO_DECK_TOP) = range(28)  # fmt: skip  # Effect
(T_NONE, T_SELF, T_PLAYER, T_EACH_PLAYER, T_OPPONENT, T_OPPOSING_CREATURES, T_ALL_CREATURES, T_CREATURE,
 T_OPPOSING_IN_LANE, T_CREATURE_IN_LANE, T_CREATURE_IN_LANE_OPTIONAL, T_DISTINCT_CREATURES, T_OWN_CREATURES,
 T_OWN_LAND_CREATURES, T_MOVED_CREATURES, T_OWN_LAND_CREATURE, T_LAND_CREATURE, T_CREATURE_ADJACENT_LANE,
 T_OWN_IN_LANE, T_BUILDING_IN_LANE, T_LANDSCAPE_IN_LANE, T_OWN_LANDSCAPE, T_OWN_FACE_DOWN, T_CREATURE_CARD,
 T_ANY_CARD) = range(25)  # fmt: skip  # Target
FIXED, PREVIOUS_WINNER, RANDOM_DECK = 1, 1, 0
W_HP, W_ATK, W_DEF, W_BODY, W_CARD, W_ACTION, W_FACE, W_HIT, W_KILL, W_BLOCK = range(10)
W_BUILDING, W_LAND, W_MILL, W_PLAY_MIN, W_FLOOP_MIN, W_MULLIGAN_BELOW, W_THREAT, W_WIN = range(10, 18)
NEG = -1e9
BOTS = ("random", "greedy", "planner")
ROLLOUT_STEPS = 256
NO_MOVE = 16

CARD_FIELDS = None  # filled by cards_from_pool: the names of CARD_DTYPE


class Card:
    """One card of the prepared pool: the CARD_DTYPE fields as attributes (plain ints)."""

    def __init__(self, c: int, name: str, fields: Mapping[str, int]) -> None:
        self.id, self.name = c, name
        for key, value in fields.items():
            setattr(self, key, int(value))


def cards_from_pool(pool: Any) -> list[Card]:
    """Return the cards of a prepared ``CardPool`` as ``Card`` objects, id = row."""
    names = pool.table.dtype.names
    return [
        Card(c, name, dict(zip(names, row, strict=True)))
        for c, (name, row) in enumerate(zip(pool.names, pool.table.tolist(), strict=True))
    ]


def encode(kind: int, src: int, a: int, b: int) -> int:
    """Return the encoded action (``layout.ActionKind``): ``kind << 24 | src << 16 | a << 8 | b``."""
    return (kind << 24) | (src << 16) | (a << 8) | b


def land_ok(card_land: int, filt: int) -> bool:
    """Return True if a card of Landscape ``card_land`` passes filter ``filt``."""
    return filt == ANY or card_land == filt


def factor(n: int, step: int, mode: int) -> int:
    """Return a count's multiplier (per ``step``, or a threshold)."""
    if mode == PER:
        return n // step
    if mode == AT_LEAST:
        return 1 if n >= step else 0
    return 1 if n <= step else 0


class Tally:
    """A record: named integer fields."""

    def __init__(self, **fields: int) -> None:
        self.__dict__.update(fields)


SEAT_FIELDS = (
    "mulligan_taken", "damage_to_hero", "creatures_destroyed", "cards_played", "action_draws", "floops",
    "activations", "deck_left", "hand_end", "creatures_end",
)  # fmt: skip
CARD_FIELDS_OUT = (
    "won", "in_opening_hand", "first_drawn_turn", "first_played_turn", "times_played", "copies", "times_drawn",
    "first_lane", "damage_to_creatures", "damage_to_hero", "floops", "times_died",
)  # fmt: skip


def new_card_record() -> Tally:
    """Return a cleared cards-table record (``setup.clear_card_record``)."""
    return Tally(
        won=0, in_opening_hand=0, first_drawn_turn=-1, first_played_turn=-1, times_played=0, copies=0,
        times_drawn=0, first_lane=0, damage_to_creatures=0, damage_to_hero=0, floops=0, times_died=0,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------


class Game:
    """One game's position, rules, tallies and bots (the kernel's state record, as Python lists)."""

    def __init__(self, ref: Reference, index: int, seed: int) -> None:
        self.ref, self.p, self.cards = ref, ref.params, ref.cards
        self.index, self.seed = index, seed
        self.w = ref.weights
        self.log_on = 0
        self.reset()

    # -- state --------------------------------------------------------------------------------

    def reset(self) -> None:
        """Empty everything (``setup.reset``) and seed the lanes."""
        p = self.p
        self.turn = self.mover = self.first_seat = 0
        self.phase, self.actions = MAIN, 0
        self.pending, self.decider, self.resume, self.pend_left, self.pend_card, self.pend_owner = 0, 0, 0, 0, -1, 0
        self.sot_lane, self.reveal, self.winner, self.end_reason, self.plays, self.floops = 0, [], -1, TIMEOUT, 0, 0
        self.holder = self.index % 2 if p.value_card >= 0 else -1
        lanes = range(N_LANES)
        self.cr_card = [[-1] * 4 for _ in range(2)]
        zeroed = ("cr_owner", "cr_dmg", "cr_exh", "cr_floop", "cr_pdef", "cr_tatk", "cr_zazo", "cr_moved")
        zeroed += ("cr_entered", "cr_stolen", "cr_hit_by", "cr_atk", "cr_def", "bu_owner", "bu_exh", "land")
        for name in zeroed:
            setattr(self, name, [[0] * 4 for _ in range(2)])
        self.cr_copy = [[-1] * 4 for _ in range(2)]
        self.bu_card = [[-1] * 4 for _ in range(2)]
        self.up = [[1 for _ in lanes] for _ in range(2)]
        self.hp = [p.hit_points, p.hit_points]
        self.deck, self.hand, self.hand_own, self.disc = [[], []], [[], []], [[], []], [[], []]
        self.built, self.deck_name = [[], []], [0, 0]
        self.seats = [Tally(first=0, deck=0, **dict.fromkeys(SEAT_FIELDS, 0)) for _ in range(2)]
        self.records: list[dict[int, Tally]] = [{}, {}]
        self.turn_rows: dict[int, dict] = {}
        self.clear_turn()
        self.queue: list[tuple] = []
        self.qhead = 0
        self.next_batch = 0
        self.rng = Rng(self.seed, N_RNG)

    def clear_turn(self) -> None:
        """Zero this turn's counters (``setup.clear_turn``)."""
        self.spells, self.played_cr, self.entered, self.coffins = [0, 0], [0, 0], [0, 0], [0, 0]
        self.entered_land = [[0] * 7 for _ in range(2)]
        self.entered_lane = [[0] * 4 for _ in range(2)]
        self.aura_card: list[list[int]] = [[], []]

    def record(self, p: int, c: int) -> Tally:
        """Return seat ``p``'s record of card ``c`` (a throwaway one for a card not in its deck)."""
        r = self.records[p].get(c)
        return r if r is not None else new_card_record()

    def abilities_on(self, q: int, lane: int) -> bool:
        return self.cr_copy[q][lane] < 0

    # -- counts and stats (board.py) --------------------------------------------------------------

    def count_landscapes(self, q: int, land: int) -> int:
        return sum(1 for m in range(N_LANES) if self.up[q][m] and self.land[q][m] == land)

    def count_types(self, q: int) -> int:
        return len({self.land[q][m] for m in range(N_LANES) if self.up[q][m]})

    def count_creatures(self, q: int, land: int, skip_lane: int) -> int:
        n = 0
        for m in range(N_LANES):
            c = self.cr_card[q][m]
            if c >= 0 and m != skip_lane and land_ok(self.cards[c].land, land):
                n += 1
        return n

    def count_of(self, kind: int, land: int, q: int, lane: int, c: int) -> int:
        """Return what ``kind`` counts for card ``c`` of side ``q`` in ``lane`` (``stats.count_of``)."""
        if kind == K_ONE:
            return 1
        if kind == K_OWN_LANDSCAPES:
            return self.count_landscapes(q, land)
        if kind == K_ALL_LANDSCAPES:
            return self.count_landscapes(0, land) + self.count_landscapes(1, land)
        if kind == K_ADJACENT_LANDSCAPES:
            return sum(
                1 for m in (lane - 1, lane + 1) if 0 <= m < N_LANES and self.up[q][m] and self.land[q][m] == land
            )
        if kind == K_LANDSCAPE_TYPES:
            return self.count_types(q)
        if kind == K_OWN_OTHER_CREATURES:
            return self.count_creatures(q, land, lane)
        if kind == K_OWN_LAND_CREATURES:
            return self.count_creatures(q, land, -1)
        if kind == K_OWN_COPIES:
            return sum(1 for m in range(N_LANES) if self.cr_card[q][m] == c)
        if kind == K_OWN_FLOOPED:
            return sum(1 for m in range(N_LANES) if self.cr_card[q][m] >= 0 and self.cr_floop[q][m] > 0)
        if kind == K_OWN_DISCARD:
            return len(self.disc[q])
        if kind == K_OPPONENT_HAND:
            return len(self.hand[1 - q])
        if kind == K_OPPOSING_IN_LANE:
            return 1 if 0 <= lane < N_LANES and self.cr_card[1 - q][lane] >= 0 else 0
        if kind == K_OWN_SPELLS_THIS_TURN:
            return self.spells[q]
        if kind == K_OWN_OTHER_ENTERED_THIS_TURN:
            if self.mover != q:
                return 0
            n = self.entered[q] if land == ANY else self.entered_land[q][land]
            if 0 <= lane < N_LANES and self.cr_entered[q][lane] == self.turn and land_ok(self.cards[c].land, land):
                n -= 1
            return n
        if kind == K_OWN_EMPTY_LANES:
            return sum(1 for m in range(N_LANES) if self.cr_card[q][m] < 0)
        if kind == K_ENTERED_THIS_TURN:
            return self.entered[0] + self.entered[1]
        if kind == K_ADJACENT_ENTERED:
            return sum(self.entered_lane[q][m] for m in (lane - 1, lane + 1) if 0 <= m < N_LANES)
        if kind == K_OWN_BUILDINGS_IN_LANE:
            return 1 if 0 <= lane < N_LANES and self.bu_card[q][lane] >= 0 else 0
        if kind == K_OWN_CREATURES_PLAYED:
            return self.played_cr[q]
        return 0

    def row_value(self, amount, kind, land, step, mode, q, lane, c) -> int:
        if amount == 0:
            return 0
        return amount * factor(self.count_of(kind, land, q, lane, c), step, mode)

    def own_stat(self, q: int, lane: int, c: int, stat: int) -> int:
        k = self.cards[c]
        v = 0
        if k.s1_stat == stat:
            v += self.row_value(k.s1_amount, k.s1_count, k.s1_land, k.s1_n, k.s1_mode, q, lane, c)
        if k.s2_stat == stat:
            v += self.row_value(k.s2_amount, k.s2_count, k.s2_land, k.s2_n, k.s2_mode, q, lane, c)
        return v

    def aura_bonus(self, q: int, lane: int, c: int, stat: int, glob: bool) -> int:
        cards = self.cards
        v = 0
        for m in (lane - 1, lane + 1):
            if 0 <= m < N_LANES:
                d = self.cr_card[q][m]
                adjacent = d >= 0 and self.cr_copy[q][m] < 0 and cards[d].au_to == AU_ADJACENT_OWN
                if adjacent and cards[d].au_stat == stat and land_ok(cards[c].land, cards[d].au_land):
                    v += cards[d].au_amount
        u = self.bu_card[q][lane]
        if u >= 0 and cards[u].au_to == AU_OWN_IN_LANE and cards[u].au_stat == stat:
            v += cards[u].au_amount
        if not glob:
            return v
        entered = self.cr_entered[q][lane] == self.turn and self.mover == q
        for r in range(2):
            for m in range(N_LANES):
                d = self.cr_card[r][m]
                if d < 0 or self.cr_copy[r][m] >= 0 or cards[d].au_stat != stat:
                    continue
                to = cards[d].au_to
                moved = to == AU_MOVED and self.cr_moved[q][lane]
                shark = to == AU_OWN_ENTERED and r == q and entered
                if moved or (shark and land_ok(cards[c].land, cards[d].au_land)):
                    v += cards[d].au_amount
        return v

    def spell_bonus(self, q: int, lane: int, c: int) -> int:
        v = 0
        for r in range(2):
            for a in self.aura_card[r]:
                sc = self.cards[a]
                t = sc.e1_target
                hit = (t == T_OWN_CREATURES and r == q) or (t == T_MOVED_CREATURES and self.cr_moved[q][lane])
                hit = hit or (t == T_OWN_LAND_CREATURES and r == q and land_ok(self.cards[c].land, sc.e1_land))
                if hit:
                    v += self.row_value(sc.e1_amount, sc.e1_count, sc.e1_land, sc.e1_n, sc.e1_mode, r, -1, c)
        return v

    def calc_atk(self, q: int, lane: int, glob: bool) -> int:
        c = self.cr_card[q][lane]
        k = self.cards[c]
        atk = k.atk + self.cr_tatk[q][lane] + self.aura_bonus(q, lane, c, S_ATK, glob)
        if k.s1_stat != S_NONE and self.abilities_on(q, lane):
            atk += self.own_stat(q, lane, c, S_ATK)
        if self.cr_zazo[q][lane]:
            atk += self.cr_zazo[q][lane] * self.count_of(K_ADJACENT_ENTERED, ANY, q, lane, c)
        if self.aura_card[0] or self.aura_card[1]:
            atk += self.spell_bonus(q, lane, c)
        return atk

    def calc_def(self, q: int, lane: int, glob: bool) -> int:
        c = self.cr_card[q][lane]
        k = self.cards[c]
        d = k.def_ + self.cr_pdef[q][lane] + self.aura_bonus(q, lane, c, S_DEF, glob)
        if k.s1_stat != S_NONE and self.abilities_on(q, lane):
            d += self.own_stat(q, lane, c, S_DEF)
        return d

    def refresh(self) -> None:
        glob = any(
            self.cr_card[q][m] >= 0 and self.cards[self.cr_card[q][m]].au_to >= AU_OWN_ENTERED
            for q in range(2)
            for m in range(N_LANES)
        )
        for q in range(2):
            for m in range(N_LANES):
                if self.cr_card[q][m] >= 0:
                    self.cr_atk[q][m] = self.calc_atk(q, m, glob)
                    self.cr_def[q][m] = self.calc_def(q, m, glob)

    def multiplier(self, q: int, lane: int) -> int:
        k = self.cards[self.cr_card[q][lane]]
        on = k.special == SP_TRIPLE and self.abilities_on(q, lane)
        return 3 if on and self.up[q][lane] and self.land[q][lane] == k.sp_land else 1

    def damage_dealt(self, q: int, lane: int) -> int:
        atk = self.cr_atk[q][lane]
        return atk * self.multiplier(q, lane) if atk > 0 else 0

    # -- tallies, damage, the end ------------------------------------------------------------------

    def credit(self, q: int, lane: int, to_hero: int, amount: int) -> None:
        if amount <= 0 or lane < 0:
            return
        c = self.cr_card[q][lane]
        if c < 0 or self.cr_owner[q][lane] != q:
            return
        r = self.record(q, c)
        if to_hero:
            r.damage_to_hero += amount
        else:
            r.damage_to_creatures += amount

    def credit_card(self, p: int, c: int, to_hero: int, amount: int) -> None:
        if amount <= 0 or c < 0:
            return
        r = self.record(p, c)
        if r.copies == 0:
            return
        if to_hero:
            r.damage_to_hero += amount
        else:
            r.damage_to_creatures += amount

    def hero_damage(self, q: int, amount: int) -> None:
        if amount <= 0:
            return
        self.hp[q] -= amount
        self.seats[1 - q].damage_to_hero += amount

    def check_end(self) -> bool:
        if self.phase == OVER:
            return True
        hp = self.hp
        if hp[0] > 0 and hp[1] > 0:
            return False
        self.phase = OVER
        if hp[0] <= 0 and hp[1] <= 0:
            self.winner, self.end_reason = -1, MUTUAL_HP_ZERO
        else:
            self.winner, self.end_reason = (0 if hp[1] <= 0 else 1), HP_ZERO
        return True

    def deal_damage(self, q: int, lane: int, amount: int, by: int) -> None:
        if amount <= 0 or self.cr_card[q][lane] < 0:
            return
        self.cr_dmg[q][lane] += amount
        self.cr_hit_by[q][lane] = by

    def heal(self, q: int, lane: int) -> None:
        if self.cr_card[q][lane] < 0:
            return
        if self.cr_dmg[q][lane] > 0:
            self.cr_dmg[q][lane] -= 1
        else:
            self.cr_pdef[q][lane] += 1

    # -- entering, leaving, moving ------------------------------------------------------------------

    def suppressed(self, q: int, lane: int) -> bool:
        u = self.bu_card[1 - q][lane]
        if u >= 0 and self.cards[u].special == SP_PALACE:
            return True
        return not self.abilities_on(q, lane)

    def place(self, q: int, lane: int, c: int, owner: int) -> None:
        self.cr_card[q][lane], self.cr_owner[q][lane], self.cr_dmg[q][lane] = c, owner, 0
        for arr in (
            self.cr_exh,
            self.cr_floop,
            self.cr_pdef,
            self.cr_tatk,
            self.cr_zazo,
            self.cr_moved,
            self.cr_stolen,
        ):
            arr[q][lane] = 0
        self.cr_entered[q][lane] = self.turn
        self.cr_copy[q][lane] = -1
        self.cr_hit_by[q][lane] = q

    def take_off(self, q: int, lane: int, to_hand: int) -> int:
        c = self.cr_card[q][lane]
        owner = self.cr_owner[q][lane]
        self.cr_card[q][lane] = -1
        if to_hand:
            self.hand[owner].append(c)
            self.hand_own[owner].append(owner)
        else:
            self.disc[owner].append(c)
        return c

    def queue_trigger(self, c: int, q: int, lane: int, owner: int, choice: int, tgt: int) -> None:
        if len(self.queue) >= MAX_QUEUE:
            return
        self.queue.append((c, q, lane, owner, choice, tgt, self.next_batch))

    def close_batch(self) -> None:
        self.next_batch += 1

    def leave_play(self, q: int, lane: int, to_hand: int) -> None:
        fires = not self.suppressed(q, lane)
        owner = self.cr_owner[q][lane]
        c = self.take_off(q, lane, to_hand)
        if fires and self.cards[c].trigger == P_LEAVES:
            self.queue_trigger(c, q, lane, owner, 0, 0)
            self.close_batch()

    def destroy_building(self, q: int, lane: int) -> None:
        u = self.bu_card[q][lane]
        if u < 0:
            return
        self.bu_card[q][lane] = -1
        self.disc[self.bu_owner[q][lane]].append(u)

    def move(self, q: int, lane: int, q2: int, lane2: int) -> None:
        c = self.cr_card[q][lane]
        for arr in (self.cr_card, self.cr_owner, self.cr_dmg, self.cr_exh, self.cr_floop, self.cr_pdef, self.cr_tatk,
                    self.cr_zazo, self.cr_entered, self.cr_copy, self.cr_stolen, self.cr_hit_by):  # fmt: skip
            arr[q2][lane2] = arr[q][lane]
        self.cr_moved[q2][lane2] = 1 if (self.cr_moved[q][lane] or lane2 != lane) else 0
        self.cr_card[q][lane] = -1
        if lane2 != lane and self.cards[c].trigger == P_MOVES and self.abilities_on(q2, lane2):
            self.queue_trigger(c, q2, lane2, self.cr_owner[q2][lane2], 0, 0)
            self.close_batch()

    def settle(self) -> None:
        """Destroy every Creature with damage >= DEF, repeatedly; queue their leaves-play effects (R12, R19)."""
        while True:
            self.refresh()
            dying = []
            for lane in range(N_LANES):
                for k in range(2):
                    q = self.mover if k == 0 else 1 - self.mover
                    if self.cr_card[q][lane] >= 0 and self.cr_dmg[q][lane] >= self.cr_def[q][lane]:
                        dying.append((q, lane))
            if not dying:
                return
            gone = []
            for q, lane in dying:
                on = not self.suppressed(q, lane)
                owner = self.cr_owner[q][lane]
                killer = self.cr_hit_by[q][lane] if self.cr_dmg[q][lane] > 0 else self.mover
                if killer != q:
                    self.seats[killer].creatures_destroyed += 1
                c = self.take_off(q, lane, 0)
                self.record(owner, c).times_died += 1
                gone.append((c, q, lane, owner, on))
            for c, q, lane, owner, on in gone:
                if on and self.cards[c].trigger == P_LEAVES:
                    self.queue_trigger(c, q, lane, owner, 0, 0)
            self.close_batch()

    def destroy_creature(self, q: int, lane: int, by: int) -> None:
        if self.cr_card[q][lane] < 0:
            return
        fires = not self.suppressed(q, lane)
        if by != q:
            self.seats[by].creatures_destroyed += 1
        owner = self.cr_owner[q][lane]
        c = self.take_off(q, lane, 0)
        self.record(owner, c).times_died += 1
        if fires and self.cards[c].trigger == P_LEAVES:
            self.queue_trigger(c, q, lane, owner, 0, 0)
            self.close_batch()
        self.settle()

    # -- piles -----------------------------------------------------------------------------------------

    def draw(self, p: int) -> int:
        if not self.deck[p]:
            return -1
        c = self.deck[p].pop()
        self.hand[p].append(c)
        self.hand_own[p].append(p)
        r = self.record(p, c)
        r.times_drawn += 1
        if r.first_drawn_turn == -1:
            r.first_drawn_turn = self.turn
        return c

    def take_from_hand(self, p: int, i: int) -> int:
        self.hand_own[p].pop(i)
        return self.hand[p].pop(i)

    def discard_from_hand(self, p: int, i: int) -> int:
        owner = self.hand_own[p][i]
        c = self.take_from_hand(p, i)
        self.disc[owner].append(c)
        return c

    def mill(self, p: int) -> int:
        if not self.deck[p]:
            return -1
        c = self.deck[p].pop()
        self.disc[p].append(c)
        return c

    # -- the trigger queue and effects (effects.py) ---------------------------------------------------

    def run_queue(self) -> None:
        """Resolve the queued triggers batch by batch; the game may end after a batch (R19, R21)."""
        q = self.queue
        while self.qhead < len(q) and self.phase not in (OVER, CHOOSE):
            batch = q[self.qhead][6]
            while self.qhead < len(q) and q[self.qhead][6] == batch and self.phase != CHOOSE:
                c, side, lane, owner, choice, tgt, _ = q[self.qhead]
                self.qhead += 1
                self.resolve_all(side, lane, c, owner, choice, tgt)
            self.check_end()
        if self.qhead >= len(q):
            self.queue, self.qhead = [], 0

    def resolve_all(self, p: int, lane: int, c: int, owner: int, choice: int, tgt: int) -> None:
        k = self.cards[c]
        self.resolve(p, lane, c, owner, k.e1_effect, k.e1_target, k.e1_amount, k.e1_count, k.e1_land, k.e1_n,
                     k.e1_mode, choice, tgt)  # fmt: skip
        if k.e2_effect != E_NONE and self.phase != OVER:
            self.resolve(p, lane, c, owner, k.e2_effect, k.e2_target, k.e2_amount, k.e2_count, k.e2_land, k.e2_n,
                         k.e2_mode, 0, 0)  # fmt: skip

    def resolve(self, p, lane, c, owner, eff, target, amount, count, land, step, mode, choice, tgt) -> None:
        v = self.row_value(amount, count, land, step, mode, p, lane, c)
        if eff == E_DAMAGE:
            self.damage(p, lane, c, owner, target, amount, v, tgt)
        elif eff == E_DRAW:
            for _ in range(v):
                self.draw(p)
                if target == T_EACH_PLAYER:
                    self.draw(1 - p)
        elif eff == E_MILL:
            for _ in range(v):
                self.mill(p)
        elif eff == E_DISCARD:
            n = min(v, len(self.hand[1 - p]))
            if n > 0:
                self.phase, self.pending, self.decider, self.pend_left, self.resume = (
                    CHOOSE,
                    C_DISCARD,
                    1 - p,
                    n,
                    R_MAIN,
                )
        elif eff == E_TURN_ATK:
            self.turn_atk(p, lane, c, target, v, tgt)
        elif eff == E_HEAL:
            if target == T_SELF and lane >= 0 and self.cr_card[p][lane] == c:
                self.heal(p, lane)
        elif eff == E_GAIN_ACTION:
            self.actions += v
        elif eff == E_RETURN_RANDOM:
            for _ in range(v):
                self.return_random(p, target, land)
        else:
            self.resolve_unique(p, lane, c, eff, target, amount, land, choice, tgt)
        if self.phase != OVER:
            self.settle()

    def resolve_unique(self, p, lane, c, eff, target, amount, land, choice, tgt) -> None:
        if eff == E_BOUNCE:
            q, m = self.bounce_slot(p, lane, c, target, choice, tgt)
            if q >= 0 and self.cr_card[q][m] >= 0:
                self.leave_play(q, m, 1)
        elif eff == E_DESTROY:
            if target == T_BUILDING_IN_LANE:
                self.destroy_building(tgt, lane)
            elif self.cr_card[1 - p][lane] >= 0:
                self.destroy_creature(1 - p, lane, p)
        elif eff == E_FLIP_DOWN:
            q, m = (tgt, lane) if target == T_LANDSCAPE_IN_LANE else (p, choice)
            if m < N_LANES and self.up[q][m] and land_ok(self.land[q][m], land):
                self.up[q][m] = 0
        elif eff == E_FLIP_UP:
            if tgt < N_LANES and not self.up[p][tgt]:
                self.up[p][tgt] = 1
        elif eff == E_MOVE_OWN:
            if self.cr_card[p][tgt >> 2] >= 0 and self.cr_card[p][tgt & 3] < 0:
                self.move(p, tgt >> 2, p, tgt & 3)
        elif eff == E_READY_FLOOPED:
            if choice < N_LANES and self.cr_card[p][choice] >= 0 and self.cr_floop[p][choice]:
                self.cr_exh[p][choice] = self.cr_floop[p][choice] = 0
        elif eff == E_FIELD_REAPER:
            d = lane - 1 if choice == 0 else lane + 1
            if 0 <= d < N_LANES and self.cr_card[p][d] < 0:
                if self.cr_card[1 - p][lane] >= 0:
                    self.move(1 - p, lane, p, d)
                    self.cr_exh[p][d], self.cr_floop[p][d] = 1, 0
                elif self.cr_card[p][lane] >= 0:
                    self.move(p, lane, p, d)
        else:
            self.resolve_card(p, lane, c, eff, target, amount, tgt)

    def resolve_card(self, p, lane, c, eff, target, amount, tgt) -> None:
        if eff == E_SILO:
            q = 1 - p
            n = len(self.hand[q])
            if n == 0:
                return
            i = self.rng.randint(LANE_EFFECT + p, n)
            owner = self.hand_own[q][i]
            x = self.take_from_hand(q, i)
            self.pend_card, self.pend_owner = x, owner
            self.phase, self.pending, self.decider, self.resume = CHOOSE, C_SILO, p, R_MAIN
        elif eff == E_RECLAIM:
            up, mv = tgt // 17, tgt % 17
            if up < N_LANES and not self.up[p][up]:
                self.up[p][up] = 1
            if mv != NO_MOVE:
                src, dst = mv >> 2, mv & 3
                if self.bu_card[p][src] >= 0 and self.bu_card[p][dst] < 0:
                    self.bu_card[p][dst], self.bu_owner[p][dst] = self.bu_card[p][src], self.bu_owner[p][src]
                    self.bu_exh[p][dst] = self.bu_exh[p][src]
                    self.bu_card[p][src] = -1
        elif eff == E_GREEN_MERMAN:
            x = self.mill(p)
            if x >= 0:
                cost = self.cards[x].cost
                for m in range(N_LANES):
                    self.deal_damage(1 - p, m, cost, p)
                    self.credit(p, lane, 0, cost if self.cr_card[1 - p][m] >= 0 else 0)
        elif eff == E_OGRE_GAS:
            self.reveal = []
            for _ in range(min(amount, len(self.deck[p]))):
                self.reveal.append(self.deck[p].pop())
            if len(self.reveal) == 1:
                self.keep_bottom(p, 0)
            elif len(self.reveal) > 1:
                self.phase, self.pending, self.decider, self.resume = CHOOSE, C_OGRE, p, R_MAIN
        elif eff == E_SCHOOLHOUSE:
            pile = [x for x in self.disc[p] if self.cards[x].type == CREATURE and self.cards[x].floop]
            if pile and self.cr_card[p][lane] >= 0:
                self.cr_copy[p][lane] = pile[self.rng.randint(LANE_EFFECT + p, len(pile))]
        elif eff == E_MOVE_INTO_LANE:
            q, m = tgt >> 2, tgt & 3
            if self.cr_card[q][m] >= 0 and self.cr_card[q][lane] < 0:
                self.move(q, m, q, lane)
        elif eff == E_SPIRIT_TOWER:
            if self.cr_card[p][lane] < 0 and self.cr_card[1 - p][lane] >= 0:
                self.move(1 - p, lane, p, lane)
                self.cr_exh[p][lane] = self.cr_floop[p][lane] = 0
                self.cr_stolen[p][lane] = 1
        elif eff == E_COFFIN:
            self.coffins[p] += amount
        elif eff == E_ZAZO:
            q, m = tgt >> 2, tgt & 3
            if self.cr_card[q][m] >= 0:
                self.cr_zazo[q][m] += amount
        elif eff in (E_RETURN_COST0, E_SPELL_TO_DECK_TOP) and tgt < len(self.disc[p]):
            x = self.disc[p].pop(tgt)
            if eff == E_RETURN_COST0:
                self.hand[p].append(x)
                self.hand_own[p].append(p)
            else:
                self.deck[p].append(x)

    def damage(self, p, lane, c, owner, target, amount, v, tgt) -> None:
        if target == T_OPPONENT:
            self.hero_damage(1 - p, v)
            self.hit(p, lane, c, owner, 1, v)
            return
        for q in range(2):
            for m in range(N_LANES):
                if self.cr_card[q][m] < 0:
                    continue
                if target == T_OPPOSING_CREATURES:
                    take = v if q != p else 0
                elif target == T_ALL_CREATURES:
                    take = v
                elif target == T_OPPOSING_IN_LANE:
                    take = v if q != p and m == lane else 0
                elif target == T_DISTINCT_CREATURES:
                    take = amount if tgt & (1 << (4 * q + m)) else 0
                else:
                    take = v if tgt == 4 * q + m else 0
                if take > 0:
                    self.deal_damage(q, m, take, p)
                    self.hit(p, lane, c, owner, 0, take)

    def hit(self, p, lane, c, owner, to_hero, amount) -> None:
        if owner != p:
            return
        if lane >= 0 and self.cr_card[p][lane] == c:
            self.credit(p, lane, to_hero, amount)
        else:
            self.credit_card(owner, c, to_hero, amount)

    def turn_atk(self, p, lane, c, target, v, tgt) -> None:
        if target == T_SELF:
            if lane >= 0 and self.cr_card[p][lane] == c:
                self.cr_tatk[p][lane] += v
            return
        if target in (T_OWN_LAND_CREATURE, T_CREATURE_IN_LANE):
            q, m = tgt >> 2, tgt & 3
            if self.cr_card[q][m] >= 0:
                self.cr_tatk[q][m] += v
            return
        if self.p.turn_bonus == 0:  # continuous
            if len(self.aura_card[p]) < MAX_AURAS:
                self.aura_card[p].append(c)
            return
        land = self.cards[c].e1_land
        for q in range(2):
            for m in range(N_LANES):
                d = self.cr_card[q][m]
                if d < 0:
                    continue
                if target == T_MOVED_CREATURES:
                    ok = self.cr_moved[q][m] > 0
                else:
                    ok = q == p and (target == T_OWN_CREATURES or land_ok(self.cards[d].land, land))
                if ok:
                    self.cr_tatk[q][m] += v

    def picks(self, p: int, target: int, land: int) -> list[int]:
        """Return the discard-pile indexes passing a random-pick filter (``effects.picks``)."""
        out = []
        for i, x in enumerate(self.disc[p]):
            if target == T_CREATURE_CARD and self.cards[x].type != CREATURE:
                continue
            if land_ok(self.cards[x].land, land):
                out.append(i)
        return out

    def return_random(self, p: int, target: int, land: int) -> None:
        found = self.picks(p, target, land)
        if not found:
            return
        i = found[self.rng.randint(LANE_EFFECT + p, len(found))]
        x = self.disc[p].pop(i)
        self.hand[p].append(x)
        self.hand_own[p].append(p)

    def bounce_slot(self, p, lane, c, target, choice, tgt) -> tuple[int, int]:
        if target == T_CREATURE_IN_LANE_OPTIONAL:
            if choice == 1:
                return 1 - p, lane
            if choice == 2 and self.cr_card[p][lane] == c:
                return p, lane
            return -1, 0
        if target == T_OWN_IN_LANE:
            return p, lane
        return tgt >> 2, tgt & 3

    def keep_bottom(self, p: int, k: int) -> None:
        self.deck[p].insert(0, self.reveal[k])
        for i, x in enumerate(self.reveal):
            if i != k:
                self.disc[p].append(x)
        self.reveal = []

    def floop_creatures_in_discard(self, p: int) -> int:
        return sum(1 for x in self.disc[p] if self.cards[x].type == CREATURE and self.cards[x].floop)

    # -- targets (effects.options) -----------------------------------------------------------------------

    def options(self, p: int, lane: int, c: int) -> list[int]:
        k = self.cards[c]
        eff, target = k.e1_effect, k.e1_target
        if eff == E_MOVE_OWN:
            return [
                4 * f + t
                for f in range(N_LANES)
                for t in range(N_LANES)
                if self.cr_card[p][f] >= 0 and self.cr_card[p][t] < 0
            ]
        if eff == E_RECLAIM:
            out = []
            for up in range(N_LANES + 1):
                if up < N_LANES and self.up[p][up]:
                    continue
                for mv in range(NO_MOVE + 1):
                    if mv < NO_MOVE and (self.bu_card[p][mv >> 2] < 0 or self.bu_card[p][mv & 3] >= 0):
                        continue
                    out.append(17 * up + mv)
            return out
        if eff in (E_RETURN_COST0, E_SPELL_TO_DECK_TOP):
            out = []
            for i, x in enumerate(self.disc[p]):
                ok = self.cards[x].cost == 0 if eff == E_RETURN_COST0 else self.cards[x].type == SPELL
                if ok and x not in self.disc[p][:i]:
                    out.append(i)
            if not out and self.p.empty_pick == 0:
                out.append(255)
            return out
        if eff == E_SILO:
            return [0] if self.hand[1 - p] else []
        if eff == E_SCHOOLHOUSE:
            ok = self.cr_card[p][lane] >= 0 and not self.cr_exh[p][lane] and self.floop_creatures_in_discard(p) > 0
            return [0] if ok else []
        if eff == E_RETURN_RANDOM and self.p.empty_pick == 1:
            return [0] if self.picks(p, target, k.e1_land) else []
        if eff == E_MOVE_INTO_LANE:
            return self.creature_options(p, lane, c, target, True)
        return self.target_options(p, lane, c, target)

    def target_options(self, p: int, lane: int, c: int, target: int) -> list[int]:
        k = self.cards[c]
        if target == T_OPPOSING_IN_LANE:
            return [0] if self.cr_card[1 - p][lane] >= 0 else []
        if target == T_OWN_IN_LANE:
            return [0] if self.cr_card[p][lane] >= 0 else []
        if target == T_BUILDING_IN_LANE:
            return [q for q in range(2) if self.bu_card[q][lane] >= 0]
        if target == T_LANDSCAPE_IN_LANE:
            return [q for q in range(2) if self.up[q][lane] and land_ok(self.land[q][lane], k.e1_land)]
        if target in (T_OWN_FACE_DOWN, T_OWN_LANDSCAPE):
            out = []
            for m in range(N_LANES):
                down = target == T_OWN_FACE_DOWN and not self.up[p][m]
                if down or (target == T_OWN_LANDSCAPE and self.up[p][m] and self.land[p][m] == k.e1_land):
                    out.append(m)
            return out
        if target == T_DISTINCT_CREATURES:
            return self.mask_options(p, lane, c)
        if target in (T_CREATURE, T_CREATURE_IN_LANE, T_OWN_LAND_CREATURE, T_LAND_CREATURE, T_CREATURE_ADJACENT_LANE):
            return self.creature_options(p, lane, c, target, False)
        return [0]

    def creature_options(self, p: int, lane: int, c: int, target: int, into_lane: bool) -> list[int]:
        land = self.cards[c].e1_land
        out = []
        for q in range(2):
            for m in range(N_LANES):
                d = self.cr_card[q][m]
                if d < 0:
                    continue
                if target == T_CREATURE_IN_LANE:
                    ok = m == lane
                elif target == T_OWN_LAND_CREATURE:
                    ok = q == p and land_ok(self.cards[d].land, land)
                elif target == T_LAND_CREATURE:
                    ok = land_ok(self.cards[d].land, land)
                elif target == T_CREATURE_ADJACENT_LANE:
                    sides = 1 if self.p.adjacent_lane_targets == 1 else 2
                    ok = (m == lane - 1 or m == lane + 1) and (q == p or sides == 2)
                    ok = ok and (not into_lane or self.cr_card[q][lane] < 0)
                else:
                    ok = True
                if ok:
                    out.append(4 * q + m)
        return out

    def mask_options(self, p: int, lane: int, c: int) -> list[int]:
        k = self.cards[c]
        avail = 0
        for q in range(2):
            for m in range(N_LANES):
                if self.cr_card[q][m] >= 0:
                    avail |= 1 << (4 * q + m)
        if avail == 0:
            return []
        creatures = bin(avail).count("1")
        times = factor(self.count_of(k.e1_count, k.e1_land, p, lane, c), k.e1_n, k.e1_mode)
        want = min(times, creatures)
        if want == 0:
            return [0]
        out = []
        for mask in range(1, 256):
            if mask & ~avail:
                continue
            size = bin(mask).count("1")
            if size == want or (self.p.repeat_targets == 1 and size < want):
                out.append(mask)
        return out

    def enter_options(self, p: int, lane: int, c: int) -> list[int]:
        k = self.cards[c]
        out: list[int] = []
        if k.trigger == P_ENTERS:
            eff = k.e1_effect
            if eff == E_READY_FLOOPED:
                out = [m for m in range(N_LANES) if m != lane and self.cr_card[p][m] >= 0 and self.cr_floop[p][m]]
                out.append(NO_LANE)
            elif eff == E_BOUNCE:
                out = [0] + ([1] if self.cr_card[1 - p][lane] >= 0 else []) + [2]
            elif eff == E_FIELD_REAPER:
                for d in range(2):
                    m = lane - 1 if d == 0 else lane + 1
                    if 0 <= m < N_LANES and self.cr_card[p][m] < 0:
                        out.append(d)
            elif eff == E_FLIP_DOWN:
                out = [m for m in range(N_LANES) if self.up[p][m] and self.land[p][m] == k.e1_land]
        if not out:
            out = [NO_LANE if k.trigger == P_ENTERS and k.e1_effect == E_FLIP_DOWN else 0]
        return out

    # -- legality (actions.py) ------------------------------------------------------------------------

    def paid_cost(self, p: int, c: int) -> int:
        k = self.cards[c]
        cost = k.cost
        if k.dc_on:
            cost -= self.row_value(k.dc_amount, k.dc_count, k.dc_land, k.dc_n, k.dc_mode, p, -1, c)
        if k.type == CREATURE:
            cost -= self.coffins[p]
        return max(cost, 0)

    def landscapes_ok(self, p: int, c: int, paid: int) -> bool:
        k = self.cards[c]
        need = k.cost if self.p.landscape_check == 0 else paid
        if need <= 0:
            return True
        if k.land == RAINBOW:
            return sum(self.up[p]) >= need
        return self.count_landscapes(p, k.land) >= need

    def playable(self, p: int, c: int, free: bool) -> bool:
        k = self.cards[c]
        paid = 0 if free else self.paid_cost(p, c)
        if paid > self.actions or not self.landscapes_ok(p, c, paid):
            return False
        if k.pf_on and self.row_value(1, k.pf_count, k.pf_land, k.pf_n, k.pf_mode, p, -1, c) == 0:
            return False
        return not (k.xcost == X_DISCARD_CARD and len(self.hand[p]) < (1 if free else 2))

    def seen_before(self, p: int, i: int, skip: int) -> bool:
        h, o = self.hand[p], self.hand_own[p]
        return any(j != skip and h[j] == h[i] and o[j] == o[i] for j in range(i))

    def play_options(self, p: int, src: int, c: int) -> list[int]:
        if not self.playable(p, c, src == PENDING_SRC):
            return []
        k = self.cards[c]
        if k.type == SPELL:
            return [encode(A_PLAY, src, 0, t) for t in self.options(p, -1, c)]
        out = []
        for lane in range(N_LANES):
            if k.type == BUILDING:
                out.append(encode(A_PLAY, src, lane, 0))
                continue
            if self.cr_card[p][lane] >= 0 and self.cr_exh[p][lane]:
                continue
            for sub in self.enter_options(p, lane, c):
                a = lane | (sub << 2)
                if k.xcost == X_DISCARD_CARD:
                    for i in range(len(self.hand[p])):
                        if i != src and not self.seen_before(p, i, src):
                            out.append(encode(A_PLAY, src, a, i))
                else:
                    out.append(encode(A_PLAY, src, a, 0))
        return out

    def floop_card(self, p: int, slot: int) -> int:
        if slot < N_LANES:
            c = self.cr_card[p][slot]
            if c < 0 or self.cr_exh[p][slot]:
                return -1
            c = self.cr_copy[p][slot] if self.cr_copy[p][slot] >= 0 else c
        else:
            c = self.bu_card[p][slot - N_LANES]
            if c < 0 or self.bu_exh[p][slot - N_LANES]:
                return -1
        return c if self.cards[c].trigger == P_FLOOP else -1

    def first_turn_rule(self) -> bool:
        return self.turn == 1 and self.p.first_player_rule == 1

    def use_options(self, p: int, slot: int, kind: int) -> list[int]:
        lane = slot % N_LANES
        if kind == A_FLOOP:
            c = self.floop_card(p, slot)
            if c < 0 or self.first_turn_rule():
                return []
        else:
            c = self.cr_card[p][lane] if slot < N_LANES else self.bu_card[p][lane]
            if c < 0 or self.cards[c].trigger != P_ACTIVATE or (slot < N_LANES and not self.abilities_on(p, lane)):
                return []
        k = self.cards[c]
        if k.act_cost > self.actions:
            return []
        opts = self.options(p, lane, c)
        out = []
        for cost in range(N_LANES if k.xcost == X_DESTROY_OWN_CREATURE else 1):
            if k.xcost == X_DESTROY_OWN_CREATURE and self.cr_card[p][cost] < 0:
                continue
            out += [encode(kind, slot, cost, t) for t in opts]
        return out

    def protected(self, q: int, lane: int) -> bool:
        for m in (lane - 1, lane + 1):
            if 0 <= m < N_LANES:
                d = self.cr_card[q][m]
                if d >= 0 and self.cards[d].special == SP_COOL_DOG and self.abilities_on(q, m):
                    own = self.cards[self.cr_card[q][lane]].special == SP_COOL_DOG and self.abilities_on(q, lane)
                    if self.p.cool_dog_chain or not own:
                        return True
        return False

    def can_fight(self, p: int, lane: int) -> bool:
        if self.cr_card[p][lane] < 0 or self.cr_exh[p][lane]:
            return False
        return self.cr_card[1 - p][lane] < 0 or not self.protected(1 - p, lane)

    def any_fight(self, p: int) -> bool:
        return any(self.can_fight(p, m) for m in range(N_LANES))

    def legal_actions(self) -> list[int]:
        p = self.mover
        if self.phase == FIGHT:
            return [encode(A_FIGHT, m, 0, 0) for m in range(N_LANES) if self.can_fight(p, m)]
        if self.phase == CHOOSE:
            return self.choice_actions()
        if self.phase != MAIN:
            return []
        out = [encode(A_END, 0, 0, 0)]
        if self.actions > 0 and self.deck[p]:
            out.append(encode(A_DRAW, 0, 0, 0))
        for i in range(len(self.hand[p])):
            if not self.seen_before(p, i, -1):
                out += self.play_options(p, i, self.hand[p][i])
        for slot in range(2 * N_LANES):
            out += self.use_options(p, slot, A_FLOOP)
            out += self.use_options(p, slot, A_ACTIVATE)
        return out

    def choice_actions(self) -> list[int]:
        q = self.decider
        if self.pending == C_MULLIGAN:
            return [encode(A_CHOOSE, 0, 0, 0), encode(A_CHOOSE, 1, 0, 0)]
        if self.pending == C_MUMMY:
            land = self.cards[self.cr_card[q][self.sot_lane]].e1_land
            out = [encode(A_CHOOSE, 0, 0, 0)]
            for lane in range(N_LANES):
                d = self.cr_card[q][lane]
                if d >= 0 and lane != self.sot_lane and self.cards[d].land == land:
                    out.append(encode(A_CHOOSE, 1 + lane, 0, 0))
            return out
        if self.pending == C_DISCARD:
            return [encode(A_CHOOSE, i, 0, 0) for i in range(len(self.hand[q])) if not self.seen_before(q, i, -1)]
        if self.pending == C_OGRE:
            return [encode(A_CHOOSE, k, 0, 0) for k, x in enumerate(self.reveal) if x not in self.reveal[:k]]
        return self.play_options(q, PENDING_SRC, self.pend_card)

    # -- doing it ---------------------------------------------------------------------------------------

    def count_play(self, p: int, owner: int, c: int, lane: int) -> None:
        self.seats[p].cards_played += 1
        self.plays += 1
        r = self.record(owner, c)
        if r.copies == 0:
            return
        r.times_played += 1
        if r.first_played_turn == -1:
            r.first_played_turn = self.turn
            r.first_lane = lane + 1 if lane >= 0 else 0

    def play_card(self, p: int, src: int, a: int, tgt: int) -> None:
        if src == PENDING_SRC:
            c, owner, free = self.pend_card, self.pend_owner, True
            self.pending, self.phase, self.pend_card = C_NONE, MAIN, -1
        else:
            c, owner, free = self.hand[p][src], self.hand_own[p][src], False
        k = self.cards[c]
        paid = 0 if free else self.paid_cost(p, c)
        self.actions -= paid
        if not free:
            self.take_from_hand(p, src)
        if k.xcost == X_DISCARD_CARD:
            self.discard_from_hand(p, tgt - 1 if not free and tgt > src else tgt)
        lane = a & 3 if k.type != SPELL else -1
        self.count_play(p, owner, c, lane)
        if k.type == CREATURE:
            if self.cr_card[p][lane] >= 0:
                self.leave_play(p, lane, 0)
                if self.phase == OVER:
                    return
            self.played_cr[p] += 1
            self.coffins[p] = 0
            self.enter(p, lane, c, owner, a >> 2, tgt)
        elif k.type == BUILDING:
            self.destroy_building(p, lane)
            self.bu_card[p][lane], self.bu_owner[p][lane], self.bu_exh[p][lane] = c, owner, 0
            self.settle()
        else:
            self.spells[p] += 1
            self.resolve_all(p, -1, c, owner, a, tgt)
            self.disc[owner].append(c)
            if self.phase != OVER:
                self.settle()

    def enter(self, p: int, lane: int, c: int, owner: int, choice: int, tgt: int) -> None:
        self.place(p, lane, c, owner)
        self.entered[p] += 1
        self.entered_land[p][self.cards[c].land] += 1
        self.entered_lane[p][lane] += 1
        self.settle()
        for m in range(N_LANES):
            d = self.cr_card[p][m]
            if d < 0:
                continue
            tr = self.cards[d].trigger
            own = m == lane and d == c
            if own and tr in (P_ENTERS, P_ANY_ENTERS) and not self.suppressed(p, lane):
                self.queue_trigger(c, p, lane, owner, choice, tgt)
            elif not own and self.abilities_on(p, m):
                ally = tr == P_ALLY_ENTERS and land_ok(self.cards[c].land, self.cards[d].tland)
                if tr == P_ANY_ENTERS or ally:
                    self.queue_trigger(d, p, m, self.cr_owner[p][m], 0, 0)
        self.close_batch()

    def use(self, p: int, slot: int, kind: int, a: int, tgt: int) -> None:
        lane = slot % N_LANES
        if slot < N_LANES:
            c, owner = self.cr_card[p][lane], self.cr_owner[p][lane]
            used = self.floop_card(p, slot) if kind == A_FLOOP else c
            if kind == A_FLOOP:
                self.cr_exh[p][lane] = self.cr_floop[p][lane] = 1
        else:
            c = used = self.bu_card[p][lane]
            owner = self.bu_owner[p][lane]
            if kind == A_FLOOP:
                self.bu_exh[p][lane] = 1
        self.actions -= self.cards[used].act_cost
        if kind == A_FLOOP:
            self.seats[p].floops += 1
            self.floops += 1
        else:
            self.seats[p].activations += 1
        if owner == p:
            self.record(p, c).floops += 1
        x = self.cards[used].xcost
        if x in (X_DESTROY_SELF, X_DESTROY_OWN_CREATURE):
            self.destroy_creature(p, lane if x == X_DESTROY_SELF else a, p)
            self.run_queue()
            if self.phase == OVER:
                return
        self.refresh()
        self.resolve_all(p, lane, used, owner, a, tgt)

    def apply_action(self, action: int) -> None:
        kind, src, a, tgt = action >> 24, (action >> 16) & 255, (action >> 8) & 255, action & 255
        p = self.mover
        if kind == A_END:
            self.end_main()
        elif kind == A_DRAW:
            self.actions -= 1
            self.seats[p].action_draws += 1
            self.draw(p)
        elif kind == A_PLAY:
            self.play_card(self.decider if self.phase == CHOOSE else p, src, a, tgt)
        elif kind in (A_FLOOP, A_ACTIVATE):
            self.use(p, src, kind, a, tgt)
        elif kind == A_FIGHT:
            self.fight_action(src)
        else:
            self.choose(src)
        if self.phase == CHOOSE and self.pending == C_SILO and not self.choice_actions():
            self.silo_unplayable()
        self.check_end()
        if self.phase == MAIN:
            self.run_queue()

    def silo_unplayable(self) -> None:
        self.pending, self.phase = C_NONE, MAIN
        if self.p.silo_unplayable == 1:
            self.hand[self.decider].append(self.pend_card)
            self.hand_own[self.decider].append(self.pend_owner)
        else:
            self.disc[self.pend_owner].append(self.pend_card)
        self.pend_card = -1
        self.settle()

    # -- the flow (flow.py) --------------------------------------------------------------------------

    def build_deck(self, p: int, roll: int, pick: int) -> None:
        prm, ref = self.p, self.ref
        if prm.deck_builder == FIXED:
            built = list(ref.fixed[p])
            self.land[p] = list(ref.fixed_land[p])
            self.deck_name[p] = ref.fixed_name[p]
        else:
            choice = prm.deck_0 if p == 0 else prm.deck_1
            d = roll if choice == RANDOM_DECK else choice - 1
            if self.holder == p and choice == RANDOM_DECK:
                holding = [e for e in range(4) if ref.starters[e].count(prm.value_card)]
                d = holding[pick % len(holding)]
            built = list(ref.starters[d])
            self.land[p] = [STARTER_LAND[d]] * N_LANES
            self.deck_name[p] = d
        if self.holder == p and prm.value_swap:
            built = [len(self.cards) - 1 if c == prm.value_card else c for c in built]
        self.built[p] = built
        for k, c in enumerate(built):
            if k == 0 or built[k - 1] != c:
                self.records[p][c] = new_card_record()
            self.records[p][c].copies += 1
        self.deck[p] = list(built)
        self.seats[p].deck = self.deck_name[p]

    def deal(self, p: int) -> None:
        self.rng.shuffle(self.deck[p], LANE_SHUFFLE + p)
        for _ in range(self.p.opening_hand):
            c = self.draw(p)
            if c >= 0:
                self.record(p, c).in_opening_hand = 1

    def set_up(self, last_winner: int) -> None:
        rng = self.rng
        coin = rng.randint(LANE_SETUP, 2)
        roll0, roll1 = rng.randint(LANE_SETUP, 4), rng.randint(LANE_SETUP, 4)
        pick = rng.randint(LANE_SETUP, 12)
        self.first_seat = coin
        if self.p.first_player == PREVIOUS_WINNER and last_winner >= 0:
            self.first_seat = last_winner
        self.seats[self.first_seat].first = 1
        self.build_deck(0, roll0, pick)
        self.build_deck(1, roll1, pick)
        self.deal(0)
        self.deal(1)
        self.mover = self.first_seat
        if self.p.mulligan:
            self.phase, self.pending, self.decider, self.pend_left, self.resume = (
                CHOOSE,
                C_MULLIGAN,
                self.first_seat,
                2,
                2,
            )
        else:
            self.begin_turn()

    def mulligan(self, p: int) -> None:
        while self.hand[p]:
            self.deck[p].append(self.take_from_hand(p, len(self.hand[p]) - 1))
        for c in self.built[p]:
            r = self.record(p, c)
            r.in_opening_hand, r.first_drawn_turn, r.times_drawn = 0, -1, 0
        self.seats[p].mulligan_taken = 1
        self.deal(p)

    def begin_turn(self) -> None:
        p = self.mover
        self.turn += 1
        self.clear_turn()
        for m in range(N_LANES):
            self.cr_exh[p][m] = self.cr_floop[p][m] = 0
            self.bu_exh[p][m] = 0
        self.actions, self.plays, self.floops, self.sot_lane = self.p.actions_per_turn, 0, 0, 0
        self.phase = MAIN
        self.settle()
        self.run_queue()
        if self.phase != OVER:
            self.run_turn_start()

    def mummy_can_return(self, p: int, lane: int) -> bool:
        land = self.cards[self.cr_card[p][lane]].e1_land
        for m in range(N_LANES):
            d = self.cr_card[p][m]
            if d >= 0 and m != lane and land_ok(self.cards[d].land, land) and self.cards[d].land == land:
                return True
        return False

    def run_turn_start(self) -> None:
        p = self.mover
        while self.sot_lane < N_LANES:
            lane = self.sot_lane
            c = self.cr_card[p][lane]
            if c >= 0 and self.abilities_on(p, lane) and self.cards[c].trigger == P_TURN_START:
                if self.cards[c].e1_effect == E_MS_MUMMY:
                    if self.mummy_can_return(p, lane):
                        self.phase, self.pending, self.decider, self.resume = CHOOSE, C_MUMMY, p, R_TURN_START
                        return
                else:
                    self.resolve_all(p, lane, c, self.cr_owner[p][lane], 0, 0)
                    self.check_end()
                    self.run_queue()
                    if self.phase == OVER:
                        return
            self.sot_lane = lane + 1
        if self.turn > 1 or self.p.first_turn_draw:
            self.draw(p)
        self.phase = MAIN

    def end_main(self) -> None:
        if self.first_turn_rule() or not self.any_fight(self.mover):
            self.end_turn()
        else:
            self.phase = FIGHT

    def fight(self, p: int, lane: int) -> None:
        self.cr_exh[p][lane] = 1
        d = self.cr_card[1 - p][lane]
        dealt = self.damage_dealt(p, lane)
        if d >= 0:
            back = self.damage_dealt(1 - p, lane)
            self.deal_damage(1 - p, lane, dealt, p)
            self.deal_damage(p, lane, back, 1 - p)
            self.credit(p, lane, 0, dealt)
            self.credit(1 - p, lane, 0, back)
            self.settle()
        else:
            self.hero_damage(1 - p, dealt)
            self.credit(p, lane, 1, dealt)
            self.check_end()

    def fight_action(self, lane: int) -> None:
        p = self.mover
        self.fight(p, lane)
        self.run_queue()
        if self.phase != OVER and not self.any_fight(p):
            self.end_turn()

    def give_back(self, p: int) -> None:
        for lane in range(N_LANES):
            if self.cr_card[p][lane] < 0 or not self.cr_stolen[p][lane]:
                continue
            o = self.cr_owner[p][lane]
            self.cr_stolen[p][lane] = 0
            dest = -1
            for k in range(N_LANES + 1):
                for m in (lane - k, lane + k):
                    if dest < 0 and 0 <= m < N_LANES and self.cr_card[o][m] < 0:
                        dest = m
            if dest < 0:
                self.leave_play(p, lane, 0)
            else:
                self.move(p, lane, o, dest)

    def end_turn(self) -> None:
        p = self.mover
        self.give_back(p)
        for q in range(2):
            for m in range(N_LANES):
                self.cr_tatk[q][m] = self.cr_zazo[q][m] = self.cr_moved[q][m] = 0
                self.cr_copy[q][m] = -1
            self.aura_card[q] = []
        self.settle()
        self.run_queue()
        if self.phase == OVER:
            return
        self.record_turn()
        if self.turn >= self.p.max_turns:
            self.phase, self.winner, self.end_reason = OVER, -1, TIMEOUT
            return
        self.mover = 1 - p
        self.begin_turn()

    def record_turn(self) -> None:
        def count(arr, q):
            return sum(1 for m in range(N_LANES) if arr[q][m] >= 0)

        self.turn_rows[self.turn] = {
            "turn": self.turn, "seat": self.mover, "round": (self.turn + 1) // 2,
            "score_0": self.hp[0], "score_1": self.hp[1],
            "creatures_0": count(self.cr_card, 0), "creatures_1": count(self.cr_card, 1),
            "buildings_0": count(self.bu_card, 0), "buildings_1": count(self.bu_card, 1),
            "hand_0": min(len(self.hand[0]), 127), "hand_1": min(len(self.hand[1]), 127),
            "faceup_0": sum(self.up[0]), "faceup_1": sum(self.up[1]),
            "plays": self.plays, "floops": self.floops,
        }  # fmt: skip

    def choose(self, option: int) -> None:
        kind = self.pending
        if kind == C_MULLIGAN:
            if option == 1:
                self.mulligan(self.decider)
            self.pend_left -= 1
            if self.pend_left > 0:
                self.decider = 1 - self.decider
                return
            self.pending = C_NONE
            self.mover = self.first_seat
            self.begin_turn()
        elif kind == C_MUMMY:
            self.pending, self.phase = C_NONE, MAIN
            if option > 0:
                self.leave_play(self.mover, self.sot_lane, 1)
                self.heal(self.mover, option - 1)
                self.settle()
                self.run_queue()
            if self.phase != OVER:
                self.sot_lane += 1
                self.run_turn_start()
        elif kind == C_DISCARD:
            self.discard_from_hand(self.decider, option)
            self.pend_left -= 1
            if self.pend_left == 0 or not self.hand[self.decider]:
                self.pending, self.phase = C_NONE, MAIN
            self.settle()
        elif kind == C_OGRE:
            self.pending, self.phase = C_NONE, MAIN
            self.keep_bottom(self.decider, option)
            self.settle()

    # -- the greedy bot (greedy.py) ---------------------------------------------------------------------

    def wt(self, p: int, i: int) -> float:
        return self.w[p][i]

    def cval(self, p: int, atk: int, left: int) -> float:
        return self.wt(p, W_ATK) * max(atk, 0) + self.wt(p, W_DEF) * max(left, 0) + self.wt(p, W_BODY)

    def creature_value(self, p: int, q: int, lane: int) -> float:
        if self.cr_card[q][lane] < 0:
            return 0.0
        return self.cval(p, self.cr_atk[q][lane], self.cr_def[q][lane] - self.cr_dmg[q][lane])

    def fight_value(self, p, lane, atk, left, mult, opp_delta) -> float:
        dealt = max(atk, 0) * mult
        if self.cr_card[1 - p][lane] < 0:
            return dealt * self.wt(p, W_FACE)
        back = max(self.cr_atk[1 - p][lane] + opp_delta, 0) * self.multiplier(1 - p, lane)
        opp_left = self.cr_def[1 - p][lane] - self.cr_dmg[1 - p][lane]
        v = self.wt(p, W_KILL) + self.creature_value(p, 1 - p, lane) if dealt >= opp_left else dealt * self.wt(p, W_HIT)
        if back >= left:
            v -= self.wt(p, W_KILL) + self.cval(p, atk, left)
        else:
            v -= back * self.wt(p, W_HIT)
        return v

    def current_fight(self, p: int, lane: int) -> float:
        if self.first_turn_rule() or not self.can_fight(p, lane):
            return 0.0
        left = self.cr_def[p][lane] - self.cr_dmg[p][lane]
        return self.fight_value(p, lane, self.cr_atk[p][lane], left, self.multiplier(p, lane), 0)

    def static_value(self, p: int, c: int) -> float:
        k = self.cards[c]
        if k.type == CREATURE:
            return self.cval(p, k.atk, k.def_) + 0.5 * (k.trigger != P_NONE)
        if k.type == BUILDING:
            return self.wt(p, W_BUILDING)
        return self.wt(p, W_CARD) * (1 + (k.e1_amount if k.e1_effect == E_DRAW else 0))

    def estimate(self, p: int, lane: int, c: int, stat: int) -> int:
        k = self.cards[c]
        v = (k.atk if stat == S_ATK else k.def_) + self.aura_bonus(p, lane, c, stat, False)
        if k.s1_stat != S_NONE:
            v += self.own_stat(p, lane, c, stat)
        if k.s1_stat == stat and k.s1_count == K_OWN_COPIES:
            v += k.s1_amount
        return v

    def place_value(self, p: int, lane: int, c: int) -> float:
        atk, df = self.estimate(p, lane, c, S_ATK), self.estimate(p, lane, c, S_DEF)
        if df <= 0:
            return NEG
        k = self.cards[c]
        mult = 3 if k.special == SP_TRIPLE and self.up[p][lane] and self.land[p][lane] == k.sp_land else 1
        v = self.cval(p, atk, df)
        opp = self.cr_card[1 - p][lane]
        if self.g_attack[lane]:
            v += self.fight_value(p, lane, atk, df, mult, 0)
        elif opp < 0:
            v += 0.5 * max(atk, 0) * mult * self.wt(p, W_FACE)
        if self.cr_card[p][lane] >= 0:
            v -= self.creature_value(p, p, lane) + self.g_fight[lane]
        else:
            v += self.g_block[lane]
        return v

    def context(self, p: int) -> None:
        first = self.first_turn_rule()
        self.g_fight, self.g_block, self.g_attack = [0.0] * 4, [0.0] * 4, [0] * 4
        for lane in range(N_LANES):
            self.g_fight[lane] = self.current_fight(p, lane) if self.cr_card[p][lane] >= 0 else 0.0
            opp = self.cr_card[1 - p][lane] >= 0
            self.g_block[lane] = self.wt(p, W_BLOCK) * self.damage_dealt(1 - p, lane) if opp else 0.0
            self.g_attack[lane] = not first and (not opp or not self.protected(1 - p, lane))
        self.g_ally = [0.0] * 7
        for m in range(N_LANES):
            d = self.cr_card[p][m]
            if d < 0 or not self.abilities_on(p, m):
                continue
            k = self.cards[d]
            if k.trigger in (P_ANY_ENTERS, P_ALLY_ENTERS):
                g = self.effect_gain(p, m, d, 0, 0)
                for land in range(7):
                    if k.trigger == P_ANY_ENTERS or land_ok(land, k.tland):
                        self.g_ally[land] += g

    def damage_value(self, p: int, q: int, lane: int, take: int) -> float:
        if self.cr_card[q][lane] < 0 or take <= 0:
            return 0.0
        left = self.cr_def[q][lane] - self.cr_dmg[q][lane]
        v = self.wt(p, W_KILL) + self.creature_value(p, q, lane) if take >= left else take * self.wt(p, W_HIT)
        return v if q != p else -v

    def atk_gain(self, p: int, q: int, lane: int, delta: int) -> float:
        if (self.cr_card[q][lane] < 0 or self.cr_card[p][lane] < 0 or self.first_turn_rule()
                or not self.can_fight(p, lane)):  # fmt: skip
            return 0.0
        left = self.cr_def[p][lane] - self.cr_dmg[p][lane]
        mult = self.multiplier(p, lane)
        now = self.fight_value(p, lane, self.cr_atk[p][lane], left, mult, 0)
        if q == p:
            return self.fight_value(p, lane, self.cr_atk[p][lane] + delta, left, mult, 0) - now
        return self.fight_value(p, lane, self.cr_atk[p][lane], left, mult, delta) - now

    def land_dependents(self, q: int, land: int) -> int:
        n = 0
        for m in range(N_LANES):
            d = self.cr_card[q][m]
            if d >= 0:
                k = self.cards[d]
                uses = k.s1_count in (K_OWN_LANDSCAPES, K_ADJACENT_LANDSCAPES)
                n += 1 if uses and k.s1_land == land else 0
        return n

    def row_gain(self, p, lane, c, eff, target, amount, count, land, step, mode, choice, tgt) -> float:
        v = self.row_value(amount, count, land, step, mode, p, lane, c)
        if eff == E_DAMAGE:
            if target == T_OPPONENT:
                return v * self.wt(p, W_FACE) + (self.wt(p, W_WIN) if v >= self.hp[1 - p] else 0.0)
            g = 0.0
            for q in range(2):
                for m in range(N_LANES):
                    if target == T_OPPOSING_CREATURES:
                        take = v if q != p else 0
                    elif target == T_ALL_CREATURES:
                        take = v
                    elif target == T_OPPOSING_IN_LANE:
                        take = v if q != p and m == lane else 0
                    elif target == T_DISTINCT_CREATURES:
                        take = amount if tgt & (1 << (4 * q + m)) else 0
                    else:
                        take = v if tgt == 4 * q + m else 0
                    g += self.damage_value(p, q, m, take)
            return g
        if eff == E_DRAW:
            return 0.0 if target == T_EACH_PLAYER else v * self.wt(p, W_CARD)
        if eff == E_MILL:
            return v * self.wt(p, W_MILL)
        if eff == E_DISCARD:
            return min(v, len(self.hand[1 - p])) * self.wt(p, W_CARD)
        if eff == E_TURN_ATK:
            return self.turn_atk_gain(p, lane, c, target, v, land, tgt)
        if eff == E_HEAL:
            return self.wt(p, W_DEF)
        if eff == E_GAIN_ACTION:
            return v * self.wt(p, W_CARD)
        if eff == E_RETURN_RANDOM:
            return self.wt(p, W_CARD) if v > 0 and self.picks(p, target, land) else 0.0
        return self.unique_gain(p, lane, c, eff, target, amount, land, choice, tgt)

    def turn_atk_gain(self, p, lane, c, target, v, land, tgt) -> float:
        if target == T_SELF:
            return self.atk_gain(p, p, lane, v) if lane >= 0 else 0.0
        if target in (T_OWN_LAND_CREATURE, T_CREATURE_IN_LANE, T_LAND_CREATURE):
            return self.atk_gain(p, tgt >> 2, tgt & 3, v)
        g = 0.0
        for q in range(2):
            for m in range(N_LANES):
                d = self.cr_card[q][m]
                if d < 0:
                    continue
                if target == T_MOVED_CREATURES:
                    ok = self.cr_moved[q][m] > 0
                else:
                    ok = q == p and (target == T_OWN_CREATURES or land_ok(self.cards[d].land, land))
                if ok:
                    g += self.atk_gain(p, q, m, v)
        return g

    def unique_gain(self, p, lane, c, eff, target, amount, land, choice, tgt) -> float:
        card, bld, face = self.wt(p, W_CARD), self.wt(p, W_BUILDING), self.wt(p, W_FACE)
        if eff == E_BOUNCE:
            q, m = self.bounce_slot(p, lane, c, target, choice, tgt)
            if q < 0 or self.cr_card[q][m] < 0:
                return 0.0
            g = self.creature_value(p, q, m) - card
            return g if q != p else -g - self.current_fight(p, m)
        if eff == E_DESTROY:
            if target == T_BUILDING_IN_LANE:
                return bld if tgt != p else -bld
            return self.wt(p, W_KILL) + self.creature_value(p, 1 - p, lane)
        if eff in (E_FLIP_DOWN, E_FLIP_UP):
            if target == T_LANDSCAPE_IN_LANE:
                q, m = tgt, lane
            else:
                q, m = p, (choice if eff == E_FLIP_DOWN else tgt)
            if m >= N_LANES:
                return 0.0
            g = self.wt(p, W_LAND) * (1 + self.land_dependents(q, self.land[q][m]))
            return g if (q != p) == (eff == E_FLIP_DOWN) else -g
        if eff == E_MOVE_OWN:
            return self.move_gain(p, tgt >> 2, tgt & 3)
        if eff == E_READY_FLOOPED:
            return 0.5 * card if choice < N_LANES else 0.0
        if eff == E_FIELD_REAPER:
            d = lane - 1 if choice == 0 else lane + 1
            if self.cr_card[1 - p][lane] >= 0 and 0 <= d < N_LANES and self.cr_card[p][d] < 0:
                return 2.0 * self.creature_value(p, 1 - p, lane)
            return 0.0
        if eff == E_SILO:
            return 2.0 * card
        if eff == E_RECLAIM:
            up = tgt // 17
            return self.wt(p, W_LAND) * (1 + self.land_dependents(p, self.land[p][up])) if up < N_LANES else 0.0
        if eff == E_GREEN_MERMAN:
            g = 0.0
            for m in range(N_LANES):
                g += self.damage_value(p, 1 - p, m, 1)
            return g
        if eff == E_OGRE_GAS:
            return 2.0 * self.wt(p, W_MILL)
        if eff == E_SCHOOLHOUSE:
            return 0.5 * card
        if eff == E_MOVE_INTO_LANE:
            q, m = tgt >> 2, tgt & 3
            return self.move_gain(p, m, lane) if q == p else 0.5 * self.wt(p, W_BLOCK) * self.damage_dealt(q, m)
        if eff == E_SPIRIT_TOWER:
            if self.cr_card[p][lane] >= 0 or self.cr_card[1 - p][lane] < 0:
                return 0.0
            return self.damage_dealt(1 - p, lane) * face
        if eff == E_COFFIN:
            best = 0
            for c2 in self.hand[p]:
                if self.cards[c2].type == CREATURE:
                    best = max(best, min(self.paid_cost(p, c2), 2))
            return (best - 0.5) * self.wt(p, W_ACTION)
        if eff == E_ZAZO:
            n = self.count_of(K_ADJACENT_ENTERED, ANY, tgt >> 2, tgt & 3, c)
            return self.atk_gain(p, tgt >> 2, tgt & 3, amount * n)
        if eff == E_RETURN_COST0:
            return card if tgt < len(self.disc[p]) else 0.0
        if eff == E_SPELL_TO_DECK_TOP:
            return 0.5 * card if tgt < len(self.disc[p]) else 0.0
        return 0.0

    def move_gain(self, p: int, src: int, dst: int) -> float:
        if self.cr_card[p][src] < 0:
            return 0.0
        atk, left, mult = self.cr_atk[p][src], self.cr_def[p][src] - self.cr_dmg[p][src], self.multiplier(p, src)
        ready = not self.cr_exh[p][src] and not self.first_turn_rule()
        after = self.fight_value(p, dst, atk, left, mult, 0) if ready else 0.0
        if self.cr_card[1 - p][dst] >= 0:
            after += self.wt(p, W_BLOCK) * self.damage_dealt(1 - p, dst)
        before = self.current_fight(p, src)
        if self.cr_card[1 - p][src] >= 0:
            before += self.wt(p, W_BLOCK) * self.damage_dealt(1 - p, src)
        g = after - before
        if self.cards[self.cr_card[p][src]].trigger == P_MOVES:
            g += self.wt(p, W_CARD)
        return g

    def effect_gain(self, p: int, lane: int, c: int, choice: int, tgt: int) -> float:
        k = self.cards[c]
        if k.e1_effect == E_NONE:
            return 0.0
        g = self.row_gain(p, lane, c, k.e1_effect, k.e1_target, k.e1_amount, k.e1_count, k.e1_land, k.e1_n,
                          k.e1_mode, choice, tgt)  # fmt: skip
        if k.e2_effect != E_NONE:
            g += self.row_gain(p, lane, c, k.e2_effect, k.e2_target, k.e2_amount, k.e2_count, k.e2_land, k.e2_n,
                               k.e2_mode, 0, 0)  # fmt: skip
        return g

    def woadic_chiefs(self, p: int) -> int:
        return sum(
            1 for m in range(N_LANES)
            if self.cr_card[p][m] >= 0 and self.cards[self.cr_card[p][m]].s1_count == K_OWN_SPELLS_THIS_TURN
        )  # fmt: skip

    def building_value(self, p: int, lane: int, c: int) -> float:
        k = self.cards[c]
        v = self.wt(p, W_BUILDING)
        if self.bu_card[p][lane] >= 0:
            v -= self.wt(p, W_BUILDING) + 0.5
        if k.au_to != 0 and self.cr_card[p][lane] >= 0:
            if k.au_stat == S_ATK:
                v += self.atk_gain(p, p, lane, k.au_amount) + k.au_amount * self.wt(p, W_ATK)
            else:
                v += k.au_amount * self.wt(p, W_DEF)
        if k.trigger in (P_FLOOP, P_ACTIVATE):
            v += 0.3 * (self.cr_card[p][lane] >= 0 or self.cr_card[1 - p][lane] >= 0)
        if k.special == SP_PALACE:
            v += 0.3 * (self.cr_card[1 - p][lane] >= 0)
        return v

    def play_value(self, p: int, src: int, a: int, tgt: int) -> float:
        free = src == PENDING_SRC
        c = self.pend_card if free else self.hand[p][src]
        k = self.cards[c]
        lane = a & 3
        cost = 0.0 if free else self.paid_cost(p, c) * self.wt(p, W_ACTION)
        if k.type == CREATURE:
            v = self.place_value(p, lane, c)
            if k.trigger in (P_ENTERS, P_ANY_ENTERS):
                v += self.effect_gain(p, lane, c, a >> 2, tgt)
            v += self.g_ally[k.land]
            if k.xcost == X_DISCARD_CARD:
                v -= self.static_value(p, self.hand[p][tgt]) if tgt < len(self.hand[p]) else 0.0
        elif k.type == BUILDING:
            v = self.building_value(p, lane, c)
        else:
            v = self.effect_gain(p, -1, c, a, tgt) + 0.2 * self.wt(p, W_CARD) * self.woadic_chiefs(p)
        return v - cost

    def struzanns(self, p: int) -> int:
        n = 0
        for m in range(N_LANES):
            d = self.cr_card[p][m]
            if d >= 0 and self.cards[d].s1_count == K_OWN_FLOOPED:
                n += self.cards[d].s1_amount
        return n

    def use_value(self, p: int, kind: int, slot: int, a: int, tgt: int) -> float:
        lane = slot % N_LANES
        if slot < N_LANES:
            c = self.floop_card(p, slot) if kind == A_FLOOP else self.cr_card[p][lane]
        else:
            c = self.bu_card[p][lane]
        k = self.cards[c]
        v = self.effect_gain(p, lane, c, a, tgt) - k.act_cost * self.wt(p, W_ACTION)
        if kind == A_FLOOP and slot < N_LANES:
            v -= self.current_fight(p, lane) + self.wt(p, W_FLOOP_MIN)
        if k.xcost == X_DESTROY_SELF:
            v -= self.creature_value(p, p, lane) + self.current_fight(p, lane)
        elif k.xcost == X_DESTROY_OWN_CREATURE:
            v -= self.creature_value(p, p, a) + (self.current_fight(p, a) if a != lane else 0.0)
        if k.trigger == P_FLOOP:
            v += 0.1 * self.wt(p, W_ATK) * self.struzanns(p)
        return v

    def action_value(self, p: int, action: int) -> float:
        kind = action >> 24
        if kind == A_END:
            return 0.0
        if kind == A_DRAW:
            return self.wt(p, W_CARD) - self.wt(p, W_ACTION)
        src, a, b = (action >> 16) & 255, (action >> 8) & 255, action & 255
        if kind == A_PLAY:
            return self.play_value(p, src, a, b) - self.wt(p, W_PLAY_MIN)
        return self.use_value(p, kind, src, a, b)

    def best_of(self, p: int, actions: list[int]) -> int:
        best, best_a = NEG, actions[0]
        for a in actions:
            v = self.action_value(p, a)
            if v > best:
                best, best_a = v, a
        return best_a

    def greedy(self, who: int) -> int:
        """Return the greedy action of seat ``who`` (``greedy.decide``)."""
        if self.phase == FIGHT:
            best, best_a = NEG, 0
            for lane in range(N_LANES):
                if self.can_fight(who, lane):
                    v = self.current_fight(who, lane)
                    if v > best:
                        best, best_a = v, encode(A_FIGHT, lane, 0, 0)
            return best_a
        if self.phase == CHOOSE:
            return self.greedy_choice(who)
        return self.main_choice(who)

    def main_choice(self, p: int) -> int:
        self.context(p)
        best, best_a = 0.0, encode(A_END, 0, 0, 0)
        if self.actions > 0 and self.deck[p]:
            best, best_a = self.wt(p, W_CARD) - self.wt(p, W_ACTION), encode(A_DRAW, 0, 0, 0)
        for i in range(len(self.hand[p])):
            c = self.hand[p][i]
            if self.seen_before(p, i, -1) or not self.playable(p, c, False):
                continue
            v, a = self.best_play(p, i, c)
            if v > best:
                best, best_a = v, a
        uses = []
        for slot in range(2 * N_LANES):
            uses += self.use_options(p, slot, A_FLOOP)
            uses += self.use_options(p, slot, A_ACTIVATE)
        for a in uses:
            v = self.action_value(p, a)
            if v > best:
                best, best_a = v, a
        return best_a

    def best_play(self, p: int, src: int, c: int) -> tuple[float, int]:
        k = self.cards[c]
        cost = self.paid_cost(p, c) * self.wt(p, W_ACTION) + self.wt(p, W_PLAY_MIN)
        best, best_a = NEG, 0
        if k.type == SPELL:
            bonus = 0.2 * self.wt(p, W_CARD) * self.woadic_chiefs(p)
            for t in self.options(p, -1, c):
                v = self.effect_gain(p, -1, c, 0, t) + bonus
                if v > best:
                    best, best_a = v, encode(A_PLAY, src, 0, t)
            return best - cost, best_a
        if k.type == BUILDING:
            for lane in range(N_LANES):
                v = self.building_value(p, lane, c)
                if v > best:
                    best, best_a = v, encode(A_PLAY, src, lane, 0)
            return best - cost, best_a
        discard, loss = 0, 0.0
        if k.xcost == X_DISCARD_CARD:
            loss = float("inf")
            for i in range(len(self.hand[p])):
                v = self.static_value(p, self.hand[p][i])
                if i != src and v < loss:
                    discard, loss = i, v
        etb = k.trigger in (P_ENTERS, P_ANY_ENTERS)
        for lane in range(N_LANES):
            if self.cr_card[p][lane] >= 0 and self.cr_exh[p][lane]:
                continue
            v = self.place_value(p, lane, c)
            if v <= NEG:
                continue
            v += self.g_ally[k.land] - loss
            sub = 0
            if etb:
                gain = NEG
                for s in self.enter_options(p, lane, c):
                    g = self.effect_gain(p, lane, c, s, discard)
                    if g > gain:
                        gain, sub = g, s
                v += gain
            if v > best:
                best, best_a = v, encode(A_PLAY, src, lane | (sub << 2), discard)
        return best - cost, best_a

    def greedy_choice(self, q: int) -> int:
        if self.pending == C_MULLIGAN:
            creatures = sum(1 for c in self.hand[q] if self.cards[c].type == CREATURE)
            return encode(A_CHOOSE, 1 if creatures < self.wt(q, W_MULLIGAN_BELOW) else 0, 0, 0)
        if self.pending == C_DISCARD:
            best, best_i = float("inf"), 0
            for i, c in enumerate(self.hand[q]):
                v = self.static_value(q, c)
                if v < best:
                    best, best_i = v, i
            return encode(A_CHOOSE, best_i, 0, 0)
        if self.pending == C_OGRE:
            best, best_k = float("-inf"), 0
            for k, c in enumerate(self.reveal):
                v = self.static_value(q, c)
                if v > best:
                    best, best_k = v, k
            return encode(A_CHOOSE, best_k, 0, 0)
        if self.pending == C_MUMMY:
            lane = self.sot_lane
            options = self.choice_actions()
            best, best_a = 0.0, options[0]
            synergy = 0.0
            for m in range(N_LANES):
                d = self.cr_card[q][m]
                if d >= 0 and m != lane and self.cards[d].trigger in (P_ANY_ENTERS, P_ALLY_ENTERS):
                    synergy += 0.5
            for a in options[1:]:
                t = ((a >> 16) & 255) - 1
                v = synergy + (self.wt(q, W_DEF) if self.cr_dmg[q][t] > 0 else 0.0) + 0.1 * self.cr_dmg[q][lane]
                if v > best:
                    best, best_a = v, a
            return best_a
        self.context(q)
        return self.best_of(q, self.choice_actions())

    # -- the planner (planner.py) --------------------------------------------------------------------------

    def clone(self, p: int, seed: int) -> Game:
        """Return a copy of the position with seat ``p``'s hidden information reshuffled (``copy_position``)."""
        sim = Game.__new__(Game)
        sim.__dict__.update(self.__dict__)
        for name in ("cr_card", "cr_owner", "cr_dmg", "cr_exh", "cr_floop", "cr_pdef", "cr_tatk", "cr_zazo",
                     "cr_moved", "cr_entered", "cr_copy", "cr_stolen", "cr_hit_by", "cr_atk", "cr_def", "bu_card",
                     "bu_owner", "bu_exh", "land", "up", "deck", "hand", "hand_own", "disc", "built",
                     "entered_land", "entered_lane", "aura_card"):  # fmt: skip
            setattr(sim, name, [list(row) for row in getattr(self, name)])
        for name in ("hp", "deck_name", "spells", "played_cr", "entered", "coffins", "reveal", "queue"):
            setattr(sim, name, list(getattr(self, name)))
        sim.seats = [Tally(**vars(st)) for st in self.seats]  # the copy's tallies are thrown away
        sim.records = [{c: Tally(**vars(r)) for c, r in rec.items()} for rec in self.records]
        sim.turn_rows = {}
        sim.rng = Rng(0, N_RNG)
        sim.rng.lanes = [mix64((seed + lane) & MASK64) for lane in range(N_RNG)]
        sim.rng.shuffle(sim.deck[p], LANE_SHUFFLE + p)
        q = 1 - p  # the opponent's unseen cards, dealt again (``planner.redeal_unseen``)
        mine = [i for i, owner in enumerate(sim.hand_own[q]) if owner == q]
        pool = sorted(sim.deck[q] + [sim.hand[q][i] for i in mine])
        sim.rng.shuffle(pool, LANE_SHUFFLE + q)
        for i in mine:
            sim.hand[q][i] = pool.pop()
        sim.deck[q] = pool
        return sim

    def evaluate(self, p: int) -> float:
        if self.phase == OVER:
            if self.winner == p:
                return self.wt(p, W_WIN)
            return -self.wt(p, W_WIN) if self.winner == 1 - p else 0.0
        v = self.wt(p, W_HP) * (self.hp[p] - self.hp[1 - p])
        threat = self.wt(p, W_THREAT)
        for lane in range(N_LANES):
            v += self.creature_value(p, p, lane) - self.creature_value(p, 1 - p, lane)
            if self.cr_card[1 - p][lane] >= 0 and self.cr_card[p][lane] < 0:
                v -= threat * self.damage_dealt(1 - p, lane)
            if self.cr_card[p][lane] >= 0 and self.cr_card[1 - p][lane] < 0:
                v += 0.5 * threat * self.damage_dealt(p, lane)
            mine, theirs = 1 if self.bu_card[p][lane] >= 0 else 0, 1 if self.bu_card[1 - p][lane] >= 0 else 0
            v += self.wt(p, W_BUILDING) * (mine - theirs)
            v += self.wt(p, W_LAND) * (self.up[p][lane] - self.up[1 - p][lane])
        v += self.wt(p, W_CARD) * (len(self.hand[p]) - len(self.hand[1 - p]))
        return v

    def plan(self, who: int) -> int:
        if self.phase != MAIN:
            return self.greedy(who)
        options = self.legal_actions()
        if len(options) == 1:
            return options[0]
        seed = self.rng.next_u64(LANE_BOT + who)
        best, best_a = -1e18, options[0]
        for a in options:
            sim = self.clone(who, seed)
            sim.apply_action(a)
            steps = ROLLOUT_STEPS
            while sim.phase != OVER and sim.turn == self.turn and steps > 0:
                w = sim.decider if sim.phase == CHOOSE else sim.mover
                sim.apply_action(sim.greedy(w))
                steps -= 1
            v = sim.evaluate(who)
            if v > best:
                best, best_a = v, a
        return best_a

    # -- a game --------------------------------------------------------------------------------------------

    def decide(self, bot: int, who: int) -> int:
        if bot == 0:
            options = self.legal_actions()
            return options[self.rng.randint(LANE_BOT + who, len(options))]
        if bot == 2:
            return self.plan(who)
        return self.greedy(who)

    def play(self, last_winner: int) -> None:
        """Play the game to its end (``kernel.play_game``)."""
        self.set_up(last_winner)
        cap = 400 * self.p.max_turns
        bots = self.ref.bot_ids
        while self.phase != OVER and cap > 0:
            cap -= 1
            who = self.decider if self.phase == CHOOSE else self.mover
            self.apply_action(self.decide(bots[who], who))
        if self.end_reason != TIMEOUT:
            self.record_turn()

    def result(self, tables: Sequence[str]) -> dict:
        """Return the game's rows (``kernel.write_records``): games columns at top level, then the tables."""
        out = {
            "game": self.index, "seed": self.seed, "first_seat": self.first_seat, "winner": self.winner,
            "turns": self.turn, "end_reason": self.end_reason, "score_0": self.hp[0], "score_1": self.hp[1],
            "deck_0": self.deck_name[0], "deck_1": self.deck_name[1],
        }  # fmt: skip
        if "seats" in tables:
            out["seats"] = [self.seat_row(p) for p in range(2)]
        if "cards" in tables:
            rows = []
            for p in range(2):
                built = self.built[p]
                for k, c in enumerate(built):
                    if k > 0 and built[k - 1] == c:
                        continue
                    r = self.records[p][c]
                    row = {"seat": p, "card": c}
                    row.update({f: getattr(r, f) for f in CARD_FIELDS_OUT})
                    row["won"] = int(self.winner == p)
                    rows.append(row)
            out["cards"] = rows
        if "turns" in tables:
            out["turn_rows"] = [self.turn_rows[t] for t in sorted(self.turn_rows)]
        return out

    def seat_row(self, p: int) -> dict:
        st = self.seats[p]
        st.deck_left, st.hand_end = len(self.deck[p]), len(self.hand[p])
        st.creatures_end = sum(1 for m in range(N_LANES) if self.cr_card[p][m] >= 0)
        row = {"seat": p, "bot": self.ref.bot_ids[p], "score": self.hp[p], "won": int(self.winner == p)}
        row.update({"first": st.first, "deck": st.deck})
        row.update({f: getattr(st, f) for f in SEAT_FIELDS})
        return row


class Reference:
    """A batch set-up (like ``kernel.prepare``): rules, cards, starter decks, fixed decks, bot weights."""

    def __init__(
        self,
        params: Any,
        cards: Any,
        bot_names: Sequence[str],
        weights: Sequence[Sequence[float]],
        decks: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.params = params
        self.cards = list(cards) if isinstance(cards, list) else cards_from_pool(cards)  # a CardPool or its Cards
        unknown = [b for b in bot_names if b not in BOTS]
        if unknown:
            raise ValueError(f"unknown bot(s) {unknown}; the reference has {', '.join(BOTS)}")
        self.bot_ids = [BOTS.index(b) for b in bot_names]
        self.weights = [[float(x) for x in w] for w in weights]
        fields = ("in_finn", "in_jake", "in_bmo", "in_rainicorn")
        self.starters = [[c.id for c in self.cards for _ in range(getattr(c, f))] for f in fields]
        decks = decks or [[], []]
        self.fixed = [[c for c in row if c >= 0] for row in decks]
        self.fixed_land = [self.landscapes(row) for row in self.fixed]
        self.fixed_name = [CUSTOM_0, CUSTOM_0 if list(decks[0]) == list(decks[1]) else CUSTOM_1]

    def landscapes(self, deck: list[int]) -> list[int]:
        """Return a fixed deck's four Landscapes (``kernel.fixed_landscapes``: largest remainder)."""
        counts = [0] * 5
        for c in deck:
            if self.cards[c].land < 5:
                counts[self.cards[c].land] += 1
        total = sum(counts)
        if total == 0:
            return [BLUE_PLAINS] * N_LANES
        quota = [N_LANES * n // total for n in counts]
        for _ in range(N_LANES - sum(quota)):
            rem = [N_LANES * counts[t] - quota[t] * total for t in range(5)]
            best = max(range(5), key=lambda t: (rem[t], -t))
            quota[best] += 1
            counts[best] = 0
        return [t for t in range(5) for _ in range(quota[t])]

    def game(self, root_seed: int, index: int) -> Game:
        return Game(self, index, game_seed(root_seed, index))

    def play(self, root_seed: int, game: int, tables: Sequence[str] = ("games", "seats")) -> dict:
        """Play game ``game`` of a run with ``root_seed``; return its records (``Game.result``)."""
        last = -1
        if self.params.first_player == PREVIOUS_WINNER:
            length = self.params.series_length
            for h in range(game - game % length, game):
                g = self.game(root_seed, h)
                g.play(last)
                last = g.winner
        g = self.game(root_seed, game)
        g.play(last)
        return g.result(tables)


GAME_COLUMNS = ("game", "seed", "first_seat", "winner", "turns", "end_reason", "score_0", "score_1", "deck_0", "deck_1")


def to_rows(results: list[dict]) -> Mapping[str, list[dict]]:
    """Return the results as flat rows per table (``games``, ``seats``, ``cards``, ``turns``)."""
    out: dict[str, list[dict]] = {"games": [], "seats": [], "cards": [], "turns": []}
    for r in results:
        out["games"].append({k: r[k] for k in GAME_COLUMNS})
        for key, table in (("seats", "seats"), ("cards", "cards"), ("turn_rows", "turns")):
            for row in r.get(key, []):
                out[table].append({"game": r["game"], **row})
    return out
