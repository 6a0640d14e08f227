"""Which branches the Cardinger kernel mispredicts, site by site, beside the C twin's source lines (issue 13).

``cardinger_branches.py`` counts mispredictions per compiled function; this script goes one level
down. The kernel (valgrind-safe haswell build in a cache of its own, compiled natively first, as
``cardinger_branches.py`` does) plays ``-n`` greedy-mirror games under ``callgrind
--branch-sim=yes --dump-instr=yes``; each conditional branch of the ``--functions`` is printed
with its executions and mispredictions a game and its instruction, disassembled (``objdump``)
from the code bytes the measured run copied out of its memory.
Then the inlined C twin (built with ``-g``) on the same games: its most mispredicted source lines
(``callgrind_annotate``). Callgrind's predictor is a simple model, not the hardware's: use the
sites to compare the two builds' code, not to predict time. Prints figures only.

Example (from the project root; a few minutes, most of it the haswell compile):
    .venv/bin/python benchmarks/cardinger_branch_sites.py -n 2000 --top 15
"""

from __future__ import annotations

import argparse
import bisect
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import cardinger_speed
import kernel_speed
import twin

HERE = Path(__file__).resolve()
FUNCTIONS = "greedy_field_action,play_or_retire,play_game"
CODE_LINE = re.compile(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)")
ANNOTATED = re.compile(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)$")


def compiled(symbols: Path) -> list[tuple[int, str]]:
    """Return (address, symbol) of every compiled function in ``symbols`` (``kernel_speed.symbol_map``), sorted."""
    return sorted((int(a), n) for n, a in (ln.split("\t") for ln in symbols.read_text().splitlines()))


def child(n: int, tmp: Path, toggle: bool) -> None:
    """Play ``n`` games; write the symbol map and each kernel function's code bytes (``tmp/code``).

    The native run only compiles: a function compiled in the process and the same function loaded
    from Numba's cache are not byte for byte the same code, so the valgrind run (which loads the
    cache) copies its own."""
    cardinger_speed.play(n, ("games",), "greedy", cardinger_speed.toggle_library(str(tmp)) if toggle else None)
    symbols = tmp / "symbols.txt"
    kernel_speed.symbol_map(symbols)
    rows = compiled(symbols)
    (tmp / "code").mkdir(exist_ok=True)
    for k, (start, name) in enumerate(rows):
        if name.startswith("_ZN4sims"):  # the function itself, not its CPython wrapper or cfunc
            size = min(rows[k + 1][0] - start if k + 1 < len(rows) else 1 << 16, 1 << 18)
            (tmp / "code" / f"{kernel_speed.short_name(name)}.bin").write_bytes(ctypes.string_at(start, size))


def instruction_costs(out: Path) -> tuple[list[str], dict[int, list[int]]]:
    """Return (events, self cost per instruction address) of a callgrind ``--dump-instr=yes`` output file."""
    events: list[str] = []
    npos, last, after_call = 1, 0, False
    cost: dict[int, list[int]] = {}
    for line in out.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("positions:"):
            npos = len(line.split()) - 1
        elif line.startswith("calls="):
            after_call = True  # the next cost line is the call's inclusive cost
        elif line and (line[0] in "+-*" or line[0].isdigit()):
            parts = line.split()
            p = parts[0]
            last = int(p, 16) if p.startswith("0x") else last if p == "*" else last + int(p) if p[0] in "+-" else int(p)
            if after_call:
                after_call = False
                continue
            vals = [int(x) for x in parts[npos:]] + [0] * len(events)
            old = cost.get(last, [0] * len(events))
            cost[last] = [a + b for a, b in zip(old, vals[: len(events)], strict=True)]
    return events, cost


def disassembly(code: Path) -> dict[int, str]:
    """Return instruction text by offset of the code bytes in ``code``."""
    if not code.exists():
        return {}
    cmd = ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", str(code)]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {int(m.group(1), 16): m.group(2).strip() for m in map(CODE_LINE.match, text.splitlines()) if m}


def kernel_sites(n: int, tmp: Path, wanted: list[str], top: int) -> list[str]:
    """Run the kernel under callgrind; return the ``top`` most mispredicted branches of each wanted function."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp / "haswell"), "NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": ""}
    cmd = [sys.executable, str(HERE), "child", str(n), str(tmp)]
    subprocess.run(cmd, env=env, check=True, capture_output=True)  # compile natively, copy the code out
    out = tmp / "kernel.out"
    grind = ["valgrind", "--tool=callgrind", "--branch-sim=yes", "--dump-instr=yes", "--instr-atstart=no"]
    grind += ["--collect-atstart=no", f"--callgrind-out-file={out}"]
    subprocess.run([*grind, *cmd, "toggle"], env=env, check=True, capture_output=True)
    events, cost = instruction_costs(out)
    rows = [(a, kernel_speed.short_name(s)) for a, s in compiled(tmp / "symbols.txt") if s.startswith("_ZN4sims")]
    starts = [a for a, _ in rows]
    sites: dict[str, dict[int, list[int]]] = defaultdict(dict)
    for address, vals in cost.items():
        k = bisect.bisect_right(starts, address) - 1
        if k >= 0 and any(w in rows[k][1] for w in wanted):
            sites[rows[k][1]][address - rows[k][0]] = vals
    bc, bcm = events.index("Bc"), events.index("Bcm")
    lines = []
    for name, offsets in sorted(sites.items()):
        code = disassembly(tmp / "code" / f"{name}.bin")
        total = sum(v[bcm] for v in offsets.values()) / n
        lines.append(f"  kernel {name}: {total:,.1f} mispredicted a game; most mispredicted branches (offset, a game):")
        ranked = sorted(offsets.items(), key=lambda kv: -kv[1][bcm])[:top]
        for off, v in ranked:
            lines.append(f"    +{off:5x}  {v[bcm] / n:7.1f} of {v[bc] / n:7.1f}  {code.get(off, '?')}")
    return lines


def twin_lines(n: int, tmp: Path, top: int) -> list[str]:
    """Run the inlined C twin under callgrind; return its ``top`` most mispredicted source lines (a game)."""
    inputs = tmp / "inputs.txt"
    inputs.write_text(twin.inputs_text())
    binary = twin.build(tmp, (), (*twin.VALGRIND_FLAGS, "-g"))
    out = tmp / "twin.out"
    grind = ["valgrind", "--tool=callgrind", "--branch-sim=yes", f"--callgrind-out-file={out}"]
    subprocess.run(
        [*grind, str(binary), str(inputs), str(n), str(cardinger_speed.SEED)], check=True, capture_output=True
    )
    cmd = ["callgrind_annotate", "--auto=yes", "--show=Bc,Bcm", "--threshold=100", str(out)]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    found = []
    for m in map(ANNOTATED.match, text.splitlines()):
        src = m.group(3) if m else ""
        if src and not src.startswith(("events", "/", ".", "=>", "PROGRAM")) and ":" not in src.split(" ")[0]:
            found.append((int(m.group(2).replace(",", "")), int(m.group(1).replace(",", "")), m.group(3).strip()))
    found.sort(reverse=True)
    lines = ["  C twin (inlined): most mispredicted source lines (a game):"]
    lines += [f"    {bcm / n:7.1f} of {bc / n:7.1f}  {src[:100]}" for bcm, bc, src in found[:top]]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--n-games", type=int, default=2000)
    parser.add_argument("--top", type=int, default=15, help="branches / lines listed per function / for the twin")
    parser.add_argument("--functions", default=FUNCTIONS, help="kernel functions (comma-separated name parts)")
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        child(int(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:] == ["toggle"])
        return
    a = parser.parse_args()
    print(f"cardinger greedy mirror, modern, games table, {a.n_games} games: callgrind's branch model, per site")
    with tempfile.TemporaryDirectory() as tmp:
        print("\n".join(kernel_sites(a.n_games, Path(tmp), a.functions.split(","), a.top)))
        print("\n".join(twin_lines(a.n_games, Path(tmp), 2 * a.top)))


if __name__ == "__main__":
    main()
