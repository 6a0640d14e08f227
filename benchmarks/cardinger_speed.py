"""Cardinger kernel speed: greedy mirror, modern rules, one core. Prints figures only (never asserts).

Subcommands (each figure line carries the load average it was measured under):

- ``rate``: games/s and games per CPU-second of ``play_chunk`` (compile/cache load excluded),
  games table only and with every table, median of ``--repeat`` alternating runs, and ns per
  bot decision (decisions per game from ``check_games`` on the first 20 000 games).
- ``instr``: instructions per game and per decision under ``valgrind --tool=callgrind``, counted
  only around the measured ``play_chunk`` call (a tiny C library built with ``gcc`` issues
  callgrind's client requests; valgrind's headers are needed). Machine load does not change
  it: the before/after figure to trust.
- ``compile``: cold compilation (fresh ``NUMBA_CACHE_DIR``) and warm start (import, cache load
  and 200 games per entry point) in fresh processes, seconds of wall clock and of CPU.
- ``twin``: the proof that the C twin (``benchmarks/cardinger_twin``) plays the kernel's games:
  every column of the games and seats tables and the decision count, on ``-n`` games.
- ``ratio``: C twin and kernel side by side on the same games, one core each (``taskset``),
  median of ``--repeat`` alternating runs: games table only (plain twin) and games + seats
  (``-DTALLY`` twin, the kernel's bookkeeping), games per CPU-second, ns per decision and
  kernel / C. Also the instructions per game of both under callgrind with ``--instr N``.
  ``--paired``: both at once, one on each of cores 0 and 1, then swapped; kernel / C is then
  the median of the pairs' ratios, which the machine's drift from minute to minute does not move.
- ``play``: play ``N`` games with the given tables and exit (what ``instr`` and ``ratio`` run).

Example (from the project root):
    .venv/bin/python benchmarks/cardinger_speed.py rate -n 1000000 --repeat 3
    .venv/bin/python benchmarks/cardinger_speed.py instr
    .venv/bin/python benchmarks/cardinger_speed.py compile
    .venv/bin/python benchmarks/cardinger_speed.py twin -n 200000
    .venv/bin/python benchmarks/cardinger_speed.py ratio -n 1000000 --repeat 3
    .venv/bin/python benchmarks/cardinger_speed.py ratio -n 1000000 --repeat 3 --paired
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import sims
from sims.cardinger import kernel
from sims.core.spec import TABLES

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cardinger_twin"))
import twin  # benchmarks/cardinger_twin/twin.py (benchmarks/ is not a package)

GAME = sims.load("cardinger")
SEED = 2026


def load() -> str:
    """Return the 1/5/15-minute load averages as text."""
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def inputs(bot: str = "greedy"):
    """Return (params, pool, decks, bot ids, weights) of a ``bot`` mirror under the modern rules."""
    params = GAME.make_params("modern")
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), np.int16)
    ids = np.array([GAME.bots.index(bot)] * 2, np.int64)
    weights = np.stack([GAME.make_weights(bot)] * 2)
    return params, pool, decks, ids, weights


TOGGLE_C = """
#include <valgrind/callgrind.h>
void start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; }
void stop(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; }
"""


def play(n: int, tables: tuple[str, ...], bot: str = "greedy", toggle=None, ready: bool = False) -> tuple[float, float]:
    """Play ``n`` games (after 200-game warm-ups of every entry point); return their (CPU, wall) seconds.

    ``toggle`` (a library with ``start``/``stop``: callgrind's client requests) brackets the games;
    ``ready`` prints a line ``ready`` just before them (``ratio --paired`` starts the C twin then).
    """
    args = inputs(bot)
    for warm in (("games",), TABLES):  # compile or load the cached kernels
        GAME.play_chunk(*args, SEED, n, 200, warm)
    if ready:
        print("ready", flush=True)
    start, start_wall = time.process_time(), time.perf_counter()
    if toggle is not None:
        toggle.start()
    GAME.play_chunk(*args, SEED, 0, n, tables)
    if toggle is not None:
        toggle.stop()
    return time.process_time() - start, time.perf_counter() - start_wall


def decisions_per_game(n: int = 20_000, bot: str = "greedy") -> float:
    """Return the mean number of bot decisions per game over games ``0 .. n-1`` (``check_games``)."""
    params, pool, decks, ids, weights = inputs(bot)
    report = np.zeros(4, np.int64)
    kernel.check_games(params, pool.table, decks, ids, weights, np.uint64(SEED), 0, n, report)
    return report[0] / n


def rate(args) -> None:
    """Print the median games/s (wall and CPU) of alternating games-only / every-table runs."""
    per_game = decisions_per_game(bot=args.bot)
    runs = {"games": ("games",), "every table": TABLES}
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    args_ = inputs(args.bot)
    for tables in runs.values():
        GAME.play_chunk(*args_, SEED, 0, 200, tables)  # compile / load
    for _ in range(args.repeat):
        for name, tables in runs.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            GAME.play_chunk(*args_, SEED, 0, args.n_games, tables)
            wall[name].append(args.n_games / (time.perf_counter() - start))
            cpu[name].append(args.n_games / (time.process_time() - start_cpu))
    print(f"cardinger {args.bot} mirror, modern, {args.n_games} games, median of {args.repeat}, ", end="")
    print(f"{per_game:.1f} decisions/game")
    for name in runs:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        ns = 1e9 / (c * per_game)
        print(f"  {name:12s}: {w:9.0f} games/s wall, {c:9.0f} games/CPU-s, {ns:5.1f} ns/decision ({load()})")


def toggle_library(tmp: str):
    """Build and load the tiny C library whose ``start``/``stop`` switch callgrind's collection on and off."""
    src, lib = os.path.join(tmp, "toggle.c"), os.path.join(tmp, "toggle.so")
    with open(src, "w") as f:
        f.write(TOGGLE_C)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", lib, src], check=True)
    return ctypes.CDLL(lib)


def instructions(n: int, tables: str, bot: str) -> int:
    """Return the instructions callgrind counts while one process plays ``n`` games (start-up not counted)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no"]
        cmd += [f"--callgrind-out-file={out}", sys.executable, __file__, "play", str(n), "--tables", tables]
        subprocess.run([*cmd, "--bot", bot, "--toggle", tmp], capture_output=True, check=True)
        with open(out) as f:
            return int(re.search(r"^totals:\s+(\d+)", f.read(), re.MULTILINE).group(1))


def instr(args) -> None:
    """Print instructions per game and per decision (callgrind, only around the measured games)."""
    play(200, ("games",), args.bot)  # make sure the cache is warm before valgrind loads it
    per_game = decisions_per_game(args.n_games, args.bot)
    for tables in ("games", ",".join(TABLES)):
        per = instructions(args.n_games, tables, args.bot) / args.n_games
        print(
            f"  {tables:24s}: {per:9.0f} instructions/game, {per / per_game:6.1f} per decision ({args.n_games} games)"
        )


def compile_times(args) -> None:
    """Print the cold compile and warm start of the kernel in fresh processes."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold compile", "warm start"):
            start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            cmd = [sys.executable, __file__, "play", "200", "--bot", args.bot]
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_s = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
            print(f"  {label}: {wall:6.1f} s wall, {cpu_s:6.1f} s CPU; fresh process, import + 200 games ({load()})")


def twin_check(args) -> None:
    """Print whether the C twin plays the kernel's games (every games/seats column, decisions)."""
    result = twin.check(args.n_games, SEED)
    same = not result["mismatches"] and result["decisions"][0] == result["decisions"][1]
    print(f"C twin vs kernel, greedy mirror, modern, games 0..{args.n_games - 1} (seed {SEED}): ", end="")
    print(f"{result['games']} games, {result['seats']} seat rows compared column by column; ", end="")
    print(f"decisions C {result['decisions'][0]}, kernel {result['decisions'][1]} ", end="")
    print(
        f"({result['decisions'][1] / args.n_games:.2f}/game): "
        + ("IDENTICAL" if same else f"DIFFER {result['mismatches']}")
    )


def pinned(cmd: list[str], core: int | None) -> list[str]:
    """Return ``cmd`` pinned to ``core`` with taskset (unchanged when there is none)."""
    return ["taskset", "-c", str(core), *cmd] if core is not None and shutil.which("taskset") else cmd


def kernel_run(n: int, tables: str, core: int | None, ready=None) -> tuple[float, float]:
    """Return (CPU, wall) seconds of ``n`` kernel games in a fresh pinned process (start-up and compile excluded).

    ``ready`` (if given) is called when the process has loaded its kernel and starts the timed games.
    """
    cmd = pinned([sys.executable, __file__, "play", str(n), "--tables", tables, "--report", "--ready"], core)
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() == "ready" and ready is not None:
            ready()
        out = proc.stdout.read()
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, cmd, out)
    m = re.search(r"cpu ([\d.]+) wall ([\d.]+)", out)
    return float(m.group(1)), float(m.group(2))


def callgrind_total(cmd: list[str]) -> int:
    """Return the instructions callgrind counts for ``cmd`` (a whole process)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd], capture_output=True, check=True
        )
        with open(out) as f:
            return int(re.search(r"^totals:\s+(\d+)", f.read(), re.MULTILINE).group(1))


def ratio(args) -> None:
    """Print C twin vs kernel on the same games, one core each, median of alternating runs; kernel / C."""
    play(200, ("games",))  # compile or load the cached kernel before any timing
    core = args.core if args.core >= 0 else None
    runs = {"games": ((), "games"), "games+seats": (("TALLY",), "games,seats")}
    cpu: dict[tuple[str, str], list[float]] = {(k, side): [] for k in runs for side in ("C", "kernel")}
    loads = []
    with tempfile.TemporaryDirectory() as tmp:
        inputs = os.path.join(tmp, "inputs.txt")
        with open(inputs, "w") as f:
            f.write(twin.inputs_text())
        binaries = {name: twin.build(tmp, defines) for name, (defines, _) in runs.items()}
        per_game = None
        pairs: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, (_, tables) in runs.items():
                for c_core, k_core in ((0, 1), (1, 0)) if args.paired else ((core, core),):
                    loads.append(os.getloadavg()[0])
                    twin_args = (binaries[name], inputs, args.n_games, SEED)
                    if args.paired:  # the twin starts once the kernel's process is ready: the timed loops overlap
                        with ThreadPoolExecutor(1) as beside:
                            c_run = []

                            def ready(a=twin_args, pin=c_core, c_run=c_run) -> None:
                                c_run.append(beside.submit(twin.run, *a, pin=pin))

                            k = kernel_run(args.n_games, tables, k_core, ready=ready)[0]
                            c = c_run[0].result()
                    else:
                        c = twin.run(*twin_args, pin=core)
                        k = kernel_run(args.n_games, tables, core)[0]
                    per_game = c["decisions"] / args.n_games
                    cpu[name, "C"].append(c["cpu"])
                    cpu[name, "kernel"].append(k)
                    pairs[name].append(c["cpu"] / k)
        instr = {}
        if args.instr:
            for name, (_, tables) in runs.items():
                c_bin = twin.build(tmp, runs[name][0], twin.VALGRIND_FLAGS)
                c_cmd = [str(c_bin), inputs, str(args.instr), str(SEED)]
                instr[name, "C"] = callgrind_total(c_cmd) / args.instr
                instr[name, "kernel"] = instructions(args.instr, tables, "greedy") / args.instr
    print(f"cardinger greedy mirror, modern: C twin vs kernel on the same {args.n_games} games (seed {SEED}), ", end="")
    how = (
        f"at the same time on cores 0 and 1, then swapped, {2 * args.repeat} pairs "
        "(kernel/C: median of the pairs' ratios)"
        if args.paired
        else f"one core each{'' if core is None else f' (taskset -c {core})'}, median of {args.repeat} alternating runs"
    )
    print(how + ", ", end="")
    print(f"{per_game:.2f} decisions/game; load 1-min {min(loads):.2f}-{max(loads):.2f}, now {load()}")
    head = f"  {'tables':12s} {'C games/CPU-s':>14s} {'ns/dec':>7s} {'kernel games/CPU-s':>19s} {'ns/dec':>7s}"
    print(head + f" {'kernel/C':>9s}", end="")
    print(f" {'C instr/game':>13s} {'kernel instr/game':>18s}" if instr else "")
    for name in runs:
        c, k = statistics.median(cpu[name, "C"]), statistics.median(cpu[name, "kernel"])
        c_rate, k_rate = args.n_games / c, args.n_games / k
        line = f"  {name:12s} {c_rate:14.0f} {1e9 * c / (args.n_games * per_game):7.1f} {k_rate:19.0f}"
        shown = statistics.median(pairs[name]) if args.paired else k_rate / c_rate
        line += f" {1e9 * k / (args.n_games * per_game):7.1f} {shown:9.3f}"
        if args.paired:
            line += "  (pairs " + " ".join(f"{r:.3f}" for r in pairs[name]) + ")"
        if instr:
            line += f" {instr[name, 'C']:13.0f} {instr[name, 'kernel']:18.0f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("rate")
    p.add_argument("-n", "--n-games", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p = sub.add_parser("instr")
    p.add_argument("-n", "--n-games", type=int, default=20_000)
    p = sub.add_parser("compile")
    p = sub.add_parser("twin")
    p.add_argument("-n", "--n-games", type=int, default=200_000)
    p = sub.add_parser("ratio")
    p.add_argument("-n", "--n-games", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--core", type=int, default=1, help="CPU to pin both sides to (-1: no pinning)")
    p.add_argument(
        "--paired",
        action="store_true",
        help="run C and kernel at the same time, one on each of cores 0 and 1, then swapped: a ratio the"
        " machine's drift from minute to minute does not move (the two sides do not slow each other)",
    )
    p.add_argument("--instr", type=int, default=0, help="also count instructions/game on this many games (callgrind)")
    p = sub.add_parser("play")
    p.add_argument("n", type=int)
    p.add_argument("--tables", default="games")
    p.add_argument("--report", action="store_true", help="print the CPU and wall seconds of the games")
    p.add_argument("--toggle", default=None, help=argparse.SUPPRESS)  # a directory: build callgrind's toggle
    p.add_argument("--ready", action="store_true", help="print 'ready' just before the timed games")
    for p in sub.choices.values():
        p.add_argument("--bot", default="greedy", choices=GAME.bots)
    args = parser.parse_args()
    if args.cmd == "play":
        toggle = args.toggle and toggle_library(args.toggle)
        secs = play(args.n, tuple(args.tables.split(",")), args.bot, toggle, args.ready)
        if args.report:
            print(f"cpu {secs[0]:.4f} wall {secs[1]:.4f}")
    else:
        {"rate": rate, "instr": instr, "compile": compile_times, "twin": twin_check, "ratio": ratio}[args.cmd](args)


if __name__ == "__main__":
    main()
