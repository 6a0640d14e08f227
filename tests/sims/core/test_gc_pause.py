"""sims.core.gc_pause: no full garbage collection while a top-level compile runs, thresholds put back."""

import gc
import warnings

import numba
import pytest
from numba.core import dispatcher

from sims.core import gc_pause


def test_no_full_collection_runs_during_a_compile_and_the_thresholds_come_back():
    import sims.core.jit  # noqa: F401

    seen = []

    def during(a):
        seen.append(gc.get_threshold())
        junk = []
        for _ in range(5000):  # cycles, so the collector has work while we compile
            cell = [a]
            cell.append(cell)
            junk.append(cell)
        return a + 1

    full = []

    def callback(phase, info):
        if phase == "start" and info["generation"] == 2 and gc_pause._state["depth"] > 0:
            full.append(info)

    before = gc.get_threshold()
    compiles = gc_pause.compiles()

    @numba.njit
    def leaf(x):
        return x * 2 + 1

    @numba.njit
    def top(x):
        return leaf(x) - 3

    gc.callbacks.append(callback)
    try:
        seen.append(during(0))
        orig = gc_pause._state["wrapped"]

        def spy(self, sig):  # inside the wrapped compile: the thresholds as the compile sees them
            seen.append(gc.get_threshold())
            junk = [[i] for i in range(50_000)]  # allocations: young collections run, no full one
            for cell in junk:
                cell.append(cell)
            return orig(self, sig)

        gc_pause._state["wrapped"] = spy
        try:
            assert top(4) == 6
        finally:
            gc_pause._state["wrapped"] = orig
    finally:
        gc.callbacks.remove(callback)
    assert gc_pause.compiles() == compiles + 1  # the nested compile of leaf is inside top's
    assert (before[0], before[1], gc_pause.FULL_EVERY) in seen
    assert full == []
    assert gc.get_threshold() == before


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in gc_pause.CHECKED
    assert gc_pause.installed()
    assert gc_pause._source_hash() == gc_pause.CHECKED[numba.__version__]
    assert dispatcher.Dispatcher.compile is gc_pause._compile


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_compile(monkeypatch):
    import sims.core.jit  # noqa: F401

    gc_pause.uninstall()
    try:
        assert dispatcher.Dispatcher.compile is not gc_pause._compile
        monkeypatch.setattr(gc_pause, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not gc_pause.install()
        assert dispatcher.Dispatcher.compile is not gc_pause._compile
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert gc_pause.install()
