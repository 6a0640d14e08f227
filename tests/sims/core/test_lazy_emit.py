"""sims.core.lazy_emit: a nested compile's machine code is emitted only when something runs it."""

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numba
import pytest

from sims.core import lazy_emit

ROOT = Path(__file__).resolve().parents[3]
# ``caller`` compiles ``callee`` and ``raiser`` nested (its typing needs them); ``raiser`` raises
# with a run-time value, which needs its environment. Each child prints what it computed, the
# patch's counters and how many functions Numba compiled (not loaded from the cache).
CHILD = r"""
import json, sys
import numpy as np
import numba
from numba.core import event
import sims.core.jit  # installs the patch (sims.core alone no longer imports Numba)
from sims.core import lazy_emit, lazy_wrapper
mode, steps = sys.argv[1], sys.argv[2].split(",")
if mode == "numba":
    lazy_emit.uninstall()
assert lazy_emit.installed() == (mode == "patched")
compiled = []

class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev):
        pass

event.register("numba:compile", Compiles())

@numba.njit(cache=True)
def callee(a, k):
    s = 0
    for i in range(a.shape[0]):
        s += a[i] * k if a[i] % 2 else -a[i]
    return s

@numba.njit(cache=True)
def raiser(x):
    if x > 3:
        raise ValueError("too big", x)
    return x + 1

@numba.njit(cache=True)
def caller(a, k, x):
    return callee(a, k) + raiser(x)

@numba.njit(cache=True)
def caller2(x):
    return raiser(x) * 2

@numba.njit(cache=True)
def maker(n):  # returns a new array: its Python wrapper boxes it with the runtime (NRT)
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = i * i
    return out

@numba.njit(cache=True)
def caller3(n):
    return maker(n).sum()

lazy_emit.optimise_at_top(caller)  # its nested callees' module passes run once, in its own

@numba.njit(nogil=True)
def free(x):
    return x * 3

@numba.njit
def held(x):
    return x * 5

@numba.njit
def both(x):
    return free(x) + held(x)

@numba.njit
def on_main(x):
    return x + 1

@numba.njit
def on_thread(x):
    return x * 2

def attempt(fn, *args):
    try:
        return int(fn(*args))
    except ValueError as e:
        return ["ValueError", *[int(v) if not isinstance(v, str) else v for v in e.args]]

a = np.arange(-5, 12, dtype=np.int64)
out = {}
for step in steps:
    if step == "caller":
        out[step] = [attempt(caller, a, 3, 1), attempt(caller, a, 2, 7)]
    elif step == "callee":
        out[step] = [attempt(callee, a, 3), attempt(callee, a, 3), attempt(callee, a, -4)]
    elif step == "raiser":
        out[step] = [attempt(raiser, 2), attempt(raiser, 9)]
    elif step == "caller2":
        out[step] = [attempt(caller2, 1), attempt(caller2, 8)]
    elif step == "caller3":
        out[step] = [attempt(caller3, 4)]
    elif step == "maker":
        out[step] = maker(4).tolist()
    elif step == "threads":  # a thread waiting to compile while the main thread compiles
        import threading, time
        from numba.core.compiler_lock import global_compiler_lock
        with global_compiler_lock:
            waiting = threading.Thread(target=on_thread, args=(4,))
            waiting.start()
            time.sleep(0.5)  # the thread is now blocked in Dispatcher.compile
            out[step] = [attempt(on_main, 1)]
            entry = on_main.overloads[on_main.signatures[0]].entry_point
            out[step].append(type(entry).__name__)
        waiting.join()
        out[step].append(int(on_thread(4)))
    elif step == "gil":  # wrappers built late follow each function's nogil
        out[step] = [attempt(both, 2), attempt(free, 2), attempt(held, 2)]
        for fn in (free, held):
            entry = fn.overloads[fn.signatures[0]].entry_point
            lib = entry._library if isinstance(entry, lazy_emit.LazyEntry) else fn.overloads[fn.signatures[0]].library
            lib = lib.__dict__.get("_sims_wrapper_library", lib)
            out[step].append("PyEval_SaveThread" in lib.get_llvm_str())
    elif step == "disable":
        callee.disable_compile()
        out[step] = [attempt(callee, a, 5)]
out["signatures"] = {f.__name__: len(f.signatures) for f in (callee, raiser, caller)}
out["counts"] = lazy_emit.counts()
out["module_passes"] = list(lazy_emit.module_passes())
out["wrappers"] = list(lazy_wrapper.counts())
out["compiled"] = sorted(compiled)
print(json.dumps(out))
"""


def child(mode: str, steps: str, cache: Path) -> dict:
    """Run CHILD (a file beside the cache: Numba caches only functions defined in a file) in a
    fresh interpreter with that Numba cache; return what it printed."""
    script = cache.parent / "child.py"
    if not script.exists():
        script.write_text(CHILD)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # compiled even in `make test-nojit`
    env["NUMBA_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
    out = subprocess.run(
        [sys.executable, str(script), mode, steps], env=env, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_nested_compiles_are_not_emitted_and_python_calls_of_them_still_work(tmp_path):
    steps = "caller,callee,raiser"
    numbas = child("numba", steps, tmp_path / "numba")
    patched = child("patched", steps, tmp_path / "patched")
    for part in ("caller", "callee", "raiser", "signatures", "compiled"):
        assert patched[part] == numbas[part], part
    assert patched["caller"][1] == ["ValueError", "too big", 7]  # the nested raiser's environment was filled
    assert patched["signatures"] == {"callee": 1, "raiser": 1, "caller": 1}  # Python calls compiled nothing new
    assert numbas["counts"] == {"deferred": 0, "emitted_later": 0, "entries": 0, "called": 0}
    # callee and raiser: compiled nested, with no Python wrapper; when Python first called each (once,
    # then the C fast path) its wrapper was built in a library of its own that links it, and that
    # library was emitted: their own libraries never are
    assert patched["counts"]["entries"] == 2
    assert patched["counts"]["called"] == 2
    assert patched["wrappers"] == [2, 2]
    assert patched["counts"]["emitted_later"] == 0
    assert patched["counts"]["deferred"] >= 2
    # their module passes: skipped when they were compiled nested (caller's own ran over the linked
    # module), run in their wrapper library's
    skipped, later = patched["module_passes"]
    assert skipped == patched["counts"]["deferred"]
    assert later == 0
    assert numbas["module_passes"] == [0, 0]
    assert numbas["wrappers"] == [0, 0]


def test_a_warm_start_compiles_nothing(tmp_path):
    cache = tmp_path / "cache"
    cold = child("patched", "caller,callee", cache)
    assert cold["compiled"] == ["callee", "caller", "raiser"]
    warm = child("patched", "caller,callee,raiser", cache)
    assert warm["compiled"] == []
    assert warm["caller"] == cold["caller"]
    assert warm["callee"] == cold["callee"]
    assert warm["raiser"] == [3, ["ValueError", "too big", 9]]
    # caller: object code; callee: its entry rewritten, when Python called it, with its wrapper
    # library's object code; raiser: never called from Python in the cold process, so cached as IR
    # with no wrapper: loaded linkable, its wrapper built now (in the library that is emitted)
    assert cold["wrappers"] == [2, 1]
    assert warm["wrappers"] == [0, 1]
    assert warm["counts"] == {"deferred": 1, "emitted_later": 0, "entries": 0, "called": 0}
    assert warm["module_passes"] == [0, 0]


def test_a_new_caller_links_a_nested_function_loaded_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    child("patched", "caller", cache)  # callee and raiser cached as optimised IR (never emitted)
    warm = child("patched", "caller2", cache)  # compiles caller2, loads raiser nested: it stays unemitted
    assert warm["compiled"] == ["caller2"]
    assert warm["caller2"] == [4, ["ValueError", "too big", 8]]
    assert warm["counts"] == {"deferred": 1, "emitted_later": 0, "entries": 1, "called": 0}
    assert warm["wrappers"] == [0, 0]  # nothing called from Python but caller2 (compiled top-level)


def test_a_nested_function_returning_an_array_loaded_from_the_cache_can_be_called_from_python(tmp_path):
    cache = tmp_path / "cache"
    cold = child("patched", "caller3", cache)  # maker compiled nested: cached as IR with no wrapper
    assert cold["caller3"] == [14]
    warm = child("patched", "maker", cache)  # its wrapper built at the load, with the runtime on
    assert warm["maker"] == [0, 1, 4, 9]
    assert warm["compiled"] == []


def test_a_thread_waiting_to_compile_does_not_make_a_top_level_compile_nested(tmp_path):
    done = child("patched", "threads", tmp_path / "cache")
    assert done["threads"] == [2, "builtin_function_or_method", 8]
    assert done["counts"]["entries"] == 0


def test_a_wrapper_built_late_releases_the_gil_as_numbas_would(tmp_path):
    patched = child("patched", "gil", tmp_path / "patched")
    numbas = child("numba", "gil", tmp_path / "numba")
    assert patched["gil"] == numbas["gil"] == [16, 6, 10, True, False]
    assert patched["wrappers"] == [2, 2]


def test_disable_compile_emits_the_lazy_overloads_first(tmp_path):
    patched = child("patched", "caller,disable", tmp_path / "patched")
    numbas = child("numba", "caller,disable", tmp_path / "numba")
    assert patched["disable"] == numbas["disable"]
    assert patched["signatures"]["callee"] == 1
    assert patched["counts"]["called"] == 1  # callee, by disable_compile


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in lazy_emit.CHECKED
    assert lazy_emit.installed()
    assert lazy_emit._source_hash() == lazy_emit.CHECKED[numba.__version__]


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_code(monkeypatch):
    from numba.core import codegen, cpu, dispatcher

    lazy_emit.uninstall()
    originals = (
        codegen.CPUCodeLibrary.__dict__["_finalize_final_module"],
        cpu.CPUContext.__dict__["get_executable"],
        dispatcher.Dispatcher.__dict__["compile"],
    )
    try:
        assert originals[0] is not lazy_emit._finalize_final_module
        monkeypatch.setattr(lazy_emit, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the ones this patch was checked against"):
            assert not lazy_emit.install()
        assert not lazy_emit.installed()
        now = (
            codegen.CPUCodeLibrary.__dict__["_finalize_final_module"],
            cpu.CPUContext.__dict__["get_executable"],
            dispatcher.Dispatcher.__dict__["compile"],
        )
        assert now == originals
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lazy_emit.install()
