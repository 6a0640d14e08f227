"""Numba's variable-liveness fix points computed on bit masks instead of sets of names (issue 13: cold compile).

Where the cost is. ``numba.core.analysis.compute_live_map`` (the variables that must be alive at
the entry of each block) runs two fix points over the control-flow graph with Python sets of
variable names: ``def_reach`` (every name defined or used on some path reaching a block: for
a large function nearly every variable, unioned along every edge at every pass) and
``liveness`` (a block's live names pushed back to its predecessors). ``PostProcessor.run`` asks
for it after nearly every pass that edits the IR (1,791 times in a Card Wars cold compile), and
``@hot`` bodies copied into a caller make the sets long: 2.8-3.4 of ~40 CPU-s instrumented.

The patch. The same two fix points, over the same blocks in the same (topological) order and
the same edges, each set of names held as a Python integer whose bit ``i`` stands for the
``i``-th name: a union is one ``|`` of two integers instead of one hash lookup per name. Both
fix points iterate monotone equations from empty sets until a whole pass changes nothing, so
they end on the least fix point whatever the order of the updates: the same sets. The result
is a dict of Python sets as Numba's (the same keys in the same order, each set holding the
same names); the order in which a set iterates its names is not kept, which Numba does not
rely on (string hashes, hence that order, differ from one process to the next).
``tests/sims/core/test_live_maps.py`` compares the maps with Numba's on functions with loops,
branches and dead blocks, and the LLVM IR of a compile with and without the patch.

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``compute_live_map`` hashes to the checked value; otherwise it warns once and does nothing.
It replaces ``numba.core.analysis.compute_live_map`` and the name ``ir_utils`` imported from it.
"""

from __future__ import annotations

from numba.core import analysis, ir_utils

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of analysis.compute_live_map
    "0.68.1": "04b7eefad8abb7c90411c7253dcc032f1d8eb2add9c31fa391cb77a91228cee1",
}

_state: dict = {"installed": False, "original": None, "calls": 0}


def _source_hash() -> str:
    return patch_guard.source_hash((_state["original"] or analysis.compute_live_map,))


def _names(mask: int, names: list[str]) -> set[str]:
    """The names whose bits are set in ``mask``."""
    if not mask:
        return set()
    text = format(mask, "b")
    top = len(text) - 1
    out = set()
    i = text.find("1")
    while i >= 0:
        out.add(names[top - i])
        i = text.find("1", i + 1)
    return out


def compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """Numba's ``analysis.compute_live_map``, the sets of names held as bit masks (see the module)."""
    _state["calls"] += 1
    topo_order = cfg.topo_order()
    index: dict[str, int] = {}
    names: list[str] = []

    def mask(names_set) -> int:
        m = 0
        for name in names_set:
            i = index.get(name)
            if i is None:
                i = index[name] = len(names)
                names.append(name)
            m |= 1 << i
        return m

    use = {k: mask(v) for k, v in var_use_map.items()}
    defs = {k: mask(v) for k, v in var_def_map.items()}
    succs = {k: [s for s, _ in cfg.successors(k)] for k in topo_order}
    preds = {k: [p for p, _ in cfg.predecessors(k)] for k in topo_order}

    # def_reach: the names defined or used on some path reaching each block
    reach: dict = {}
    used_or_defined = [(k, defs[k] | use[k], succs[k]) for k in topo_order]
    changed = True
    while changed:
        changed = False
        for k, own, out in used_or_defined:
            old = reach.get(k, 0)
            cur = old | own
            if cur != old:
                reach[k] = cur
                changed = True
            for s in out:
                before = reach.get(s, 0)
                after = before | cur
                if after != before:
                    reach[s] = after
                    changed = True

    # liveness: a block's live names pushed back to its predecessors (those reached there, not defined there)
    live = {k: use[k] for k in blocks}
    backward = [(k, [(p, reach.get(p, 0) & ~defs[p]) for p in preds[k]]) for k in reversed(topo_order)]
    changed = True
    while changed:
        changed = False
        for k, ins in backward:
            for p, keep in ins:
                before = live[p]
                after = before | (live[k] & keep)
                if after != before:
                    live[p] = after
                    changed = True

    return {k: _names(m, names) for k, m in live.items()}


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "live_maps",
        CHECKED,
        _source_hash,
        "analysis.compute_live_map is not the one this patch was",
        "live maps computed on sets, as Numba does (slower cold compiles, same code)",
    ):
        return False
    _state["original"] = analysis.compute_live_map
    analysis.compute_live_map = compute_live_map
    ir_utils.compute_live_map = compute_live_map
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``compute_live_map`` back (tests compare both)."""
    if _state["installed"]:
        analysis.compute_live_map = _state["original"]
        ir_utils.compute_live_map = _state["original"]
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def calls() -> int:
    """Live maps computed by the patch since the process started."""
    return _state["calls"]
