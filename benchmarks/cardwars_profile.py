"""Where Card Wars' kernel time goes: CPU samples per compiled function (``perf record``), rules vs bot.

``kernel_speed.py --instructions`` counts instructions under callgrind, but callgrind runs
the cached kernels only if they were compiled for a CPU valgrind can emulate: on this
machine (AVX-512) the native cache misses and Card Wars recompiles under valgrind for
hours. This script needs no recompile: it runs itself under ``perf record -e cpu-clock``
(software sampling; works without hardware counters), writes a perf map of every compiled
function (``/tmp/perf-PID.map``, addresses from Numba's engine) after the warm-up, and
prints each function's share of the samples taken in compiled code, versions merged, with
the split bot (greedy, gains, values, options, planner, bots) / counts and stats
(``stats.py``) / rules engine. ``@hot`` functions are inlined: their cost shows in the
caller.

To count instructions with callgrind instead, give both runs the same valgrind-safe target
(compiles once natively, then the valgrind run loads that cache):
    NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES= .venv/bin/python benchmarks/kernel_speed.py --game cardwars --games 2000
    NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES= .venv/bin/python benchmarks/kernel_speed.py --game cardwars \
        --games 2000 --instructions --profile 40

Example (from the project root):
    .venv/bin/python benchmarks/cardwars_profile.py --bots greedy,greedy --games 20000 --tables games,seats,cards,turns
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_speed

from balance.spec import RunSpec, resolve

BOT = ("greedy.", "gains.", "values.", "options.", "bots.", "planner.")
STATS = ("stats.",)
SAMPLE = re.compile(r"\s+([\d.]+)%\s+\[\.\]\s+(\S+)")
KERNEL_NAME = re.compile(r"^[a-z_]+\.[A-Za-z_0-9]+(\[v\d+\])?$")


def play(a: argparse.Namespace) -> None:
    """Warm up, write the perf map of the compiled functions, play the measured games (under perf)."""
    tables = tuple(a.tables.split(","))
    r = resolve(RunSpec(game="cardwars", bots=tuple(a.bots.split(",")), seed=a.seed))
    args = (r.params, r.pool, r.decks, r.bot_ids, r.weights, a.seed)
    r.game.play_chunk(*args, 0, 200, tables=tables)
    with tempfile.TemporaryDirectory() as tmp:
        symbols = Path(tmp) / "symbols.txt"
        kernel_speed.symbol_map(symbols)
        rows = sorted((int(x), n) for n, x in (ln.split("\t") for ln in symbols.read_text().splitlines()))
    Path(a.child).write_text(str(os.getpid()))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (start, name) in enumerate(rows):
            size = min(rows[i + 1][0] - start if i + 1 < len(rows) else 4096, 1 << 20)
            out.write(f"{start:x} {size:x} {kernel_speed.short_name(name)}\n")
    t = time.process_time()
    r.game.play_chunk(*args, 1000, a.games, tables=tables)
    print(f"{a.games / (time.process_time() - t):,.0f} games per CPU-second (under perf)", file=sys.stderr)


def report(data: Path, top: int) -> list[str]:
    """Return the table of the ``top`` compiled functions by share of samples, and the split."""
    out = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--sort", "sym", "--stdio"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    share: collections.Counter[str] = collections.Counter()
    for line in out.splitlines():
        found = SAMPLE.match(line)
        if found and KERNEL_NAME.match(found.group(2)):
            share[re.sub(r"\[v\d+\]", "", found.group(2))] += float(found.group(1))
    total = sum(share.values()) or 1.0
    bot = sum(v for k, v in share.items() if k.startswith(BOT)) / total
    stats = sum(v for k, v in share.items() if k.startswith(STATS)) / total
    lines = [f"bot {bot:.1%}, counts and stats (stats.py) {stats:.1%}, rules engine {1 - bot - stats:.1%}"]
    lines += [f"{v / total:6.1%}  {k}" for k, v in share.most_common(top)]
    return lines


def main() -> None:
    """Run the games under ``perf record`` (or, with --child, play them); print the profile."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--tables", default="games,seats,cards,turns")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    kernel_speed.parse_tables(ap, a.tables)
    if a.child:
        play(a)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "2000", "-o", str(data)]
        pid = Path(tmp) / "pid"
        subprocess.run([*cmd, sys.executable, __file__, *sys.argv[1:], "--child", str(pid)], check=True)
        try:
            print(f"cardwars {a.bots} [{a.tables}] {a.games:,} games (load {os.getloadavg()[0]:.2f})")
            print("\n".join(report(data, a.top)))
        finally:
            Path(f"/tmp/perf-{pid.read_text()}.map").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
