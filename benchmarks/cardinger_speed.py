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
- ``play``: play ``N`` games with the given tables and exit (what ``instr`` runs under valgrind).

Example (from the project root):
    .venv/bin/python benchmarks/cardinger_speed.py rate -n 1000000 --repeat 3
    .venv/bin/python benchmarks/cardinger_speed.py instr
    .venv/bin/python benchmarks/cardinger_speed.py compile
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sims
from sims.cardinger import kernel
from sims.core.spec import TABLES

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


def play(n: int, tables: tuple[str, ...], bot: str = "greedy", toggle=None) -> float:
    """Play ``n`` games (after 200-game warm-ups of every entry point) and return their CPU seconds.

    ``toggle`` (a library with ``start``/``stop``: callgrind's client requests) brackets the games.
    """
    args = inputs(bot)
    for warm in (("games",), TABLES):  # compile or load the cached kernels
        GAME.play_chunk(*args, SEED, n, 200, warm)
    start = time.process_time()
    if toggle is not None:
        toggle.start()
    GAME.play_chunk(*args, SEED, 0, n, tables)
    if toggle is not None:
        toggle.stop()
    return time.process_time() - start


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("rate")
    p.add_argument("-n", "--n-games", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p = sub.add_parser("instr")
    p.add_argument("-n", "--n-games", type=int, default=20_000)
    p = sub.add_parser("compile")
    p = sub.add_parser("play")
    p.add_argument("n", type=int)
    p.add_argument("--tables", default="games")
    p.add_argument("--toggle", default=None, help=argparse.SUPPRESS)  # a directory: build callgrind's toggle
    for p in sub.choices.values():
        p.add_argument("--bot", default="greedy", choices=GAME.bots)
    args = parser.parse_args()
    if args.cmd == "play":
        play(args.n, tuple(args.tables.split(",")), args.bot, args.toggle and toggle_library(args.toggle))
    else:
        {"rate": rate, "instr": instr, "compile": compile_times}[args.cmd](args)


if __name__ == "__main__":
    main()
