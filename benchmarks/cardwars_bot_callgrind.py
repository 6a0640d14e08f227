"""Inclusive instructions per compiled Card Wars function under callgrind, and calls a game.

``kernel_speed.py --instructions --profile`` ranks functions by *self* cost; this ranks them by
*inclusive* cost (a function and everything it calls) and counts the calls of each, from
callgrind's call graph (``--dump-instr=no``), versions of one function merged. ``@hot``
functions are copied into their callers, so they have no symbol of their own: their cost
is inside their callers' figures (``values.place_value``/``estimate``/``fight_value`` inside
``greedy.best_play``, ``stats.row_value`` inside ``own_stats``/``row_gain``).

Both runs need one valgrind-safe target and their own cache (the native cache holds AVX-512
code valgrind cannot run); compile natively first (``--warm``), then run under valgrind:

    export NUMBA_CACHE_DIR=/tmp/cwbot_vg NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES=
    .venv/bin/python benchmarks/cardwars_bot_callgrind.py --warm
    .venv/bin/python benchmarks/cardwars_bot_callgrind.py --games 2000 --top 40
"""

from __future__ import annotations

import argparse
import bisect
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_speed

from balance.spec import RunSpec, resolve

FN = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")


def names(symbols: Path):
    """Return a function mapping a code address to ``module.function`` (None outside the kernels)."""
    lines = symbols.read_text().splitlines()
    rows = sorted((int(a), kernel_speed.short_name(n)) for n, a in (ln.split("\t") for ln in lines))
    starts = [a for a, _ in rows]

    def name_of(address: int) -> str | None:
        k = bisect.bisect_right(starts, address) - 1
        return re.sub(r"\[v\d+\]$", "", rows[k][1]) if k >= 0 else None

    return name_of


def inclusive(
    text: str, name_of, pairs: dict | None = None
) -> tuple[dict[str, int], dict[str, int], dict[str, int], int]:
    """Return (self, inclusive, calls) per kernel function and the total, from a callgrind file.

    ``pairs``, if given, collects [calls, inclusive cost] per (caller, callee).

    Calls between versions of one function (recursion) are not added twice: a call's cost is
    added to the caller's inclusive figure only when the callee is another function.
    """
    ids: dict[str, str] = {}
    own: dict[str, int] = defaultdict(int)
    incl: dict[str, int] = defaultdict(int)
    calls: dict[str, int] = defaultdict(int)
    total = 0
    cur = callee = None
    pending_calls = 0
    for line in text.splitlines():
        found = FN.match(line)
        if found:
            key, label = found.groups()
            if label is not None:
                ids[key] = label
            label = ids[key]
            resolved = None
            if label.startswith("0x"):
                resolved = name_of(int(label.split("'")[0], 16))  # 0x...'2: a recursion level
            resolved = resolved or "(outside the kernels)"
            if line.startswith("fn="):
                cur = resolved
            else:
                callee = resolved
            continue
        if line.startswith("calls="):
            pending_calls = int(line.split("=")[1].split()[0])
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        parts = line.split()
        if len(parts) < 2:
            continue
        cost = int(parts[1])
        if pending_calls:
            calls[callee] += pending_calls
            if pairs is not None:
                pair = pairs.setdefault((cur, callee), [0, 0])
                pair[0] += pending_calls
                pair[1] += cost
            if callee != cur:
                incl[cur] += cost
            pending_calls = 0
        else:
            own[cur] += cost
            incl[cur] += cost
            total += cost
    return own, incl, calls, total


def main() -> None:
    """Warm the cache, or run the games under callgrind and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--tables", default="games,seats,cards,turns")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--callers", default="", help="also print the callers of the functions named so (calls, cost)")
    ap.add_argument("--warm", action="store_true", help="compile (natively) and exit")
    ap.add_argument("--under-callgrind", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    r = resolve(RunSpec(game="cardwars", bots=tuple(a.bots.split(",")), seed=a.seed))
    tables = tuple(a.tables.split(","))
    if a.warm:
        kernel_speed.measure(r, a.seed, 10, tables)
        return
    if a.under_callgrind:
        tmp = Path(a.under_callgrind)
        kernel_speed.measure(r, a.seed, a.games, tables, kernel_speed.toggle_library(tmp))
        kernel_speed.symbol_map(tmp / "symbols.txt")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
            f"--callgrind-out-file={out}", sys.executable, __file__, *sys.argv[1:], "--under-callgrind", tmp,
        ]  # fmt: skip
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pairs: dict = {}
        own, incl, calls, total = inclusive(out.read_text(), names(Path(tmp) / "symbols.txt"), pairs)
    print(f"cardwars {a.bots} [{a.tables}] {a.games:,} games: {total / a.games:,.0f} instructions a game")
    print(f"{'inclusive':>9} {'self':>7} {'calls/game':>10} {'incl/call':>9}  function")
    for name, n in sorted(incl.items(), key=lambda kv: -kv[1])[: a.top]:
        c = calls.get(name, 0) / a.games
        per = f"{n / (c * a.games):9,.0f}" if c else f"{'':>9}"
        print(f"{n / total:9.1%} {own[name] / total:7.1%} {c:10.2f} {per}  {name}")
    if a.callers:
        print(f"\ncallers of *{a.callers}*: calls a game, inclusive instructions a game")
        for (caller, callee), (n, cost) in sorted(pairs.items(), key=lambda kv: -kv[1][1]):
            if a.callers in callee and caller != callee:
                print(f"{n / a.games:10.2f} {cost / a.games:10,.0f}  {caller} -> {callee}")


if __name__ == "__main__":
    main()
