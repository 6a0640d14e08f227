"""What the Card Wars greedy bot values per main-phase decision, by the decision before it.

Counts in the plain-Python reference (``cardwars_reference.py`` plays the same games and
makes the same greedy decisions as the kernel, with the same valuations in the same order),
wrapped here, not in the kernel: per greedy main-phase decision, the hand cards valued
(``best_play``), the lanes valued (``place_value``), the Floop/ability options valued
(``action_value``), and what the same seat did just before in this main phase (PLAY,
DRAW, FLOOP, ACTIVATE, or "turn start" for its first decision). Also:

- ``no valuation``: decisions that value nothing (no Actions left and nothing free);
  ``no context needed``: decisions that value no Creature and no Floop or ability, so the
  shared facts (``greedy.context``) are not read;
- ``losers``: ``best_play`` calls whose value does not beat the best so far (``v > best``
  fails), i.e. what a perfect bound could skip, with the margin they lose by;
- per game: fight decisions and the lanes they value, ``effect_gain`` calls (every valuation
  of an effect: plays, Floops/abilities, ``context``'s ally triggers);
- ``draw shortcut``: after a DRAW, while DRAW is still open and no hand card reads the
  hand (Field Reaper's discard, Unempty Coffin), whether valuing only the drawn card gives
  the full decision's action.

Examples (from the project root; the planner's rollouts make greedy decisions too):
    .venv/bin/python benchmarks/cardwars_decisions.py --bots greedy,greedy -n 300
    .venv/bin/python benchmarks/cardwars_decisions.py --bots planner,greedy -n 20
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # benchmarks/ is not a package
    sys.path.insert(0, str(HERE))

import cardwars_reference as ref  # noqa: E402

import sims  # noqa: E402
from sims.cardwars.state import Cost, Effect  # noqa: E402

NAMES = {ref.A_END: "END", ref.A_DRAW: "DRAW", ref.A_PLAY: "PLAY", ref.A_FLOOP: "FLOOP", ref.A_ACTIVATE: "ACTIVATE"}


class Counting(ref.Game):
    """The reference game, counting the greedy bot's main-phase valuations."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.last: tuple = ()  # (turn, seat, phase) of the last action applied, and its kind
        self.now: collections.Counter = collections.Counter()

    def greedy(self, who: int) -> int:
        if self.phase == ref.FIGHT:
            OTHER["fight decisions"] += 1
            OTHER["fight lanes valued"] += sum(self.can_fight(who, lane) for lane in range(ref.N_LANES))
        return super().greedy(who)

    def effect_gain(self, p: int, lane: int, c: int, choice: int, tgt: int) -> float:
        OTHER["effect_gain calls"] += 1
        return super().effect_gain(p, lane, c, choice, tgt)

    def apply_action(self, action: int) -> None:
        key = (self.turn, self.mover, self.phase)
        super().apply_action(action)
        self.last = (key, action >> 24)

    def best_play(self, p: int, src: int, c: int) -> tuple[float, int]:
        v, a = super().best_play(p, src, c)
        self.now["best_play"] += 1
        self.now["creatures"] += self.cards[c].type == ref.CREATURE
        if v > self.now_best:
            self.now_best = v
        else:
            self.now["losers"] += 1
            MARGINS.append(self.now_best - v)
        return v, a

    def place_value(self, p: int, lane: int, c: int) -> float:
        self.now["lanes"] += 1
        return super().place_value(p, lane, c)

    def action_value(self, p: int, action: int) -> float:
        self.now["uses"] += 1
        return super().action_value(p, action)

    def main_choice(self, p: int) -> int:
        same = self.last and self.last[0] == (self.turn, p, ref.MAIN)
        prev = NAMES[self.last[1]] if same else "turn start"
        drawing = self.actions > 0 and bool(self.deck[p])
        self.now_best = self.wt(p, ref.W_CARD) - self.wt(p, ref.W_ACTION) if drawing else 0.0
        self.now = collections.Counter()
        r = super().main_choice(p)
        row = TALLY[prev]
        row["decisions"] += 1
        row.update(self.now)
        row["no valuation"] += self.now["best_play"] == 0 and self.now["uses"] == 0
        row["no context needed"] += self.now["creatures"] == 0 and self.now["uses"] == 0
        row["no Actions left"] += self.actions == 0
        row["chose " + NAMES[r >> 24]] += 1
        if prev == "DRAW" and drawing:
            hand = [self.cards[c] for c in self.hand[p]]
            reads = any(k.xcost == Cost.DISCARD_CARD or k.e1_effect == Effect.COFFIN for k in hand)
            row["draw shortcut " + ("not tried" if reads else "right" if self.draw_shortcut(p) == r else "WRONG")] += 1
        return r

    def draw_shortcut(self, p: int) -> int:
        """Return the decision after a DRAW valuing only the drawn card (the others lost to DRAW before)."""
        self.context(p)
        i, hand = len(self.hand[p]) - 1, self.hand[p]
        best, best_a = self.wt(p, ref.W_CARD) - self.wt(p, ref.W_ACTION), ref.encode(ref.A_DRAW, 0, 0, 0)
        if not self.seen_before(p, i, -1) and self.playable(p, hand[i], False):
            v, a = ref.Game.best_play(self, p, i, hand[i])
            if v > best:
                best_a = a
        return best_a


TALLY: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
COUNTS = ("decisions", "best_play", "lanes", "uses", "losers", "creatures")  # per decision; the rest are shares
OTHER: collections.Counter = collections.Counter()  # fight decisions and effect_gain calls, per game
MARGINS: list[float] = []


def main() -> None:
    """Play ``-n`` games in the reference and print the counts per game, by the decision before."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("-n", type=int, default=300, help="games")
    ap.add_argument("--seed", type=int, default=20261124)
    a = ap.parse_args()
    game = sims.load("cardwars")
    params = game.make_params("standard")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    bots = tuple(a.bots.split(","))
    batch = ref.Reference(params, pool, bots, [list(game.make_weights(b)) for b in bots])
    for g in range(a.n):
        Counting(batch, g, ref.game_seed(a.seed, g)).play(-1)
    total = collections.Counter()
    for row in TALLY.values():
        total.update(row)
    print(f"{a.bots}, {a.n} games: {total['decisions'] / a.n:.1f} greedy main-phase decisions a game")
    for prev, row in [*sorted(TALLY.items(), key=lambda x: -x[1]["decisions"]), ("all", total)]:
        n = row["decisions"]
        per = "  ".join(f"{k} {row[k] / n:.2f}" for k in ("best_play", "lanes", "uses"))
        share = ", ".join(f"{k} {row[k] / n:.1%}" for k in sorted(row) if k not in COUNTS)
        print(f"after {prev:<10} {n / a.n:6.2f} a game; per decision: {per}  (losers {row['losers'] / n:.2f}); {share}")
    print("per game: " + ", ".join(f"{k} {v / a.n:.1f}" for k, v in OTHER.items()))
    MARGINS.sort()
    if MARGINS:
        q = [round(MARGINS[int(f * (len(MARGINS) - 1))], 2) for f in (0.1, 0.25, 0.5, 0.75, 0.9)]
        print(f"losing best_play margins (best so far - value), quantiles 10/25/50/75/90 %: {q}")


if __name__ == "__main__":
    main()
