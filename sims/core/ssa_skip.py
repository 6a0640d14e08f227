"""Numba's SSA reconstruction visiting only the blocks that name the variable it fixes (issue 13: cold compile).

Where the cost is. ``numba.core.ssa._run_ssa`` fixes one SSA-violating variable (assigned more
than once, or used where its one assignment does not dominate) at a time, and for each it runs
two rewrite passes over **every statement of every block** (``_fresh_vars``: a fresh name for
each assignment; ``_fix_ssa_vars``: each use pointed at its reaching definition, phi nodes
where they are needed), each statement through a generator, two ``logging.debug`` calls and a
handler call. A function of ``S`` statements with ``V`` violators costs ``2 * V * S`` visits,
and ``@hot`` bodies copied into a caller grow both: a Card Wars cold compile made 1.8 million
visits (``reconstruct_ssa`` ~3.7 CPU-s of ~50 instrumented).

The patch. The same passes, in the same order, with the same handlers, but a block whose
statements never name the variable being fixed is copied as it is (a new ``ir.Block`` holding
the same statements, which is what both handlers return for such a block: ``_FreshVarHandler``
changes only an assignment to the variable, ``_FixSSAVars`` only a statement that uses it, and
it inserts phi nodes only while resolving a use). The names each block mentions are read once,
from its statements' ``list_vars()`` (an assignment's target included); fixing one variable
only replaces that variable's own names (fresh versions of it, new names no other variable has)
and adds phi nodes for it, so what the other blocks mention of the variables still to fix does
not change. Blocks that do name it go through Numba's own handler loop, in Numba's block
order, so definitions, phi nodes and warnings come out exactly as before. With the module's
debug logging on, Numba's own ``_run_ssa`` runs (it logs every statement).
``tests/sims/core/test_ssa_skip.py`` compares the IR after SSA and the LLVM IR with and without.

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``_run_ssa``, ``_run_block_rewrite``, ``_run_ssa_block_pass``, ``_fresh_vars``, ``_fix_ssa_vars``
and the two handlers hashes to the checked value; otherwise it warns once and does nothing.
"""

from __future__ import annotations

import logging

from numba.core import errors, ir, ssa

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of the ssa functions and classes in _relied_on()
    "0.68.1": "d20accd92757fef663a43e78d0ee88fe01d9333379eda463c9e15f0e7785e490",
}

_state: dict = {"installed": False, "original": None, "mentions": None, "skipped": 0, "visited": 0}


def _relied_on():
    return (
        _state["original"] or ssa._run_ssa,
        _state.get("rewrite") or ssa._run_block_rewrite,
        ssa._run_ssa_block_pass,
        ssa._fresh_vars,
        ssa._fix_ssa_vars,
        ssa._FreshVarHandler,
        ssa._FixSSAVars,
        ssa._CacheListVars,
    )


def _source_hash() -> str:
    return patch_guard.source_hash(_relied_on())


def _run_block_rewrite(blocks, states, handler):
    """``ssa._run_block_rewrite``: a block that does not name ``states['varname']`` (known while
    ``_run_ssa`` below runs) is copied without visiting its statements; otherwise Numba's loop."""
    mentions = _state["mentions"]
    if mentions is None:
        return _state["rewrite"](blocks, states, handler)
    varname = states["varname"]
    newblocks = {}
    for label, blk in blocks.items():
        newblk = ir.Block(scope=blk.scope, loc=blk.loc)
        if varname not in mentions[label]:
            newblk.body = list(blk.body)
            _state["skipped"] += 1
        else:
            states["label"] = label
            states["block"] = blk
            newbody = []
            for stmt in ssa._run_ssa_block_pass(states, blk, handler):
                assert stmt is not None
                newbody.append(stmt)
            newblk.body = newbody
            _state["visited"] += 1
        newblocks[label] = newblk
    return newblocks


def _run_ssa(blocks):
    """``ssa._run_ssa`` with the names each block mentions read once (see the module)."""
    if ssa._logger.isEnabledFor(logging.DEBUG) or _state["mentions"] is not None:
        return _state["original"](blocks)
    if not blocks:
        return {}
    cfg = ssa.compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    cache_list_vars = ssa._CacheListVars()
    if violators:
        _state["mentions"] = {
            label: {var.name for stmt in blk.body for var in stmt.list_vars()} for label, blk in blocks.items()
        }
    try:
        for varname in violators:
            blocks, defmap = ssa._fresh_vars(blocks, varname)
            blocks = ssa._fix_ssa_vars(blocks, varname, defmap, cfg, df_plus, cache_list_vars)
    finally:
        _state["mentions"] = None
    cfg_post = ssa.compute_cfg_from_blocks(blocks)
    if cfg_post != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "ssa_skip",
        CHECKED,
        _source_hash,
        "SSA reconstruction is not the one this patch was",
        "every block visited for every variable, as Numba does (slower cold compiles, same code)",
    ):
        return False
    _state["original"], _state["rewrite"] = ssa._run_ssa, ssa._run_block_rewrite
    ssa._run_ssa = _run_ssa
    ssa._run_block_rewrite = _run_block_rewrite
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own functions back (tests compare both)."""
    if _state["installed"]:
        ssa._run_ssa, ssa._run_block_rewrite = _state["original"], _state["rewrite"]
        _state["original"] = _state["rewrite"] = None
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def counts() -> tuple[int, int]:
    """Block rewrites skipped (the block does not name the variable) and visited since the process started."""
    return _state["skipped"], _state["visited"]
