"""Blessings & Curses play order (R7): bots that choose the next card against the same bots playing left to right.

Each row is a head-to-head match between two bots given as ``BOT:ORDER`` (the ``order``
weight: 0 leftmost, 1 the most valued card, 2 attacks first; RULES.md §9), optionally
with more weights (``tactician:1,expect=1.5``), on paired seeds: every seed is played
twice, once with A in seat 0 and once with A in seat 1, so both see the same deals from
both seats. It prints A's and B's wins (95 % Wilson intervals over all ``2 n`` games),
draws, games left at the battle cap, and A's share minus B's share paired by seed (95 %
t interval over the ``n`` seeds).

Example:
    .venv/bin/python benchmarks/blessings_order.py -n 20000
    .venv/bin/python benchmarks/blessings_order.py -n 5000 --matches tactician:2/tactician:1 --variant fresh_hand
    .venv/bin/python benchmarks/blessings_order.py --matches "tactician:1,expect=1.5/tactician:1"
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from blessings_ablation import games, load, rate  # benchmarks/ is on sys.path when this runs as a script

from balance.stats import paired_difference
from sims.blessings.state import EndReason

MATCHES = (
    "greedy:2/greedy:0",
    "greedy:1/greedy:0",
    "greedy:2/greedy:1",
    "tactician:1/tactician:0",
    "tactician:2/tactician:0",
    "tactician:1/tactician:2",
    "tactician:1/greedy:2",
    "tactician:0/greedy:0",
)


def side(game, text: str) -> tuple[str, np.ndarray]:
    """Return (bot name, weights) of ``"BOT:ORDER[,WEIGHT=VALUE...]"``, e.g. ``"tactician:1,expect=1.5"``."""
    try:
        bot, rest = text.split(":")
        order, *more = rest.split(",")
        overrides = {"order": float(order)} | {k: float(v) for k, v in (kv.split("=") for kv in more)}
        return bot, game.make_weights(bot, overrides)
    except ValueError as e:
        raise SystemExit(
            f"match side {text!r}: expected BOT:ORDER[,WEIGHT=VALUE...] such as tactician:1 ({e})"
        ) from None


def main() -> None:
    """Parse arguments, play every match in both seat orders and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default=None)
    ap.add_argument("-n", type=int, default=20_000, help="seeds per match (each played in both seat orders)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--matches", nargs="*", default=list(MATCHES), help="A/B pairs of BOT:ORDER[,W=V...], A first")
    args = ap.parse_args()
    game, variant, params, pool = load(args.variant)
    print(
        f"# play order head to head, variant {variant}, seed {args.seed}, {args.n:,} seeds x both seat orders "
        f"(rules_version {game.rules_version}, load average {os.getloadavg()[0]:.1f})\n"
    )
    print("| A vs B | games | A wins | B wins | draws | battle cap | A − B, paired by seed |")
    print("|---" * 7 + "|")
    for match in args.matches:
        try:
            a_text, b_text = match.split("/")
        except ValueError:
            raise SystemExit(f"match {match!r}: expected A/B such as greedy:2/greedy:0") from None
        (a, wa), (b, wb) = side(game, a_text), side(game, b_text)
        first = games(game, params, pool, (a, b), np.stack([wa, wb]), args.n, args.seed)
        second = games(game, params, pool, (b, a), np.stack([wb, wa]), args.n, args.seed)
        a_won = ((first["winner"] == 0).astype(float) + (second["winner"] == 1)) / 2
        b_won = ((first["winner"] == 1).astype(float) + (second["winner"] == 0)) / 2
        both = np.concatenate([first, second])
        d = paired_difference(a_won, b_won)
        cells = [
            f"{a_text} vs {b_text}",
            f"{len(both):,}",
            rate(round(2 * a_won.sum()), len(both)),
            rate(round(2 * b_won.sum()), len(both)),
            rate(int((both["end_reason"] == EndReason.MUTUAL_WIPEOUT).sum()), len(both)),
            rate(int((both["end_reason"] == EndReason.BATTLE_CAP).sum()), len(both)),
            f"{100 * d.delta:+.2f} pt [{100 * d.lo:+.2f}, {100 * d.hi:+.2f}]",
        ]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
