"""Cold compilation and warm start of a game's kernels, each in a fresh process.

Cold: an empty Numba cache directory (``NUMBA_CACHE_DIR``); the process imports the
project, resolves a run (greedy in every seat) and calls, in turn, the batch kernel
(``play_chunk``, games table only, then every table: a game may compile a separate entry
for each), the audit (``check_games``) and the replay (``replay``): each call's wall and
CPU seconds are printed. Warm: a second process with the cache the first one filled,
timed from interpreter start to the end of its first game (imports and cache loads
included): what a user waits for before a run starts.

CPU seconds are the figure to compare on a loaded machine (wall seconds stretch with the
load; ``uptime``'s load average is printed beside them).

With ``--against DIR`` (another checkout, e.g. a git worktree of the commit to compare) the
cold compile of both trees runs ``--rounds`` times, alternating (other, this, other, ...), each
in a fresh process with its own empty cache and its own tree first on ``PYTHONPATH``; the CPU
seconds of every entry point are printed per run with the load, and the medians last.

Examples (from the project root):
    .venv/bin/python benchmarks/compile_time.py --game blessings
    .venv/bin/python benchmarks/compile_time.py --game cardia --against /tmp/before --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import numpy as np
import sims
from balance.spec import RunSpec, resolve
game = sys.argv[1]
r = resolve(RunSpec(game=game, bots=("greedy",) * sims.load(game).seats, seed=1))
args = (r.params, r.pool, r.decks, r.bot_ids, r.weights)
marks = {"import": (time.perf_counter() - t0, time.process_time() - c0)}
def lap(name, fn):
    t, c = time.perf_counter(), time.process_time()
    fn()
    marks[name] = (time.perf_counter() - t, time.process_time() - c)
lap("play_games", lambda: r.game.play_chunk(*args, 1, 0, 1, tables=("games",)))
marks["first_game"] = (time.perf_counter() - t0, time.process_time() - c0)
if sys.argv[2] == "all":
    lap("every_table", lambda: r.game.play_chunk(*args, 1, 0, 1))
    report = np.zeros(4, dtype=np.int64)
    check = (r.params, r.pool.table, r.decks, r.bot_ids, r.weights, np.uint64(1), 0, 1, report)
    lap("check_games", lambda: r.game.check_games(*check))
    lap("replay", lambda: r.game.replay(*args, 1, 0))
print(json.dumps(marks))
"""


KERNELS = ("play_games", "every_table", "check_games", "replay")


def run_child(game: str, cache: str, which: str, tree: str | None = None) -> dict[str, list[float]]:
    """Run the timing child in a fresh interpreter with ``cache`` as the Numba cache (and ``tree``,
    if given, as the project: first on ``PYTHONPATH`` and the working directory); return its marks."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    if tree is not None:
        env["PYTHONPATH"] = tree
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, game, which], env=env, cwd=tree, check=True, capture_output=True, text=True
    ).stdout
    marks = json.loads(out.strip().splitlines()[-1])
    marks["process"] = [time.perf_counter() - start, 0.0]
    return marks


def side_by_side(game: str, other: str, rounds: int) -> None:
    """Alternate cold compiles of ``other`` and this tree; print each run's CPU-s and the medians."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    totals: dict[str, list[float]] = {other: [], here: []}
    print(f"# {game}: cold compile CPU-s (empty cache), {' / '.join(KERNELS)} / every entry point")
    for _ in range(rounds):
        for tree in (other, here):
            with tempfile.TemporaryDirectory() as cache:
                load = os.getloadavg()[0]
                cold = run_child(game, cache, "all", tree)
            parts = [cold[k][1] for k in KERNELS]
            totals[tree].append(sum(parts))
            print(f"  {tree}: {' / '.join(f'{x:.1f}' for x in parts)} / {sum(parts):.1f}  (load {load:.2f})")
    a, b = statistics.median(totals[other]), statistics.median(totals[here])
    print(f"# medians: {other} {a:.1f}, this tree {b:.1f} CPU-s (x{b / a:.3f})")


def main() -> None:
    """Measure and print cold and warm figures for one game."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blessings")
    ap.add_argument("--against", metavar="DIR", help="another checkout: alternate cold compiles of it and this tree")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each tree with --against (default 2)")
    a = ap.parse_args()
    if a.against:
        side_by_side(a.game, os.path.abspath(a.against), a.rounds)
        return
    with tempfile.TemporaryDirectory() as cache:
        load = os.getloadavg()[0]
        cold = run_child(a.game, cache, "all")
        warm = run_child(a.game, cache, "first")
    kernels = KERNELS
    total = sum(cold[k][1] for k in kernels)
    print(f"# {a.game}: cold compilation (empty cache), load {load:.2f}; seconds wall / CPU")
    for k in ("import", *kernels):
        print(f"  {k:<12} {cold[k][0]:7.1f} / {cold[k][1]:6.1f}")
    print(f"  compile CPU, every entry point: {total:.1f} s")
    wall, cpu = warm["first_game"]
    print(
        f"# warm start (cache filled): first game done {wall:.2f} s wall / {cpu:.2f} s CPU after the imports began;"
        f" the whole process {warm['process'][0]:.2f} s wall"
    )


if __name__ == "__main__":
    main()
