"""Card Wars kernel speed of two checkouts side by side, as ``balance run`` plays: ``kernel_speed.py --batches``.

``cardrpg_side_by_side.py`` times ``play_chunk``, which allocates the record buffers of the whole
run: with every table ~10 % of the CPU time is the operating system zeroing those pages, the
same in both trees, which dilutes a kernel's ratio and adds its own noise. This runs each tree's
``benchmarks/kernel_speed.py --batches`` (buffers reused batch by batch, as ``balance run``)
alternately (A, B, A, B, ...), optionally pinned to one core (``--core``), and prints every
pair's ratio and the median of the pairs (x > 1: the second tree is faster), with the load.

Example (from the project root; ``/work/base`` a worktree of the commit to compare):
    .venv/bin/python benchmarks/cardwars_side_by_side.py /work/base . --games 100000 --rounds 5
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


def run(tree: Path, a: argparse.Namespace) -> float:
    """Return the games per CPU-second of one ``kernel_speed.py --batches`` run of ``tree``."""
    cmd = [sys.executable, str(tree / "benchmarks" / "kernel_speed.py"), "--game", "cardwars", "--bots", a.bots,
           "--games", str(a.games), "--tables", a.tables, "--seed", str(a.seed), "--batches"]  # fmt: skip
    if a.core is not None:
        cmd = ["taskset", "-c", str(a.core), *cmd]
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True).stdout
    found = LINE.search(out)
    if not found:
        raise SystemExit(f"no speed line in the output of {tree}:\n{out}")
    return float(found.group(1).replace(",", ""))


def main() -> None:
    """Alternate the two trees' runs; print each run, each pair's ratio and the median ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--tables", default="games,seats,cards,turns")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--core", type=int, default=None, help="pin every run to this CPU (taskset)")
    a = ap.parse_args()
    ratios, before, after = [], [], []
    for r in range(a.rounds):
        b = run(a.before, a)
        f = run(a.after, a)
        before.append(b)
        after.append(f)
        ratios.append(f / b)
        print(
            f"round {r + 1}: before {b:,.0f}  after {f:,.0f}  x{f / b:.3f}  (load {os.getloadavg()[0]:.2f})", flush=True
        )
    print(
        f"median before {statistics.median(before):,.0f}, after {statistics.median(after):,.0f} games per CPU-second; "
        f"pairs x{min(ratios):.3f}-x{max(ratios):.3f}, median x{statistics.median(ratios):.3f}"
    )


if __name__ == "__main__":
    main()
