"""sims.core.live_maps: Numba's live maps computed on bit masks, the same sets and the same code."""

import copy
import warnings

import numba
import pytest
from numba.core import analysis, compiler, ir, ir_utils, postproc

from sims.core import live_maps
from tests.sims.core.patch_child import compile_child, sample


def test_a_compile_with_the_patch_emits_the_same_code_as_without():
    numbas, patched = compile_child("live_maps", "numba", "calls"), compile_child("live_maps", "patched", "calls")
    assert numbas["calls"] == 0
    assert patched["calls"] > 0
    assert patched["results"] == numbas["results"]
    assert patched["llvm"] == numbas["llvm"]


def _live_maps(fn, dead_block=False):
    func_ir = compiler.run_frontend(fn)
    blocks = func_ir.blocks
    if dead_block:  # a block nothing jumps to (the CFG drops it; the maps keep it), which jumps into a loop
        uses = analysis.compute_use_defs(blocks).usemap
        source = max(blocks, key=lambda k: len(uses[k]))  # one that reads variables defined elsewhere
        dead = copy.deepcopy(blocks[source])
        dead.body[-1] = ir.Jump(list(blocks)[1], dead.body[-1].loc)
        blocks[max(blocks) + 100] = dead
    cfg = analysis.compute_cfg_from_blocks(blocks)
    usedefs = analysis.compute_use_defs(blocks)
    patched = live_maps.compute_live_map(cfg, blocks, usedefs.usemap, usedefs.defmap)
    numbas = live_maps._state["original"](cfg, blocks, usedefs.usemap, usedefs.defmap)
    return cfg, blocks, patched, numbas


def test_the_live_maps_are_numbas():
    import sims.core.jit  # noqa: F401

    for fn in (sample, live_maps.compute_live_map, postproc.PostProcessor._patch_var_dels):
        _cfg, blocks, patched, numbas = _live_maps(fn)
        assert list(patched) == list(numbas) == list(blocks)
        assert patched == numbas
        assert len(blocks) > 5
        assert any(numbas.values())  # variables are live somewhere


def test_a_dead_block_keeps_its_own_uses():
    import sims.core.jit  # noqa: F401

    cfg, blocks, patched, numbas = _live_maps(sample, dead_block=True)
    assert patched == numbas
    dead = set(blocks) - set(cfg.topo_order())
    assert len(dead) == 1
    assert all(numbas[k] for k in dead)
    assert all(patched[k] == numbas[k] for k in dead)


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in live_maps.CHECKED
    assert live_maps.installed()
    assert live_maps._source_hash() == live_maps.CHECKED[numba.__version__]
    assert analysis.compute_live_map is live_maps.compute_live_map
    assert ir_utils.compute_live_map is live_maps.compute_live_map
    before = live_maps.calls()
    postproc.PostProcessor(compiler.run_frontend(sample)).run(emit_dels=True)
    assert live_maps.calls() > before  # Numba's post-processing reaches it


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_function(monkeypatch):
    import sims.core.jit  # noqa: F401

    live_maps.uninstall()
    try:
        assert analysis.compute_live_map is not live_maps.compute_live_map
        monkeypatch.setattr(live_maps, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the one this patch was checked against"):
            assert not live_maps.install()
        assert not live_maps.installed()
        assert analysis.compute_live_map is not live_maps.compute_live_map
        assert ir_utils.compute_live_map is not live_maps.compute_live_map
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert live_maps.install()
