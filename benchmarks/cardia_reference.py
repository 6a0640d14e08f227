"""Cardia in plain Python: a readable reference for the Numba kernel, and its speed baseline.

This file re-implements the rules of ``sims/cardia`` (RULES.md; rulings R1-R18 in
``../shared/rulings/cardia.md``) with lists and small classes: no numpy and no Numba in
the game loop. The bots are in ``cardia_reference_bots.py``. Both play *the same games*
as the kernel:

- the same RNG (``reference_rng.py``, 6 lanes: SHUFFLE 1 + seat, BOT 3 + seat, PUPPET 5);
- the same random numbers in the same order (set-up shuffles, random bots, the
  Puppeteer's pick, the Witch King's shuffle, the expert's samples);
- the same decisions with the same float arithmetic in the same order;
- the same records, column for column.

``tests/sims/cardia/test_differential.py`` checks that both agree game by game on every
column of the ``games``, ``seats``, ``cards`` and ``turns`` tables;
``benchmarks/pure_python.py --game cardia`` times both.

Where the kernel and the rulebook could be read differently, this file follows the
kernel (it is the spec of the differential test).

Usage::

    import sims
    from cardia_reference import Reference  # with benchmarks/ on sys.path

    game = sims.load("cardia")
    params = game.make_params()
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    weights = [list(game.make_weights("greedy"))] * 2
    ref = Reference(params, pool, ("greedy", "greedy"), weights)
    result = ref.play(root_seed=1, game=0, tables=("games", "seats", "cards", "turns"))
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # benchmarks/ is not a package: its modules import each other by file name
    sys.path.insert(0, str(HERE))

from reference_rng import GOLDEN, MASK64, Rng, game_seed, mix64  # noqa: E402

N_LANES, LANE_SHUFFLE, LANE_BOT, LANE_PUPPET = 6, 1, 3, 5

# Constants mirroring sims/cardia/state.py
(NONE, HIRED_BLADE, VOID_MAGE, SURGEON, MEDIATOR, SABOTEUR, FORTUNE_TELLER, PALACE_GUARD, JUDGE, AMBUSHER,
 PUPPETEER, CLOCKMAKER, TREASURER, SWAMP_GUARDIAN, MAGISTRA, INVENTOR, DJINN, POISONER, KINESIS_MAGE, ENVOY,
 TAX_COLLECTOR, REVOLUTIONARY, LIBRARIAN, PRODIGY, ARISTOCRAT, BLACKMAILER, ILLUSIONIST, ENGINEER, COUNSELOR,
 WITCH_KING, ELEMENTAL, MECHANICAL_DJINN, SUCCESSOR) = range(33)  # fmt: skip
DECK_I, DECK_II, MIXED, SWEEP = 0, 1, 2, 3  # DeckChoice
(LOC_NONE, SERPENT_TEMPLE, BAZAAR, FOUNDERS_DAY, GRAND_LIBRARY, SCRAPYARD, AUCTION_HOUSE, HAUNTED_CATACOMBS,
 FOGGY_SWAMP, LOC_SWEEP) = range(10)  # fmt: skip
LOCATION_DIFFICULTY = (0, 1, 1, 1, 2, 2, 2, 3, 3)
DECK_DIFFICULTY = (0, 1, 1)
SEAT_0, SEAT_1, TIE, BOTH, HIDDEN = range(5)  # Result
(SIGNETS, OPPONENT_CANNOT_PLAY, BOTH_CANNOT_PLAY, E_DJINN, E_MECHANICAL_DJINN, E_FOUNDERS_DAY,
 E_HAUNTED_CATACOMBS, DRAW_EQUAL_SIGNETS, DRAW_SIMULTANEOUS, TIMEOUT) = range(10)  # fmt: skip
(D_PLAY, VOID_TARGET, VOID_MODE, GUARD_FACTION, GUARD_DISCARD, AMBUSH_FACTION, SWAMP_TARGET, MAGISTRA_TARGET,
 INVENTOR_PLUS, INVENTOR_MINUS, KINESIS_FROM, KINESIS_TO, ENVOY_TARGET, DISCARD_HAND, LIBRARIAN_SIGN,
 PRODIGY_TARGET, BLACKMAIL_FACTION, ILLUSIONIST_TARGET, WITCH_FACTION, ELEMENTAL_CARD,
 SCRAPYARD_CARD) = range(21)  # fmt: skip
MODIFIERS, TOKENS = 0, 1  # VoidMode
MAX_ROUNDS = 64
ENVOY_NEXT = 2 * MAX_ROUNDS
NO_CARD, NO_POS, NEVER, NO_WINNER = -1, -1, -1, -1
MAX_CHAIN = 8
N_SETTINGS = 9
BOTS = ("random", "greedy", "expert")


@dataclass(frozen=True, slots=True)
class Card:
    """One row of the card table (``CARD_DTYPE``)."""

    id: int
    name: str
    deck: int
    influence: int
    faction: int
    effect: int
    ongoing: int
    baseline: int


def cards_from_pool(pool: Any) -> list[Card]:
    """Return the cards of a ``CardPool`` (or a list of ``Card``s) as ``Card``s, id = row."""
    if isinstance(pool, list | tuple):
        return list(pool)
    t = pool.table
    return [
        Card(
            c,
            pool.names[c],
            int(t["deck"][c]),
            int(t["influence"][c]),
            int(t["faction"][c]),
            int(t["effect"][c]),
            int(t["ongoing"][c]),
            int(t["baseline"][c]),
        )
        for c in range(len(pool.names))
    ]


class Enc:
    """One encounter: both seats' cards with modifiers, tokens, dues, and its derived result."""

    __slots__ = (
        "card", "due_bm", "due_eng", "due_lib", "due_mod", "mod", "placed", "prev_res", "res", "sig", "tok", "up",
    )  # fmt: skip

    def __init__(self, c0: int, c1: int, placed: int) -> None:
        self.card, self.mod, self.tok, self.sig = [c0, c1], [0, 0], [0, 0], [0, 0]
        self.up, self.placed, self.res, self.prev_res = 0, placed, HIDDEN, HIDDEN
        self.due_mod, self.due_lib, self.due_eng, self.due_bm = [0, 0], [0, 0], [0, 0], [-1, -1]

    def copy(self) -> Enc:
        e = Enc.__new__(Enc)
        e.card, e.mod, e.tok, e.sig = self.card[:], self.mod[:], self.tok[:], self.sig[:]
        e.up, e.placed, e.res, e.prev_res = self.up, self.placed, self.res, self.prev_res
        e.due_mod, e.due_lib, e.due_eng, e.due_bm = self.due_mod[:], self.due_lib[:], self.due_eng[:], self.due_bm[:]
        return e


class Pos:
    """A position (``POS_DTYPE``): everything the rules change; ``copy()`` is a bot's look-ahead."""

    __slots__ = (
        "acted", "chosen", "cur", "deck", "deck_kind", "discard", "encs", "end_reason", "focus", "fortune", "hand",
        "listed", "location", "over", "pend_bm", "pend_eng", "pend_lib", "pend_mod", "reveal_res", "rng",
        "round_no", "signets", "sim", "tied_five", "winner",
    )  # fmt: skip

    def copy(self) -> Pos:
        g = Pos.__new__(Pos)
        for name in Pos.__slots__:
            setattr(g, name, getattr(self, name))
        g.rng = Rng.__new__(Rng)
        g.rng.lanes = self.rng.lanes[:]
        g.deck, g.hand, g.discard = [x[:] for x in self.deck], [x[:] for x in self.hand], [x[:] for x in self.discard]
        g.listed = [x[:] for x in self.listed]
        g.encs = [e.copy() for e in self.encs]
        g.pend_mod, g.pend_lib, g.pend_eng = self.pend_mod[:], self.pend_lib[:], self.pend_eng[:]
        g.pend_bm, g.fortune, g.signets = self.pend_bm[:], self.fortune[:], self.signets[:]
        return g


def new_record(game: int, p: int, c: int, match_game: int) -> dict:
    """Return a fresh card record (``CARD_RECORD_DTYPE``)."""
    return {
        "game": game, "seat": p, "card": c, "won": 0, "in_opening_hand": 0, "first_drawn_turn": NEVER,
        "first_played_turn": NEVER, "times_played": 0, "match_game": match_game, "reveals_won": 0,
        "reveals_lost": 0, "reveals_tied": 0, "activations": 0, "copied": 0, "signets_end": 0, "winning_end": 0,
        "flips": 0, "discarded": 0, "returned": 0,
    }  # fmt: skip


def winning(res: int, p: int) -> bool:
    """Return True if ``res`` means seat ``p``'s card wins."""
    return res in (p, BOTH)


class Game:
    """One game (or match) being played: the context of the rules (the kernel's state ``s``)."""

    def __init__(self, ref: Reference, game: int, seed: int) -> None:
        self.ref, self.p, self.cards = ref, ref.params, ref.cards
        self.index, self.seed = game, seed
        self.bots, self.weights = ref.bot_ids, ref.weights
        self.match_game, self.turn_base, self.games_won, self.holder = 1, 0, [0, 0], -1
        self.records: dict[tuple[int, int, int], dict] = {}
        self.seats = [{"abilities_activated": 0, "cards_discarded": 0} for _ in range(2)]
        self.turns: list[dict] = []
        from cardia_reference_bots import Policies  # the bots need the rules: imported once they exist

        self.bot = Policies(self)
        self.g: Pos = Pos.__new__(Pos)

    # -- bookkeeping -------------------------------------------------------------------------------
    def rec(self, p: int, c: int) -> dict:
        return self.records[(self.match_game, p, c)]

    def infl(self, g: Pos, k: int, p: int) -> int:
        e = g.encs[k]
        return self.cards[e.card[p]].influence + e.mod[p]

    def active(self, g: Pos, k: int, p: int, ability: int) -> bool:
        e = g.encs[k]
        c = self.cards[e.card[p]]
        return e.up == 1 and e.tok[p] > 0 and c.ongoing == 1 and c.effect == ability

    def has_active(self, g: Pos, p: int, ability: int) -> bool:
        return any(self.active(g, k, p, ability) for k in range(len(g.encs)))

    # -- zones (zones.py) ---------------------------------------------------------------------------
    def draw(self, g: Pos, p: int) -> int:
        if not g.deck[p]:
            return NO_CARD
        c = g.deck[p].pop()
        g.hand[p].append(c)
        if not g.sim:
            r = self.rec(p, c)
            if r["first_drawn_turn"] == NEVER:
                r["first_drawn_turn"] = g.round_no
        return c

    def draw_n(self, g: Pos, p: int, n: int) -> int:
        k = 0
        while k < n and self.draw(g, p) != NO_CARD:
            k += 1
        return k

    def refill_at_bazaar(self, g: Pos, p: int) -> None:
        if g.location == BAZAAR and len(g.hand[p]) <= self.p.bazaar_threshold:
            self.draw_n(g, p, self.p.bazaar_refill)

    def take_from_hand(self, g: Pos, p: int, c: int) -> bool:
        if c not in g.hand[p]:
            return False
        g.hand[p].remove(c)
        self.refill_at_bazaar(g, p)
        return True

    def to_discard(self, g: Pos, p: int, c: int) -> None:
        g.discard[p].append(c)
        if not g.sim:
            self.rec(p, c)["discarded"] += 1
            self.seats[p]["cards_discarded"] += 1

    def discard_from_hand(self, g: Pos, p: int, c: int) -> bool:
        if c not in g.hand[p]:
            return False
        self.to_discard(g, p, c)
        self.take_from_hand(g, p, c)
        return True

    def discard_top(self, g: Pos, p: int) -> int:
        if not g.deck[p]:
            return NO_CARD
        c = g.deck[p].pop()
        self.to_discard(g, p, c)
        return c

    def put_under(self, g: Pos, p: int, c: int) -> None:
        if self.take_from_hand(g, p, c):
            g.deck[p].insert(0, c)

    def unseen_cards(self, g: Pos, p: int) -> list[int]:
        o = 1 - p
        seen = {e.card[o] for e in g.encs if e.up} | set(g.discard[o])
        return [c for c in g.listed[o] if c not in seen]

    # -- the table (table.py) ------------------------------------------------------------------------
    def derive(self, g: Pos) -> None:
        encs, n = g.encs, len(g.encs)
        act = []
        judge = [False, False]
        for e in encs:
            row = []
            for p in range(2):
                c = self.cards[e.card[p]]
                a = c.effect if (e.up == 1 and e.tok[p] > 0 and c.ongoing == 1) else 0
                row.append(a)
                if a == JUDGE:
                    judge[p] = True
            act.append(row)
        for k, e in enumerate(encs):
            e.res = self.result_of(g, k, act, judge)
        t = [0, 0]
        for k, e in enumerate(encs):
            for p in range(2):
                n_sig = 0
                if winning(e.res, p):
                    n_sig = 1 + (act[k][p] == ARISTOCRAT)
                    if k + 1 < n:
                        n_sig += (act[k + 1][0] == TREASURER) + (act[k + 1][1] == TREASURER)
                e.sig[p] = n_sig
                t[p] += n_sig
        g.signets = t

    def result_of(self, g: Pos, k: int, act: list, judge: list) -> int:
        e = g.encs[k]
        if not e.up:
            return HIDDEN
        a, b = self.infl(g, k, 0), self.infl(g, k, 1)
        r = SEAT_0 if a > b else (SEAT_1 if b > a else TIE)
        if act[k][0] == MEDIATOR or act[k][1] == MEDIATOR:
            r = TIE
        if k + 1 < len(g.encs):
            c0, c1 = act[k + 1][0] == COUNSELOR, act[k + 1][1] == COUNSELOR
            if c0 and not c1:
                return SEAT_0
            if c1 and not c0:
                return SEAT_1
        if r == TIE:
            if judge[0] and judge[1]:
                return BOTH
            if judge[0]:
                return SEAT_0
            if judge[1]:
                return SEAT_1
        return r

    def end_game(self, g: Pos, winner: int, reason: int) -> None:
        if g.over:
            return
        g.over, g.winner, g.end_reason = 1, winner, reason

    def end_both(self, g: Pos, hit0: bool, hit1: bool, reason: int) -> None:
        if hit0 and hit1:
            self.end_game(g, NO_WINNER, DRAW_SIMULTANEOUS)
        elif hit0:
            self.end_game(g, 0, reason)
        elif hit1:
            self.end_game(g, 1, reason)

    def founders_day(self, g: Pos) -> None:
        if g.location != FOUNDERS_DAY or g.over:
            return
        hit = [False, False]
        for p in range(2):
            run = 0
            for e in g.encs:
                run = run + 1 if winning(e.res, p) else 0
                if run >= self.p.founders_run:
                    hit[p] = True
        self.end_both(g, hit[0], hit[1], E_FOUNDERS_DAY)

    def mechanical_djinn(self, g: Pos, following_current_only: bool) -> None:
        if g.over:
            return
        hit = [False, False]
        for k in range(len(g.encs) - 1):
            if following_current_only and k + 1 != g.cur:
                continue
            for p in range(2):
                nxt = g.encs[k + 1]
                if self.active(g, k, p, MECHANICAL_DJINN) and nxt.up and winning(nxt.res, p):
                    hit[p] = True
        self.end_both(g, hit[0], hit[1], E_MECHANICAL_DJINN)

    def refresh(self, g: Pos) -> int:
        for e in g.encs:
            e.prev_res = e.res
        self.derive(g)
        triggers = 0
        for k, e in enumerate(g.encs):
            old, new = e.prev_res, e.res
            if old in (new, HIDDEN) or new == HIDDEN:
                continue
            if not g.sim:
                self.rec(0, e.card[0])["flips"] += 1
                self.rec(1, e.card[1])["flips"] += 1
            past = g.cur < 0 or k < g.cur or (k == g.cur and self.p.serpent_current == 1)
            if past and g.location == SERPENT_TEMPLE:
                for p in range(2):
                    if winning(new, p) and not winning(old, p):
                        triggers += 1 if p == 0 else 16
        self.founders_day(g)
        if self.p.mechanical_djinn_check == 1:
            self.mechanical_djinn(g, False)
        return triggers

    def find_card(self, g: Pos, p: int, c: int) -> int:
        for k, e in enumerate(g.encs):
            if e.card[p] == c:
                return k
        return -1

    @staticmethod
    def clear_slot(e: Enc, p: int) -> None:
        e.mod[p], e.tok[p] = 0, 0
        e.due_mod[p], e.due_lib[p], e.due_eng[p], e.due_bm[p] = 0, 0, 0, -1

    def remove_encounter(self, g: Pos, k: int) -> None:
        del g.encs[k]
        if g.cur == k:
            g.cur = -1
        elif g.cur > k:
            g.cur -= 1

    # -- effects (effects.py) ---------------------------------------------------------------------------
    def decide(self, g: Pos, p: int, kind: int, options: list[int]) -> int:
        if len(options) == 1:
            return options[0]
        if g.sim:
            return self.bot.greedy_option(g, p, kind, options)
        return self.bot.choose_option(g, p, kind, options, self.bots[p])

    def decide_card(self, g: Pos, p: int, options: list[int]) -> int:
        if len(options) == 1:
            return options[0]
        if not g.sim and self.bots[p] == 0:
            return options[g.rng.randint(LANE_BOT + p, len(options))]
        return self.bot.cheapest_card(p, options)

    def discard_chosen(self, g: Pos, p: int) -> int:
        if not g.hand[p]:
            return NO_CARD
        c = self.decide_card(g, p, g.hand[p][:])
        self.discard_from_hand(g, p, c)
        return c

    def settle(self, g: Pos) -> None:
        triggers = self.refresh(g)
        for p in range(2):
            for _ in range(triggers % 16 if p == 0 else triggers // 16):
                if g.over:
                    continue
                self.draw(g, p)
                self.discard_chosen(g, 1 - p)

    def name_faction(self, g: Pos, p: int, kind: int) -> int:
        return self.decide(g, p, kind, [0, 1, 2, 3])

    def played(self, g: Pos, owner: int, skip: int) -> list[int]:
        return [
            k * 2 + side
            for k, e in enumerate(g.encs)
            if e.up
            for side in range(2)
            if (owner < 0 or side == owner) and k * 2 + side != skip
        ]

    def carrying(self, g: Pos, p: int) -> list[int]:
        return [
            k * 2 + side
            for k, e in enumerate(g.encs)
            if e.up
            for side in range(2)
            if (p < 0 or side == p) and (e.mod[side] != 0 or e.tok[side] > 0)
        ]

    def add_modifier(self, g: Pos, k: int, p: int, delta: int) -> None:
        g.encs[k].mod[p] += delta

    # -- abilities (abilities.py) ------------------------------------------------------------------------
    def discard_encounter(self, g: Pos, k: int) -> None:
        e = g.encs[k]
        for side in range(2):
            c = e.card[side]
            self.clear_slot(e, side)
            self.to_discard(g, side, c)
        self.remove_encounter(g, k)

    def take_back(self, g: Pos, p: int, k: int) -> None:
        e = g.encs[k]
        c, other = e.card[p], e.card[1 - p]
        self.clear_slot(e, 0)
        self.clear_slot(e, 1)
        g.hand[p].append(c)
        self.to_discard(g, 1 - p, other)
        if not g.sim:
            self.rec(p, c)["returned"] += 1
        self.remove_encounter(g, k)

    def replace_opposing(self, g: Pos, p: int, k: int) -> None:
        o = 1 - p
        if not g.hand[o]:
            self.end_game(g, p, OPPONENT_CANNOT_PLAY)
            return
        e = g.encs[k]
        old = e.card[o]
        self.clear_slot(e, o)
        self.to_discard(g, o, old)
        c = g.hand[o][g.rng.randint(LANE_PUPPET, len(g.hand[o]))]
        self.take_from_hand(g, o, c)
        e.card[o] = c
        if not g.sim:
            r = self.rec(o, c)
            r["times_played"] += 1
            if r["first_played_turn"] == NEVER:
                r["first_played_turn"] = g.round_no
        self.settle(g)

    def void_mage(self, g: Pos, p: int) -> None:
        options = self.carrying(g, -1)
        if not options:
            return
        t = self.decide(g, p, VOID_TARGET, options)
        k, side = t // 2, t % 2
        g.chosen = t
        e = g.encs[k]
        modes = ([MODIFIERS] if e.mod[side] != 0 else []) + ([TOKENS] if e.tok[side] > 0 else [])
        if self.decide(g, p, VOID_MODE, modes) == MODIFIERS:
            self.add_modifier(g, k, side, -e.mod[side])
        else:
            e.tok[side] = 0
        self.settle(g)

    def palace_guard(self, g: Pos, p: int, k: int) -> None:
        o = 1 - p
        f = self.name_faction(g, p, GUARD_FACTION)
        options = [NO_CARD] + [c for c in g.hand[o] if self.cards[c].faction == f]
        c = self.decide(g, o, GUARD_DISCARD, options)
        if c != NO_CARD:
            self.discard_from_hand(g, o, c)
            return
        self.add_modifier(g, k, p, 7)
        self.settle(g)

    def discard_faction_from_hand(self, g: Pos, o: int, f: int) -> None:
        for c in [c for c in g.hand[o] if self.cards[c].faction == f]:
            self.discard_from_hand(g, o, c)

    def witch_king(self, g: Pos, p: int) -> None:
        o = 1 - p
        f = self.name_faction(g, p, WITCH_FACTION)
        kept = []
        for c in g.deck[o]:
            if self.cards[c].faction == f:
                self.to_discard(g, o, c)
            else:
                kept.append(c)
        g.deck[o] = kept
        self.discard_faction_from_hand(g, o, f)
        g.rng.shuffle(g.deck[o], LANE_SHUFFLE + o)

    def swamp_guardian(self, g: Pos, p: int, k: int) -> None:
        options = self.played(g, p, k * 2 + p)
        if options:
            t = self.decide(g, p, SWAMP_TARGET, options)
            self.take_back(g, p, t // 2)
            self.settle(g)

    def inventor(self, g: Pos, p: int) -> None:
        plus = self.decide(g, p, INVENTOR_PLUS, self.played(g, -1, NO_POS))
        self.add_modifier(g, plus // 2, plus % 2, 3)
        if self.p.serpent_per_change:
            self.settle(g)
            if g.over:
                return
        options = self.played(g, -1, plus)
        if options:
            minus = self.decide(g, p, INVENTOR_MINUS, options)
            self.add_modifier(g, minus // 2, minus % 2, -3)
        self.settle(g)

    def kinesis_mage(self, g: Pos, p: int) -> None:
        if sum(e.up for e in g.encs) < 2:
            return
        options = self.carrying(g, p)
        if not options:
            return
        f = self.decide(g, p, KINESIS_FROM, options)
        g.chosen = f
        t = self.decide(g, p, KINESIS_TO, self.played(g, p, f))
        src, dst = g.encs[f // 2], g.encs[t // 2]
        if src.mod[p] != 0:
            moved = src.mod[p]
            src.mod[p] -= moved
            dst.mod[p] += moved
        if src.tok[p] > 0:
            dst.tok[p] += src.tok[p]
            src.tok[p] = 0
        self.settle(g)

    def envoy(self, g: Pos, p: int) -> None:
        t = self.decide(g, p, ENVOY_TARGET, [*self.played(g, -1, NO_POS), ENVOY_NEXT])
        if t == ENVOY_NEXT:
            g.pend_mod[p] -= 3
            return
        self.add_modifier(g, t // 2, t % 2, -3)
        self.settle(g)

    def prodigy(self, g: Pos, p: int) -> None:
        options = [k * 2 + p for k, e in enumerate(g.encs) if e.up and self.infl(g, k, p) <= 8]
        if options:
            t = self.decide(g, p, PRODIGY_TARGET, options)
            self.add_modifier(g, t // 2, p, 3)
            self.settle(g)

    def successor(self, g: Pos, p: int) -> None:
        o = 1 - p
        while g.deck[o]:
            self.discard_top(g, o)
        while len(g.hand[o]) > 2:
            self.discard_chosen(g, o)

    def apply_ability(self, g: Pos, p: int, ability: int, k: int) -> None:
        o = 1 - p
        if ability == HIRED_BLADE:
            self.discard_encounter(g, k)
            self.settle(g)
        elif ability == VOID_MAGE:
            self.void_mage(g, p)
        elif ability == SURGEON:
            g.pend_mod[p] -= 5
        elif ability == SABOTEUR:
            self.discard_top(g, o)
            self.discard_top(g, o)
        elif ability == FORTUNE_TELLER:
            g.fortune[p] = 1
        elif ability == PALACE_GUARD:
            self.palace_guard(g, p, k)
        elif ability == AMBUSHER:
            self.discard_faction_from_hand(g, o, self.name_faction(g, p, AMBUSH_FACTION))
        elif ability == PUPPETEER:
            self.replace_opposing(g, p, k)
        elif ability == CLOCKMAKER:
            if k >= 1:
                self.add_modifier(g, k - 1, p, 3)
            g.pend_mod[p] += 3
            self.settle(g)
        elif ability == SWAMP_GUARDIAN:
            self.swamp_guardian(g, p, k)
        elif ability == INVENTOR:
            self.inventor(g, p)
        elif ability == DJINN:
            self.end_game(g, p, E_DJINN)
        elif ability == POISONER:
            gap = self.infl(g, k, o) - self.infl(g, k, p)
            if gap > 0:
                self.add_modifier(g, k, o, -gap)
                self.settle(g)
        elif ability == KINESIS_MAGE:
            self.kinesis_mage(g, p)
        elif ability == ENVOY:
            self.envoy(g, p)
        elif ability == TAX_COLLECTOR:
            self.add_modifier(g, k, p, 4)
            self.settle(g)
        elif ability == REVOLUTIONARY:
            self.discard_chosen(g, o)
            self.discard_chosen(g, o)
            self.draw_n(g, o, 2)
        elif ability == LIBRARIAN:
            g.pend_lib[p] += 1
        elif ability == PRODIGY:
            self.prodigy(g, p)
        elif ability == BLACKMAILER:
            g.pend_bm[o] = self.name_faction(g, p, BLACKMAIL_FACTION)
        elif ability == ENGINEER:
            g.pend_eng[p] += 1
        elif ability == WITCH_KING:
            self.witch_king(g, p)
        elif ability == SUCCESSOR:
            self.successor(g, p)

    def instant(self, c: int) -> bool:
        return self.cards[c].effect != NONE and self.cards[c].ongoing == 0

    def note_activation(self, g: Pos, p: int, c: int, copier: int) -> None:
        if g.sim:
            return
        if copier < 0:
            self.rec(p, c)["activations"] += 1
            self.seats[p]["abilities_activated"] += 1
        else:
            self.rec(p, c)["copied"] += 1

    def put_token(self, g: Pos, p: int, k: int) -> None:
        g.encs[k].tok[p] += 1
        self.settle(g)

    def resolve(self, g: Pos, p: int, ability: int, k: int) -> None:
        draws = 0
        for _ in range(MAX_CHAIN):
            if g.over or k < 0:
                break
            c = g.encs[k].card[p]
            g.focus = k * 2 + p
            if ability == MAGISTRA:
                own = self.infl(g, k, p)
                options = [
                    j * 2 + p
                    for j, e in enumerate(g.encs)
                    if j != k and e.up and self.instant(e.card[p]) and self.infl(g, j, p) >= own
                ]
                if not options:
                    break
                t = self.decide(g, p, MAGISTRA_TARGET, options)
                self.note_activation(g, p, g.encs[t // 2].card[p], c)
                ability = self.cards[g.encs[t // 2].card[p]].effect
            elif ability == ILLUSIONIST:
                options = [
                    j * 2 + p
                    for j, e in enumerate(g.encs)
                    if j != k and e.up and e.res == 1 - p and self.cards[e.card[p]].effect != NONE
                ]
                if not options:
                    break
                k = self.decide(g, p, ILLUSIONIST_TARGET, options) // 2
                self.note_activation(g, p, g.encs[k].card[p], -1)
                if self.cards[g.encs[k].card[p]].ongoing:
                    self.put_token(g, p, k)
                    break
                ability = self.cards[g.encs[k].card[p]].effect
            elif ability == ELEMENTAL:
                draws += 1
                options = [x for x in g.hand[p] if self.instant(x)]
                if not options:
                    break
                x = self.decide(g, p, ELEMENTAL_CARD, options)
                self.discard_from_hand(g, p, x)
                self.note_activation(g, p, x, c)
                ability = self.cards[x].effect
            else:
                self.apply_ability(g, p, ability, k)
                break
        for _ in range(draws):
            if not g.over:
                self.draw(g, p)

    def activate(self, g: Pos, p: int, k: int) -> None:
        c = g.encs[k].card[p]
        self.note_activation(g, p, c, -1)
        if self.cards[c].effect == NONE:
            return
        if self.cards[c].ongoing:
            self.put_token(g, p, k)
            return
        self.resolve(g, p, self.cards[c].effect, k)

    # -- the phases (rounds.py) -------------------------------------------------------------------------
    def place(self, g: Pos, c0: int, c1: int) -> int:
        k = len(g.encs)
        e = Enc(c0, c1, g.round_no)
        g.encs.append(e)
        for p in range(2):
            e.due_mod[p], e.due_lib[p] = g.pend_mod[p], g.pend_lib[p]
            e.due_eng[p], e.due_bm[p] = g.pend_eng[p], g.pend_bm[p]
            g.pend_mod[p], g.pend_lib[p], g.pend_eng[p], g.pend_bm[p] = 0, 0, 0, -1
        for p in range(2):
            c = e.card[p]
            self.take_from_hand(g, p, c)
            if not g.sim:
                r = self.rec(p, c)
                r["times_played"] += 1
                if r["first_played_turn"] == NEVER:
                    r["first_played_turn"] = g.round_no
        return k

    def reveal(self, g: Pos, k: int) -> None:
        e = g.encs[k]
        e.up, g.cur = 1, k
        for p in range(2):
            if e.due_mod[p] != 0:
                self.add_modifier(g, k, p, e.due_mod[p])
                e.due_mod[p] = 0
        if g.location == HAUNTED_CATACOMBS and k >= 1:
            prev = g.encs[k - 1]
            same = [self.cards[e.card[p]].faction == self.cards[prev.card[p]].faction for p in range(2)]
            self.end_both(g, same[1], same[0], E_HAUNTED_CATACOMBS)
        if g.over:
            self.settle(g)
            return
        if g.location == AUCTION_HOUSE and k >= 1:
            for p in range(2):
                if self.infl(g, k, p) < self.infl(g, k - 1, p) and g.deck[p]:
                    self.to_discard(g, p, g.deck[p].pop())
        for p in range(2):
            f = e.due_bm[p]
            e.due_bm[p] = -1
            if f >= 0 and self.cards[e.card[p]].faction != f:
                self.discard_chosen(g, p)
                self.discard_chosen(g, p)
        for p in range(2):
            for _ in range(e.due_lib[p]):
                sign = self.decide(g, p, LIBRARIAN_SIGN, [0, 1])
                self.add_modifier(g, k, p, 2 if sign == 0 else -2)
            e.due_lib[p] = 0
        self.settle(g)

    def phase2(self, g: Pos, k: int) -> None:
        a, b = self.infl(g, k, 0), self.infl(g, k, 1)
        g.reveal_res = SEAT_0 if a > b else (SEAT_1 if b > a else TIE)
        if not g.sim:
            e = g.encs[k]
            for p in range(2):
                r = self.rec(p, e.card[p])
                won = "reveals_won" if g.reveal_res == p else "reveals_lost"
                r["reveals_tied" if g.reveal_res == TIE else won] += 1
        if g.reveal_res != TIE and not g.over:
            loser = 1 - g.reveal_res
            g.acted = loser
            self.activate(g, loser, k)
        if g.over or g.cur < 0:
            self.end_of_phase2(g)
            return
        engineered = False
        cur = g.encs[g.cur]
        for p in range(2):
            if cur.due_eng[p] > 0:
                self.add_modifier(g, g.cur, p, 5 * cur.due_eng[p])
                cur.due_eng[p] = 0
                engineered = True
        if engineered:
            self.settle(g)
        self.end_of_phase2(g)

    def end_of_phase2(self, g: Pos) -> None:
        if self.p.mechanical_djinn_check == 0:
            self.mechanical_djinn(g, False)
        elif self.p.mechanical_djinn_check == 2:
            self.mechanical_djinn(g, True)

    def signets_check(self, g: Pos) -> None:
        a, b = g.signets
        if a == b:
            if a >= self.p.win_signets:
                g.tied_five = 1
            return
        best = 0 if a > b else 1
        if max(a, b) >= self.p.win_signets or (g.tied_five and self.p.post_tie_win == 1):
            self.end_game(g, best, SIGNETS)

    def end_of_round_draw(self, g: Pos, p: int) -> None:
        if g.location == BAZAAR:
            return
        if g.location == GRAND_LIBRARY:
            self.draw_n(g, p, self.p.library_draw)
        elif g.location == SCRAPYARD and len(g.deck[p]) >= 2:
            self.draw_n(g, p, self.p.scrapyard_draw)
            self.put_under(g, p, self.decide_card(g, p, g.hand[p][:]))
        else:
            self.draw_n(g, p, self.p.round_draw)

    def cannot_place(self, g: Pos) -> None:
        can0, can1 = len(g.hand[0]) > 0, len(g.hand[1]) > 0
        if not can0 and not can1:
            a, b = g.signets
            if a == b:
                self.end_game(g, NO_WINNER, DRAW_EQUAL_SIGNETS)
            else:
                self.end_game(g, 0 if a > b else 1, BOTH_CANNOT_PLAY)
        elif not can0:
            self.end_game(g, 1, OPPONENT_CANNOT_PLAY)
        else:
            self.end_game(g, 0, OPPONENT_CANNOT_PLAY)

    # -- set-up, rounds, games (kernel.py) -----------------------------------------------------------------
    def game_setting(self) -> tuple[int, int]:
        d, loc, game = self.p.deck, self.p.location, self.index
        if d == SWEEP:
            d = (game // N_SETTINGS) % 2 if loc == LOC_SWEEP else game % 2
        if loc == LOC_SWEEP:
            loc = game % N_SETTINGS
        return d, loc

    def deck_of(self, faction: int, deck_kind: int) -> int:
        if deck_kind == DECK_II or (deck_kind == MIXED and self.p.faction_decks & (1 << faction)):
            return DECK_II
        return DECK_I

    def baseline_id(self) -> int:
        v = self.p.value_card
        for c in self.cards:
            if self.p.value_baseline == 0 and c.baseline:
                return c.id
            if (
                self.p.value_baseline == 1
                and not c.baseline
                and c.deck != self.cards[v].deck
                and c.influence == self.cards[v].influence
            ):
                return c.id
        return -1

    def set_up(self, seed: int) -> None:
        g = Pos.__new__(Pos)
        g.sim, g.round_no, g.encs, g.cur, g.over, g.winner, g.end_reason = 0, 0, [], -1, 0, NO_WINNER, TIMEOUT
        g.tied_five, g.acted, g.reveal_res, g.focus, g.chosen = 0, -1, HIDDEN, -1, -1
        g.deck, g.hand, g.discard, g.listed = [[], []], [[], []], [[], []], [[], []]
        g.pend_mod, g.pend_lib, g.pend_eng, g.pend_bm, g.fortune = [0, 0], [0, 0], [0, 0], [-1, -1], [0, 0]
        g.signets = [0, 0]
        g.rng = Rng(seed, N_LANES)
        g.deck_kind, g.location = self.game_setting()
        self.holder = self.index % 2 if self.p.value_card >= 0 else -1
        swap = self.baseline_id() if self.holder >= 0 and self.p.value_swap == 1 else -1
        for p in range(2):
            for c in self.cards:
                if c.baseline == 0 and c.deck == self.deck_of(c.faction, g.deck_kind):
                    chosen = swap if (p == self.holder and c.id == self.p.value_card and swap >= 0) else c.id
                    g.listed[p].append(chosen)
        self.g = g
        opening = self.p.library_opening_hand if g.location == GRAND_LIBRARY else self.p.opening_hand
        for p in range(2):
            for c in g.listed[p]:
                self.records[(self.match_game, p, c)] = new_record(self.index, p, c, self.match_game)
            g.deck[p] = g.listed[p][:]
            g.rng.shuffle(g.deck[p], LANE_SHUFFLE + p)
            for _ in range(opening):
                c = self.draw(g, p)
                if c != NO_CARD:
                    self.rec(p, c)["in_opening_hand"] = 1
        self.derive(g)

    def choose_play(self, g: Pos, p: int, known: int) -> int:
        bot = self.bots[p]
        if len(g.hand[p]) == 1:
            return g.hand[p][0]
        if bot == 0:
            return g.hand[p][g.rng.randint(LANE_BOT + p, len(g.hand[p]))]
        if bot == 1:
            return self.bot.greedy_play(g, p, known)
        return self.bot.expert_play(g, p, known)

    def choose_both(self, g: Pos) -> tuple[int, int]:
        first = -1
        if g.fortune[0] and not g.fortune[1]:
            first = 1
        elif g.fortune[1] and not g.fortune[0]:
            first = 0
        g.fortune = [0, 0]
        c = [NO_CARD, NO_CARD]
        for i in range(2):
            p = i if first < 0 else (first if i == 0 else 1 - first)
            known = c[first] if (first >= 0 and i == 1) else NO_CARD
            c[p] = self.choose_play(g, p, known)
        return c[0], c[1]

    def play_round(self, g: Pos) -> None:
        g.round_no += 1
        g.acted, g.reveal_res, g.cur = -1, HIDDEN, -1
        foggy = g.location == FOGGY_SWAMP
        if not g.hand[0] or not g.hand[1]:
            k = next((j for j, e in enumerate(g.encs) if not e.up), -1) if foggy else -1
            if k >= 0 and self.p.foggy_final_reveal == 1:
                self.reveal(g, k)
                if not g.over:
                    self.phase2(g, k)
            elif k >= 0:
                e = g.encs[k]
                for p in range(2):
                    self.to_discard(g, p, e.card[p])
                del g.encs[-1]
            self.cannot_place(g)
            return
        c0, c1 = self.choose_both(g)
        k = self.place(g, c0, c1)
        if foggy:
            k = k - 1 if k >= 1 and not g.encs[k - 1].up else -1
        if k >= 0:
            self.reveal(g, k)
            if not g.over:
                self.phase2(g, k)
        if not g.over:
            self.signets_check(g)
            if not g.over:
                for p in range(2):
                    self.end_of_round_draw(g, p)

    def record_turn(self, g: Pos) -> None:
        self.turns.append(
            {
                "game": self.index, "turn": self.turn_base + g.round_no, "seat": -1, "match_game": self.match_game,
                "score_0": g.signets[0], "score_1": g.signets[1], "hand_0": len(g.hand[0]), "hand_1": len(g.hand[1]),
                "deck_0": len(g.deck[0]), "deck_1": len(g.deck[1]), "encounters": len(g.encs),
                "reveal": g.reveal_res, "activated": g.acted,
            }
        )  # fmt: skip

    def finish_cards(self, g: Pos) -> None:
        for p in range(2):
            for c in g.listed[p]:
                self.rec(p, c)["won"] = int(g.winner == p)
            for e in g.encs:
                r = self.rec(p, e.card[p])
                r["signets_end"] = e.sig[p]
                r["winning_end"] = int(winning(e.res, p))

    def play(self) -> None:
        """Play the game (or best-of-3 match) to its end."""
        cap = self.p.match_games_cap if self.p.match_format == 1 else 1
        for mg in range(1, cap + 1):
            self.match_game = mg
            sub = self.seed if mg == 1 else mix64((self.seed + mg * GOLDEN) & MASK64)
            self.set_up(sub)
            g = self.g
            while not g.over:
                self.play_round(g)
                if not g.over and g.round_no >= self.p.max_rounds:
                    self.end_game(g, NO_WINNER, TIMEOUT)
                self.record_turn(g)
            self.finish_cards(g)
            self.turn_base += g.round_no
            if g.winner >= 0:
                self.games_won[g.winner] += 1
            if self.games_won[0] >= 2 or self.games_won[1] >= 2:
                break

    def match_winner(self) -> int:
        if self.p.match_format != 1:
            return self.g.winner
        a, b = self.games_won
        return 0 if a > b else (1 if b > a else NO_WINNER)

    def rows(self, tables: Sequence[str]) -> dict[str, Any]:
        """Return this game's rows per table (dicts named as the kernel's record fields)."""
        g, winner = self.g, self.match_winner()
        out: dict[str, Any] = {"game": self.index}
        out["games"] = [
            {
                "game": self.index, "seed": self.seed, "first_seat": -1, "winner": winner, "turns": self.turn_base,
                "end_reason": g.end_reason, "score_0": g.signets[0], "score_1": g.signets[1], "deck": g.deck_kind,
                "location": g.location, "difficulty": DECK_DIFFICULTY[g.deck_kind] + LOCATION_DIFFICULTY[g.location],
                "match_games": self.match_game, "games_won_0": self.games_won[0], "games_won_1": self.games_won[1],
            }
        ]  # fmt: skip
        out["seats"] = [
            {
                "game": self.index, "seat": p, "bot": self.bots[p], "score": g.signets[p], "won": int(winner == p),
                "encounters_won": sum(winning(e.res, p) for e in g.encs),
                "abilities_activated": self.seats[p]["abilities_activated"], "hand_left": len(g.hand[p]),
                "deck_left": len(g.deck[p]), "cards_discarded": self.seats[p]["cards_discarded"],
                "holder": int(self.holder == p),
            }
            for p in range(2)
        ]  # fmt: skip
        if "cards" in tables:
            out["cards"] = [
                self.records[(mg, p, c)] for mg in range(1, self.match_game + 1) for p in range(2) for c in g.listed[p]
            ]
        if "turns" in tables:
            out["turns"] = self.turns
        return out


class Reference:
    """Plays games of one configuration (params, card pool, bots, weights), one at a time."""

    def __init__(self, params: Any, pool: Any, bots: Sequence[str], weights: Sequence[Sequence[float]]) -> None:
        self.params = params
        self.cards = cards_from_pool(pool)
        self.bot_ids = [BOTS.index(b) for b in bots]
        self.weights = [list(map(float, w)) for w in weights]

    def play(self, root_seed: int, game: int, tables: Sequence[str] = ("games", "seats")) -> dict[str, Any]:
        """Play game ``game`` of a run with ``root_seed``; return its rows per table."""
        g = Game(self, game, game_seed(root_seed, game))
        g.play()
        return g.rows(tables)


def to_rows(results: Sequence[dict]) -> dict[str, list[dict]]:
    """Return the rows of many games' results per table, in game order."""
    tables: dict[str, list[dict]] = {"games": [], "seats": [], "cards": [], "turns": []}
    for r in results:
        for t in tables:
            tables[t] += r.get(t, [])
    return tables
