"""Hash of every LLVM module a game's cold compile emits, with and without ``sims.core``'s Numba patches.

Works for every game (written for Cardia). Each run is a fresh process with an empty Numba
cache; it compiles the games-only batch entry (greedy in every seat) and hashes the optimised
LLVM IR of every compiled library, in the order they were finalised, just before its machine
code is emitted: the code that runs. Numba's label and variable counters are process-global, so
two processes compiling the same code the same way give the same text, once string hashing is
fixed (``PYTHONHASHSEED=0`` in the child: the order of a few ``NRT_incref`` calls follows a set of
names). ``--without NAME`` (any of ``sims.core``'s patch modules: ``inline_copy``, ``numba_speedups``, ``lazy_emit``)
uninstalls that patch first, so a patch that leaves the code unchanged prints the same digest
with and without it. ``lazy_emit`` is the exception: Numba's MCJIT emission rewrites a module in
place (``CodeGenPrepare`` and the other IR passes of the code generator) and Numba's callers link
the rewritten module of every callee emitted before them; without emitting the callees, callers
link them as optimised, so the modules that link a callee differ (the same games: the code
generator's rewrites keep the semantics; see ``sims.core.lazy_emit``).

Example (from the project root):
    .venv/bin/python benchmarks/cardia_ir_digest.py --game cardia
    .venv/bin/python benchmarks/cardia_ir_digest.py --game blessings --without numba_speedups
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import hashlib, importlib, sys, time
import sims.core.jit
for name in sys.argv[2].split(",") if sys.argv[2] else ():
    importlib.import_module(f"sims.core.{name}").uninstall()
from numba.core import codegen
digest, count = hashlib.sha256(), [0, 0]
finalize = codegen.CPUCodeLibrary._finalize_final_module
def hashed(self):
    text = str(self._final_module)
    digest.update(text.encode())
    count[0] += 1
    count[1] += len(text)
    return finalize(self)
codegen.CPUCodeLibrary._finalize_final_module = hashed
import sims
from balance.spec import RunSpec, resolve
game = sys.argv[1]
r = resolve(RunSpec(game=game, bots=("greedy",) * sims.load(game).seats, seed=1))
c0 = time.process_time()
r.game.play_chunk(r.params, r.pool, r.decks, r.bot_ids, r.weights, 1, 0, 1, tables=("games",))
print(f"{digest.hexdigest()[:16]}  {count[0]} modules, {count[1]:,} characters, {time.process_time() - c0:.1f} CPU-s")
"""


def main() -> None:
    """Print the digest of one cold compile."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cardia")
    ap.add_argument("--without", default="", help="comma-separated sims.core patch modules to uninstall first")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONHASHSEED": "0"}
        out = subprocess.run(
            [sys.executable, "-c", CHILD, a.game, a.without], env=env, check=True, capture_output=True, text=True
        ).stdout
    print(f"# {a.game} (without: {a.without or 'nothing'}): {out.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
