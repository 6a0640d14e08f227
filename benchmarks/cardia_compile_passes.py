"""Where a cold compile goes, by compiled function and by stage: Numba passes, copies of ``@hot`` bodies, LLVM.

Works for every game (written for Cardia and Blessings & Curses). Runs the games-only and
the every-table batch in a fresh process with an empty Numba cache and listens to Numba's
``numba:compile``, ``numba:run_pass`` and ``numba:llvm_lock`` events: each CPU second goes
to the innermost function being compiled and the innermost stage running in it, so a
caller's figures exclude its callees' compiles. ``inline_inlinables [f]`` inside function
``g`` is the time ``g`` spends copying ``@hot`` bodies into itself (Numba deep-copies
every copied block, with the callee's whole variable scope, so the cost grows with the
square of a copied body's size, nested copies included); ``LLVM`` is optimising and
emitting ``g``'s module, which links the code of every compiled callee below it. The
bottom lines count the ``@hot`` copies made per function (``--copies``).

Example (from the project root):
    .venv/bin/python benchmarks/cardia_compile_passes.py --game cardia --top 20
    .venv/bin/python benchmarks/cardia_compile_passes.py --game blessings --copies
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import sys, time
from collections import defaultdict
from numba.core import event
from numba.core import inline_closurecall as icc

charge, copies = defaultdict(float), defaultdict(int)
functions, stages, last = [], [], [time.process_time()]

def flush():
    now = time.process_time()
    if functions:
        charge[(functions[-1], stages[-1][-1] if stages[-1] else "other")] += now - last[0]
    last[0] = now

def name_of(fn):
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__qualname__}"

class Stages(event.Listener):
    def on_start(self, ev):
        flush()
        if ev.kind == "numba:compile":
            functions.append(name_of(ev.data["dispatcher"].py_func))
            stages.append([])
        elif stages:
            stages[-1].append("LLVM" if ev.kind == "numba:llvm_lock" else ev.data["name"].split(" [")[0])
    def on_end(self, ev):
        flush()
        if ev.kind == "numba:compile":
            functions.pop()
            stages.pop()
        elif stages and stages[-1]:
            stages[-1].pop()

import sims.core.jit  # installs sims.core's Numba patches before the counter wraps the front end
front_end = icc.InlineWorker.run_untyped_passes
def counted(self, func, enable_ssa=False):
    copies[name_of(func)] += 1
    return front_end(self, func, enable_ssa)
icc.InlineWorker.run_untyped_passes = counted

import sims
from balance.spec import RunSpec, resolve
game, top, show_copies = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
r = resolve(RunSpec(game=game, bots=("greedy",) * sims.load(game).seats, seed=1))
args = (r.params, r.pool, r.decks, r.bot_ids, r.weights)
listener = Stages()
for kind in ("numba:compile", "numba:run_pass", "numba:llvm_lock"):
    event.register(kind, listener)
c0 = time.process_time()
r.game.play_chunk(*args, 1, 0, 1, tables=("games",))
r.game.play_chunk(*args, 1, 0, 1)
total = time.process_time() - c0
by_function, by_stage = defaultdict(float), defaultdict(float)
for (f, st), v in charge.items():
    by_function[f] += v
    by_stage[st] += v
print(f"{total:.1f} CPU-s compiling and running (games table, then every table)")
print("by stage: " + ", ".join(f"{st} {v:.1f}" for st, v in sorted(by_stage.items(), key=lambda kv: -kv[1])[:6]))
for f, v in sorted(by_function.items(), key=lambda kv: -kv[1])[:top]:
    parts = sorted(((st, w) for (g, st), w in charge.items() if g == f), key=lambda kv: -kv[1])[:4]
    print(f"{v:7.2f} s  {f:<32} " + ", ".join(f"{st} {w:.2f}" for st, w in parts))
if show_copies:
    print(f"@hot copies: {sum(copies.values())}")
    for f, n in sorted(copies.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{n:6d}  {f}")
"""


def main() -> None:
    """Run the listening child with an empty cache and print its tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cardia")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--copies", action="store_true", help="also count the @hot copies made per function")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        load = os.getloadavg()[0]
        out = subprocess.run(
            [sys.executable, "-c", CHILD, a.game, str(a.top), "1" if a.copies else "0"],
            env={**os.environ, "NUMBA_CACHE_DIR": cache},
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        ).stdout
    print(f"# {a.game}: cold compilation by function and stage (self CPU seconds), load {load:.2f}")
    print(out, end="")


if __name__ == "__main__":
    main()
