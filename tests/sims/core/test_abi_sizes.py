"""sims.core.abi_sizes: an LLVM type's ABI size kept per type text, the same sizes and the same code."""

import json
import os
import subprocess
import sys
import warnings

import numba
import numpy as np
import pytest
from numba.core import base, cgutils, cpu

from sims.core import abi_sizes

ir = cgutils.ir

CHILD = r"""
import json, sys
import numpy as np
import numba
import sims.core.jit  # installs it
from sims.core import abi_sizes
if sys.argv[1] == "numba":
    abi_sizes.uninstall()
assert abi_sizes.installed() == (sys.argv[1] == "patched")
REC = np.dtype([("a", np.int8), ("b", np.int16, (3,)), ("c", np.int64)])

@numba.njit
def entry(recs, n):
    total = 0
    best = recs[0]
    for i in range(n):
        r = recs[i % recs.shape[0]]
        pair = (r.a, r.c)
        if r.b[1] > best.b[1]:
            best = r
        total += pair[0] * pair[1] + best.c
    return total

recs = np.zeros(4, REC)
recs["a"], recs["c"], recs["b"][:, 1] = [1, 2, 3, 4], [5, 6, 7, 8], [3, 1, 4, 1]
results = [int(entry(recs, n)) for n in (0, 1, 5, 17)]
print(json.dumps({"llvm": entry.inspect_llvm(entry.signatures[0]), "results": results, "counts": abi_sizes.counts()}))
"""


def compile_child(mode: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # compiled even in `make test-nojit`
    out = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("numba"), compile_child("patched")
    assert numbas["counts"] == [0, 0]
    hits, misses = patched["counts"]
    assert hits > 0
    assert misses > 0
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def _types():
    i8, i16, i64, f32 = ir.IntType(8), ir.IntType(16), ir.IntType(64), ir.FloatType()
    rec = numba.from_dtype(np.dtype([("a", np.int8), ("b", np.int16, (3,)), ("c", np.float32)]))
    context = cpu.CPUContext(numba.core.registry.cpu_target.typing_context, "cpu")
    return [
        i8,
        i64,
        f32,
        ir.ArrayType(i16, 7),
        ir.LiteralStructType([i8, i64, i16]),
        ir.LiteralStructType([i8, ir.ArrayType(ir.LiteralStructType([i16, i8]), 3)], packed=True),
        i64.as_pointer(),
        context.get_value_type(rec),
        context.get_data_type(numba.types.Array(numba.int64, 2, "C")),
    ], context


def test_the_sizes_are_numbas_and_kept():
    import sims.core.jit  # noqa: F401

    types, context = _types()
    original = abi_sizes._state["original"]
    first = [context.get_abi_sizeof(t) for t in types]
    assert first == [original(context, t) for t in types]
    assert first[:4] == [1, 8, 4, 14]
    hits = abi_sizes.counts()[0]
    again = [context.get_abi_sizeof(ir.ArrayType(ir.IntType(16), 7)), context.get_abi_sizeof(types[4])]
    assert again == [first[3], first[4]]
    assert abi_sizes.counts()[0] == hits + 2  # a new type object with the same text is a hit


def test_an_identified_structure_is_not_kept():
    import sims.core.jit  # noqa: F401

    _, context = _types()
    named = ir.global_context.get_identified_type("sims.test_abi_sizes.named")
    if named.is_opaque:
        named.set_body(ir.IntType(32), ir.IntType(64))
    assert "%" in str(named)
    misses = abi_sizes.counts()[1]
    assert context.get_abi_sizeof(named) == abi_sizes._state["original"](context, named) == 16
    assert context.get_abi_sizeof(named) == 16
    assert abi_sizes.counts()[1] == misses + 2  # computed by LLVM both times


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in abi_sizes.CHECKED
    assert abi_sizes.installed()
    assert abi_sizes._source_hash() == abi_sizes.CHECKED[numba.__version__]
    assert base.BaseContext.get_abi_sizeof is abi_sizes.get_abi_sizeof


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_function(monkeypatch):
    import sims.core.jit  # noqa: F401

    abi_sizes.uninstall()
    try:
        assert base.BaseContext.get_abi_sizeof is not abi_sizes.get_abi_sizeof
        monkeypatch.setattr(abi_sizes, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not abi_sizes.install()
        assert not abi_sizes.installed()
        assert base.BaseContext.get_abi_sizeof is not abi_sizes.get_abi_sizeof
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert abi_sizes.install()
