"""Kernel speed of one game and bot line-up: games/s, decisions a game, and instructions a game under callgrind.

Games per CPU-second (this process's CPU time, so waiting for a core is not counted) still
swing with the machine's load (shared caches, frequency); instruction counts do not. ``--instructions``
re-runs this script under ``valgrind --tool=callgrind`` with instrumentation switched on
only around the measured ``play_chunk`` call (a tiny C helper issues callgrind's client
requests; ``gcc`` and valgrind's headers are needed), and prints the instructions executed
per game and per decision. Start-up, imports, the cache load and the warm-up are not
counted, so the figure repeats to within a few instructions a game from run to run. With
``--cache-sim`` callgrind also simulates the caches (``--cache-sim=yes``: first-level
instruction and data caches and the last level, no prefetcher) and the line adds the misses
a game; with ``--profile`` the table adds each function's instruction-cache misses a game.

Decisions are counted by the game's own audit (``GameSpec.check_games``) on the same games.

The measured games go through ``GameSpec.play_chunk`` by default, which allocates fresh record
buffers for the whole run: with the cards and turns tables that is hundreds of MB, and the
kernel (the operating system) zeroing those pages is counted too; the line shows that system
CPU time apart. ``--batches`` plays them as ``balance run`` does (``sims.core.batches``: buffers
of 2 048 games allocated once and refilled), which is the figure a run's kernel pays.

Examples (from the project root):
    .venv/bin/python benchmarks/kernel_speed.py --game blessings --bots greedy,greedy --games 200000
    .venv/bin/python benchmarks/kernel_speed.py --game cardrpg --bots greedy --games 2000 --instructions
    .venv/bin/python benchmarks/kernel_speed.py --game blessings --bots greedy,greedy --tables games,seats,cards,turns
    .venv/bin/python benchmarks/kernel_speed.py --game cardwars --tables games,seats,cards,turns --batches
    .venv/bin/python benchmarks/kernel_speed.py --game cardwars --games 500 --instructions --cache-sim --profile 20
"""

from __future__ import annotations

import argparse
import bisect
import ctypes
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from balance import bench
from balance.cli.options import parse_weights  # the CLI's --weight parser and its one-line errors
from balance.spec import RunSpec, SpecError, resolve
from sims.core import TABLES
from sims.core.batches import play_batches

TOGGLE_C = """
#include <valgrind/callgrind.h>
void start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; }
void stop(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; }
"""


def measure(
    r, seed: int, n_games: int, tables: tuple[str, ...], toggle=None, batches: bool = False
) -> tuple[float, float]:
    """Play the measured games once (after a warm-up); return the CPU seconds they took and the system part of it.

    ``batches``: through ``play_batches`` (reused buffers, as ``balance run``), not ``play_chunk``.
    """
    args = (r.params, r.pool, r.decks, r.bot_ids, r.weights, seed)
    r.game.play_chunk(*args, 0, 200, tables=tables)  # compile or load the cache; touch the code
    if toggle is not None:
        toggle.start()
    start = resource.getrusage(resource.RUSAGE_SELF)  # user and system CPU time, to the microsecond
    if batches:
        for _ in play_batches(r.game, *args, bench.FIRST_GAME, n_games, tables=tables):
            pass
    else:
        r.game.play_chunk(*args, bench.FIRST_GAME, n_games, tables=tables)
    end = resource.getrusage(resource.RUSAGE_SELF)
    if toggle is not None:
        toggle.stop()
    system = end.ru_stime - start.ru_stime
    return end.ru_utime - start.ru_utime + system, system


def symbol_map(path: Path) -> None:
    """Write the address of every compiled function Numba's engine knows (name<TAB>address lines) to ``path``."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    with path.open("w") as out:
        for name in sorted(engine._defined_symbols):
            address = engine.get_function_address(name)
            if address:
                out.write(f"{name}\t{address}\n")


def short_name(symbol: str) -> str:
    """Return ``module.function`` (with its Numba version tag) from a mangled Numba symbol."""
    parts, k = [], symbol.find("_ZN") + 3
    while k < len(symbol) and symbol[k].isdigit():
        j = k
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[k:j])
        parts.append(symbol[j : j + n])
        k = j + n
    tag = re.search(r"B\d+(v\d+)B", symbol)
    return ".".join(parts[-2:]) + (f"[{tag.group(1)}]" if tag else "") if parts else symbol


def event_columns(text: str) -> tuple[int, list[str]]:
    """Return where the cost columns of callgrind's cost lines start (after the positions) and the events' names."""
    positions = re.search(r"^positions:\s*(.*)$", text, re.MULTILINE)
    events = re.search(r"^events:\s*(.*)$", text, re.MULTILINE)
    if events is None:
        raise SystemExit("callgrind's output names no events")
    return len(positions.group(1).split()) if positions else 1, events.group(1).split()


def profile(text: str, symbols: Path, top: int, games: int = 1) -> list[str]:
    """Return the ``top`` functions by self instructions, from callgrind's per-instruction output.

    Each line: share of all instructions (self), self and inclusive instructions a game (the
    inclusive cost adds the calls the function makes; ``@hot`` functions are part of their
    callers), and the calls a game into it from compiled code; with the cache simulation, the
    function's own instruction-cache misses a game (``I1mr``).
    """
    first, events = event_columns(text)
    ir = first + events.index("Ir")
    i1 = first + events.index("I1mr") if "I1mr" in events else None
    misses: dict[str, int] = {}

    def column(parts: list[str], j: int | None) -> int:  # callgrind leaves out a line's trailing zeros
        return int(parts[j]) if j is not None and j < len(parts) else 0

    starts = sorted((int(a), short_name(n)) for n, a in (ln.split("\t") for ln in symbols.read_text().splitlines()))
    addresses = [a for a, _ in starts]
    outside = "(outside the kernels: Python, NumPy, the runtime)"
    cost: dict[str, int] = {}
    below: dict[str, int] = {}  # instructions of the calls each function makes
    calls: dict[str, int] = {}
    objects: dict[str, str] = {}  # callgrind's "(id)" -> object file; JIT code has none ("???")
    jit, callee_jit, skip = False, None, False

    def name_of(addr: int, in_jit: bool) -> str:
        k = bisect.bisect_right(addresses, addr) - 1
        return starts[k][1] if in_jit and k >= 0 else outside

    for line in text.splitlines():
        if line.startswith(("ob=", "cob=")):
            key, _, name = line.split("=", 1)[1].partition(" ")
            objects.setdefault(key, name)
            if line.startswith("ob="):
                jit = objects[key] == "???"
            else:
                callee_jit = objects[key] == "???"
            continue
        if line.startswith("calls="):
            count, target = line[6:].split()[:2]
            callee = name_of(int(target, 16), jit if callee_jit is None else callee_jit)
            calls[callee] = calls.get(callee, 0) + int(count)
            callee_jit, skip = None, True  # the next line is the inclusive cost of that call, not the caller's own
            continue
        if not line.startswith("0x"):
            continue
        parts = line.split()
        name = name_of(int(parts[0], 16), jit)
        if skip:
            skip = False
            below[name] = below.get(name, 0) + column(parts, ir)
            continue
        cost[name] = cost.get(name, 0) + column(parts, ir)
        misses[name] = misses.get(name, 0) + column(parts, i1)
    total = sum(cost.values())
    ranked = sorted(cost.items(), key=lambda kv: -kv[1])[:top]
    i1_head = f" {'I1 miss/game':>12}" if i1 is not None else ""
    lines = [f"{'self':>6} {'self/game':>12} {'incl/game':>12} {'calls/game':>10}{i1_head}  function"]
    for name, n in ranked:
        incl = (n + below.get(name, 0)) / games
        per_game = f"{n / games:>12,.0f} {incl:>12,.0f} {calls.get(name, 0) / games:>10,.1f}"
        if i1 is not None:
            per_game += f" {misses.get(name, 0) / games:>12,.0f}"
        lines.append(f"{n / total:6.1%} {per_game}  {name}")
    return lines


def toggle_library(tmp: Path) -> ctypes.CDLL:
    """Compile and load the callgrind start/stop helper."""
    src, lib = tmp / "toggle.c", tmp / "toggle.so"
    src.write_text(TOGGLE_C)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return ctypes.CDLL(str(lib))


def count_instructions(
    argv: list[str], top: int, games: int = 1, cache_sim: bool = False
) -> tuple[dict[str, int], list[str]]:
    """Run this script under callgrind (collection only around the measured games).

    Return the totals of every event (``Ir``: the instructions executed; with ``cache_sim``
    also the cache events, ``I1mr``, ``D1mr``, ...) and, if ``top`` > 0, the ``top`` functions
    by self cost.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind", "--tool=callgrind", *(["--cache-sim=yes"] if cache_sim else []),
            "--instr-atstart=no", "--collect-atstart=no",
            f"--callgrind-out-file={out}", *(["--dump-instr=yes", "--compress-pos=no"] if top else []),
            sys.executable, __file__, *argv, "--under-callgrind", tmp,
        ]  # fmt: skip
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = out.read_text()
        found = re.search(r"^totals:\s+(\d.*)$", text, re.MULTILINE)
        if found is None:
            raise SystemExit(f"{out}: no instruction total in callgrind's output")
        _, events = event_columns(text)
        values = [int(v) for v in found.group(1).split()]
        totals = dict(zip(events, values + [0] * (len(events) - len(values)), strict=True))
        caches = re.findall(r"^desc: (I1|D1|LL) cache:\s*(.*)$", text, re.MULTILINE)  # the simulated caches
        ranked = profile(text, Path(tmp) / "symbols.txt", top, games) if top else []
        return totals, [*(f"  simulated {name}: {what}" for name, what in caches), *ranked]


def parse_tables(ap: argparse.ArgumentParser, text: str) -> tuple[str, ...]:
    """Return the comma-separated table names of ``--tables``; exit with a one-line error on an unknown one.

    The names ``balance run --tables`` accepts (``sims.core.TABLES``); a run's per-chunk sums are
    computed outside the kernel, so they have no name here.
    """
    tables = tuple(t.strip() for t in text.split(",") if t.strip())
    bad = [t for t in tables if t not in TABLES]
    if bad or not tables:
        ap.exit(2, f"{Path(sys.argv[0]).name}: --tables: unknown table {', '.join(bad) or '(none)'}; "
                f"choose among {', '.join(TABLES)}\n")  # fmt: skip
    return tables


def main() -> None:
    """Parse the arguments, measure, print one line of figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blessings")
    ap.add_argument("--bots", default="greedy,greedy", help="comma-separated bot per seat")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--tables", default="games", help="comma-separated tables to record")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--weight", action="append", default=[], metavar="BOT.KEY=VALUE", help="a bot weight (repeatable)")
    ap.add_argument(
        "--batches", action="store_true", help="reuse the record buffers batch by batch, as balance run does"
    )
    ap.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    ap.add_argument(
        "--profile", type=int, default=0, metavar="N", help="with --instructions: the N costliest functions"
    )
    ap.add_argument(
        "--cache-sim", action="store_true", help="with --instructions: simulate the caches and print their misses"
    )
    ap.add_argument("--under-callgrind", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    bots, tables = tuple(a.bots.split(",")), parse_tables(ap, a.tables)
    try:
        spec = RunSpec(
            game=a.game, bots=bots, variant=a.variant, seed=a.seed, bot_weights=parse_weights(tuple(a.weight))
        )
        r = resolve(spec)
    except SpecError as exc:
        ap.exit(2, f"kernel_speed.py: {exc}\n")
    if a.under_callgrind:
        measure(r, a.seed, a.games, tables, toggle_library(Path(a.under_callgrind)), a.batches)
        symbol_map(Path(a.under_callgrind) / "symbols.txt")
        return
    n_dec = round(bench.decisions_per_game(spec, a.games) * a.games)
    what = f"[{','.join(tables)}{', batches' if a.batches else ''}]"
    line = f"{a.game} {'/'.join(bots)} {what} {a.games:,} games, {n_dec / a.games:.2f} decisions a game"
    if a.instructions:
        argv = [x for x in sys.argv[1:] if x not in ("--instructions", "--cache-sim")]
        totals, ranked = count_instructions(argv, a.profile, a.games, a.cache_sim)
        ins = totals["Ir"]
        line += f": {ins / a.games:,.0f} instructions a game, {ins / n_dec:,.1f} a decision"
        if a.cache_sim:
            i1, d1 = totals["I1mr"], totals["D1mr"] + totals["D1mw"]
            ll = totals["ILmr"] + totals["DLmr"] + totals["DLmw"]
            line += (
                f"; misses a game: instruction cache {i1 / a.games:,.0f} ({i1 * 1000 / ins:.2f} per 1,000"
                f" instructions), data cache {d1 / a.games:,.0f}, last level {ll / a.games:,.0f}"
            )
        line = "\n".join([line, *ranked])
    else:
        secs, system = measure(r, a.seed, a.games, tables, batches=a.batches)
        line += f": {a.games / secs:,.0f} games per CPU-second, {secs * 1e9 / n_dec:.1f} ns a decision"
        line += f" (system {system / secs:.1%} of it; load {os.getloadavg()[0]:.2f})"
    print(line)


if __name__ == "__main__":
    main()
