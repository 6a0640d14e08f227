"""The child interpreter the sims.core patch tests compile in: one small program, with a patch on or off.

A patch is installed when ``sims.core.jit`` is imported, so a test compares two fresh
processes: one that uninstalls it first (``"numba"``) and one that keeps it (``"patched"``).
The program has an ``inline="always"`` callee, branches, a loop with a nested loop and a
tuple result: enough for every patch to be called.
"""

import json
import os
import subprocess
import sys

PROGRAM = r"""
hot = numba.njit(inline="always")

@hot
def leaf(x, k):
    y = x
    if x > k:
        y = x - k
    elif x < -k:
        y = -x
    return y

@numba.njit
def entry(a, n):
    total = 0
    best = -1
    for i in range(n):
        v = leaf(a[i % a.shape[0]], i)
        if v > best:
            best = v
            total += v
        else:
            total -= leaf(v, 2)
        while total > 50:
            total -= best + 1
    return total, best

a = np.arange(-7, 23, dtype=np.int64)
results = [list(entry(a, n)) for n in (0, 1, 5, 17)]
"""

HEAD = """
import json, sys
import numpy as np
import numba
import sims.core.jit  # installs it
from sims.core import {module} as patch
if sys.argv[1] == "numba":
    patch.uninstall()
assert patch.installed() == (sys.argv[1] == "patched")
"""

TAIL = """
print(json.dumps({{"llvm": entry.inspect_llvm(entry.signatures[0]), "results": results, {stats!r}: patch.{stats}()}}))
"""


def compile_child(module: str, mode: str, stats: str) -> dict:
    """Compile the program in a fresh interpreter with ``sims.core.<module>`` kept (``"patched"``) or uninstalled
    (``"numba"``); return its LLVM IR, its results and the patch's ``stats()`` figure (under the key ``stats``).

    The child is compiled even under ``make test-nojit`` and is given five minutes: a broken patch that
    loops fails the test instead of hanging it.
    """
    child = HEAD.format(module=module) + PROGRAM + TAIL.format(stats=stats)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    out = subprocess.run(
        [sys.executable, "-c", child, mode], env=env, check=True, capture_output=True, text=True, timeout=300
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def sample(a, n):
    """A Python function for the tests that run Numba's front end on it (``compiler.run_frontend``) directly.

    Nested loops, a loop left by ``break``, a variable defined in one branch only and a
    variable assigned from itself: the cases a patch of Numba's IR analyses must get right.
    """
    x = 0
    y = 1
    z = n
    for i in range(n):
        if a[i] > x:
            x = a[i]
        elif a[i] < -y:
            y = y + 1
            x = x  # a variable assigned from itself: not a definition
            for j in range(i):
                z = z * 2 - j
        else:
            w = x - y  # used only here: defined in one branch
            z += w
        if z > 100:
            break
    while y > 0:
        y -= 2
        x ^= y
    return x, y, z
