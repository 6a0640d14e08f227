"""sims.core.use_defs: Numba's per-block uses and definitions, a plain assignment's variables listed once."""

import warnings

import numba
import pytest
from numba.core import analysis, compiler, ir, ir_utils, lowering, transforms
from numba.core import ssa as numba_ssa

from sims.core import use_defs
from tests.sims.core.patch_child import compile_child, sample


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("use_defs", "numba", "calls"), compile_child("use_defs", "patched", "calls")
    assert numbas["calls"] == 0
    assert patched["calls"] > 0
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def _both(blocks):
    patched = use_defs.compute_use_defs(blocks)
    numbas = use_defs._state["original"](blocks)
    return patched, numbas


def test_the_uses_and_definitions_are_numbas():
    import sims.core.jit  # noqa: F401

    for fn in (sample, use_defs.compute_use_defs, analysis.compute_live_map):
        for ssa in (False, True):
            func_ir = compiler.run_frontend(fn)
            if ssa:  # the IR as the typed passes see it (versioned names, phi nodes)
                func_ir.blocks = numba_ssa._run_ssa(func_ir.blocks)
            patched, numbas = _both(func_ir.blocks)
            assert list(patched.usemap) == list(numbas.usemap) == list(func_ir.blocks)
            assert patched.usemap == numbas.usemap
            assert patched.defmap == numbas.defmap
            assert any(numbas.usemap.values())


def test_an_unusual_assignment_goes_through_numbas_code():
    import sims.core.jit  # noqa: F401

    func_ir = compiler.run_frontend(sample)
    stmt = next(s for blk in func_ir.blocks.values() for s in blk.body if isinstance(s, ir.Assign))
    stmt.extra = [ir.Var(stmt.target.scope, "extra_read", stmt.loc)]  # a fourth attribute: listed by list_vars
    patched, numbas = _both(func_ir.blocks)
    assert patched == numbas
    assert any("extra_read" in uses for uses in patched.usemap.values())


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in use_defs.CHECKED
    assert use_defs.installed()
    assert use_defs._source_hash() == use_defs.CHECKED[numba.__version__]
    for module in (analysis, transforms, lowering, ir_utils):
        assert module.compute_use_defs is use_defs.compute_use_defs


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_function(monkeypatch):
    import sims.core.jit  # noqa: F401

    use_defs.uninstall()
    try:
        assert analysis.compute_use_defs is not use_defs.compute_use_defs
        monkeypatch.setattr(use_defs, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not use_defs.install()
        assert not use_defs.installed()
        for module in (analysis, transforms, lowering, ir_utils):
            assert module.compute_use_defs is not use_defs.compute_use_defs
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert use_defs.install()
