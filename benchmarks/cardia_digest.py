"""A digest of Cardia's results over eleven runs: every table, the audit and four replays per run.

Two checkouts that print the same lines play identical games (bots: random, greedy and
expert; variants: default, the deck x location grid, best of three, both Djinn readings,
Foggy Swamp resolved, a mixed deck, more signets after a tie). Used to prove that a
change to how the kernel is compiled left the games alone.

Example (from the project root; for another checkout put its root first on PYTHONPATH):
    .venv/bin/python benchmarks/cardia_digest.py > after.txt
    PYTHONPATH=/path/to/other/checkout .venv/bin/python /path/to/other/checkout/benchmarks/cardia_digest.py > before.txt
    diff before.txt after.txt
"""

from __future__ import annotations

import hashlib

import numpy as np

from balance.spec import RunSpec, resolve

RUNS = (
    ("greedy", "greedy", None, 4000),
    ("random", "expert", None, 600),
    ("expert", "greedy", "grid", 600),
    ("greedy", "random", "grid", 6000),
    ("greedy", "greedy", "best_of_3", 2000),
    ("greedy", "greedy", "deck_ii_djinn_once", 2000),
    ("random", "random", "locations", 4000),
    ("greedy", "greedy", "foggy_resolve", 2000),
    ("greedy", "greedy", "deck_ii_djinn_immediate", 2000),
    ("random", "greedy", "mixed_I_II_I_II", 2000),
    ("greedy", "greedy", "more_signets_after_tie", 2000),
)


def main() -> None:
    """Print one line per run: bots, variant, games, rows per table, the audit and a digest."""
    for a, b, variant, n in RUNS:
        r = resolve(RunSpec(game="cardia", bots=(a, b), seed=7, variant=variant))
        args = (r.params, r.pool, r.decks, r.bot_ids, r.weights)
        out = r.game.play_chunk(*args, 7, 0, n)
        digest = hashlib.sha256()
        for table in sorted(out):
            digest.update(table.encode())
            digest.update(np.ascontiguousarray(out[table]).tobytes())
        report = np.zeros(4, dtype=np.int64)
        r.game.check_games(r.params, r.pool.table, r.decks, r.bot_ids, r.weights, np.uint64(7), 0, n, report)
        digest.update(report.tobytes())
        for game in (0, 1, 5, 17):
            digest.update("\n".join(r.game.replay(*args, 7, game)).encode())
        rows = {t: len(v) for t, v in out.items()}
        print(a, b, variant, n, rows, report.tolist(), digest.hexdigest()[:16], flush=True)


if __name__ == "__main__":
    main()
