"""Speed of a Numba game kernel against a pure-Python implementation of the same rules.

Plays the same games (same seeds, decks, RNG draws and bot decisions) with the game's
plain-Python reference (``benchmarks/cardinger_reference.py`` with its bots in
``cardinger_reference_bots.py``,
``benchmarks/blessings_reference.py`` or ``benchmarks/cardrpg_reference.py``, each with its bots in
``<name>_reference_bots.py``) and with the
Numba kernel (one process, after a warm-up), prints games/s for each and the speed ratio,
and how many of the games agree on every compared field. Prints figures only; never asserts on time.

- ``--game cardinger`` (default): greedy, random and tuned mirrors; tables ``games`` and
  ``seats`` (game result, per-seat counters and decks).
- ``--game blessings``: greedy, random and tactician mirrors; all four tables (``games``,
  ``seats``, ``cards`` and the per-battle ``turns``). The tactician mirror's reference
  plays the first tenth of ``--games`` (the slowest matchup under rules_version 1, when it
  stalled to the battle cap; ~32 turns a game since) -- the kernel all of them; agreement
  is counted on the reference's games.
- ``--game cardrpg``: the one-seat solitaire; the greedy, random and planner bots; all four
  tables (``turns`` has one row per battle). A "game" is one character: ``n_sessions``
  sessions (1 in the default variant); it agrees when every one of its sessions does.
- ``--game cardia``: greedy and random mirrors and expert against greedy; all four tables
  (``benchmarks/cardia_reference.py`` with its bots in ``cardia_reference_bots.py``). The
  expert plays every card against every unseen card by the rules each round, so its
  reference plays the first twentieth of ``--games``.
- ``--game cardwars``: greedy and random mirrors and planner vs greedy; all four tables.
  The planner's look-ahead copies the position for every candidate action, so its
  reference plays the first fiftieth of ``--games``.

Example:
    .venv/bin/python benchmarks/pure_python.py --games 2000
    .venv/bin/python benchmarks/pure_python.py --game blessings --games 2000
    .venv/bin/python benchmarks/pure_python.py --game cardrpg --games 2000
    .venv/bin/python benchmarks/pure_python.py --game cardia --variant first_games --games 2000
    .venv/bin/python benchmarks/pure_python.py --game cardwars --games 2000 --variant standard
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import blessings_reference  # found through the path above
import cardia_reference
import cardinger_reference
import cardrpg_reference
import cardwars_reference

import sims

MIN_KERNEL_SECONDS = 1.0  # repeat the kernel run until it has taken at least this long


@dataclass(frozen=True)
class Bench:
    """What to compare for one game: its reference module, tables and match-ups."""

    title: str
    ref: ModuleType
    tables: tuple[str, ...]
    matchups: tuple[tuple[tuple[str, ...], int], ...]  # (bot per seat, 1/share of --games the reference plays)
    uses_decks: bool  # the reference takes fixed deck lists (Cardinger's ``decks`` argument)


BENCHES = {
    "cardinger": Bench(
        "Cardinger",
        cardinger_reference,
        ("games", "seats"),
        ((("greedy", "greedy"), 1), (("random", "random"), 1), (("tuned", "tuned"), 1)),
        True,
    ),
    "blessings": Bench(
        "Blessings & Curses",
        blessings_reference,
        ("games", "seats", "cards", "turns"),
        ((("greedy", "greedy"), 1), (("random", "random"), 1), (("tactician", "tactician"), 10)),
        False,
    ),
    "cardia": Bench(
        "Cardia",
        cardia_reference,
        ("games", "seats", "cards", "turns"),
        ((("greedy", "greedy"), 1), (("random", "random"), 1), (("expert", "greedy"), 20)),
        False,
    ),
    "cardrpg": Bench(
        "CardRPG Advanced",
        cardrpg_reference,
        ("games", "seats", "cards", "turns"),
        ((("greedy",), 1), (("random",), 1), (("planner",), 1)),
        False,
    ),
    "cardwars": Bench(
        "Card Wars",
        cardwars_reference,
        ("games", "seats", "cards", "turns"),
        ((("greedy", "greedy"), 1), (("random", "random"), 1), (("planner", "greedy"), 50)),
        False,
    ),
}


def kernel_inputs(game, variant: str, bots: tuple[str, ...]):
    """Return (params, pool, decks, bot ids, weights) as ``balance.spec.resolve`` builds them."""
    params = game.make_params(variant)
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    decks = np.zeros((2, getattr(params, "deck_size", 0)), dtype=np.int16)  # Blessings forms decks from its rules
    bot_ids = np.array([game.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([game.make_weights(b) for b in bots])
    return params, pool, decks, bot_ids, weights


def time_kernel(game, inputs, tables, seed: int, n_games: int) -> tuple[dict, float]:
    """Return (records, games/s) of the kernel on ``n_games`` games, after a warm-up."""
    params, pool, decks, bot_ids, weights = inputs
    game.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, min(n_games, 50), tables)  # compile / load
    records, done, start = None, 0, time.perf_counter()
    while True:
        out = game.play_chunk(params, pool, decks, bot_ids, weights, seed, 0, n_games, tables)
        records = records or out
        done += n_games
        elapsed = time.perf_counter() - start
        if elapsed >= MIN_KERNEL_SECONDS:
            return records, done / elapsed


def time_reference(bench: Bench, inputs, bots, seed: int, n_games: int) -> tuple[list[dict], float]:
    """Return (results, games/s) of the pure-Python reference on the same games."""
    params, pool, decks, _, weights = inputs
    cards = bench.ref.cards_from_pool(pool)  # converted once, outside the timed loop
    extra = (decks.tolist(),) if bench.uses_decks else ()
    reference = bench.ref.Reference(params, cards, bots, weights.tolist(), *extra)
    start = time.perf_counter()
    results = [reference.play(seed, g, bench.tables) for g in range(n_games)]
    return results, n_games / (time.perf_counter() - start)


def agreeing_games(bench: Bench, records: dict, results: list[dict]) -> int:
    """Return how many of the reference's games agree on every column it produces, in every compared table.

    Rows are grouped by game: a game whose row count differs (e.g. battles) counts as one disagreeing game; a
    CardRPG character (its ``game_ids``, one per session) disagrees when any of its sessions does.
    """
    rows = bench.ref.to_rows(results)
    bad: set[int] = set()
    for table in bench.tables:
        names = records[table].dtype.names
        col = {name: k for k, name in enumerate(names)}
        kernel_games: dict[int, list] = defaultdict(list)
        for row in records[table].tolist():  # tuples of Python scalars (lists for array columns)
            kernel_games[row[col["game"]]].append(row)
        ref_games: dict[int, list[dict]] = defaultdict(list)
        for row in rows[table]:
            ref_games[row["game"]].append(row)
        for i, r in enumerate(results):
            for g in r.get("game_ids", (r["game"],)):  # CardRPG: a character's sessions
                mine, theirs = kernel_games[g], ref_games[g]
                if len(mine) != len(theirs):
                    bad.add(i)
                    continue
                for k_row, r_row in zip(mine, theirs, strict=True):
                    for key, value in r_row.items():
                        got = k_row[col[key]]
                        if key == "deck" and isinstance(got, list):  # Cardinger's deck list (Card Wars: a name code)
                            got = [c for c in got if c >= 0]
                        if got != value:
                            bad.add(i)
                            break
    return len(results) - len(bad)


def main() -> None:
    """Run the comparison for the chosen game's match-ups and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(BENCHES), default="cardinger", help="game (default cardinger)")
    ap.add_argument("--games", type=int, default=2000, help="games per match-up (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="root seed (default 1)")
    ap.add_argument("--variant", default=None, help="rule variant (default: the game's default)")
    args = ap.parse_args()
    bench = BENCHES[args.game]
    game = sims.load(args.game)

    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"{bench.title}: Numba kernel vs pure Python ({python})")
    variant = args.variant or game.default_variant
    print(f"variant {variant}, {args.games} games per match-up, root seed {args.seed}, one process")
    print(f"tables {'+'.join(bench.tables)}; the same games in both, compared field by field")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    print()
    width = max(18, *(len(" vs ".join(bots)) + 1 for bots, _ in bench.matchups))
    header = f"{'match-up':<{width}} {'python games/s':>15} {'numba games/s':>15} {'speed-up':>9} {'agree':>13}"
    print(header)
    print("-" * len(header))
    notes = []
    for bots, share in bench.matchups:
        inputs = kernel_inputs(game, args.variant, bots)
        records, numba_rate = time_kernel(game, inputs, bench.tables, args.seed, args.games)
        n_ref = max(1, args.games // share)
        results, python_rate = time_reference(bench, inputs, bots, args.seed, n_ref)
        agree = agreeing_games(bench, records, results)
        print(
            f"{' vs '.join(bots):<{width}} {python_rate:>15,.0f} {numba_rate:>15,.0f} {numba_rate / python_rate:>8.1f}x"
            f" {agree:>6}/{n_ref:<6}"
        )
        if n_ref < args.games:
            notes.append(f"{' vs '.join(bots)}: the reference played the first {n_ref} of the kernel's games")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
