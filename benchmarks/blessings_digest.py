"""A digest of Blessings & Curses results: per run, every table, the games table alone, the audit and replays.

Two checkouts that print the same lines play identical games. The runs cover the three
bots and the variants whose rules reach the counters or the piles (split deck, recycled
cards, fresh-hand pools, arranged and hidden hands, three-plus-two, no surrender). The
games table is digested twice, once from a run that records every table (the counted
game loop) and once from a games-only run (the uncounted loop): they must agree.
Used to prove that a change to how the kernel is compiled left the games alone.

Example (from the project root; for another checkout put its root first on PYTHONPATH):
    .venv/bin/python benchmarks/blessings_digest.py > after.txt
    PYTHONPATH=/other/checkout .venv/bin/python /other/checkout/benchmarks/blessings_digest.py > before.txt
    diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

from balance.spec import RunSpec, resolve

RUNS = (
    ("greedy", "greedy", None),
    ("random", "tactician", None),
    ("tactician", "greedy", "split_deck"),
    ("greedy", "random", "literal_recycle"),
    ("tactician", "tactician", "first_reading"),
    ("greedy", "tactician", "arranged_hands"),
    ("random", "random", "hidden_hands"),
    ("greedy", "greedy", "three_plus_two"),
    ("tactician", "random", "no_surrender"),
    ("greedy", "greedy", "face_bonus_seat1_only"),
)


def digest_of(tables: dict[str, np.ndarray]) -> str:
    """Return a short SHA-256 over every column of every table (by name; padding bytes left out)."""
    digest = hashlib.sha256()
    for table in sorted(tables):
        rows = tables[table]
        digest.update(table.encode())
        for field in rows.dtype.names:
            digest.update(field.encode())
            digest.update(np.ascontiguousarray(rows[field]).tobytes())
    return digest.hexdigest()[:16]


def main() -> None:
    """Print one line per run: bots, variant, games, rows per table, the audit and the digests."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="games per run")
    n = ap.parse_args().n
    for a, b, variant in RUNS:
        r = resolve(RunSpec(game="blessings", bots=(a, b), seed=7, variant=variant))
        args = (r.params, r.pool, r.decks, r.bot_ids, r.weights)
        every = r.game.play_chunk(*args, 7, 0, n)
        lean = r.game.play_chunk(*args, 7, 0, n, tables=("games",))
        same = digest_of({"games": every["games"]}) == digest_of(lean)
        report = np.zeros(4, dtype=np.int64)
        r.game.check_games(r.params, r.pool.table, r.decks, r.bot_ids, r.weights, np.uint64(7), 0, n, report)
        replays = hashlib.sha256()
        for game in (0, 1, 5, 17):
            replays.update("\n".join(r.game.replay(*args, 7, game)).encode())
        rows = {t: len(v) for t, v in every.items()}
        lean_note = "games-only same" if same else "GAMES-ONLY DIFFER"
        games = digest_of(every)
        print(a, b, variant, n, rows, report.tolist(), games, lean_note, replays.hexdigest()[:16], flush=True)


if __name__ == "__main__":
    main()
