"""The Cardia bots in plain Python (``sims/cardia/bots.py``, ``choices.py``, ``expert.py``), for ``cardia_reference``.

Same decisions, same random numbers and the same float arithmetic in the same order as
the kernel's bots; see ``cardia_reference.py`` for the rules and the contract.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from cardia_reference import (
    AMBUSH_FACTION,
    AMBUSHER,
    ARISTOCRAT,
    AUCTION_HOUSE,
    BLACKMAIL_FACTION,
    BLACKMAILER,
    CLOCKMAKER,
    COUNSELOR,
    DJINN,
    ELEMENTAL,
    ELEMENTAL_CARD,
    ENGINEER,
    ENVOY,
    ENVOY_NEXT,
    ENVOY_TARGET,
    FOGGY_SWAMP,
    FORTUNE_TELLER,
    FOUNDERS_DAY,
    GUARD_DISCARD,
    GUARD_FACTION,
    HAUNTED_CATACOMBS,
    HIRED_BLADE,
    ILLUSIONIST,
    ILLUSIONIST_TARGET,
    INVENTOR,
    INVENTOR_MINUS,
    INVENTOR_PLUS,
    JUDGE,
    KINESIS_FROM,
    KINESIS_MAGE,
    KINESIS_TO,
    LANE_BOT,
    LIBRARIAN,
    LIBRARIAN_SIGN,
    MAGISTRA,
    MAGISTRA_TARGET,
    MECHANICAL_DJINN,
    MEDIATOR,
    MODIFIERS,
    NO_CARD,
    NONE,
    PALACE_GUARD,
    POISONER,
    PRODIGY,
    PRODIGY_TARGET,
    PUPPETEER,
    REVOLUTIONARY,
    SABOTEUR,
    SUCCESSOR,
    SURGEON,
    SWAMP_GUARDIAN,
    SWAMP_TARGET,
    TAX_COLLECTOR,
    TIE,
    TREASURER,
    VOID_MAGE,
    VOID_MODE,
    VOID_TARGET,
    WITCH_FACTION,
    WITCH_KING,
    Pos,
    winning,
)

if TYPE_CHECKING:
    from cardia_reference import Game

# bots.W: indices of the BotParams fields in a weight vector
W_SIGNET, W_WIN, W_CARD, W_ABILITY, W_PENDING, W_SPEND, W_DJINN_KEEP, W_SAMPLES, W_FOCUS, W_HAND = range(10)
ABILITY_WORTH = (
    0.0,
    1.0,
    0.8,
    0.2,
    1.0,
    0.6,
    0.4,
    0.8,
    1.0,
    0.8,
    1.0,
    0.8,
    0.5,
    1.0,
    0.5,
    1.5,
    0.0,
    1.0,
    0.3,
    0.8,
    0.8,
    0.6,
    0.4,
    0.8,
    0.3,
    0.3,
    0.5,
    0.8,
    1.0,
    1.0,
    0.8,
    3.0,
    2.0,
)  # fmt: skip  (choices.ABILITY_WORTH)
MAX_FOCUS_GAP = 5.0


def flip(margin: int, amount: int) -> float:
    if margin < amount:
        return 2.0
    if margin == amount:
        return 1.0
    return 0.0


class Policies:
    """The random, greedy and expert bots of one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = game.cards
        self.p = game.p
        self.weights = game.weights
        self.unseen: list[int] = []

    # -- values (bots.py) ------------------------------------------------------------------------
    def run_end(self, g: Pos, p: int) -> int:
        n = 0
        for e in reversed(g.encs):
            if not e.up:
                continue
            if not winning(e.res, p):
                break
            n += 1
        return n

    def position_value(self, g: Pos, p: int) -> float:
        w = self.weights[p]
        o = 1 - p
        if g.over:
            return w[W_WIN] if g.winner == p else (-w[W_WIN] if g.winner == o else 0.0)
        a, b = g.signets[p], g.signets[o]
        v = w[W_SIGNET] * (a - b)
        need = self.p.win_signets
        if a >= need and a > b:
            v += w[W_WIN]
        elif b >= need and b > a:
            v -= w[W_WIN]
        if g.location == FOUNDERS_DAY:
            run = self.p.founders_run
            v += w[W_WIN] * ((self.run_end(g, p) >= run) - (self.run_end(g, o) >= run))
        return v

    def worth(self, c: int, w: list[float]) -> float:
        v = self.cards[c].influence / 16.0
        if self.cards[c].effect == DJINN or self.cards[c].effect == MECHANICAL_DJINN:
            v += w[W_DJINN_KEEP]
        return w[W_CARD] * (1.0 + v)

    def cheapest_card(self, p: int, options: list[int]) -> int:
        w = self.weights[p]
        best, best_c = math.inf, options[0]
        for c in options:
            if c != NO_CARD and self.worth(c, w) < best:
                best, best_c = self.worth(c, w), c
        return best_c

    def try_modifier(self, g: Pos, k: int, side: int, delta: int, p: int) -> float:
        g.encs[k].mod[side] += delta
        self.game.derive(g)
        v = self.position_value(g, p)
        g.encs[k].mod[side] -= delta
        return v

    def best_modifier(self, g: Pos, p: int, delta: int, options: list[int]) -> int:
        best, best_t = -math.inf, options[0]
        for t in options:
            if t == ENVOY_NEXT:
                self.game.derive(g)
                v = self.position_value(g, p) - self.weights[p][W_PENDING]
            else:
                v = self.try_modifier(g, t // 2, t % 2, delta, p)
            if v > best:
                best, best_t = v, t
        self.game.derive(g)
        return best_t

    def previous_gain(self, g: Pos, p: int, k: int, amount: int) -> float:
        if k < 1 or not g.encs[k - 1].up:
            return 0.0
        r = g.encs[k - 1].res
        if winning(r, p):
            return 0.0
        margin = self.game.infl(g, k - 1, 1 - p) - self.game.infl(g, k - 1, p)
        if r == TIE:
            return 1.0 if amount > 0 else 0.0
        return flip(margin, amount) if margin >= 0 else 1.0

    def best_past_flip(self, g: Pos, p: int, amount: int, limit: int) -> float:
        best = 0.0
        for k, e in enumerate(g.encs):
            if e.up and e.res == 1 - p and self.game.infl(g, k, p) <= limit:
                best = max(best, flip(self.game.infl(g, k, 1 - p) - self.game.infl(g, k, p), amount))
        return best

    def opponent_tokens(self, g: Pos, p: int) -> float:
        o = 1 - p
        best = 0.0
        for e in g.encs:
            if e.tok[o] > 0 and self.cards[e.card[o]].ongoing:
                gain = 3.0 if self.cards[e.card[o]].effect == MECHANICAL_DJINN else 1.5
                best = max(best, gain)
        return best

    def faction_unseen(self, n_unseen: int) -> int:
        best = 0
        for f in range(4):
            n = sum(self.cards[self.unseen[i]].faction == f for i in range(n_unseen))
            best = max(best, n)
        return best

    def holds(self, g: Pos, p: int, ability: int) -> bool:
        return any(self.cards[c].effect == ability for c in g.hand[p])

    def estimate(self, g: Pos, judge: int, q: int, c: int, k: int, n_unseen: int) -> tuple[float, int, float]:
        w = self.weights[judge]
        o = 1 - q
        game = self.game
        ability = self.cards[c].effect
        own = game.infl(g, k, q) if k < len(g.encs) else self.cards[c].influence + g.pend_mod[q]
        base, thr, bonus = 0.0, -1, 0.0
        if ability in (HIRED_BLADE, MEDIATOR, POISONER):
            base = 1.0
        elif ability == VOID_MAGE:
            base = self.opponent_tokens(g, q) + 0.3
        elif ability == SURGEON:
            base = 0.25 * w[W_WIN] if self.holds(g, q, DJINN) else -w[W_PENDING]
        elif ability in (SABOTEUR, REVOLUTIONARY):
            base = 2 * w[W_CARD]
        elif ability in (FORTUNE_TELLER, LIBRARIAN):
            base = w[W_PENDING]
        elif ability == PALACE_GUARD:
            base, thr, bonus = w[W_CARD], 6, 1.0
        elif ability == JUDGE:
            for e in g.encs:
                base += e.up == 1 and e.res == TIE
            base += 0.3
        elif ability == AMBUSHER:
            base = w[W_CARD] * self.faction_unseen(n_unseen) * len(g.hand[o]) / max(1, n_unseen)
        elif ability == PUPPETEER:
            base = 1.0
        elif ability == CLOCKMAKER:
            base = self.previous_gain(g, q, k, 3) + w[W_PENDING]
        elif ability == TREASURER:
            if k >= 1 and g.encs[k - 1].up:
                r = g.encs[k - 1].res
                base = 1.0 if winning(r, q) else (-1.0 if winning(r, o) else 0.0)
        elif ability == SWAMP_GUARDIAN:
            for j, e in enumerate(g.encs):
                if e.up and j != k:
                    base = max(base, e.sig[o] - e.sig[q] + w[W_CARD])
        elif ability in (MAGISTRA, ILLUSIONIST, ELEMENTAL):
            base = self.copy_estimate(g, judge, q, ability, k, own)
        elif ability == INVENTOR:
            base, thr, bonus = 0.7, 3, 2.0
        elif ability == DJINN:
            base = w[W_WIN]
        elif ability in (KINESIS_MAGE, BLACKMAILER, ARISTOCRAT):
            base = 0.3
        elif ability == ENVOY:
            base, thr, bonus = 0.5, 3, 1.5
        elif ability == TAX_COLLECTOR:
            base, thr, bonus = 0.0, 3, 2.0
        elif ability == PRODIGY:
            base, thr, bonus = self.best_past_flip(g, q, 3, 8), 3 if own <= 8 else -1, 2.0
        elif ability == ENGINEER:
            base = 2 * w[W_PENDING]
        elif ability == COUNSELOR:
            if k >= 1 and g.encs[k - 1].up:
                r = g.encs[k - 1].res
                base = 0.0 if winning(r, q) else (1.0 if r == TIE else 2.0)
        elif ability == WITCH_KING:
            base = w[W_CARD] * self.faction_unseen(n_unseen) * 0.8
        elif ability == MECHANICAL_DJINN:
            base = 0.3 * w[W_WIN]
        elif ability == SUCCESSOR:
            base = w[W_CARD] * (max(0, len(g.hand[o]) - 2) + 0.5 * len(g.deck[o]))
        return base * w[W_ABILITY], thr, bonus * w[W_ABILITY]

    def copy_estimate(self, g: Pos, judge: int, p: int, ability: int, k: int, own: int) -> float:
        w = self.weights[judge]
        if ability == ELEMENTAL:
            return w[W_WIN] if self.holds(g, p, DJINN) else 1.0 + w[W_CARD]
        found = 0.0
        for j, e in enumerate(g.encs):
            if j == k or not e.up:
                continue
            c = self.cards[e.card[p]]
            if ability == MAGISTRA and (c.ongoing or c.effect == NONE or self.game.infl(g, j, p) < own):
                continue
            if ability == ILLUSIONIST and (e.res != 1 - p or c.effect == NONE):
                continue
            if c.effect == DJINN:
                return w[W_WIN]
            found = 1.0
        return found

    def stakes(self, g: Pos, p: int) -> tuple[float, float]:
        w = self.weights[p]
        o = 1 - p
        need = self.p.win_signets
        gain, loss = 0.0, 0.0
        if g.signets[p] + 1 >= need and g.signets[p] + 1 > g.signets[o]:
            gain += w[W_WIN]
        if g.signets[o] + 1 >= need and g.signets[o] + 1 > g.signets[p]:
            loss += w[W_WIN]
        last = len(g.encs) - 1
        if last >= 0 and g.encs[last].up:
            gain += w[W_WIN] * self.game.active(g, last, p, MECHANICAL_DJINN)
            loss += w[W_WIN] * self.game.active(g, last, o, MECHANICAL_DJINN)
        if g.location == FOUNDERS_DAY:
            run = self.p.founders_run - 1
            gain += w[W_WIN] * (self.run_end(g, p) >= run)
            loss += w[W_WIN] * (self.run_end(g, o) >= run)
        return gain, loss

    def forbidden(self, g: Pos, p: int, c: int) -> bool:
        last = len(g.encs) - 1
        return (
            g.location == HAUNTED_CATACOMBS
            and last >= 0
            and g.encs[last].up == 1
            and self.cards[c].faction == self.cards[g.encs[last].card[p]].faction
        )

    def reveal_cost(self, g: Pos, p: int, c: int) -> float:
        w = self.weights[p]
        cost = 0.0
        if g.pend_bm[p] >= 0 and self.cards[c].faction != g.pend_bm[p]:
            cost += 2 * w[W_CARD]
        last = len(g.encs) - 1
        auction = g.location == AUCTION_HOUSE and last >= 0 and g.encs[last].up == 1 and len(g.deck[p]) > 0
        if auction and self.cards[c].influence + g.pend_mod[p] < self.game.infl(g, last, p):
            cost += 0.5 * w[W_CARD]
        return cost + w[W_SPEND] * self.cards[c].influence

    def candidates(self, g: Pos, p: int, known: int) -> int:
        if known != NO_CARD:
            self.unseen = [known]
            return 1
        everything = self.game.unseen_cards(g, p)
        kept = [c for c in everything if not self.forbidden(g, 1 - p, c)]
        self.unseen = kept if kept else everything
        return len(self.unseen)

    def greedy_play(self, g: Pos, p: int, known: int) -> int:
        o = 1 - p
        k = len(g.encs)
        w = self.weights[p]
        n_unseen = self.candidates(g, p, known)
        gain, loss = self.stakes(g, p)
        judge = self.game.has_active(g, p, JUDGE) - self.game.has_active(g, o, JUDGE)
        signet, win = w[W_SIGNET], w[W_WIN]
        tie_value = judge * (signet + (gain if judge > 0 else loss))
        shift = 2 if g.pend_lib[p] > 0 else 0
        engineer = 5 * g.pend_eng[p]
        theirs = [self.estimate(g, p, o, c, k, n_unseen) for c in self.unseen]
        infl = [self.cards[c].influence + g.pend_mod[o] for c in self.unseen]
        best, best_c = -math.inf, g.hand[p][0]
        for c in g.hand[p]:
            if self.forbidden(g, p, c):
                v = -win
            else:
                m_base, m_thr, m_bonus = self.estimate(g, p, p, c, k, n_unseen)
                mine = self.cards[c].influence + g.pend_mod[p]
                v = 0.0
                for j in range(n_unseen):
                    d = mine - infl[j]
                    if shift and -shift <= d <= shift and d != 0:
                        d = d + shift if d > 0 else d - shift
                    if d > 0:
                        base, thr, bonus = theirs[j]
                        v += signet + gain - base - (bonus if d <= thr else 0.0)
                    elif d < 0:
                        v += -signet - loss + m_base + (m_bonus if -d <= m_thr else 0.0)
                        if -d < engineer:
                            v += 2 * signet + gain + loss
                    else:
                        v += tie_value
                v = v / max(1, n_unseen) - self.reveal_cost(g, p, c)
            if v > best:
                best, best_c = v, c
        return best_c

    # -- choices inside abilities (choices.py) ---------------------------------------------------------
    def faction_count(self, g: Pos, p: int, most: bool) -> int:
        n = self.candidates(g, p, NO_CARD)
        best, best_f = -math.inf, 0
        for f in range(4):
            total = 0.0
            for i in range(n):
                c = self.unseen[i]
                if self.cards[c].faction == f:
                    total += 1.0 + self.cards[c].influence / 32.0
            v = total if most else -total
            if v > best:
                best, best_f = v, f
        return best_f

    def void_value(self, g: Pos, p: int, t: int, mode: int) -> float:
        k, side = t // 2, t % 2
        e = g.encs[k]
        if mode == MODIFIERS:
            return self.try_modifier(g, k, side, -e.mod[side], p)
        kept = e.tok[side]
        e.tok[side] = 0
        self.game.derive(g)
        v = self.position_value(g, p)
        e.tok[side] = kept
        return v

    def best_void(self, g: Pos, p: int, options: list[int]) -> int:
        best, best_t = -math.inf, options[0]
        for t in options:
            e = g.encs[t // 2]
            for mode in range(2):
                carries = e.mod[t % 2] != 0 if mode == MODIFIERS else e.tok[t % 2] > 0
                if carries:
                    v = self.void_value(g, p, t, mode)
                    if v > best:
                        best, best_t = v, t
        self.game.derive(g)
        return best_t

    def void_mode(self, g: Pos, p: int, options: list[int]) -> int:
        best, best_mode = -math.inf, options[0]
        for mode in options:
            v = self.void_value(g, p, g.chosen, mode)
            if v > best:
                best, best_mode = v, mode
        self.game.derive(g)
        return best_mode

    def kinesis_value(self, g: Pos, p: int, f: int, tk: int) -> float:
        src, dst = g.encs[f // 2], g.encs[tk]
        mod, tok = src.mod[p], src.tok[p]
        src.mod[p], src.tok[p] = 0, 0
        dst.mod[p] += mod
        dst.tok[p] += tok
        self.game.derive(g)
        v = self.position_value(g, p)
        dst.mod[p] -= mod
        dst.tok[p] -= tok
        src.mod[p], src.tok[p] = mod, tok
        return v

    def best_kinesis(self, g: Pos, p: int, options: list[int]) -> int:
        best, best_f = -math.inf, options[0]
        for f in options:
            for tk, e in enumerate(g.encs):
                if tk != f // 2 and e.up:
                    v = self.kinesis_value(g, p, f, tk)
                    if v > best:
                        best, best_f = v, f
        self.game.derive(g)
        return best_f

    def kinesis_to(self, g: Pos, p: int, options: list[int]) -> int:
        best, best_t = -math.inf, options[0]
        for t in options:
            v = self.kinesis_value(g, p, g.chosen, t // 2)
            if v > best:
                best, best_t = v, t
        self.game.derive(g)
        return best_t

    def best_swamp(self, g: Pos, p: int, options: list[int]) -> int:
        w = self.weights[p]
        best, best_t = -math.inf, options[0]
        for t in options:
            trial = g.copy()
            trial.sim = 1
            self.game.remove_encounter(trial, t // 2)
            self.game.derive(trial)
            v = self.position_value(trial, p) + self.worth(g.encs[t // 2].card[p], w)
            if v > best:
                best, best_t = v, t
        return best_t

    def ability_worth(self, w: list[float], c: int) -> float:
        a = self.cards[c].effect
        if a == DJINN:
            return w[W_WIN]
        return w[W_ABILITY] * ABILITY_WORTH[a]

    def best_copy(self, g: Pos, p: int, kind: int, options: list[int]) -> int:
        w = self.weights[p]
        best, best_o = -math.inf, options[0]
        for o in options:
            if kind == ELEMENTAL_CARD:
                v = self.ability_worth(w, o) - self.worth(o, w)
            else:
                e = g.encs[o // 2]
                c = e.card[p]
                if self.cards[c].ongoing:
                    before = self.position_value(g, p)
                    e.tok[p] += 1
                    self.game.derive(g)
                    v = self.position_value(g, p) - before
                    e.tok[p] -= 1
                    self.game.derive(g)
                else:
                    v = self.ability_worth(w, c)
            if v > best:
                best, best_o = v, o
        return best_o

    def guard_response(self, g: Pos, p: int, options: list[int]) -> int:
        w = self.weights[p]
        t = g.focus
        if t < 0:
            return NO_CARD
        now = self.position_value(g, p)
        after = self.try_modifier(g, t // 2, t % 2, 7, p)
        self.game.derive(g)
        c = self.cheapest_card(p, options)
        if c == NO_CARD or self.worth(c, w) >= now - after:
            return NO_CARD
        return c

    def librarian_sign(self, g: Pos, p: int) -> int:
        k = g.cur
        o = 1 - p
        n_unseen = self.candidates(g, p, NO_CARD)
        m_base, m_thr, m_bonus = self.estimate(g, p, p, g.encs[k].card[p], k, n_unseen)
        t_base, t_thr, t_bonus = self.estimate(g, p, o, g.encs[k].card[o], k, n_unseen)
        best, best_sign = -math.inf, 0
        for sign in range(2):
            delta = 2 if sign == 0 else -2
            v = self.try_modifier(g, k, p, delta, p)
            d = self.game.infl(g, k, p) + delta - self.game.infl(g, k, o)
            if d < 0:
                v += m_base + (m_bonus if -d <= m_thr else 0.0)
            elif d > 0:
                v -= t_base + (t_bonus if d <= t_thr else 0.0)
            if v > best:
                best, best_sign = v, sign
        self.game.derive(g)
        return best_sign

    def greedy_option(self, g: Pos, p: int, kind: int, options: list[int]) -> int:
        if kind in (INVENTOR_PLUS, PRODIGY_TARGET):
            return self.best_modifier(g, p, 3, options)
        if kind in (INVENTOR_MINUS, ENVOY_TARGET):
            return self.best_modifier(g, p, -3, options)
        if kind == VOID_TARGET:
            return self.best_void(g, p, options)
        if kind == VOID_MODE:
            return self.void_mode(g, p, options)
        if kind == KINESIS_FROM:
            return self.best_kinesis(g, p, options)
        if kind == KINESIS_TO:
            return self.kinesis_to(g, p, options)
        if kind == SWAMP_TARGET:
            return self.best_swamp(g, p, options)
        if kind in (MAGISTRA_TARGET, ILLUSIONIST_TARGET, ELEMENTAL_CARD):
            return self.best_copy(g, p, kind, options)
        if kind == GUARD_DISCARD:
            return self.guard_response(g, p, options)
        if kind in (GUARD_FACTION, BLACKMAIL_FACTION):
            return self.faction_count(g, p, False)
        if kind in (AMBUSH_FACTION, WITCH_FACTION):
            return self.faction_count(g, p, True)
        if kind == LIBRARIAN_SIGN:
            return self.librarian_sign(g, p)
        return self.cheapest_card(p, options)

    def choose_option(self, g: Pos, p: int, kind: int, options: list[int], bot: int) -> int:
        if bot == 0:
            return options[g.rng.randint(LANE_BOT + p, len(options))]
        return self.greedy_option(g, p, kind, options)

    # -- the expert (expert.py) ------------------------------------------------------------------------
    def deal_hidden(self, sim: Pos, p: int, o_card: int, hidden: list[int]) -> None:
        o = 1 - p
        h = len(sim.hand[o])
        rest = [c for c in hidden if c != o_card]
        sim.hand[o] = [o_card, *rest[: h - 1]]
        sim.deck[o] = rest[h - 1 :]

    def play_out(self, sim: Pos, p: int, c: int, o_card: int) -> float:
        w = self.weights[p]
        game = self.game
        k = game.place(sim, c, o_card) if p == 0 else game.place(sim, o_card, c)
        game.reveal(sim, k)
        if not sim.over:
            game.phase2(sim, k)
        if not sim.over:
            game.signets_check(sim)
        return self.position_value(sim, p) + w[W_HAND] * (len(sim.hand[p]) - len(sim.hand[1 - p]))

    def expert_play(self, g: Pos, p: int, known: int) -> int:
        if g.location == FOGGY_SWAMP:
            return self.greedy_play(g, p, known)
        w = self.weights[p]
        self.candidates(g, p, known)
        cand = self.unseen[:]
        n_cand, hand = len(cand), g.hand[p][:]
        m = [[0.0] * n_cand for _ in hand]
        samples = max(1, int(w[W_SAMPLES]))
        for _ in range(samples):
            hidden = self.game.unseen_cards(g, p)
            g.rng.shuffle(hidden, LANE_BOT + p)
            for j in range(n_cand):
                template = g.copy()
                template.sim = 1
                self.deal_hidden(template, p, cand[j], hidden)
                g.rng.shuffle(template.deck[p], LANE_BOT + p)
                for i, c in enumerate(hand):
                    m[i][j] += self.play_out(template.copy(), p, c, cand[j])
        weight, total = [], 0.0
        for j in range(n_cand):
            mean = 0.0
            for i in range(len(hand)):
                mean += m[i][j]
            mean = mean / (len(hand) * samples)
            gap = min(MAX_FOCUS_GAP, max(-MAX_FOCUS_GAP, -mean))
            weight.append(math.exp(w[W_FOCUS] * gap))
            total += weight[j]
        best, best_c = -math.inf, hand[0]
        for i, c in enumerate(hand):
            v = 0.0
            for j in range(n_cand):
                v += weight[j] * m[i][j]
            v = v / (total * samples) - w[W_SPEND] * self.cards[c].influence
            if v > best:
                best, best_c = v, c
        return best_c
