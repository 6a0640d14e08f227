"""Blessings & Curses tactician ablations: what each weight is worth, on paired seeds.

For each setting (one or more tactician weight overrides) it plays the modified tactician
against greedy in both seat orders (``-n`` games each) and against itself (``--mirror``
games), on the same seeds as the default tactician, and prints one Markdown row: the
tactician's win rate against greedy with its 95 % Wilson interval, the paired difference
from the default tactician with its 95 % t interval, and the mirror's battle-cap rate,
draw rate (Wilson), first-seat share of decided games (Wilson) and battles per game.

Example:
    .venv/bin/python benchmarks/blessings_ablation.py -n 20000 --mirror 10000
    .venv/bin/python benchmarks/blessings_ablation.py --variant first_reading --settings "expect=2" "race=0"
"""

from __future__ import annotations

import argparse
import os

import numpy as np

import sims
from balance.stats import paired_difference, wilson
from sims.blessings.state import EndReason

DEFAULT_SETTINGS = (
    "",
    "deny=0",
    "focus=0",
    "overkill=0",
    "excess=1",
    "press=0",
    "race=0",
    "expect=0.5",
    "expect=1.5",
    "expect=2",
    "guard=0",
    "order=0",
    "order=2",
)


def parse(setting: str) -> dict[str, float]:
    """Return the weight overrides of ``"a=1,b=2"``."""
    return {k: float(v) for k, v in (kv.split("=") for kv in setting.split(",") if kv)}


def games(game, params, pool, bots, weights, n, seed) -> np.ndarray:
    """Return the ``games`` table of ``n`` games."""
    ids = np.array([game.bots.index(b) for b in bots], np.int64)
    return game.play_chunk(params, pool, np.zeros((2, 0), np.int16), ids, weights, seed, 0, n, ("games",))["games"]


def load(variant: str | None):
    """Return (game, variant name, params, pool) of Blessings under ``variant`` (None: the default)."""
    game = sims.load("blessings")
    variant = variant or game.default_variant
    try:
        params = game.make_params(variant)
    except ValueError as e:
        raise SystemExit(str(e)) from None
    return game, variant, params, game.prepare_pool(game.load_pool(game.cards_path), params)


def rate(k: int, n: int) -> str:
    """Return ``k / n`` in percent with its Wilson interval."""
    est, lo, hi = (100 * float(x) for x in wilson(k, n))
    return f"{est:.2f} % [{lo:.2f}, {hi:.2f}]"


def main() -> None:
    """Parse arguments, play every setting and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default=None)
    ap.add_argument("-n", type=int, default=20_000, help="games per seat order against greedy")
    ap.add_argument("--mirror", type=int, default=10_000, help="tactician mirror games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--settings", nargs="*", default=list(DEFAULT_SETTINGS), help='e.g. "deny=0" "expect=2,race=0"')
    args = ap.parse_args()
    game, variant, params, pool = load(args.variant)
    greedy = game.make_weights("greedy")
    print(
        f"# tactician ablations, variant {variant}, seed {args.seed}, {args.n:,} games per seat order vs greedy, "
        f"{args.mirror:,} mirror games (rules_version {game.rules_version}, load average {os.getloadavg()[0]:.1f})\n"
    )
    print(
        "| tactician weights | n vs greedy | tactician wins vs greedy | Δ vs default (paired) | mirror: battle cap | "
        "mirror: draws | mirror: first seat wins, of decided | mirror: battles/game |"
    )
    print("|---" * 8 + "|")
    base_wins = None
    for setting in args.settings:
        tact = game.make_weights("tactician", parse(setting))
        a = games(game, params, pool, ("tactician", "greedy"), np.stack([tact, greedy]), args.n, args.seed)
        b = games(game, params, pool, ("greedy", "tactician"), np.stack([greedy, tact]), args.n, args.seed + 1)
        wins = np.concatenate([a["winner"] == 0, b["winner"] == 1]).astype(float)
        if base_wins is None:
            base_wins, delta = wins, "–"
        else:
            d = paired_difference(wins, base_wins)
            delta = f"{100 * d.delta:+.2f} pt [{100 * d.lo:+.2f}, {100 * d.hi:+.2f}]"
        m = games(game, params, pool, ("tactician", "tactician"), np.stack([tact, tact]), args.mirror, args.seed + 2)
        decided = m["winner"] >= 0
        first = int((m["winner"][decided] == m["first_seat"][decided]).sum())
        cells = [
            setting or "default",
            f"{len(wins):,}",
            rate(int(wins.sum()), len(wins)),
            delta,
            rate(int((m["end_reason"] == EndReason.BATTLE_CAP).sum()), len(m)),
            rate(int((m["end_reason"] == EndReason.MUTUAL_WIPEOUT).sum()), len(m)),
            rate(first, int(decided.sum())) + f" (n = {int(decided.sum()):,})",
            f"{m['battles'].mean():.2f}",
        ]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
