"""sims.core.call_slots: a compiled caller zeroes its call slots at each call, not at its entry."""

import json
import os
import re
import subprocess
import sys

# A caller of two compiled functions (one raising a user exception through it), compiled without
# a cache and without LLVM's passes (NUMBA_OPT=0), so the stores Numba emits are the stores in the IR.
CHILD = r"""
import json, re, sys
import numba
import sims.core.jit  # installs the patch (sims.core alone does not import Numba)
from sims.core import call_slots
if sys.argv[1] == "numba":
    call_slots.uninstall()
assert call_slots.installed() == (sys.argv[1] == "patched")

@numba.njit
def checked(x):
    if x < 0:
        raise ValueError("negative")
    return x * 3, x - 1

@numba.njit
def rare(x):
    return (x + 7) // 2

@numba.njit
def outer(n):
    total = 0
    for i in range(n):
        a, b = checked(i - 2 if n == 99 else i)
        total += a - b
        if total % 5 == 4:
            total += rare(total)
    return total

results = [outer(n) for n in (0, 1, 7, 30)]
try:
    outer(99)
    error = None
except ValueError as exc:
    error = str(exc)
text = outer.inspect_llvm(outer.signatures[0])
body = re.search(r"define [^\n]*outer[^\n]*\{\n(.*?)\n}", text, re.S).group(1)
print(json.dumps({"results": results, "error": error, "body": body}))
"""


def compile_child(mode: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_DIR")}
    env["NUMBA_OPT"] = "0"  # the IR as Numba lowers it
    out = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _slot_stores(body: str) -> tuple[int, int]:
    """Stores into ``excinfo`` slots: (in the entry block, elsewhere)."""
    entry, _, rest = body.partition("\n\n")
    slots = set(re.findall(r"(%\"?excinfo[\w.]*\"?) = alloca", body))
    assert slots, "no call slots found"

    def count(block: str) -> int:
        return sum(1 for line in block.splitlines() if " store " in line and line.split(",")[-2].split()[-1] in slots)

    return count(entry), count(rest)


def test_the_caller_zeroes_its_call_slots_at_each_call_not_at_entry():
    numbas, patched = compile_child("numba"), compile_child("patched")
    assert patched["results"] == numbas["results"] == [0, 1, 99, 2191]
    assert patched["error"] == numbas["error"] == "negative"  # a user exception still crosses the call
    at_entry, at_calls = _slot_stores(numbas["body"])
    assert at_entry >= 2  # Numba's own: one zero store a call site, in the entry block
    assert at_calls == 0
    at_entry, at_calls = _slot_stores(patched["body"])
    assert at_entry == 0
    assert at_calls >= 2  # each call site zeroes its slot just before its call
