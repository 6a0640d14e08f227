"""A digest of many Card Wars games per bot pairing: proof that a speed change plays identical games.

Plays games ``0 .. n-1`` of each pairing with every table recorded (games, seats, cards,
turns) and prints one SHA-256 per pairing over every column of every table, plus the
decisions a game (the audit). Run it on two checkouts and compare the lines: any change
in what any bot chooses shows as a different digest. The golden test covers 12 to 300
games a pairing; this covers as many as you ask for (``-n``), in random starter decks.

Examples (from the project root; the second with a checkout of the commit to compare):
    .venv/bin/python benchmarks/cardwars_digest.py -n 20000
    PYTHONPATH=/tmp/before .venv/bin/python /tmp/before/benchmarks/cardwars_digest.py -n 20000
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

import sims

PAIRINGS = {"greedy,greedy": 1.0, "random,random": 1.0, "planner,greedy": 0.02}  # share of ``-n`` per pairing
TABLES = ("games", "seats", "cards", "turns")


def digest(game, bots: tuple[str, ...], n: int, seed: int) -> tuple[str, float]:
    """Return the SHA-256 of every column of every table of games ``0 .. n-1``, and decisions a game."""
    params = game.make_params("standard")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    ids = np.array([game.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([game.make_weights(b) for b in bots])
    decks = np.zeros((2, 1), np.int16)
    out = game.play_chunk(params, pool, decks, ids, weights, seed, 0, n, TABLES)
    h = hashlib.sha256()
    for table in TABLES:
        for field in out[table].dtype.names:
            h.update(np.ascontiguousarray(out[table][field]).tobytes())
    report = np.zeros(4, np.int64)
    game.check_games(params, pool.table, decks, ids, weights, np.uint64(seed), 0, n, report)
    if report[1:].any():
        raise SystemExit(f"{','.join(bots)}: the audit found problems: {report.tolist()}")
    return h.hexdigest(), float(report[0]) / n


def main() -> None:
    """Print one line per pairing: games, decisions a game, digest."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20000, help="greedy and random mirror games (planner: 2 %% of them)")
    ap.add_argument("--seed", type=int, default=20261124)
    a = ap.parse_args()
    game = sims.load("cardwars")
    for bots, share in PAIRINGS.items():
        n = max(1, round(a.n * share))
        h, dec = digest(game, tuple(bots.split(",")), n, a.seed)
        print(f"{bots:<15} {n:>7,} games  {dec:8.2f} decisions a game  {h}", flush=True)


if __name__ == "__main__":
    main()
