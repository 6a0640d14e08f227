"""Card Wars skill gradient: each pair of bot tiers in both seat orders, with 95 % Wilson intervals.

For every pair of tiers (a, b) plays ``-n`` games with ``a`` in seat 0 and the same ``-n``
seeds with the seats swapped (so each deal is played once from each side), under one
variant, random starter decks per seat (R1) unless ``-p deck_0=… -p deck_1=…``. Prints one
Markdown row per pair: ``a``'s share of all games won (draws and timeouts count as not
won), its share of the decided games, draws and timeouts, the first mover's share of the
decided games, turns per game and games per CPU-second. Games are the ones ``balance run``
plays with the same seed and bots.

Example:
    .venv/bin/python benchmarks/cardwars_skill.py -n 4000
    .venv/bin/python benchmarks/cardwars_skill.py -n 2000 --pairs greedy-random -p first_player_rule=off
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

import numpy as np

import sims
from balance.stats import wilson
from sims.cardwars.state import EndReason

TABLES = ("games",)


def rate(k: int, n: int) -> str:
    """Return ``k / n`` as a percentage with its 95 % Wilson interval and ``n``."""
    if n == 0:
        return "– (n = 0)"
    est, lo, hi = (float(x) for x in wilson(k, n))
    return f"{100 * est:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def play(game, variant: str, bots: tuple[str, str], n: int, seed: int, overrides: dict) -> np.ndarray:
    """Return the ``games`` table of ``n`` games of ``bots`` (seat 0, seat 1) under ``variant``."""
    params = game.make_params(variant, overrides)
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    ids = np.array([game.bots.index(b) for b in bots], np.int64)
    weights = np.stack([game.make_weights(b) for b in bots])
    decks = np.full((2, game.deck_rules.max_size), -1, np.int16)
    return game.play_chunk(params, pool, decks, ids, weights, seed, 0, n, TABLES)["games"]


def row(pair: tuple[str, str], both: list[np.ndarray], cpu: float) -> str:
    """Return the Markdown row of one pair of tiers, ``both`` = [a in seat 0, a in seat 1]."""
    n = sum(len(g) for g in both)
    a_wins = int((both[0]["winner"] == 0).sum() + (both[1]["winner"] == 1).sum())
    decided = sum(int((g["winner"] >= 0).sum()) for g in both)
    draws = sum(int((g["end_reason"] == EndReason.MUTUAL_HP_ZERO).sum()) for g in both)
    timeouts = sum(int((g["end_reason"] == EndReason.TIMEOUT).sum()) for g in both)
    first = sum(int((g["winner"][g["winner"] >= 0] == g["first_seat"][g["winner"] >= 0]).sum()) for g in both)
    turns = np.concatenate([g["turns"] for g in both])
    cells = [
        f"{pair[0]} vs {pair[1]}",
        f"{n:,}",
        rate(a_wins, n),
        rate(a_wins, decided),
        rate(draws, n),
        rate(timeouts, n),
        rate(first, decided),
        f"{turns.mean():.1f}",
        f"{n / cpu:,.0f}",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    """Parse arguments, play every pair of tiers both ways and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default=None, help="named variant [default: the game's default]")
    ap.add_argument("-n", "--n-games", type=int, default=4_000, help="games per seat order")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pairs", default=None, help="comma-separated a-b pairs [default: every pair of tiers]")
    ap.add_argument("-p", "--param", action="append", default=[], help="rule override KEY=VALUE (repeatable)")
    args = ap.parse_args()
    game = sims.load("cardwars")
    variant = args.variant or game.default_variant
    overrides = dict(kv.split("=", 1) for kv in args.param)
    pairs = (
        [tuple(p.split("-")) for p in args.pairs.split(",")]
        if args.pairs
        else [(b, a) for a, b in itertools.combinations(game.bots, 2)]  # stronger tier first
    )
    print(
        f"# cardwars skill gradient: variant {variant} {overrides or ''}, seed {args.seed}, "
        f"rules_version {game.rules_version}, load average {os.getloadavg()[0]:.1f}\n"
    )
    print(
        "| a vs b | games | a wins (all games) | a wins (decided) | draws (mutual 0 HP) | timeouts | "
        "first mover wins (decided) | turns/game | games per CPU-s |"
    )
    print("|---" * 9 + "|")
    play(game, variant, pairs[0], 2, args.seed, overrides)  # compile (or load) the kernel outside the timing
    for a, b in pairs:
        started = time.process_time()
        both = [play(game, variant, (a, b), args.n_games, args.seed, overrides)]
        both.append(play(game, variant, (b, a), args.n_games, args.seed, overrides))
        print(row((a, b), both, time.process_time() - started), flush=True)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
