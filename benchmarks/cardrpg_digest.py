"""Digests of CardRPG's tables for every bot and a set of variants: proof that a kernel change plays identical games.

Plays ``-n`` characters per bot and variant with every table on (games, seats, cards,
turns) and prints one SHA-256 (first 16 hex digits) per table, plus one line of the audit
(``check_games``: decisions, conservation violations, illegal actions, unfinished) and a
digest of a few replay logs. Run it on two commits and compare the output (``diff``):
any difference in any column of any row changes a digest.

Example (from the project root):
    .venv/bin/python benchmarks/cardrpg_digest.py -n 3000 > /tmp/after.txt
    diff /tmp/before.txt /tmp/after.txt
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

import sims

GAME = sims.load("cardrpg")
VARIANTS = ("advanced", "first_reading", "campaign", "adventure", "diceless_special", "preset_hp", "classic")


def digest(a: np.ndarray) -> str:
    """Return the first 16 hex digits of the SHA-256 of ``a``'s columns (padding bytes left out)."""
    h = hashlib.sha256()
    for name in a.dtype.names:
        h.update(np.ascontiguousarray(a[name]).tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    """Print one line per bot x variant: table digests, audit, replay digest."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="characters per bot and variant")
    ap.add_argument("--seed", type=int, default=20261124)
    a = ap.parse_args()
    for variant in VARIANTS:
        params = GAME.make_params(variant)
        pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
        decks = np.zeros((1, 0), np.int16)
        for bot in GAME.bots:
            ids = np.array([GAME.bots.index(bot)], np.int64)
            weights = GAME.make_weights(bot)[None, :]
            args = (params, pool, decks, ids, weights, a.seed)
            out = GAME.play_chunk(*args, 0, a.n)
            report = np.zeros(4, np.int64)
            GAME.check_games(params, pool.table, decks, ids, weights, np.uint64(a.seed), 0, a.n, report)
            lines = [line for g in range(0, a.n, max(1, a.n // 5)) for line in GAME.replay(*args, g)]
            tables = " ".join(f"{t}={digest(out[t])}({len(out[t])})" for t in out)
            replays = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
            print(f"{variant:<16} {bot:<8} {tables} audit={report.tolist()} replay={replays}")


if __name__ == "__main__":
    main()
