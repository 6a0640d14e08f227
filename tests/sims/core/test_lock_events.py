"""sims.core.lock_events: Numba's LLVM-lock events told to its timers directly, the same timers and the same code."""

import json
import os
import subprocess
import sys
import warnings

import numba
import pytest
from numba.core import base, event

from sims.core import lock_events

CHILD = r"""
import json, sys
import numpy as np
import numba
from numba.core import event
import sims.core.jit  # installs it
from sims.core import lock_events
if sys.argv[1] == "numba":
    lock_events.uninstall()
assert lock_events.installed() == (sys.argv[1] == "patched")

@numba.njit
def leaf(x, k):
    return x - k if x > k else -x

@numba.njit
def entry(a, n):
    total = 0
    for i in range(n):
        total += leaf(a[i % a.shape[0]], i)
    return total

a = np.arange(-7, 23, dtype=np.int64)
with event.install_recorder("numba:llvm_lock") as rec:
    results = [int(entry(a, n)) for n in (0, 1, 5, 17)]
starts = sum(e.is_start for _, e in rec.buffer)
ends = sum(e.is_end for _, e in rec.buffer)
timers = entry.get_metadata(entry.signatures[0])["timers"]
print(json.dumps({"llvm": entry.inspect_llvm(entry.signatures[0]), "results": results, "events": [starts, ends],
                  "timer": timers["llvm_lock"]}))
"""


def compile_child(mode: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # compiled even in `make test-nojit`
    out = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("numba"), compile_child("patched")
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]
    starts, ends = patched["events"]
    assert starts == ends > 100  # a recording listener still sees every lock
    assert numbas["events"][0] == numbas["events"][1] > 100
    assert patched["timer"] > 0  # the compile's LLVM-lock timer still measures


def test_the_callbacks_tell_timers_and_other_listeners():
    import sims.core.jit  # noqa: F401

    outer, inner = event.TimingListener(), event.TimingListener()
    with event.install_listener(lock_events.KIND, outer), event.install_recorder(lock_events.KIND) as rec:
        lock_events.enter_fn()
        with event.install_listener(lock_events.KIND, inner):
            lock_events.enter_fn()
            lock_events.exit_fn()
            assert inner.done
            assert not outer.done  # still inside the outer lock
            lock_events.exit_fn()
    assert outer.done
    assert outer.duration >= inner.duration >= 0
    assert [e.is_start for _, e in rec.buffer] == [True, True, False, False]
    assert {e.kind for _, e in rec.buffer} == {lock_events.KIND}


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in lock_events.CHECKED
    assert lock_events.installed()
    assert lock_events._source_hash() == lock_events.CHECKED[numba.__version__]
    cblist = base.ll.ffi.lib._lock._cblist
    assert (lock_events.enter_fn, lock_events.exit_fn) in cblist
    assert lock_events._state["original"] not in cblist
    timer = event.TimingListener()
    with event.install_listener(lock_events.KIND, timer):
        base.ll.get_process_triple()  # one LLVM call, under the lock
    assert timer.done


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_callbacks(monkeypatch):
    import sims.core.jit  # noqa: F401

    cblist = base.ll.ffi.lib._lock._cblist
    lock_events.uninstall()
    try:
        assert (lock_events.enter_fn, lock_events.exit_fn) not in cblist
        assert lock_events._numbas_pair() in cblist
        monkeypatch.setattr(lock_events, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the ones this patch was checked against"):
            assert not lock_events.install()
        assert not lock_events.installed()
        assert (lock_events.enter_fn, lock_events.exit_fn) not in cblist
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lock_events.install()
