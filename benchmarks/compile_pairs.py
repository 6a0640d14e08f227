"""Cold compiles of two trees at the same time, one on each of cores 0 and 1, then swapped.

Each round starts both trees' cold compile of every entry point (``compile_calls.every_entry_point``:
greedy in every seat; a fresh interpreter each, its own empty Numba cache, its tree first on
``PYTHONPATH``) pinned with ``taskset``, and prints both CPU-second figures and B/A; the next round
swaps the cores. The median of the rounds' ratios is printed last. Two processes do not slow each
other on this host while its speed drifts from minute to minute, so a pair's ratio is what the
drift cannot move (README, Speed).

Example (from the project root; /work/base a checkout of the commit to compare):
    .venv/bin/python benchmarks/compile_pairs.py /work/base . --game cardwars --rounds 4
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = """
import sys, time
sys.path.insert(0, "benchmarks")
import sims.core.jit
from compile_calls import every_entry_point
c = time.process_time()
every_entry_point(sys.argv[1])
print(time.process_time() - c)
"""


def start(tree: str, core: int, cache: str, game: str) -> subprocess.Popen:
    """Start one tree's cold compile on ``core`` with the Numba cache ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": tree}
    cmd = ["taskset", "-c", str(core), sys.executable, "-c", CHILD, game]
    return subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def main() -> None:
    """Run the rounds and print each pair and the median ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="tree A (e.g. the base)")
    ap.add_argument("b", help="tree B (e.g. this one)")
    ap.add_argument("--game", default="cardwars")
    ap.add_argument("--rounds", type=int, default=4)
    a = ap.parse_args()
    trees = os.path.abspath(a.a), os.path.abspath(a.b)
    ratios = []
    print(f"# {a.game}: cold compile CPU-s of every entry point, {trees[0]} (A) and {trees[1]} (B) at once")
    for r in range(a.rounds):
        cores = (0, 1) if r % 2 == 0 else (1, 0)
        with tempfile.TemporaryDirectory() as ca, tempfile.TemporaryDirectory() as cb:
            procs = [start(t, c, d, a.game) for t, c, d in zip(trees, cores, (ca, cb), strict=False)]
            secs = [float(p.communicate()[0].split()[-1]) for p in procs]
        ratios.append(secs[1] / secs[0])
        pair = f"A {secs[0]:.1f} (core {cores[0]})  B {secs[1]:.1f} (core {cores[1]})"
        print(f"  round {r}: {pair}  B/A {ratios[-1]:.3f}")
    print(f"# median B/A {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
