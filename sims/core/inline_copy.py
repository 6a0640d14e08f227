"""Copy a ``@hot`` body once per inlined call, not once per block (issue 13: cold compile).

Where the cost is. For every call of an ``inline="always"`` function, Numba's untyped pass
``InlineInlinables`` asks ``InlineWorker.inline_function`` for the callee, which re-runs the
callee's front end (nested ``@hot`` calls inlined already) and hands the result to
``InlineWorker.inline_ir``. That copies the callee IR twice (the copy it edits and an unedited
copy it returns) with ``copy.deepcopy`` called on **each block separately**. Every ``ir.Var``
refers to the function's ``ir.Scope``, and the scope holds every variable of the function
(``localvars``, the ``redefined`` maps), so each block's copy copies the whole scope again:
a callee with ``B`` blocks and ``V`` variables costs about ``2 * B * V`` object copies, and
both grow with every ``@hot`` helper copied into the callee. That is the square of the body's
size; ``copy.deepcopy`` was 43 of 116 s of a profiled Blessings compile.

The patch. ``InlineWorker.inline_function`` (the untyped path; not the typed one, which updates
type maps) makes the callee's IR with ``run_untyped_passes`` for this one call, so nobody else
holds it: ``inline_ir``'s first copy of it (the one it edits) is skipped and the fresh IR edited
in place, and its second copy (the unedited IR it returns, which ``InlineInlinables`` discards)
copies the blocks with one shared memo, as ``copy.deepcopy`` copies a whole dict: one scope copy,
each variable once. A ``@hot`` call then costs one linear copy instead of two quadratic ones.
Nothing else changes: the same statements, names, labels and order, so ``inline_ir`` defines the
same variables in the caller's scope, in the same order, and produces the same IR. What differs
is only which objects the edited blocks share: Numba's per-block copies give each block its own,
equal, copy of the callee's scope and variables; the fresh IR shares them as the front end made
them. ``inline_ir`` reads that scope once (the first block's, after checking that all blocks'
are equal), renames every callee variable into the caller's scope with it, replaces them all
(new ``ir.Var`` objects, none edited in place) and points every block at the caller's scope, so
no callee scope or variable is left in the caller (a closure's free variables keep their names
from the same, equal, scope). ``tests/sims/core/test_jit_inline_copy.py`` checks it on nested
``@hot`` calls with loops and branches: the LLVM IR and results of a compile with and without the
patch are identical, and the patch is active in every game.

Reuse. The callee's untyped IR (its own nested inlines done) depends only on the function and
the caller's flags (``run_untyped_passes`` builds everything else afresh; ``enable_ssa`` it sets off
itself), so it is made once per function and flags and kept, never edited: each inlined call edits
one copy of it (made with one memo, as above) and ``inline_ir``'s "unedited copy", which its only
caller discards, is the cached IR itself. A caller with ``locals`` (typed locals, passed to the
callee's passes) gets a fresh IR as before. Card Wars: 92 callee IRs made, 311 reused, instead of
730 made (a nested callee was made again inside every copy of its caller). What differs from
Numba's own: an inlined variable's name holds its callee's unique id (``FunctionIdentity``), one
id per cached IR instead of one per copy, and block labels are numbered on; the test checks that
the machine code is the same and the LLVM IR the same but for names. A function's globals are
read when its IR is made: as for a compiled function, rebinding a global later is not seen.

Safety. The patch is installed only on a Numba version it was checked against and only if the
source of ``InlineWorker.inline_ir``, ``inline_function`` and ``run_untyped_passes`` is the one
checked (hashes below); otherwise it does nothing and warns once, and compilation is Numba's own.
"""

from __future__ import annotations

import copy
import weakref

from numba.core import compiler, inline_closurecall, ir

from sims.core import ir_copy, patch_guard

CHECKED = {
    # numba version: sha256 of the files of InlineWorker.inline_ir, inline_function and
    # run_untyped_passes (which must build a new IR at every call: it is edited in place)
    "0.68.1": "9878a52d00598ea557e2b1824f8ecad59d7650833e234f73cf0ba53413a1a0a4",
}

_state = {"installed": False, "inline": None, "kept": 0, "shared": 0, "built": 0, "reused": 0}
# a callee's untyped IR (its nested inlines done), per function and caller flags: never edited
_untyped: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _InlineCopy:
    """Stands in for the ``copy`` module inside ``inline_closurecall`` (whose only use of it is
    ``inline_ir``'s per-block ``copy.deepcopy``); other calls go to ``copy`` itself."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(obj, memo=None):
        inline = _state["inline"]
        if inline is None or memo is not None or type(obj) is not ir.Block:
            return copy.deepcopy(obj, memo)
        cached = inline.get("cached")
        if cached is not None:
            if id(obj) in cached:  # the first copy (the one inline_ir edits) of a cached IR's block
                _state["shared"] += 1
                new = ir_copy.deepcopy(obj, inline["memo"])
                inline["source"][id(new)] = obj
                return new
            # the second, "unedited copy" of that copy: the cached block itself, equal and never edited
            return inline["source"][id(obj)]
        if inline["keep"] and id(obj) in inline["fresh"]:
            inline["keep"] -= 1  # the first copy of the private, fresh IR: edit it in place
            _state["kept"] += 1
            return obj
        _state["shared"] += 1
        return ir_copy.deepcopy(obj, inline["memo"])


def _source_hash() -> str:
    worker = inline_closurecall.InlineWorker
    inline_function = _state.get("original", worker.inline_function)
    pipeline = compiler.DefaultPassBuilder.define_untyped_pipeline
    parts = (worker.inline_ir, inline_function, worker.run_untyped_passes, worker.__init__, pipeline)
    return patch_guard.source_hash(parts)


def _flags_key(flags):
    """The caller's flags as ``run_untyped_passes`` runs the callee's passes with them (``enable_ssa``
    off), as a key: a copy (``Flags`` hash by option names and compare by values)."""
    flags.enable_ssa = False  # what run_untyped_passes does to the caller's flags, cached or not
    return flags.copy()


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """``InlineWorker.inline_function``: the callee's fresh IR edited in place, its unedited copy
    made as one (see the module)."""
    if self._permit_update_type_and_call_maps:
        return _state["original"](self, caller_ir, block, i, function, arg_typs)
    key = None if self.locals else _flags_key(self.flags)
    if key is not None:
        return _inline_cached(self, caller_ir, block, i, function, arg_typs, key)
    callee_ir = self.run_untyped_passes(function)  # its own nested inlines run (and finish) here
    blocks = callee_ir.blocks.values()
    outer = _state["inline"]
    _state["inline"] = {"fresh": {id(b) for b in blocks}, "keep": len(blocks), "memo": {}}
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
    finally:
        _state["inline"] = outer


def _inline_cached(self, caller_ir, block, i, function, arg_typs, key):
    """``inline_function`` with the callee's untyped IR made once per function and flags (see the
    module): ``inline_ir`` edits one copy of it, made with one memo, and returns the cached IR as
    its unedited copy."""
    per_flags = _untyped.setdefault(function, {})
    callee_ir = per_flags.get(key)
    if callee_ir is None:
        callee_ir = per_flags[key] = self.run_untyped_passes(function)  # its nested inlines run here
        _state["built"] += 1
    else:
        _state["reused"] += 1
    outer = _state["inline"]
    cached = {id(b): b for b in callee_ir.blocks.values()}
    _state["inline"] = {"cached": cached, "source": {}, "fresh": (), "keep": 0, "memo": {}}
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
    finally:
        _state["inline"] = outer


def install() -> bool:
    """Install the patch if this Numba is one it was checked against; return whether it is active."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "inline_copy",
        CHECKED,
        _source_hash,
        "inliner is not the one this patch was",
        "@hot bodies are copied Numba's way (slower cold compiles, same code)",
    ):
        return False
    _state["original"] = inline_closurecall.InlineWorker.inline_function
    inline_closurecall.copy = _InlineCopy()
    inline_closurecall.InlineWorker.inline_function = _inline_function
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own inliner back (tests compare both)."""
    if not _state["installed"]:
        return
    inline_closurecall.copy = copy
    inline_closurecall.InlineWorker.inline_function = _state.pop("original")
    _untyped.clear()
    _state["installed"] = False


def installed() -> bool:
    """Whether the patch is active."""
    return _state["installed"]


def untyped_irs() -> tuple[int, int]:
    """Callee IRs made by the untyped passes and reused from the cache since the process started."""
    return _state["built"], _state["reused"]


def copies() -> tuple[int, int]:
    """Callee blocks edited in place and blocks copied with a shared memo since the process started."""
    return _state["kept"], _state["shared"]
