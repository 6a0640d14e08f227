"""sims.core.numba_speedups: Numba's flag dicts and IR variable lists, built faster and the same."""

import json
import os
import subprocess
import sys
import warnings

import numba
import pytest
from numba.core import compiler, ir, targetconfig
from numba.core.compiler import Flags

from sims.core import numba_speedups

# Nested inline="always" calls, loops, branches, tuples and overloaded NumPy calls (typed through
# the template cache the flags key), compiled without a cache in a fresh interpreter.
CHILD = r"""
import json, sys
import numpy as np
import numba
import sims.core.jit  # installs it (sims.core alone no longer imports Numba)
from sims.core import numba_speedups
if sys.argv[1] == "numba":
    numba_speedups.uninstall()
assert numba_speedups.installed() == (sys.argv[1] == "patched")
hot = numba.njit(inline="always")

@hot
def leaf(x, k):
    if x > k:
        return x - k, k
    return x + 2 * k, -k

@hot
def middle(a, i):
    total = 0
    for j in range(a.shape[0]):
        v, w = leaf(a[j], i)
        if v % 3 == 0:
            total += max(v, w)
        else:
            total -= min(leaf(v, j)[0], abs(w))
    return total

@numba.njit
def entry(a, n):
    b = np.zeros(a.shape[0], dtype=np.int64)
    for i in range(n):
        b[i % b.shape[0]] += middle(a, i)
    return np.sum(b) + np.argmax(b)

a = np.arange(-7, 23, dtype=np.int64)
results = [int(entry(a, n)) for n in (0, 1, 5, 17)]
sig = entry.signatures[0]
classes = len(numba_speedups._state["classes"])
print(json.dumps({"llvm": entry.inspect_llvm(sig), "results": results, "classes": classes}))
"""


def compile_child(mode: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # compiled even in `make test-nojit`
    out = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("numba"), compile_child("patched")
    assert numbas["classes"] == 0
    assert patched["classes"] > 0  # the flags' dicts were built by the patch
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def test_flag_values_are_numbas_same_dict_in_the_same_order():
    import sims.core.jit  # noqa: F401

    original = numba_speedups._state["original"]["values"]
    flags = Flags()
    assert list(flags.values().items()) == list(original(flags).items())
    flags.nrt = True
    flags.fastmath = True
    flags.no_cpython_wrapper = True
    flags.error_model = "numpy"
    copied = Flags(copy_from=flags)
    copied.boundscheck = True
    for f in (flags, copied):
        assert list(f.values().items()) == list(original(f).items())
    assert flags == Flags(copy_from=flags)
    assert flags != copied
    assert hash(flags) == hash(tuple(sorted(original(flags))))


def test_flags_read_another_way_fall_back_to_numbas_values():
    import sims.core.jit  # noqa: F401

    class Odd(targetconfig.TargetConfig):
        plain = targetconfig.Option(type=int, default=1, doc="")
        other = targetconfig.Option(type=int, default=2, doc="")

    class Odder(Odd):
        pass

    Odder.other = property(lambda self: 7)  # read another way than the metaclass's getter

    assert numba_speedups._defaults(Odd) == {"plain": 1, "other": 2}
    assert numba_speedups._defaults(Odder) is None
    assert Odder().values() == {"plain": 1, "other": 7}
    odd = Odd()
    odd._values["stray"] = 3  # not an option: Numba's own dict leaves it out
    assert odd.values() == {"plain": 1, "other": 2}


def _statements():
    def sample(a, n):
        total = 0
        pairs = {1: (n, a[0])}
        for i in range(n):
            x, y = divmod(a[i], 3)
            total += pairs.get(i, (x, y))[0] + (lambda q: q * 2)(y) if x > y else -abs(x)
        with numba.objmode():
            pass
        return total, [total, n]

    func_ir = compiler.run_frontend(sample)
    return [stmt for block in func_ir.blocks.values() for stmt in block.body]


def test_statement_variables_are_numbas_same_list():
    import sims.core.jit  # noqa: F401

    original = numba_speedups._state["original"]["rec"]
    statements = _statements()
    expressions = [s.value for s in statements if isinstance(s, ir.Assign) and isinstance(s.value, ir.Expr)]
    assert len(statements) > 50
    assert len(expressions) > 20
    for inst in statements + expressions:
        val = inst._kws if isinstance(inst, ir.Expr) else inst.__dict__
        patched, numbas = inst._rec_list_vars(val), original(inst, val)
        assert len(patched) == len(numbas)
        assert all(p is q for p, q in zip(patched, numbas, strict=True))
    nested = {"a": [statements[0], (ir.Var(statements[0].target.scope, "v", statements[0].loc), 3)], "b": "x"}
    assert [v.name for v in statements[0]._rec_list_vars(nested)] == [v.name for v in original(statements[0], nested)]


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in numba_speedups.CHECKED
    assert numba_speedups.installed()
    assert numba_speedups._source_hash() == numba_speedups.CHECKED[numba.__version__]
    assert targetconfig.TargetConfig.values is numba_speedups._values
    assert ir.Inst._rec_list_vars is numba_speedups._rec_list_vars


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_functions(monkeypatch):
    import sims.core.jit  # noqa: F401

    numba_speedups.uninstall()
    try:
        assert targetconfig.TargetConfig.values is not numba_speedups._values
        assert ir.Inst._rec_list_vars is not numba_speedups._rec_list_vars
        monkeypatch.setattr(numba_speedups, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the ones this patch was checked against"):
            assert not numba_speedups.install()
        assert not numba_speedups.installed()
        assert targetconfig.TargetConfig.values is not numba_speedups._values
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert numba_speedups.install()
