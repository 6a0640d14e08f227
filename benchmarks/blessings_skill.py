"""Blessings & Curses skill gradient: every ordered bot pairing, with 95 % Wilson intervals.

Plays ``-n`` games per pairing (seat 0's bot first) under one variant and prints one
Markdown row per pairing: seat-0 and seat-1 wins, draws (mutual wipe-out), games left
unresolved at the battle cap, and the first seat's share of the decided games (the seat
that opened the first battle), each with its 95 % Wilson interval; then battles and turns
per game (means). Games are the ones ``balance run`` plays with the same seed.

Example:
    .venv/bin/python benchmarks/blessings_skill.py -n 20000
    .venv/bin/python benchmarks/blessings_skill.py --variant first_reading --pairings tactician-tactician
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

import numpy as np

import sims
from balance.stats import wilson
from sims.blessings.state import EndReason

TABLES = ("games",)


def rate(k: int, n: int) -> str:
    """Return ``k / n`` as a percentage with its 95 % Wilson interval."""
    est, lo, hi = (float(x) for x in wilson(k, n))
    if n == 0:
        return "– (n = 0)"
    return f"{100 * est:.2f} % [{100 * lo:.2f}, {100 * hi:.2f}]"


def play(game, variant: str, bots: tuple[str, str], n: int, seed: int, overrides: dict) -> np.ndarray:
    """Return the ``games`` table of ``n`` games of ``bots`` under ``variant``."""
    params = game.make_params(variant, overrides)
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    ids = np.array([game.bots.index(b) for b in bots], np.int64)
    weights = np.stack([game.make_weights(b) for b in bots])
    decks = np.zeros((2, 0), np.int16)
    return game.play_chunk(params, pool, decks, ids, weights, seed, 0, n, TABLES)["games"]


def row(bots: tuple[str, str], g: np.ndarray, seconds: float) -> str:
    """Return the Markdown row of one pairing."""
    n = len(g)
    decided = g["winner"] >= 0
    first_won = int((g["winner"][decided] == g["first_seat"][decided]).sum())
    cells = [
        f"{bots[0]} vs {bots[1]}",
        f"{n:,}",
        rate(int((g["winner"] == 0).sum()), n),
        rate(int((g["winner"] == 1).sum()), n),
        rate(int((g["end_reason"] == EndReason.MUTUAL_WIPEOUT).sum()), n),
        rate(int((g["end_reason"] == EndReason.BATTLE_CAP).sum()), n),
        rate(first_won, int(decided.sum())) + f" (n = {int(decided.sum()):,})",
        f"{g['battles'].mean():.2f}",
        f"{g['turns'].mean():.1f}",
        f"{n / seconds:,.0f}",
    ]
    return "| " + " | ".join(cells) + " |"


def skill_setup(game_name: str, default_n: int, doc: str):
    """Parse a skill benchmark's flags; print its heading; return (args, game, variant, overrides, pairings)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--variant", default=None, help="named variant [default: the game's default]")
    ap.add_argument("-n", "--n-games", type=int, default=default_n)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pairings", default=None, help="comma-separated a-b pairs [default: all 9 ordered pairs]")
    ap.add_argument("-p", "--param", action="append", default=[], help="rule override KEY=VALUE (repeatable)")
    args = ap.parse_args()
    game = sims.load(game_name)
    variant = args.variant or game.default_variant
    overrides = dict(kv.split("=", 1) for kv in args.param)
    if args.pairings:
        pairings = [tuple(p.split("-")) for p in args.pairings.split(",")]
    else:
        pairings = list(itertools.product(game.bots, repeat=2))
    print(
        f"# {game_name} skill gradient: variant {variant} {overrides or ''}, seed {args.seed}, "
        f"rules_version {game.rules_version}, load average {os.getloadavg()[0]:.1f}\n"
    )
    return args, game, variant, overrides, pairings


def main() -> None:
    """Parse arguments, play every pairing and print the table."""
    args, game, variant, overrides, pairings = skill_setup("blessings", 20_000, __doc__)
    print(
        "| seat 0 vs seat 1 | n | seat-0 wins | seat-1 wins | draws (mutual wipe-out) | battle cap | "
        "first seat wins, of decided | battles/game | turns/game | games/s |"
    )
    print("|---" * 10 + "|")
    for bots in pairings:
        started = time.perf_counter()
        g = play(game, variant, bots, args.n_games, args.seed, overrides)
        print(row(bots, g, time.perf_counter() - started), flush=True)


if __name__ == "__main__":
    main()
