"""The ``repr`` of a Numba record type built once per type (issue 13: cold compile).

Where the cost is. ``Record.__repr__`` spells out every field (name, type, offset, alignment,
title), each field type by its own ``repr`` (``NestedArray.__repr__`` for an array field, which
spells its record dtype again), and Numba asks for it far more often than once: the pass
manager formats each pass's argument types (``str(state.args)``) for its event at every pass of
every function, and the target context's implementation lookup formats the signature into the
message of every failed attempt (``OverloadSelector._find``). A game's state is a record with
many fields and record-typed arrays: a Card Wars games-only compile made 15,653 such reprs
(407,652 with the nested ones), ~2 CPU-s.

The patch. ``Record.__repr__`` and ``NestedArray.__repr__`` remember their string per type
object (a Numba type is immutable once made: its fields, size and shape are set by its
constructor and it is interned by its key), so the second and later calls return the string
Numba built the first time. The strings are the same; nothing else changes (types, their names,
keys, pickles and the compiled code). ``tests/sims/core/test_type_reprs.py``.

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of the two
``__repr__`` methods hashes to the checked value; otherwise it warns once and does nothing.
"""

from __future__ import annotations

import weakref

from numba.core.types import npytypes

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of Record.__repr__ and NestedArray.__repr__
    "0.68.1": "0e4a392ec28f7aac83f805e0d322a3fee9e704e3cf0838da09fd43b4e64f32c0",
}

_CLASSES = (npytypes.Record, npytypes.NestedArray)
_state: dict = {"installed": False, "original": {}, "hits": 0, "built": 0}
_reprs: dict = {}  # id(type) -> (weak reference to it, its repr)


def _source_hash() -> str:
    return patch_guard.source_hash(_state["original"].get(cls) or cls.__dict__["__repr__"] for cls in _CLASSES)


def _forget(key, _reprs=_reprs):
    _reprs.pop(key, None)


def _memo_repr(original):
    def __repr__(self):
        key = id(self)
        found = _reprs.get(key)
        if found is not None and found[0]() is self:
            _state["hits"] += 1
            return found[1]
        text = original(self)
        _reprs[key] = (weakref.ref(self, lambda _, key=key: _forget(key)), text)
        _state["built"] += 1
        return text

    __repr__.__doc__ = f"Numba's ``{original.__qualname__}``, built once per type (see sims.core.type_reprs)."
    return __repr__


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "type_reprs",
        CHECKED,
        _source_hash,
        "Record / NestedArray __repr__ are not the ones this patch was",
        "record types' reprs are built at every call, as Numba does (slower cold compiles, same code)",
    ):
        return False
    _state["original"] = {cls: cls.__dict__["__repr__"] for cls in _CLASSES}
    for cls in _CLASSES:
        cls.__repr__ = _memo_repr(_state["original"][cls])
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``__repr__`` methods back (tests compare both)."""
    if _state["installed"]:
        for cls in _CLASSES:
            cls.__repr__ = _state["original"][cls]
        _state["original"] = {}
        _reprs.clear()
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def counts() -> tuple[int, int]:
    """Reprs returned from the memo and built since the process started."""
    return _state["hits"], _state["built"]
