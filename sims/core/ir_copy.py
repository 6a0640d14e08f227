"""``copy.deepcopy`` of Numba IR with the generic machinery cut short for plain classes (issue 13: cold compile).

Where the cost is. ``sims.core.inline_copy`` copies a ``@hot`` callee's blocks once per inlined
call with ``copy.deepcopy`` (one memo for the whole body). Every IR node (``ir.Assign``,
``ir.Var``, ``ir.Loc``, ``ir.Expr``, ...) goes through deepcopy's generic path: a dispatch
miss, a ``__deepcopy__`` lookup, ``__reduce_ex__(4)`` (which builds a tuple and reads the
instance's state), ``_reconstruct`` with its ``hasattr(y, '__setstate__')``: Card Wars' cold
compile spent 1.73 CPU-s in 8,282 block copies (instrumented).

The patch. ``deepcopy(x, memo)`` does what ``copy.deepcopy`` does, step for step, for the objects
IR is made of, and hands every other object to ``copy.deepcopy`` itself (with the same memo):

- the atomic types (``str``, ``int``, ``None``, functions, classes, ...): ``x`` itself;
- ``list``, ``tuple``, ``dict``: ``copy``'s own ``_deepcopy_list`` / ``_deepcopy_tuple`` /
  ``_deepcopy_dict`` logic (a tuple whose items all copy to themselves is returned as is);
- an instance of a Numba IR class defining its own ``__deepcopy__`` (``ir.Var``, ``ir.Global``,
  ``ir.Const``, ``ir.FreeVar``): that method, called as ``copy.deepcopy`` calls it;
- an instance of a *plain* class: one whose copy ``copy`` makes as ``cls.__new__(cls)`` followed by
  ``y.__dict__.update(deepcopy(x.__dict__))``. A class is plain when it defines no ``__deepcopy__``,
  has no ``copyreg`` entry, keeps ``object``'s ``__reduce_ex__``, ``__reduce__``, ``__getstate__``,
  has no ``__getnewargs__``/``__getnewargs_ex__``, no ``__slots__`` (so its state is its
  ``__dict__``, or ``None`` when that is empty) and no ``__setstate__`` (checked on a fresh
  instance, as ``_reconstruct`` does); decided once per class.

The memo gets the same entries (each copy under its original's id, the originals kept alive under
``id(memo)``), so objects shared in the original are shared in the copy exactly as with
``copy.deepcopy``. ``tests/sims/core/test_ir_copy.py`` compares both on a Card Wars kernel's IR
(every statement, and which objects are shared) and on objects that are not plain.

Safety: used only on the Python whose ``copy`` module source hashes to the checked value (the
functions it follows); on another, ``deepcopy`` is ``copy.deepcopy``.
"""

from __future__ import annotations

import copy
import copyreg
import hashlib
import inspect
import sys

CHECKED = {
    # python version (major.minor.micro): sha256 of the source of copy.deepcopy, _reconstruct,
    # _deepcopy_list, _deepcopy_tuple, _deepcopy_dict, _keep_alive and the atomic types' list
    "3.11.7": "353218f0bc775f711d750ad86d6a85ae73181b43a5f84d945ff129910905d143",
}

_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python (no C-level state of its own)
_ATOMIC = frozenset(cls for cls, fn in copy._deepcopy_dispatch.items() if fn is copy._deepcopy_atomic)
_plain: dict[type, bool] = {}
_own_copier: set[type] = set()
_state: dict = {"active": None, "fast": 0}


def _source_hash() -> str:
    parts = (
        copy.deepcopy,
        copy._reconstruct,
        copy._deepcopy_list,
        copy._deepcopy_tuple,
        copy._deepcopy_dict,
        copy._keep_alive,
        copy._deepcopy_atomic,
    )
    text = "".join(inspect.getsource(p) for p in parts) + repr(sorted(c.__qualname__ for c in _ATOMIC))
    return hashlib.sha256(text.encode()).hexdigest()


def active() -> bool:
    """Whether the fast path is used (this Python's ``copy`` is the checked one)."""
    if _state["active"] is None:
        version = ".".join(map(str, sys.version_info[:3]))
        try:
            _state["active"] = CHECKED.get(version) == _source_hash()
        except (OSError, TypeError):
            _state["active"] = False
    return _state["active"]


def _is_plain(cls) -> bool:
    found = _plain.get(cls)
    if found is not None:
        return found
    found = (
        cls.__module__.startswith("numba.")
        and cls not in copy._deepcopy_dispatch
        and not issubclass(cls, (type, list, dict, tuple, set, frozenset))
        and getattr(cls, "__deepcopy__", None) is None
        and cls not in copyreg.dispatch_table
        and cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__reduce__ is object.__reduce__
        and cls.__getstate__ is object.__getstate__
        and not hasattr(cls, "__getnewargs_ex__")
        and not hasattr(cls, "__getnewargs__")
        and all("__slots__" not in c.__dict__ and c.__flags__ & _HEAPTYPE for c in cls.__mro__[:-1])
        and cls.__mro__[-1] is object
    )
    if found:  # what copy reads on the instance (a class's __getattr__ may answer): read on a fresh one
        try:
            probe = cls.__new__(cls)
            found = (
                getattr(probe, "__deepcopy__", None) is None
                and not hasattr(probe, "__setstate__")
                and hasattr(probe, "__dict__")
            )
        except Exception:
            found = False
    _plain[cls] = found
    return found


def _has_own_copier(cls) -> bool:
    """Whether ``cls`` is a Numba IR class with a ``__deepcopy__`` of its own (``ir.Var``, ``ir.Global``,
    ``ir.Const``, ``ir.FreeVar``): copy calls it, so do we (remembered per class)."""
    found = (
        cls.__module__ == "numba.core.ir"
        and cls not in copy._deepcopy_dispatch
        and not issubclass(cls, type)
        and callable(cls.__dict__.get("__deepcopy__"))
    )
    if found:
        _own_copier.add(cls)
    return found


def _keep_alive(x, memo) -> None:
    try:
        memo[id(memo)].append(x)
    except KeyError:
        memo[id(memo)] = [x]


def _copy(x, memo):
    """``copy.deepcopy(x, memo)`` (``memo`` a dict), the IR's objects copied without the generic path."""
    d = id(x)
    y = memo.get(d, memo)  # memo itself as the "not found" marker, as copy's _nil
    if y is not memo:
        return y
    cls = type(x)
    if cls in _ATOMIC:
        return x
    if cls is list:
        y = []
        memo[d] = y
        append = y.append
        for a in x:
            append(_copy(a, memo))
    elif cls is dict:
        y = {}
        memo[d] = y
        for key, value in x.items():
            y[_copy(key, memo)] = _copy(value, memo)
    elif cls is tuple:
        items = [_copy(a, memo) for a in x]
        y = memo.get(d, memo)  # the tuple copied while its items were (a cycle through it)
        if y is memo:
            y = x
            for k, j in zip(x, items, strict=False):
                if k is not j:
                    y = tuple(items)
                    break
    elif cls in _own_copier or _has_own_copier(cls):  # copy: y = x.__deepcopy__(memo)
        y = x.__deepcopy__(memo)
    elif _is_plain(cls):
        y = cls.__new__(cls)
        memo[d] = y
        state = x.__dict__
        if state:  # object.__getstate__: the instance dict, or None when it is empty
            if "__deepcopy__" in state:  # copy would find it on the instance
                del memo[d]
                return copy.deepcopy(x, memo)
            y.__dict__.update(_copy(state, memo))
    else:
        return copy.deepcopy(x, memo)
    if y is not x:
        memo[d] = y
        _keep_alive(x, memo)
    _state["fast"] += 1
    return y


def deepcopy(x, memo: dict | None = None):
    """``copy.deepcopy``: the fast path on the checked Python, ``copy.deepcopy`` itself otherwise."""
    if memo is None:
        memo = {}
    if not active():
        return copy.deepcopy(x, memo)
    return _copy(x, memo)


def counts() -> int:
    """Objects copied on the fast path since the process started."""
    return _state["fast"]
