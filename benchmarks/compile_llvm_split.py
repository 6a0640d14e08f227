"""Where a game's cold compile spends its CPU in LLVM: optimisation, machine code, cache files.

Runs the same calls as ``compile_time.py`` (the batch kernel for the games table, then for
every table, the audit, the replay) in a fresh process with an empty Numba cache and times
(exclusive CPU seconds, a stack of wrapped Numba functions) each step of a code library's life:

- ``add_ir_module``: parsing each lowered module and its function passes;
- ``finalize: link``: linking the callees' modules into a library (``CodeLibrary.finalize``
  less the two below);
- ``O3 passes``: ``_optimize_final_module``, the module passes over the linked module;
- ``machine code``: ``_finalize_final_module`` (adding the module to MCJIT and
  ``finalize_object``: instruction selection, register allocation, object file), split by who
  asked for the library: a **top-level** compile (called from Python), a **nested** compile (a
  dispatcher compiled while another one was being compiled, because the caller's typing needed
  it: callers link its IR, its own machine code is never run unless Python calls it), or
  **linked only** (a library no ``get_executable`` asked for: Numba's internal subroutines, made
  to be linked into a caller);
- ``cache save`` / ``cache load``: Numba's ``_Cache.save_overload`` / ``load_overload``;
- ``front end``: the rest of the compile (Numba's typing, rewrites, lowering to LLVM IR).

With ``--without NAME`` a ``sims.core`` patch (e.g. ``lazy_emit``) is uninstalled first.

Example (from the project root):
    .venv/bin/python benchmarks/compile_llvm_split.py --game cardwars
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import importlib, sys, time
from collections import defaultdict
import sims.core.jit
for name in sys.argv[2].split(",") if sys.argv[2] else ():
    importlib.import_module(f"sims.core.{name}").uninstall()
from numba.core import caching, codegen, cpu, event

own, calls, stack = defaultdict(float), defaultdict(int), []
emitted, asked = [], {}
depth = [0]

class Depth(event.Listener):
    def on_start(self, ev):
        depth[0] += 1
    def on_end(self, ev):
        depth[0] -= 1

def timed(cls, attr, label, record=None):
    original = getattr(cls, attr)
    def wrapper(*args, **kws):
        t0 = time.process_time()
        stack.append(0.0)
        try:
            return original(*args, **kws)
        finally:
            inner = stack.pop()
            spent = time.process_time() - t0
            own[label] += spent - inner
            calls[label] += 1
            if stack:
                stack[-1] += spent
            if record is not None:
                record(args, spent - inner)
    setattr(cls, attr, wrapper)

timed(codegen.CPUCodeLibrary, "add_ir_module", "add_ir_module")
timed(codegen.CPUCodeLibrary, "finalize", "finalize: link")
timed(codegen.CPUCodeLibrary, "_optimize_final_module", "O3 passes")
timed(codegen.CPUCodeLibrary, "_finalize_final_module", "machine code",
      lambda args, secs: emitted.append((id(args[0]), secs)))
timed(caching.Cache, "save_overload", "cache save")
timed(caching.Cache, "load_overload", "cache load")
timed(codegen.CPUCodeLibrary, "serialize_using_object_code", "cache save: serialise")
get_executable = cpu.CPUContext.get_executable
def noting(self, library, fndesc, env):
    asked.setdefault(id(library), depth[0])
    return get_executable(self, library, fndesc, env)
cpu.CPUContext.get_executable = noting

sys.path.insert(0, "benchmarks")
from compile_calls import every_entry_point
marks = []
every_entry_point(sys.argv[1], lambda: (event.register("numba:compile", Depth()), marks.append(time.process_time())))
c0 = marks[0]
total = time.process_time() - c0
split = defaultdict(float)
count = defaultdict(int)
for lib, secs in emitted:
    d = asked.get(lib)
    kind = "linked only" if d is None else ("top-level" if d <= 1 else "nested")
    split[kind] += secs
    count[kind] += 1
print(f"{total:.1f} CPU-s compiling and running")
for label in ("add_ir_module", "finalize: link", "O3 passes"):
    print(f"  {label:<28} {own[label]:6.1f}  ({calls[label]} calls)")
for kind in ("top-level", "nested", "linked only"):
    print(f"  {'machine code, ' + kind:<28} {split[kind]:6.1f}  ({count[kind]} libraries)")
for label in ("cache save", "cache save: serialise", "cache load"):
    print(f"  {label:<28} {own[label]:6.1f}  ({calls[label]} calls)")
rest = total - sum(own.values())
print(f"  {'front end and the rest':<28} {rest:6.1f}")
"""


def main() -> None:
    """Run the timing child with an empty cache and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cardwars")
    ap.add_argument("--without", default="", help="comma-separated sims.core patch modules to uninstall first")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        load = os.getloadavg()[0]
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run(
            [sys.executable, "-c", CHILD, a.game, a.without], env=env, check=True, stdout=subprocess.PIPE, text=True
        ).stdout
    print(f"# {a.game} (without: {a.without or 'nothing'}): cold compile, exclusive CPU-s, load {load:.2f}")
    print(out, end="")


if __name__ == "__main__":
    main()
