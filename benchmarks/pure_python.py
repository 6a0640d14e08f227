"""Speed of the Numba Cardinger kernel against a pure-Python implementation of the same rules.

Plays the same games (same seeds, decks, RNG draws and bot decisions) with
``benchmarks/cardinger_reference.py`` (plain Python) and with the Numba kernel (one
process, after a warm-up), prints games/s for each and the speed ratio, and how many of
the games agree on every compared field (game result, per-seat counters and decks).
Prints figures only; never asserts on time.

Example:
    .venv/bin/python benchmarks/pure_python.py --games 2000
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardinger_reference as ref  # found through the path above

import sims

GAME = sims.load("cardinger")
TABLES = ("games", "seats")
MIN_KERNEL_SECONDS = 1.0  # repeat the kernel run until it has taken at least this long


def kernel_inputs(variant: str, bots: tuple[str, str]):
    """Return (params, pool, decks, bot ids, weights) as ``balance.spec.resolve`` builds them."""
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), dtype=np.int16)
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return params, pool, decks, bot_ids, weights


def time_kernel(inputs, seed: int, n_games: int) -> tuple[dict, float]:
    """Return (records, games/s) of the kernel on ``n_games`` games, after a warm-up."""
    params, pool, decks, bot_ids, weights = inputs
    GAME.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, min(n_games, 50), TABLES)  # compile / load
    records, done, start = None, 0, time.perf_counter()
    while True:
        out = GAME.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, n_games, TABLES)
        records = records or out
        done += n_games
        elapsed = time.perf_counter() - start
        if elapsed >= MIN_KERNEL_SECONDS:
            return records, done / elapsed


def time_reference(inputs, bots: tuple[str, str], seed: int, n_games: int) -> tuple[list[dict], float]:
    """Return (results, games/s) of the pure-Python reference on the same games."""
    params, pool, decks, _, weights = inputs
    cards = ref.cards_from_pool(pool)  # converted once, outside the timed loop
    reference = ref.Reference(params, cards, bots, weights.tolist(), decks.tolist())
    start = time.perf_counter()
    results = [reference.play(seed, g, TABLES) for g in range(n_games)]
    return results, n_games / (time.perf_counter() - start)


def agreeing_games(records: dict, results: list[dict]) -> int:
    """Return how many games agree on every ``games`` and ``seats`` column the reference produces."""
    rows = ref.to_rows(results)
    bad: set[int] = set()
    for table in TABLES:
        kernel_rows, ref_rows = records[table], rows[table]
        if len(kernel_rows) != len(ref_rows):
            return 0
        for k_row, r_row in zip(kernel_rows, ref_rows, strict=True):
            for key, value in r_row.items():
                got = [int(c) for c in k_row[key] if c >= 0] if key == "deck" else k_row[key].item()
                if got != value:
                    bad.add(int(k_row["game"]))
                    break
    return len(results) - len(bad)


def main() -> None:
    """Run the comparison for greedy-vs-greedy and random-vs-random and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="games per match-up (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="root seed (default 1)")
    ap.add_argument("--variant", default="modern", help="rule variant (default modern)")
    args = ap.parse_args()

    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"Cardinger: Numba kernel vs pure Python ({platform.python_implementation()} {platform.python_version()})")
    print(f"variant {args.variant}, {args.games} games per match-up, root seed {args.seed}, one process")
    print(f"tables {'+'.join(TABLES)}; the same games in both, compared field by field")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    print()
    header = f"{'match-up':<18} {'python games/s':>15} {'numba games/s':>15} {'speed-up':>9} {'agree':>13}"
    print(header)
    print("-" * len(header))
    for bots in (("greedy", "greedy"), ("random", "random")):
        inputs = kernel_inputs(args.variant, bots)
        records, numba_rate = time_kernel(inputs, args.seed, args.games)
        results, python_rate = time_reference(inputs, bots, args.seed, args.games)
        agree = agreeing_games(records, results)
        print(
            f"{' vs '.join(bots):<18} {python_rate:>15,.0f} {numba_rate:>15,.0f} {numba_rate / python_rate:>8.1f}x"
            f" {agree:>6}/{args.games:<6}"
        )


if __name__ == "__main__":
    main()
