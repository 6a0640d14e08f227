"""Where the Blessings kernel's time goes: CPU samples per compiled function and per instruction (``perf record``).

``cardinger_profile.py`` for Blessings & Curses (its report: samples per function, ``--asm N`` the N
instructions with the most samples, ``--listing FUNC`` the annotated machine code of every function
whose name contains FUNC), on ``kernel_speed.py``'s set-up: ``--bots``, ``--weight BOT.KEY=VALUE``,
games table only, through ``play_batches`` as ``balance run`` plays.

Example (from the project root):
    .venv/bin/python benchmarks/blessings_profile.py --games 300000 --listing choose > /tmp/choose.txt
    .venv/bin/python benchmarks/blessings_profile.py --games 300000 --weight greedy.order=0 --asm 30
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardinger_profile
import kernel_speed

SEED = 12345


def play(a: argparse.Namespace, tmp: Path) -> None:
    """Warm up, write the perf map and the functions' code bytes, play the measured games (under perf)."""
    from balance.cli.options import parse_weights
    from balance.spec import RunSpec, resolve
    from sims.core.batches import play_batches

    spec = RunSpec(
        game="blessings", bots=tuple(a.bots.split(",")), seed=SEED, bot_weights=parse_weights(tuple(a.weight))
    )
    r = resolve(spec)
    args = (r.params, r.pool, r.decks, r.bot_ids, r.weights, SEED)
    r.game.play_chunk(*args, 0, 200, tables=("games",))
    symbols = tmp / "symbols.txt"
    kernel_speed.symbol_map(symbols)
    rows = sorted((int(x), n) for n, x in (ln.split("\t") for ln in symbols.read_text().splitlines()))
    funcs = []
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (start, name) in enumerate(rows):
            size = min(rows[i + 1][0] - start if i + 1 < len(rows) else 4096, 1 << 16)
            short = kernel_speed.short_name(name)
            out.write(f"{start:x} {size:x} {short}\n")
            funcs.append({"start": start, "size": size, "name": short})
            (tmp / f"code_{start:x}.bin").write_bytes(ctypes.string_at(start, size))
    (tmp / "funcs.json").write_text(json.dumps(funcs))
    (tmp / "pid").write_text(str(os.getpid()))
    t = time.process_time()
    for _ in play_batches(r.game, *args, 1000, a.games, tables=("games",)):
        pass
    print(f"{a.games / (time.process_time() - t):,.0f} games per CPU-second (under perf)", file=sys.stderr)


def main() -> None:
    """Run the games under ``perf record`` (or, with --child, play them); print the profile."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300_000)
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--weight", action="append", default=[], metavar="BOT.KEY=VALUE")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--asm", type=int, default=0, help="also print the N instructions with the most samples")
    ap.add_argument("--listing", default="", help="also print the annotated code of the functions named so")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        play(a, Path(a.child))
        return
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", str(tmp / "perf.data")]
        try:
            subprocess.run([*cmd, sys.executable, __file__, *sys.argv[1:], "--child", name], check=True)
            cardinger_profile.report(a, tmp)
        finally:
            pid = tmp / "pid"
            if pid.exists():
                Path(f"/tmp/perf-{pid.read_text()}.map").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
