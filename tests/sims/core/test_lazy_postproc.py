"""sims.core.lazy_postproc: post-processing leaves the entry variables until read; the same values, the same code."""

import warnings

import numba
import numpy as np
import pytest
from numba.core import analysis, compiler, ir, postproc

from sims.core import lazy_postproc
from tests.sims.core.patch_child import compile_child, sample


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas = compile_child("lazy_postproc", "numba", "deferred")
    patched = compile_child("lazy_postproc", "patched", "deferred")
    assert numbas["deferred"] == 0
    assert patched["deferred"] > 0
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def _eager(func_ir):
    """Numba's own run on ``func_ir``: its block_entry_vars, a plain dict keyed by label."""
    lazy_postproc._state["original"]["run"](postproc.PostProcessor(func_ir))
    return {label: func_ir.block_entry_vars[block] for label, block in func_ir.blocks.items()}


def test_the_entry_variables_are_numbas_when_read():
    import sims.core.jit  # noqa: F401

    for fn in (sample, lazy_postproc.EntryVars._fill):
        eager = _eager(compiler.run_frontend(fn))
        func_ir = compiler.run_frontend(fn)
        before = lazy_postproc.reads()
        postproc.PostProcessor(func_ir).run()
        entry = func_ir.block_entry_vars
        assert isinstance(entry, lazy_postproc.EntryVars)
        assert entry.pending
        assert lazy_postproc.reads() == before  # nothing computed yet
        lazy = {label: func_ir.get_block_entry_vars(block) for label, block in func_ir.blocks.items()}
        assert not entry.pending
        assert lazy_postproc.reads() == before + 1
        assert lazy == eager
        assert any(lazy.values())  # variables are alive on entry somewhere


def test_a_copy_of_an_unread_ir_stays_unread_and_reads_numbas_values():
    import sims.core.jit  # noqa: F401

    func_ir = compiler.run_frontend(sample)
    postproc.PostProcessor(func_ir).run()
    dup = func_ir.copy()
    assert func_ir.block_entry_vars.pending
    assert dup.block_entry_vars.pending
    assert set(dup.blocks) == set(func_ir.blocks)
    assert all(dup.blocks[k] is not func_ir.blocks[k] for k in dup.blocks)
    eager = _eager(compiler.run_frontend(sample))
    assert {label: dup.get_block_entry_vars(block) for label, block in dup.blocks.items()} == eager
    assert func_ir.block_entry_vars.pending  # reading the copy computed only the copy's


def test_a_read_entry_set_is_copied_as_numba_copies_it():
    import sims.core.jit  # noqa: F401

    func_ir = compiler.run_frontend(sample)
    postproc.PostProcessor(func_ir).run()
    first = func_ir.blocks[min(func_ir.blocks)]
    seen = func_ir.get_block_entry_vars(first)
    dup = func_ir.copy()
    assert type(dup.block_entry_vars) is dict  # Numba's copy of a computed mapping
    assert dup.get_block_entry_vars(dup.blocks[min(dup.blocks)]) == seen


def test_emitting_dels_still_works_and_a_later_run_replaces_an_unread_one():
    import sims.core.jit  # noqa: F401

    func_ir = compiler.run_frontend(sample)
    postproc.PostProcessor(func_ir).run()
    stale = func_ir.block_entry_vars
    postproc.PostProcessor(func_ir).run(emit_dels=True)
    assert any(isinstance(stmt, ir.Del) for block in func_ir.blocks.values() for stmt in block.body)
    assert stale.pending
    assert func_ir.block_entry_vars is not stale
    eager = compiler.run_frontend(sample)
    lazy_postproc._state["original"]["run"](postproc.PostProcessor(eager), emit_dels=True)
    dels = [[str(s) for s in b.body if isinstance(s, ir.Del)] for b in func_ir.blocks.values()]
    assert dels == [[str(s) for s in b.body if isinstance(s, ir.Del)] for b in eager.blocks.values()]


def test_a_generator_takes_numbas_own_run():
    import sims.core.jit  # noqa: F401

    @numba.njit
    def countdown(n):
        while n > 0:
            yield n
            n -= 1

    @numba.njit
    def total(n):
        s = 0
        for v in countdown(n):
            s += v
        return s

    assert total(np.int64(5)) == 15

    def gen(n):
        yield n

    func_ir = compiler.run_frontend(gen)
    postproc.PostProcessor(func_ir).run()
    assert type(func_ir.block_entry_vars) is dict
    assert func_ir.generator_info is not None
    assert func_ir.generator_info.state_vars


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in lazy_postproc.CHECKED
    assert lazy_postproc.installed()
    assert lazy_postproc._source_hash() == lazy_postproc.CHECKED[numba.__version__]
    assert postproc.PostProcessor.run is lazy_postproc.run
    assert ir.FunctionIR.copy is lazy_postproc.copy_ir
    assert analysis.compute_live_variables is lazy_postproc._relied_on()[-1]


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_functions(monkeypatch):
    import sims.core.jit  # noqa: F401

    lazy_postproc.uninstall()
    try:
        assert postproc.PostProcessor.run is not lazy_postproc.run
        monkeypatch.setattr(lazy_postproc, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the ones this patch was checked against"):
            assert not lazy_postproc.install()
        assert not lazy_postproc.installed()
        assert postproc.PostProcessor.run is not lazy_postproc.run
        assert ir.FunctionIR.copy is not lazy_postproc.copy_ir
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lazy_postproc.install()
