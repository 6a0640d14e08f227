"""Numba's per-block variable uses and definitions with one variable list per assignment (issue 13: cold compile).

Where the cost is. ``numba.core.analysis.compute_use_defs`` (the names each block reads before
defining them, and the names it defines) runs after nearly every IR pass (``PostProcessor.run``,
1,791 times in a Card Wars cold compile, ~1.15 CPU-s instrumented). For each assignment it lists
the right-hand side's variables (``value.list_vars()``) to decide whether the target is defined,
then the statement's (``stmt.list_vars()``, which walks the statement's attributes and lists the
right-hand side's variables again, then the target).

The patch. The same loop; for a plain ``ir.Assign`` (exactly that class, with only its three
attributes ``value``, ``target`` and ``loc``, so that its ``list_vars()`` is the right-hand side's
variables followed by the target) the right-hand side's variables are listed once and used for
both steps. Every other statement, and the IR extensions' own use/def functions, go through
Numba's code. The result is the same two dicts (same keys, same order) of the same sets
(``tests/sims/core/test_use_defs.py`` compares them on every call of a Card Wars compile's kind
of IR, and the LLVM IR of a compile with and without).

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``compute_use_defs``, ``Assign.__init__`` and ``Stmt.list_vars`` hashes to the checked value;
otherwise it warns once and does nothing. It replaces ``analysis.compute_use_defs`` and the
names ``transforms``, ``lowering`` and ``ir_utils`` imported from it.
"""

from __future__ import annotations

from numba.core import analysis, ir, ir_utils, lowering, transforms

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of analysis.compute_use_defs, ir.Assign.__init__, ir.Stmt.list_vars
    "0.68.1": "cf0d76e5cb76e5eef289d5fb41041662eb9e779365df7223101a8e9e51abd4ba",
}

_MODULES = (analysis, transforms, lowering, ir_utils)
_state: dict = {"installed": False, "original": None, "calls": 0}


def _source_hash() -> str:
    parts = (_state["original"] or analysis.compute_use_defs, ir.Assign.__init__, ir.Stmt.list_vars)
    return patch_guard.source_hash(parts)


def compute_use_defs(blocks):
    """Numba's ``analysis.compute_use_defs``, a plain assignment's variables listed once (see the module)."""
    _state["calls"] += 1
    Assign, Inst, Var = ir.Assign, ir.Inst, ir.Var
    plain_rhs = (ir.Arg, ir.Const, ir.Global, ir.FreeVar)
    extensions = analysis.ir_extension_usedefs
    var_use_map = {}  # { block offset -> set of vars }
    var_def_map = {}  # { block offset -> set of vars }
    for offset, ir_block in blocks.items():
        var_use_map[offset] = use_set = set()
        var_def_map[offset] = def_set = set()
        for stmt in ir_block.body:
            cls = type(stmt)
            if cls in extensions:
                extensions[cls](stmt, use_set, def_set)
                continue
            if cls is Assign and len(stmt.__dict__) == 3:
                value, target = stmt.value, stmt.target.name
                if isinstance(value, Inst):
                    names = [var.name for var in value.list_vars()]
                elif isinstance(value, Var):
                    names = [value.name]
                elif isinstance(value, plain_rhs):
                    names = []
                else:
                    raise AssertionError("unreachable", type(value))
                if target not in names:  # if lhs not in rhs of the assignment
                    def_set.add(target)
                names.append(target)  # stmt.list_vars(): the right-hand side's, then the target
                for name in names:
                    if name not in def_set:  # do not include locally defined vars to use-map
                        use_set.add(name)
                continue
            if isinstance(stmt, Assign):  # Numba's code from here on
                if isinstance(stmt.value, Inst):
                    rhs_set = {var.name for var in stmt.value.list_vars()}
                elif isinstance(stmt.value, Var):
                    rhs_set = {stmt.value.name}
                elif isinstance(stmt.value, plain_rhs):
                    rhs_set = ()
                else:
                    raise AssertionError("unreachable", type(stmt.value))
                if stmt.target.name not in rhs_set:
                    def_set.add(stmt.target.name)
            for var in stmt.list_vars():
                if var.name not in def_set:
                    use_set.add(var.name)
    return analysis._use_defs_result(usemap=var_use_map, defmap=var_def_map)


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "use_defs",
        CHECKED,
        _source_hash,
        "analysis.compute_use_defs is not the one this patch was",
        "uses and definitions listed as Numba does (slower cold compiles, same code)",
    ):
        return False
    _state["original"] = analysis.compute_use_defs
    for module in _MODULES:
        module.compute_use_defs = compute_use_defs
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``compute_use_defs`` back (tests compare both)."""
    if _state["installed"]:
        for module in _MODULES:
            module.compute_use_defs = _state["original"]
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def calls() -> int:
    """Use/def maps computed by the patch since the process started."""
    return _state["calls"]
