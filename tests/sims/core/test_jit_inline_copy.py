"""sims.core.inline_copy: @hot bodies copied once per inlined call, the same code as Numba's own copy."""

import json
import os
import re
import subprocess
import sys
import warnings

import numba
import pytest

from sims.core import inline_copy

# Nested inline="always" calls, loops and branches (many blocks and variables in every callee),
# compiled without a cache in a fresh interpreter, so that Numba's global counters (labels,
# unique names) run the same in both processes and the LLVM IR can be compared as text.
# ``locals`` (argv[2] == "locals"): ``entry`` declares a local's type, so the callees' untyped IR
# is made afresh for each inlined call (not reused: see the module).
CHILD = r"""
import json, sys
import numpy as np
import numba
import sims.core.jit  # installs the patch (sims.core alone no longer imports Numba)
from sims.core import inline_copy
if sys.argv[1] == "numba":
    inline_copy.uninstall()
assert inline_copy.installed() == (sys.argv[1] == "patched")
hot = numba.njit(inline="always")

@hot
def leaf(x, k):
    if x > k:
        return x - k
    return x + 2 * k

@hot
def middle(a, i):
    total = 0
    for j in range(a.shape[0]):
        v = leaf(a[j], i)
        if v % 3 == 0:
            total += v
        else:
            total -= leaf(v, j)
    return total

@hot
def upper(a, n):
    best = -1
    for i in range(n):
        s = middle(a, i) + leaf(i, n)
        if s > best:
            best = s
    return best

@numba.njit(locals={"r": numba.int64} if sys.argv[2] == "locals" else {})
def entry(a, n):
    r = upper(a, n) + middle(a, n) - leaf(n, 3)
    return r

a = np.arange(-7, 23, dtype=np.int64)
results = [int(entry(a, n)) for n in (0, 1, 5, 17)]
sig = entry.signatures[0]
out = {"llvm": entry.inspect_llvm(sig), "asm": entry.inspect_asm(sig), "results": results}
out.update(copies=inline_copy.copies(), untyped=inline_copy.untyped_irs())
print(json.dumps(out))
"""


def compile_child(mode: str, entry: str = "plain") -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # compiled even in `make test-nojit`
    cmd = [sys.executable, "-c", CHILD, mode, entry]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    out = out.stdout
    return json.loads(out.strip().splitlines()[-1])


def without_names(llvm: str) -> str:
    """The LLVM IR with every value and block name replaced by one placeholder."""
    return re.sub(r"%[\w.$]+|\bB\d+[\w.]*", "%_", llvm)


def test_patched_inliner_emits_the_same_code_as_numbas():
    numbas, patched = compile_child("numba", "locals"), compile_child("patched", "locals")
    assert numbas["copies"] == [0, 0]
    kept, shared = patched["copies"]
    assert kept == shared > 0  # every callee block edited in place once and copied (unedited) once
    assert patched["untyped"] == [0, 0]  # a caller with ``locals``: no IR reused
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def test_reused_untyped_irs_give_the_same_machine_code_as_numbas():
    numbas, patched = compile_child("numba"), compile_child("patched")
    assert numbas["untyped"] == [0, 0]
    # leaf, middle, upper: each callee's untyped passes run once (middle's and upper's with their
    # own inlines done), every other inlined call copies the cached IR once
    built, reused = patched["untyped"]
    assert built == 3
    assert reused > 0
    assert patched["copies"][0] == 0
    assert patched["results"] == numbas["results"]
    assert patched["asm"] == numbas["asm"]
    # the same IR but for names: an inlined variable's name holds its callee's unique id, one id
    # for every copy of a cached IR instead of one per copy (and block labels are numbered on)
    assert without_names(patched["llvm"]) == without_names(numbas["llvm"])
    assert patched["llvm"] != numbas["llvm"]


def test_the_patch_is_active_in_every_game():
    # sims.core.jit installs it; it must be active on the Numba version the project runs
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in inline_copy.CHECKED
    assert inline_copy.installed()
    assert inline_copy._source_hash() == inline_copy.CHECKED[numba.__version__]


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_copy(monkeypatch):
    from numba.core import inline_closurecall

    inline_copy.uninstall()
    original = inline_closurecall.InlineWorker.inline_function
    try:
        assert original is not inline_copy._inline_function
        monkeypatch.setattr(inline_copy, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not inline_copy.install()
        assert not inline_copy.installed()
        assert inline_closurecall.InlineWorker.inline_function is original
        assert inline_closurecall.copy.deepcopy is __import__("copy").deepcopy
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert inline_copy.install()
