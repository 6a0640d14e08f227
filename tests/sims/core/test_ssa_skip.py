"""sims.core.ssa_skip: Numba's SSA reconstruction visiting only the blocks that name each variable, the same IR."""

import copy
import warnings

import numba
import pytest
from numba.core import compiler, ssa

from sims.core import ssa_skip
from tests.sims.core.patch_child import compile_child, sample


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("ssa_skip", "numba", "counts"), compile_child("ssa_skip", "patched", "counts")
    assert numbas["counts"] == [0, 0]
    skipped, visited = patched["counts"]
    assert skipped > 0
    assert visited > 0
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def _dump(blocks) -> list[str]:
    return [f"{label}: {stmt}" for label, blk in blocks.items() for stmt in blk.body]


def test_the_ssa_ir_is_numbas_statement_for_statement():
    import sims.core.jit  # noqa: F401

    func_ir = compiler.run_frontend(sample)
    twin = copy.deepcopy(func_ir.blocks)  # its own copy of the scope: the same fresh names
    before = ssa_skip.counts()
    patched = ssa._run_ssa(func_ir.blocks)
    skipped = ssa_skip.counts()[0] - before[0]
    ssa_skip.uninstall()
    try:
        numbas = ssa._run_ssa(twin)
    finally:
        assert ssa_skip.install()
    assert skipped > 0  # some block rewrites were skipped
    assert _dump(patched) == _dump(numbas)
    assert any(".1" in line for line in _dump(patched))  # variables were renamed (there were violators)
    assert any("phi" in line for line in _dump(patched))


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in ssa_skip.CHECKED
    assert ssa_skip.installed()
    assert ssa_skip._source_hash() == ssa_skip.CHECKED[numba.__version__]
    assert ssa._run_ssa is ssa_skip._run_ssa
    assert ssa._run_block_rewrite is ssa_skip._run_block_rewrite


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_functions(monkeypatch):
    import sims.core.jit  # noqa: F401

    ssa_skip.uninstall()
    try:
        assert ssa._run_ssa is not ssa_skip._run_ssa
        monkeypatch.setattr(ssa_skip, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not ssa_skip.install()
        assert not ssa_skip.installed()
        assert ssa._run_ssa is not ssa_skip._run_ssa
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert ssa_skip.install()
