"""Blessings kernel speed of several (checkout, settings) configs side by side on one core. Prints figures only.

Each ``--config NAME:TREE[:ARG ARG ...]`` is a project tree (a git worktree of the commit to
compare) and extra ``kernel_speed.py`` arguments for it (``--weight greedy.order=0``); its own
``benchmarks/kernel_speed.py`` runs with that tree first on ``PYTHONPATH`` (its own Numba cache,
keyed by its ``sims`` sources), pinned to ``--core`` with ``taskset``. Rounds alternate the
configs (A, B, A, B, ...) so all see the same load; a run's figure is kernel_speed.py's games
per CPU-second of the measured games. Printed: every run with the 1-minute load, the median per
config and the median and range of each round's ratio to the first config (> 1 = faster).
Warm the caches first (``--rounds 1``) or the first run's compile loads the machine.

Example (from the project root; /work/wt-cc99 a worktree of cc99c83): rules_version 2's games,
cc99c83 against this checkout's order 0:
    .venv/bin/python benchmarks/blessings_side_by_side.py --games 300000 --rounds 5 \\
        --config before:/work/wt-cc99 --config after:.:"--weight greedy.order=0"
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

LINE = re.compile(r"([\d,]+) games per CPU-second, ([\d.]+) ns a decision")


def run(tree: Path, extra: list[str], a: argparse.Namespace) -> tuple[float, float]:
    """Run ``kernel_speed.py`` of ``tree`` once; return (games/CPU-s, ns a decision)."""
    cmd = [sys.executable, str(tree / "benchmarks" / "kernel_speed.py"), "--game", "blessings", "--bots", a.bots]
    cmd += ["--games", str(a.games), "--tables", a.tables, "--seed", str(a.seed), "--batches", *extra]
    if a.core >= 0:
        cmd = ["taskset", "-c", str(a.core), *cmd]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True).stdout.strip()
    found = LINE.search(out)
    if found is None:
        raise SystemExit(f"{tree}: no speed figure in {out!r}")
    return float(found.group(1).replace(",", "")), float(found.group(2))


def main() -> None:
    """Alternate the configs ``--rounds`` times; print every run, the medians and the ratios to the first."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", required=True, help="NAME:TREE[:kernel_speed.py arguments]")
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=300_000)
    ap.add_argument("--tables", default="games")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--core", type=int, default=0, help="CPU to pin every run to (-1: no pinning)")
    a = ap.parse_args()
    configs = []
    for text in a.config:
        name, tree, *extra = text.split(":", 2)
        configs.append((name, Path(tree).resolve(), shlex.split(extra[0]) if extra else []))
    speed: dict[str, list[float]] = {name: [] for name, _, _ in configs}
    ns: dict[str, list[float]] = {name: [] for name, _, _ in configs}
    loads = []
    for r in range(a.rounds):
        for name, tree, extra in configs:
            loads.append(os.getloadavg()[0])
            g, n = run(tree, extra, a)
            speed[name].append(g)
            ns[name].append(n)
            print(
                f"round {r + 1} {name:<8} {g:9,.0f} games/CPU-s {n:6.1f} ns a decision (load {loads[-1]:.2f})",
                flush=True,
            )
    first = configs[0][0]
    print(f"blessings {a.bots}, {a.tables}, {a.games} games a run, {a.rounds} rounds, core {a.core}; ", end="")
    print(f"load 1-min {min(loads):.2f}-{max(loads):.2f}")
    for name, tree, extra in configs:
        pairs = [b / f for b, f in zip(speed[name], speed[first], strict=True)]
        print(
            f"  {name:<8} {tree} {' '.join(extra):<28} median {statistics.median(speed[name]):9,.0f} games/CPU-s, "
            f"{statistics.median(ns[name]):.1f} ns a decision; x{statistics.median(pairs):.3f} vs {first} "
            f"(pairs {min(pairs):.3f}-{max(pairs):.3f})"
        )


if __name__ == "__main__":
    main()
