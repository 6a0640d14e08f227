"""Two of Numba's front-end helpers computed the same way, without the per-item Python calls
(issue 13: cold compile). Both return exactly what Numba's own code returns.

``TargetConfig.values`` (the compiler flags as a dict). Numba types every call of an
``@overload``-style template through ``_get_impl``, whose cache is keyed by the current
``Flags``: each lookup hashes the flags and, on a hit, compares them with the stored ones,
and both build ``values()`` with one property call per option (22 options, ~9 us a dict).
A Cardia compile makes ~54,000 such lookups (~150,000 dicts; 13 of 141 s profiled). The
patch builds the same dict (same keys, same order, same values) as one copy of the class's
defaults updated with the options set: ``self._values`` holds only set options (the
metaclass's setters are the only writers), and every option's property is the metaclass's
own getter (``self._values.get(name, default)``). Both are checked per class on first use
(a class whose options are read any other way, or flags holding a key that is not an option,
fall back to Numba's code).

``Inst._rec_list_vars`` (the variables an IR statement reads or writes). It recursed once
per attribute of every statement (the location, strings, constants: 2.8 million calls in a
Cardia compile, 13.5 of 141 s profiled, called by ``compute_use_defs`` and the dead-variable
passes). The patch walks the same values in the same order, with the leaf tests inline, and
returns the same list.

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of the
two functions (and the metaclass's property getter) hashes to the checked value; otherwise it
warns once and does nothing. ``tests/sims/core/test_numba_speedups.py`` checks both against
Numba's own functions and that a compile's LLVM IR is unchanged; ``benchmarks/cardia_ir_digest.py
--game G --without numba_speedups`` compares every optimised module of a whole game's cold compile
(identical for Cardia, Blessings, CardRPG and Cardinger). Cardia's cold compile: 38.3 -> 37.3
CPU-s side by side (one pair, load 10); 0.5-1.7 CPU-s less in each game's IR-digest pair.
"""

from __future__ import annotations

import inspect

from numba.core import ir, targetconfig

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of TargetConfig.values, _MetaTargetConfig.__init__
    # (the property getter) and Inst._rec_list_vars
    "0.68.1": "600239c35bea9f063f12c81e56964ad287b83dca71b47d70067a58aef2f3e209",
}

_state: dict = {"installed": False, "original": {}, "classes": {}}


def _source_hash() -> str:
    parts = (
        _state["original"].get("values", targetconfig.TargetConfig.values),
        targetconfig._MetaTargetConfig.__init__,
        _state["original"].get("rec", ir.Inst._rec_list_vars),
    )
    return patch_guard.source_hash(parts)


def _getter_code():
    """The code object of the getter ``_MetaTargetConfig`` makes for every option."""

    class _Probe(targetconfig.TargetConfig):
        probe = targetconfig.Option(type=bool, default=False, doc="")

    return _Probe.__dict__["probe"].fget.__code__


def _defaults(cls) -> dict | None:
    """The class's options with their defaults, in ``options`` order, if every option is read
    by the metaclass's getter (else None: Numba's own ``values`` is used)."""
    found = _state["classes"].get(cls, False)
    if found is not False:
        return found
    code = _state["getter"]
    defaults: dict | None = {}
    for name, option in cls.options.items():
        prop = inspect.getattr_static(cls, name, None)
        if not isinstance(prop, property) or prop.fget is None or prop.fget.__code__ is not code:
            defaults = None
            break
        defaults[name] = option.default
    _state["classes"][cls] = defaults
    return defaults


def _values(self):
    """``TargetConfig.values``: the same dict, built as defaults updated with the set options."""
    defaults = _defaults(type(self))
    values = self._values
    if defaults is None or not values.keys() <= defaults.keys():
        return _state["original"]["values"](self)
    out = dict(defaults)
    out.update(values)
    return out


def _rec_list_vars(self, val):
    """``Inst._rec_list_vars``: the same list, the leaves tested inline."""
    Var, Inst = ir.Var, ir.Inst
    if isinstance(val, Var):
        return [val]
    if isinstance(val, Inst):
        return val.list_vars()
    if isinstance(val, (list, tuple)):
        items = val
    elif isinstance(val, dict):
        items = val.values()
    else:
        return []
    lst = []
    for v in items:
        if isinstance(v, Var):
            lst.append(v)
        elif isinstance(v, Inst):
            lst.extend(v.list_vars())
        elif isinstance(v, (list, tuple, dict)):
            lst.extend(self._rec_list_vars(v))
    return lst


def install() -> bool:
    """Install both if this Numba is one they were checked against; return whether they are active."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "numba_speedups",
        CHECKED,
        _source_hash,
        "TargetConfig.values / Inst._rec_list_vars are not the ones this patch was",
        "Numba's own are used (slower cold compiles, same code)",
    ):
        return False
    _state["getter"] = _getter_code()
    _state["original"] = {"values": targetconfig.TargetConfig.values, "rec": ir.Inst._rec_list_vars}
    targetconfig.TargetConfig.values = _values
    ir.Inst._rec_list_vars = _rec_list_vars
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own functions back (tests compare both)."""
    if not _state["installed"]:
        return
    targetconfig.TargetConfig.values = _state["original"]["values"]
    ir.Inst._rec_list_vars = _state["original"]["rec"]
    _state["original"] = {}
    _state["classes"] = {}
    _state["installed"] = False


def installed() -> bool:
    """Whether the patch is active."""
    return _state["installed"]
