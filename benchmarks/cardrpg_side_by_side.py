"""Kernel speed of two checkouts side by side: alternating runs of ``kernel_speed.py``, median per checkout.

Each checkout is a project tree (a git worktree of the commit to compare); its own
``benchmarks/kernel_speed.py`` runs with that tree first on ``PYTHONPATH``, so each plays
its own kernels (each keeps its own Numba cache: the cache directory is keyed by the
``sims`` sources). Runs alternate (A, B, A, B, ...) so both see the same load; the figure
is games per CPU-second of the measured games (this process's CPU time), and ``uptime``'s
load is printed beside every run. Warm the caches first (one run each) or the first
run's compile is not counted but does load the machine.

Example (from the project root; ``/tmp/before`` a worktree of the commit to compare):
    git worktree add --detach /tmp/before 13ff0be
    .venv/bin/python benchmarks/cardrpg_side_by_side.py /tmp/before . --game cardrpg --bots greedy --games 200000
    .venv/bin/python benchmarks/cardrpg_side_by_side.py /tmp/before . --tables games,seats,cards,turns
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

LINE = re.compile(r"([\d,]+) games per CPU-second, ([\d.]+) ns a decision")


def run(tree: Path, a: argparse.Namespace) -> tuple[float, float, str]:
    """Run ``kernel_speed.py`` of ``tree`` once; return games/CPU-s, ns a decision and its output line."""
    cmd = [sys.executable, str(tree / "benchmarks" / "kernel_speed.py"), "--game", a.game, "--bots", a.bots]
    cmd += ["--games", str(a.games), "--tables", a.tables, "--seed", str(a.seed)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True).stdout.strip()
    found = LINE.search(out)
    if found is None:
        raise SystemExit(f"{tree}: no speed figure in {out!r}")
    return float(found.group(1).replace(",", "")), float(found.group(2)), out


def main() -> None:
    """Alternate the two checkouts ``--rounds`` times; print every run and the medians with their ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path, help="project tree of the 'before' commit")
    ap.add_argument("after", type=Path, help="project tree of the 'after' commit")
    ap.add_argument("--game", default="cardrpg")
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--tables", default="games")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    trees = {"before": a.before.resolve(), "after": a.after.resolve()}
    speed: dict[str, list[float]] = {k: [] for k in trees}
    ns: dict[str, list[float]] = {k: [] for k in trees}
    for r in range(a.rounds):
        for name, tree in trees.items():
            g, n, line = run(tree, a)
            speed[name].append(g)
            ns[name].append(n)
            print(f"round {r + 1} {name:<6} {line}", flush=True)
    med = {k: statistics.median(v) for k, v in speed.items()}
    for k in trees:
        print(f"median {k:<6} {med[k]:,.0f} games per CPU-second, {statistics.median(ns[k]):.1f} ns a decision")
    print(f"after / before: x{med['after'] / med['before']:.2f} (load now {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
