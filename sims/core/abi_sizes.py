"""An LLVM type's ABI size computed once per type text and data layout (issue 13: cold compile).

Where the cost is. ``BaseContext.get_abi_sizeof`` asks llvmlite's ``Type.get_abi_size``, which
writes a throw-away module holding one global of the type, has LLVM parse that text and reads
the parsed type's size from the data layout: every time. Numba's lowering asks it for every
user variable it allocates (``Lower.alloca_lltype``, for the debug information, which is not
emitted unless ``debug=True`` but whose size is computed anyway), and a game's record types
spell out every field: a Card Wars cold compile asked 3,081 times for a few hundred distinct
types (~0.65 CPU-s instrumented).

The patch. The same ``get_abi_sizeof``, whose answer is kept under the context's data layout and
the type's LLVM text (``str(ty)``, which llvmlite caches on the type): the size of a type written
out in full depends only on that text and the data layout. A type whose text names an identified
(named) structure (a ``%`` in it) is not kept: its body lives in the LLVM context and could still
change, so it is computed as before every time. The value returned is the one Numba's own
function computes (``tests/sims/core/test_abi_sizes.py`` checks it on every type a compile asks
for, and the LLVM IR of a compile with and without the patch).

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``BaseContext.get_abi_sizeof`` and llvmlite's ``Type.get_abi_size`` and
``Type._get_ll_global_value_type`` hashes to the checked value; otherwise it warns once and does
nothing.
"""

from __future__ import annotations

from numba.core import base, cgutils

from sims.core import patch_guard

_llvm_type = cgutils.ir.Type  # llvmlite.ir.Type, reached through numba (sims imports only numpy, numba and the stdlib)

CHECKED = {
    # numba version: sha256 of the files of BaseContext.get_abi_sizeof, Type.get_abi_size and
    # Type._get_ll_global_value_type
    "0.68.1": "da2f1117ee655b7dc5025f8df0f9ac0ef817eb2637da531cec1faef2537a11c2",
}

_state: dict = {"installed": False, "original": None, "hits": 0, "misses": 0}
_sizes: dict = {}


def _source_hash() -> str:
    parts = (
        _state["original"] or base.BaseContext.get_abi_sizeof,
        _llvm_type.get_abi_size,
        _llvm_type._get_ll_global_value_type,
    )
    return patch_guard.source_hash(parts)


def get_abi_sizeof(self, ty):
    """Numba's ``BaseContext.get_abi_sizeof``, its answer kept per data layout and type text (see the module)."""
    assert isinstance(ty, _llvm_type), "Expected LLVM type"
    target_data = self.target_data
    text = str(ty)
    key = (target_data, text)
    found = _sizes.get(key)
    if found is not None:
        _state["hits"] += 1
        return found
    _state["misses"] += 1
    size = ty.get_abi_size(target_data)
    if "%" not in text:
        _sizes[key] = size
    return size


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "abi_sizes",
        CHECKED,
        _source_hash,
        "BaseContext.get_abi_sizeof is not the one this patch was",
        "every ABI size computed by LLVM, as Numba does (slower cold compiles, same code)",
    ):
        return False
    _state["original"] = base.BaseContext.get_abi_sizeof
    base.BaseContext.get_abi_sizeof = get_abi_sizeof
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``get_abi_sizeof`` back (tests compare both)."""
    if _state["installed"]:
        base.BaseContext.get_abi_sizeof = _state["original"]
        _sizes.clear()
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def counts() -> tuple[int, int]:
    """Sizes answered from the memo and sizes computed by LLVM since the process started."""
    return _state["hits"], _state["misses"]
