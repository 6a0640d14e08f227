"""sims.core.call_types: a builtin operation's typing answered from a memo, the same answer and code."""

import json
import os
import subprocess
import sys
import warnings

import numba
import numpy as np
import pytest
from numba.core import types
from numba.core.types import functions

from sims.core import call_types

# Operators, comparisons, getitem/setitem on arrays and tuples, literals and an inlined @hot helper
# (each copy typed again) and overloaded NumPy calls (not memoised), compiled without a cache in a
# fresh interpreter.
CHILD = r"""
import json, sys
import numpy as np
import numba
import sims.core.jit  # installs it
from sims.core import call_types
if sys.argv[1] == "numba":
    call_types.uninstall()
assert call_types.installed() == (sys.argv[1] == "patched")
hot = numba.njit(inline="always")

@hot
def leaf(x, k):
    if x > k and x != 3:
        return x - k, k
    return x + 2 * k, -k

@numba.njit
def entry(a, n):
    b = np.zeros(a.shape[0], dtype=np.int64)
    t = (1, 2, 3)
    for i in range(n):
        v, w = leaf(a[i % a.shape[0]], i)
        b[i % b.shape[0]] += v * t[i % 3] - (w << 1) ^ leaf(w, -1)[0]
        if b[0] >= 7 or v <= w:
            b[1] -= abs(v) // 3
    return np.sum(b) + np.argmax(b)

a = np.arange(-7, 23, dtype=np.int64)
results = [int(entry(a, n)) for n in (0, 1, 5, 17)]
print(json.dumps({"llvm": entry.inspect_llvm(entry.signatures[0]), "results": results, "counts": call_types.counts()}))
"""


def compile_child(mode: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # compiled even in `make test-nojit`
    out = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("numba"), compile_child("patched")
    assert numbas["counts"] == [0, 0]
    hits, misses = patched["counts"]
    assert hits > 20  # repeated operations answered from the memo
    assert misses > 0
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def _typing_context():
    from numba.core.registry import cpu_target

    import sims.core.jit  # noqa: F401

    ctx = cpu_target.typing_context
    ctx.refresh()  # the registries loaded, as a compile does first
    return ctx


def test_a_memoised_answer_is_numbas_answer_and_sets_the_same_implementation_key():
    ctx = _typing_context()
    import operator

    original = call_types._state["original"]
    cases = [
        (operator.add, (types.int64, types.int8)),
        (operator.eq, (types.int16, types.IntegerLiteral(3))),
        (operator.lt, (types.float64, types.int64)),
        (operator.getitem, (types.Array(types.int8, 1, "C"), types.int64)),
        (operator.getitem, (types.UniTuple(types.int64, 3), types.intp)),
        (bool, (types.int32,)),
    ]
    for fn, args in cases:
        fnty = ctx.resolve_value_type(fn)
        first = fnty.get_call_type(ctx, args, {})
        hits = call_types.counts()[0]
        fnty._impl_keys.clear()
        again = fnty.get_call_type(ctx, args, {})
        assert call_types.counts()[0] == hits + 1, fn  # answered from the memo
        assert again == first == original(fnty, ctx, args, {})
        assert fnty._impl_keys[again.args] == fnty.get_impl_key(original(fnty, ctx, args, {}))


def test_overload_templates_are_not_memoised_and_failures_still_raise():
    ctx = _typing_context()
    fnty = ctx.resolve_value_type(np.sum)
    args = (types.Array(types.int64, 1, "C"),)
    assert fnty.get_call_type(ctx, args, {}) is not None
    hits = call_types.counts()[0]
    assert fnty.get_call_type(ctx, args, {}) is not None
    assert call_types.counts()[0] == hits  # an @overload types afresh every time, as in Numba
    assert all(not call_types._is_pure(t) for t in fnty.templates)
    import operator

    add = ctx.resolve_value_type(operator.add)
    with pytest.raises(numba.core.errors.TypingError):
        add.get_call_type(ctx, (types.unicode_type, types.int64), {})
    with pytest.raises(numba.core.errors.TypingError):  # not remembered as an answer
        add.get_call_type(ctx, (types.unicode_type, types.int64), {})


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in call_types.CHECKED
    assert call_types.installed()
    assert call_types._source_hash() == call_types.CHECKED[numba.__version__]
    assert functions.BaseFunction.get_call_type is call_types.get_call_type


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_function(monkeypatch):
    import sims.core.jit  # noqa: F401

    call_types.uninstall()
    try:
        assert functions.BaseFunction.get_call_type is not call_types.get_call_type
        monkeypatch.setattr(call_types, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not call_types.install()
        assert not call_types.installed()
        assert functions.BaseFunction.get_call_type is not call_types.get_call_type
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert call_types.install()
