"""Where Card Wars' kernel time goes: CPU samples per compiled function (``perf record``), rules vs bot.

``kernel_speed.py --instructions`` counts instructions under callgrind, but callgrind runs
the cached kernels only if they were compiled for a CPU valgrind can emulate: on this
machine (AVX-512) the native cache misses and Card Wars recompiles under valgrind for
hours. This script needs no recompile: it runs itself under ``perf record -e cpu-clock``
(software sampling; works without hardware counters), writes a perf map of every compiled
function (``/tmp/perf-PID.map``, addresses from Numba's engine) after the warm-up, and
prints each function's share of the samples taken in compiled code, versions merged, with
the split bot (greedy, uses, gains, values, options, planner, bots) / counts and stats
(``stats.py``, ``marks.py``) / rules engine. ``@hot`` functions are inlined: their cost shows in the
caller.

To count instructions with callgrind instead, give both runs the same valgrind-safe target
(compiles once natively, then the valgrind run loads that cache):
    NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES= .venv/bin/python benchmarks/kernel_speed.py --game cardwars --games 2000
    NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES= .venv/bin/python benchmarks/kernel_speed.py --game cardwars \
        --games 2000 --instructions --profile 40

With ``--asm N`` it also disassembles the compiled functions' machine code (read from memory,
``objdump``) and prints the N instructions with the most samples, and with ``--listing FUNC``
the annotated listing of every function whose name contains FUNC (as ``cardinger_profile.py``;
a sample lands on the instruction after the one that stalled).

Example (from the project root):
    .venv/bin/python benchmarks/cardwars_profile.py --bots greedy,greedy --games 20000 --tables games,seats,cards,turns
    .venv/bin/python benchmarks/cardwars_profile.py --games 50000 --listing greedy.decide > /tmp/decide.txt
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import json
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

BOT = ("greedy.", "uses.", "gains.", "values.", "options.", "bots.", "planner.")
STATS = ("stats.", "marks.")
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
    funcs = []
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (start, name) in enumerate(rows):
            size = min(rows[i + 1][0] - start if i + 1 < len(rows) else 4096, 1 << 20)
            out.write(f"{start:x} {size:x} {kernel_speed.short_name(name)}\n")
            if a.asm or a.listing:
                size = min(size, 1 << 16)
                funcs.append({"start": start, "size": size, "name": kernel_speed.short_name(name)})
                (Path(a.child).parent / f"code_{start:x}.bin").write_bytes(ctypes.string_at(start, size))
    (Path(a.child).parent / "funcs.json").write_text(json.dumps(funcs))
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
    lines = [f"bot {bot:.1%}, counts and stats (stats.py, marks.py) {stats:.1%}, rules engine {1 - bot - stats:.1%}"]
    lines += [f"{v / total:6.1%}  {k}" for k, v in share.most_common(top)]
    return lines


INSN = re.compile(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$")


def disassemble(tmp: Path, f: dict) -> list[tuple[int, str]]:
    """Return (address, instruction text) of function ``f``'s code bytes."""
    out = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={f['start']:#x}",
         str(tmp / f"code_{f['start']:x}.bin")],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return [(int(m.group(1), 16), m.group(2).strip()) for m in map(INSN.match, out.splitlines()) if m]


def instructions(data: Path, tmp: Path, asm: int, listing: str) -> list[str]:
    """Return the ``asm`` instructions with the most samples and the listings of the functions named ``listing``."""
    funcs = json.loads((tmp / "funcs.json").read_text())
    out = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], check=True, capture_output=True, text=True)
    ips = collections.Counter(int(x, 16) for x in out.stdout.split())
    per_func: collections.Counter[str] = collections.Counter()
    where: dict[int, tuple[str, int]] = {}
    for f in funcs:
        for ip in range(f["start"], f["start"] + f["size"]):
            if ip in ips:
                per_func[f["name"]] += ips[ip]
                where[ip] = (f["name"], ip - f["start"])
    compiled = sum(per_func.values()) or 1
    text: dict[int, str] = {}
    lines = []
    for f in funcs:
        if per_func[f["name"]] and (asm or listing in f["name"]):
            text.update(disassemble(tmp, f))
    if asm:
        lines.append(f"\nthe {asm} instructions with the most samples (share of compiled-code samples):")
        for ip, n in sorted(((ip, ips[ip]) for ip in where), key=lambda x: -x[1])[:asm]:
            name, off = where[ip]
            lines.append(f"  {n / compiled:6.2%}  {name}+{off:#x}  {text.get(ip, '?')}")
    for f in funcs if listing else ():
        if listing in f["name"] and per_func[f["name"]]:
            lines.append(f"\n{f['name']}: {per_func[f['name']] / compiled:.1%} of compiled-code samples")
            for ip, ins in disassemble(tmp, f):
                n = ips.get(ip, 0)
                lines.append(f"  {f'{n / compiled:6.2%}' if n else '':>6s} {ip - f['start']:5x}  {ins}")
    return lines


def main() -> None:
    """Run the games under ``perf record`` (or, with --child, play them); print the profile."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--tables", default="games,seats,cards,turns")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--asm", type=int, default=0, help="also print the N instructions with the most samples")
    ap.add_argument("--listing", default="", help="also print the annotated code of the functions named so")
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
            if a.asm or a.listing:
                print("\n".join(instructions(data, Path(tmp), a.asm, a.listing)))
        finally:
            Path(f"/tmp/perf-{pid.read_text()}.map").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
