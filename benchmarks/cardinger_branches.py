"""Where the Cardinger kernel's time goes that instruction counts do not show: branches and cache, kernel vs C twin.

Runs callgrind with ``--branch-sim=yes --cache-sim=yes`` on ``-n`` greedy-mirror games (modern,
games table) of the kernel and of the C twin, inlined as timed by ``cardinger_speed.py ratio``
and built ``-DKERNEL_CALLS`` (its functions kept as calls, as the kernel's are), and prints per
game: instructions, instruction-fetch (I1) misses, data reads and writes, D1 and last-level misses,
conditional branches and how many callgrind's predictor model mispredicts, indirect branches and
their mispredictions; then each side's costliest functions. Callgrind simulates a simple predictor and cache, so
compare kernel with C, not with the hardware; machine load does not change the counts.

The kernel runs on a valgrind-safe build (``NUMBA_CPU_NAME=haswell``, no extra CPU features, in a
cache of its own: the default build uses AVX-512, which valgrind cannot run), compiled natively
first; only the measured games are counted (callgrind's client requests, as ``cardinger_speed.py
instr``). The twin is built with ``twin.VALGRIND_FLAGS``.

Example (from the project root; about 3 minutes on a quiet machine, most of it the haswell compile):
    .venv/bin/python benchmarks/cardinger_branches.py -n 2000 --top 8
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import cardinger_speed
import kernel_speed
import twin

HERE = Path(__file__).resolve()
WANT = ("Ir", "I1mr", "ILmr", "Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim")
ROWS = (
    ("instructions", ("Ir",)),
    ("I1 misses (code)", ("I1mr",)),
    ("LL code misses", ("ILmr",)),
    ("data reads", ("Dr",)),
    ("data writes", ("Dw",)),
    ("D1 misses", ("D1mr", "D1mw")),
    ("LL data misses", ("DLmr", "DLmw")),
    ("conditional branches", ("Bc",)),
    ("  mispredicted (cond.)", ("Bcm",)),
    ("indirect branches", ("Bi",)),
    ("  mispredicted (ind.)", ("Bim",)),
)
VALGRIND = ["valgrind", "--tool=callgrind", "--branch-sim=yes", "--cache-sim=yes"]


def per_function(out: str) -> tuple[list[str], dict[str, list[int]]]:
    """Return (event names, self cost per function) from a callgrind output file."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", "--auto=no", out],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    events: list[str] = []
    costs: dict[str, list[int]] = {}
    for line in text.splitlines():
        if line.startswith("-- ") and "annotated" in line.lower():
            break  # the per-line source listing follows the function table
        if line.startswith("Events shown:"):
            events = line.split(":", 1)[1].split()
            continue
        tokens = re.sub(r"\(\s*[\d.]+%\)", "", line).split()
        if not events or len(tokens) < len(events) + 1 or not re.fullmatch(r"[\d,]+", tokens[0]):
            continue
        name = tokens[len(events)]
        if "PROGRAM" in name or "TOTALS" in line:
            continue
        name = (name.split(":", 1)[1] if ":" in name else name).split("'")[0]  # inlined C code: several files
        cost = [0 if x == "." else int(x.replace(",", "")) for x in tokens[: len(events)]]
        costs[name] = [x + y for x, y in zip(costs.get(name, [0] * len(cost)), cost, strict=True)]
    return events, costs


def jit_names(costs: dict[str, list[int]], symbols: Path) -> dict[str, list[int]]:
    """Return ``costs`` with callgrind's bare JIT addresses named after the compiled function they fall in."""
    lines = (ln.split("\t") for ln in symbols.read_text().splitlines())
    starts = sorted((int(a), kernel_speed.short_name(n)) for n, a in lines)
    addresses = [a for a, _ in starts]
    named: dict[str, list[int]] = {}
    for name, cost in costs.items():
        if name.startswith("0x"):
            k = bisect.bisect_right(addresses, int(name, 16)) - 1
            name = starts[k][1] if k >= 0 else name
        named[name] = [x + y for x, y in zip(named.get(name, [0] * len(cost)), cost, strict=True)]
    return named


def kernel_side(n: int, tmp: str) -> tuple[list[str], dict[str, list[int]]]:
    """Compile the valgrind-safe kernel, play ``n`` games under callgrind; return (events, cost per function)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(tmp, "haswell"), "NUMBA_CPU_NAME": "haswell"}
    env["NUMBA_CPU_FEATURES"] = ""
    symbols, out = Path(tmp) / "symbols.txt", os.path.join(tmp, "kernel.out")
    child = [sys.executable, str(HERE), "child", str(n), tmp, str(symbols)]
    subprocess.run(child, env=env, check=True, capture_output=True)  # compile natively (and warm the cache)
    cmd = [*VALGRIND, "--instr-atstart=no", "--collect-atstart=no", f"--callgrind-out-file={out}", *child, "toggle"]
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    events, costs = per_function(out)
    return events, jit_names(costs, symbols)


def twin_side(n: int, tmp: str, defines: tuple[str, ...]) -> tuple[list[str], dict[str, list[int]]]:
    """Build the C twin with ``defines`` and run ``n`` games under callgrind; return (events, cost per function)."""
    inputs = Path(tmp) / "inputs.txt"
    inputs.write_text(twin.inputs_text())
    binary = twin.build(tmp, defines, (*twin.VALGRIND_FLAGS, "-g"))
    out = os.path.join(tmp, f"twin{''.join(defines)}.out")
    subprocess.run(
        [*VALGRIND, f"--callgrind-out-file={out}", str(binary), str(inputs), str(n), str(cardinger_speed.SEED)],
        check=True,
        capture_output=True,
    )
    return per_function(out)


def column(events: list[str], costs: dict[str, list[int]], n: int) -> dict[str, float]:
    """Return each ``ROWS`` figure a game, summed over every function."""
    totals = [sum(c[k] for c in costs.values()) for k in range(len(events))]
    return {label: sum(totals[events.index(e)] for e in names) / n for label, names in ROWS}


def top(events: list[str], costs: dict[str, list[int]], n: int, count: int) -> list[str]:
    """Return lines for the ``count`` functions with the most instructions (a game)."""
    idx = [events.index(e) for e in ("Ir", "Bc", "Bcm", "Bim")]
    ranked = sorted(costs.items(), key=lambda kv: -kv[1][idx[0]])[:count]
    return [f"    {name[:44]:44s}" + "".join(f"{cost[k] / n:10.0f}" for k in idx) for name, cost in ranked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--n-games", type=int, default=2000)
    parser.add_argument("--top", type=int, default=8, help="costliest functions listed per side")
    if len(sys.argv) > 1 and sys.argv[1] == "child":  # inside valgrind: play, then name the compiled functions
        n, tmp, symbols, toggle = int(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), sys.argv[5:] == ["toggle"]
        cardinger_speed.play(n, ("games",), "greedy", cardinger_speed.toggle_library(tmp) if toggle else None)
        kernel_speed.symbol_map(symbols)
        return
    a = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"kernel": kernel_side(a.n_games, tmp)}
        sides["C twin"] = twin_side(a.n_games, tmp, ())
        sides["C -DKERNEL_CALLS"] = twin_side(a.n_games, tmp, ("KERNEL_CALLS",))
    cols = {name: column(ev, costs, a.n_games) for name, (ev, costs) in sides.items()}
    head = "cardinger greedy mirror, modern, games table: callgrind branch and cache simulation"
    print(f"{head}, {a.n_games} games; figures a game")
    print(f"  {'':24s}" + "".join(f"{name:>18s}" for name in cols))
    for label, _ in ROWS:
        print(f"  {label:24s}" + "".join(f"{col[label]:18,.1f}" for col in cols.values()))
    for name, (ev, costs) in sides.items():
        print(
            f"  {name + ': costliest functions (self)':46s}"
            + "".join(f"{h:>10s}" for h in ("instr", "branches", "mispred", "ind.mis"))
        )
        print("\n".join(top(ev, costs, a.n_games, a.top)))


if __name__ == "__main__":
    main()
