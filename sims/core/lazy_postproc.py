"""Numba's post-processing with the live-variable analysis left until something reads it (issue 13: cold compile).

Where the cost is. ``numba.core.postproc.PostProcessor.run`` runs after nearly every pass that
edits a function's IR (1,588 times in a Card Wars cold compile, on bodies made long by the
``@hot`` copies). Each run canonicalises the control-flow graph, makes a fresh
``VariableLifetime`` (whose control-flow graph, use/def, live and dead maps are computed when
first read) and then reads all of them at once: ``compute_live_variables`` fills
``func_ir.block_entry_vars``, the variables that may be alive on entry to each block. In the
nopython pipeline nothing reads ``block_entry_vars``: its readers are object-mode lowering
(``pylowering``) and generators (``_compute_generator_info``); ``FunctionIR.copy`` copies it
over (931 copies a Card Wars compile, one per ``@hot`` body copied). The next run replaces it.

The patch. ``run`` does what Numba's does, in the same order, except that ``block_entry_vars``
is an ``EntryVars``: a dict that computes its entries (Numba's ``compute_live_variables`` over
the run's ``VariableLifetime``) the first time anything reads it. ``VariableLifetime`` was
already lazy; only the forced read is gone, so a run that emits ``del`` statements still
computes the maps it needs, and one that does not computes nothing. ``FunctionIR.copy`` of an IR
whose ``EntryVars`` was never read gives the copy its own unread ``EntryVars`` over the copied
blocks. A generator takes Numba's own ``run`` (its analysis reads the entries at once).

What changes. A value is computed from the blocks as they are when first read, where Numba
computed it at the run. They are the same whenever the IR has not changed between the run and
the read; in Numba 0.68.1 the readers read right after a run (object-mode lowering follows its
last run; ``MixedContainerUnroller.unroll_loop`` reads the live map of the run before it,
``with`` lifting runs ``run`` itself before reading). Card Wars: 1,588 runs, no ``EntryVars``
read, and the same LLVM IR (``tests/sims/core/test_lazy_postproc.py``). Cold compile, both trees
at once on one core each, swapped, 3 pairs: x0.927 (every entry point, CPU-s).

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of the
functions replaced or relied on hashes to the checked value; otherwise it warns once and does
nothing.
"""

from __future__ import annotations

import copy

from numba.core import analysis, ir, postproc, transforms

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of the functions listed in _relied_on
    "0.68.1": "42ac78df5c197fb46ba8a2884e4eea5d9ccc75315ada79eede0aabb3e139cf21",
}

_state: dict = {"installed": False, "original": {}, "deferred": 0, "read": 0}


def _relied_on():
    """The Numba functions this patch replaces (Numba's own, also once installed) or whose behaviour it relies on."""
    own = _state["original"]
    return (
        own.get("run", postproc.PostProcessor.run),
        own.get("copy", ir.FunctionIR.copy),
        ir.FunctionIR.get_block_entry_vars,
        ir.FunctionIR._reset_analysis_variables,
        postproc.VariableLifetime,
        analysis.compute_live_variables,
    )


def _source_hash() -> str:
    return patch_guard.source_hash(_relied_on())


class EntryVars(dict):
    """``func_ir.block_entry_vars`` of a post-processing run, computed when first read (see the module).

    ``prior``: the mapping it replaces; Numba's run updated that dict in place, so its entries
    (for blocks the IR no longer holds) are kept when they were computed, dropped when never read."""

    __slots__ = ("_pending",)

    def __init__(self, prior, lifetime, blocks):
        super().__init__()
        if isinstance(prior, EntryVars) and prior._pending is not None:
            prior = {}
        self._pending = (prior, lifetime, blocks)

    @property
    def pending(self) -> bool:
        """Whether the entries are still to be computed (nothing has read them)."""
        return self._pending is not None

    def _fill(self) -> None:
        if self._pending is None:
            return
        prior, vlt, blocks = self._pending
        self._pending = None
        _state["read"] += 1
        dict.update(self, prior)
        live = analysis.compute_live_variables(vlt.cfg, blocks, vlt.usedefs.defmap, vlt.deadmaps.combined)
        for offset, block in blocks.items():
            dict.__setitem__(self, block, live[offset])

    def __getitem__(self, key):
        self._fill()
        return dict.__getitem__(self, key)

    def __setitem__(self, key, value):
        self._fill()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key):
        self._fill()
        dict.__delitem__(self, key)

    def __contains__(self, key):
        self._fill()
        return dict.__contains__(self, key)

    def __iter__(self):
        self._fill()
        return dict.__iter__(self)

    def __len__(self):
        self._fill()
        return dict.__len__(self)

    def __eq__(self, other):
        self._fill()
        return dict.__eq__(self, other)

    def __repr__(self):
        self._fill()
        return dict.__repr__(self)

    def get(self, key, default=None):
        self._fill()
        return dict.get(self, key, default)

    def keys(self):
        self._fill()
        return dict.keys(self)

    def values(self):
        self._fill()
        return dict.values(self)

    def items(self):
        self._fill()
        return dict.items(self)

    def copy(self):
        self._fill()
        return dict(self)

    def pop(self, *args):
        self._fill()
        return dict.pop(self, *args)

    def setdefault(self, key, default=None):
        self._fill()
        return dict.setdefault(self, key, default)

    def update(self, *args, **kws):
        self._fill()
        dict.update(self, *args, **kws)


def run(self, emit_dels: bool = False, extend_lifetimes: bool = False):
    """``PostProcessor.run``: Numba's, with ``block_entry_vars`` computed when first read (see the module)."""
    func_ir = self.func_ir
    if func_ir.is_generator:
        return _state["original"]["run"](self, emit_dels, extend_lifetimes)
    func_ir.blocks = transforms.canonicalize_cfg(func_ir.blocks)
    lifetime = postproc.VariableLifetime(func_ir.blocks)
    func_ir.variable_lifetime = lifetime
    func_ir.block_entry_vars = EntryVars(func_ir.block_entry_vars, lifetime, func_ir.blocks)
    func_ir.generator_info = None
    _state["deferred"] += 1
    if emit_dels:
        self._insert_var_dels(extend_lifetimes=extend_lifetimes)
    return None


def copy_ir(self):
    """``FunctionIR.copy``: an unread ``EntryVars`` stays unread in the copy (over the copied blocks)."""
    entry = self.block_entry_vars
    if not (isinstance(entry, EntryVars) and entry.pending):
        return _state["original"]["copy"](self)
    new_ir = copy.copy(self)
    blocks = {label: block.copy() for label, block in self.blocks.items()}
    new_ir.blocks = blocks
    new_ir.block_entry_vars = EntryVars({}, postproc.VariableLifetime(blocks), blocks)
    return new_ir


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "lazy_postproc",
        CHECKED,
        _source_hash,
        "post-processor / FunctionIR.copy are not the ones this patch was",
        "the live variables of every block computed at each post-processing run, as Numba does (slower cold"
        " compiles, same code)",
    ):
        return False
    _state["original"] = {"run": postproc.PostProcessor.run, "copy": ir.FunctionIR.copy}
    postproc.PostProcessor.run = run
    ir.FunctionIR.copy = copy_ir
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``run`` and ``copy`` back (tests compare both)."""
    if _state["installed"]:
        postproc.PostProcessor.run = _state["original"]["run"]
        ir.FunctionIR.copy = _state["original"]["copy"]
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def deferred() -> int:
    """Post-processing runs that left their entry variables uncomputed since the process started."""
    return _state["deferred"]


def reads() -> int:
    """``EntryVars`` computed because something read them since the process started."""
    return _state["read"]
