"""Numba's call slots zeroed where the call is made, not at every entry of the caller (issue 13: kernel speed).

Where the cost is. For every call of a compiled function, Numba's ``CPUCallConv.call_function``
allocates two stack slots in the caller, the callee's return value and its exception pointer,
with ``cgutils.alloca_once``, which stores zeros into each slot in the caller's **entry block**
(and the return slot is zeroed again just before the call). Both slots escape into the call,
so LLVM keeps the entry stores: a caller pays one store per slot of every call site in its
body at each entry, whether the calls run or not. Card Wars' ``greedy.decide`` made ~67 such
stores a call, ``actions.apply_action`` 47, ``gains.row_gain`` 22 (about 4 % of the kernel's
samples).

The patch. The same ``call_function``, with both slots allocated in the entry block without
the entry store, and each zeroed just before its call: the return slot as before, the
exception pointer (a null pointer) where the entry block zeroed it. A slot is used by its one
call site only, so each call sees exactly the zeros it saw before (and inside a loop, zeros at
every iteration instead of what the previous call left); after the call the code is unchanged.
What runs is the same computation: the games are the same, which every game's golden,
differential and digest tests check.

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``CPUCallConv.call_function`` and ``cgutils.alloca_once`` hashes to the checked value;
otherwise it warns once and does nothing. ``tests/sims/core/test_call_slots.py`` checks that
the entry block of a compiled caller no longer stores into its call slots and that results
are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

from numba.core import callconv, cgutils, debuginfo

from sims.core import patch_guard

ir = cgutils.ir  # llvmlite.ir, reached through numba (sims imports only numpy, numba and the stdlib)

CHECKED = {
    # numba version: sha256 of the files of CPUCallConv.call_function and cgutils.alloca_once
    "0.68.1": "5212d488d03c8a4987790c12f0b39da7948e90369becf4b8ce6a2188bdc95c34",
}

_state: dict = {"installed": False, "original": None}


def _source_hash() -> str:
    return patch_guard.source_hash((_state["original"] or callconv.CPUCallConv.call_function, cgutils.alloca_once))


def _slot(builder: ir.IRBuilder, ty: ir.Type, name: str = "") -> ir.AllocaInstr:
    """An ``alloca`` in the entry block, as ``cgutils.alloca_once``, without its entry-block zero store."""
    with debuginfo.suspend_emission(builder), builder.goto_entry_block():
        return builder.alloca(ty, name=name)


def call_function(self, builder, callee, resty, argtys, args, attrs=None):
    """Numba's ``CPUCallConv.call_function`` with the call slots zeroed at the call (see the module)."""
    retty = self.get_return_type(resty).pointee
    actual_retty = self._get_return_argument(callee.function_type).pointee
    if retty != actual_retty:
        raise ValueError(f"Function type returns {actual_retty} but resty={retty}")
    retvaltmp = _slot(builder, retty)
    builder.store(cgutils.get_null_value(retty), retvaltmp)
    excinfo_ty = ir.PointerType(callconv.excinfo_t)
    excinfoptr = _slot(builder, excinfo_ty, name="excinfo")
    builder.store(excinfo_ty(None), excinfoptr)
    realargs = [retvaltmp, excinfoptr, *self._get_arg_packer(argtys).as_arguments(builder, args)]
    if attrs is None:
        _attrs: tuple = ()
    elif isinstance(attrs, Iterable) and not isinstance(attrs, str):
        _attrs = tuple(attrs)
    else:
        raise TypeError("attrs must be an iterable of strings or None")
    code = builder.call(callee, realargs, attrs=_attrs)
    status = self._get_return_status(builder, code, builder.load(excinfoptr))
    retval = builder.load(retvaltmp)
    return status, self.context.get_returned_value(builder, resty, retval)


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "call_slots", CHECKED, _source_hash, "CPUCallConv.call_function", "call slots zeroed at entry as Numba does"
    ):
        return False
    _state["original"] = callconv.CPUCallConv.call_function
    callconv.CPUCallConv.call_function = call_function
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``call_function`` back."""
    if _state["installed"]:
        callconv.CPUCallConv.call_function = _state["original"]
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]
