"""Where a game's cold compilation goes: CPU seconds per compiled function and specialisation.

Runs the same calls as ``compile_time.py`` (the batch kernel for the games table, then for
every table, the audit, the replay) in a fresh process with an empty Numba cache, listening
to Numba's ``numba:compile`` events. Compilations nest (a caller compiles its callees while
it is typed), so each function's *self* time is its own time less its callees'. Prints the
functions by self CPU seconds, how many specialisations (argument types) each compiled,
and the totals; the load average is printed beside them. ``--signatures`` also lists the
argument types of every function compiled more than once (an int8 record field, an int64
local, a literal and an IntEnum member are four types: four compilations).

Example (from the project root):
    .venv/bin/python benchmarks/compile_profile.py --game cardwars --top 40
    .venv/bin/python benchmarks/compile_profile.py --game cardwars --top 200 --signatures
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

class Self(event.Listener):
    def __init__(self):
        self.stack, self.own, self.n, self.sigs = [], defaultdict(float), defaultdict(int), defaultdict(list)
    def on_start(self, ev):
        self.stack.append([ev.data["dispatcher"].py_func, time.process_time(), 0.0])
    def on_end(self, ev):
        fn, t0, inner = self.stack.pop()
        spent = time.process_time() - t0
        name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__qualname__}"
        self.own[name] += spent - inner
        self.n[name] += 1
        self.sigs[name].append(ev.data["args"])
        if self.stack:
            self.stack[-1][2] += spent

def _short(t):  # a record type's name without its field list (thousands of characters)
    text = str(t)
    return text.split("[", 1)[0] + "[...]" if len(text) > 80 else text

sys.path.insert(0, "benchmarks")
from compile_calls import every_entry_point
game = sys.argv[1]
listener = Self()
marks = []
every_entry_point(game, lambda: (event.register("numba:compile", listener), marks.append(time.process_time())))
c0 = marks[0]
total = time.process_time() - c0
ranked = sorted(listener.own.items(), key=lambda kv: -kv[1])
print(f"{len(ranked)} functions, {sum(listener.n.values())} specialisations, {total:.1f} CPU-s compiling and running")
for name, secs in ranked[: int(sys.argv[2])]:
    print(f"{secs:7.2f} s {secs / total:6.1%}  x{listener.n[name]}  {name}")
twice = [f"{name} x{k}" for name, k in listener.n.items() if k > 1]
print("compiled more than once:", ", ".join(sorted(twice)) or "none")
if sys.argv[3] == "1":
    for name, k in sorted(listener.n.items(), key=lambda kv: -kv[1]):
        if k > 1:
            print(f"{name} x{k}:")
            for sig in listener.sigs[name]:
                print("   ", ", ".join(_short(t) for t in sig))
"""


def main() -> None:
    """Run the listening child with an empty cache and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cardwars")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument(
        "--signatures", action="store_true", help="list the argument types of each function compiled more than once"
    )
    ap.add_argument("--cache", default=None, help="an empty Numba cache directory to fill (default: a temporary one)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        load = os.getloadavg()[0]
        env = {**os.environ, "NUMBA_CACHE_DIR": a.cache or tmp}
        out = subprocess.run(
            [sys.executable, "-c", CHILD, a.game, str(a.top), "1" if a.signatures else "0"],
            env=env,
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        ).stdout
    print(f"# {a.game}: cold compilation by function (self CPU seconds), load {load:.2f}")
    print(out, end="")


if __name__ == "__main__":
    main()
