"""A builtin operation's typing resolved once per argument types (issue 13: cold compile).

Where the cost is. Numba types every call of a builtin function or operator (``getitem``,
``==``, ``+``, ``bool``, ...) with ``BaseFunction.get_call_type``: it orders the function's
typing templates by target and tries them in turn (each ``ConcreteTemplate`` matches its
signature list through ``resolve_overload``, each ``AbstractTemplate`` runs its ``generic``),
every time, though the answer depends only on the argument types. Type inference asks again at
every propagation round, lowering asks once more for every ``getitem`` and binary operator, and
every copy of a ``@hot`` body asks for its own operations: a Card Wars cold compile made 18,404
calls for 2,027 distinct argument lists; the repeats cost 4.1 of ~50 CPU-s (instrumented).

The patch. The same ``get_call_type`` (Numba's loop, unchanged), with a memo: when the
template that answered is one of Numba's own pure templates (a ``ConcreteTemplate``,
``AbstractTemplate`` or ``CallableTemplate`` defined in ``numba``, not an ``@overload`` or
``@intrinsic`` template, which compile or register implementations as they type), its
signature and implementation key are kept under the function type, the typing context, the
target, the argument types (literals included) and the current compiler flags. A later call
with the same key returns the same signature and sets the same implementation key
(``_impl_keys``, which lowering reads), as the loop would have: those templates compute their
answer from the argument types alone (a signature is immutable). Failures are not kept (the
loop runs and raises as before), nor any answer from another template, so ``@overload``
typing (and its inlining bookkeeping) runs every time as in Numba. The compiled code is the
same: ``tests/sims/core/test_call_types.py`` compares the LLVM IR with and without the patch.

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``BaseFunction.get_call_type`` and of the templates' ``apply``/``get_impl_key`` hashes to the
checked value; otherwise it warns once and does nothing.
"""

from __future__ import annotations

from numba.core import errors, targetconfig, utils
from numba.core.types import functions
from numba.core.typing import templates

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of BaseFunction.get_call_type, FunctionTemplate.get_impl_key,
    # AbstractTemplate.apply, ConcreteTemplate.apply, CallableTemplate.apply
    "0.68.1": "4a3b554f57a71f18302838d592df046abfadde43bfbd082030494d0066994294",
}

_state: dict = {"installed": False, "original": None, "hits": 0, "misses": 0}
_memo: dict = {}
_pure: dict = {}


def _source_hash() -> str:
    parts = (
        _state["original"] or functions.BaseFunction.get_call_type,
        templates.FunctionTemplate.get_impl_key,
        templates.AbstractTemplate.apply,
        templates.ConcreteTemplate.apply,
        templates.CallableTemplate.apply,
    )
    return patch_guard.source_hash(parts)


def _is_pure(temp_cls) -> bool:
    """Whether ``temp_cls`` is one of Numba's own templates that type from the argument types alone
    (and take their implementation key from the class: ``FunctionTemplate.get_impl_key``)."""
    found = _pure.get(temp_cls)
    if found is None:
        kinds = (templates.ConcreteTemplate, templates.AbstractTemplate, templates.CallableTemplate)
        found = (
            temp_cls.__module__.startswith("numba.")
            and issubclass(temp_cls, kinds)
            and not issubclass(temp_cls, (templates._OverloadFunctionTemplate, templates._IntrinsicTemplate))
            and temp_cls.get_impl_key is templates.FunctionTemplate.get_impl_key
        )
        _pure[temp_cls] = found
    return found


def get_call_type(self, context, args, kws):
    """Numba's ``BaseFunction.get_call_type``, its answers from pure templates remembered (see the module)."""
    from numba.core.target_extension import get_local_target  # circular, as in Numba

    target_hw = get_local_target(context)
    key = (self, context, target_hw, tuple(args), tuple(kws.items()), targetconfig.ConfigStack.top_or_none())
    try:
        hit = _memo.get(key)
    except TypeError:  # an unhashable argument: Numba's way
        hit, key = None, None
    if hit is not None:
        sig, impl_key = hit
        self._impl_keys[sig.args] = impl_key
        _state["hits"] += 1
        return sig
    _state["misses"] += 1

    # Numba's loop from here on (the memo stored where it returns)
    prefer_lit = [True, False]  # old behavior preferring literal
    prefer_not = [False, True]  # new behavior preferring non-literal
    failures = functions._ResolutionFailures(context, self, args, kws, depth=self._depth)
    order = utils.order_by_target_specificity(target_hw, self.templates, fnkey=self.key[0])
    self._depth += 1
    for temp_cls in order:
        temp = temp_cls(context)
        choice = prefer_lit if temp.prefer_literal else prefer_not
        for uselit in choice:
            try:
                if uselit:
                    sig = temp.apply(args, kws)
                else:
                    nolitargs = tuple([functions._unlit_non_poison(a) for a in args])
                    nolitkws = {k: functions._unlit_non_poison(v) for k, v in kws.items()}
                    sig = temp.apply(nolitargs, nolitkws)
            except Exception as e:
                if not isinstance(e, errors.NumbaError):
                    raise e
                sig = None
                failures.add_error(temp, False, e, uselit)
            else:
                if sig is not None:
                    impl_key = temp.get_impl_key(sig)
                    self._impl_keys[sig.args] = impl_key
                    self._depth -= 1
                    if key is not None and _is_pure(temp_cls):
                        if key[5] is not None:  # the flags: a copy, as the compile's own may change
                            key = (*key[:5], key[5].copy())
                        _memo[key] = (sig, impl_key)
                    return sig
                registered_sigs = getattr(temp, "cases", None)
                if registered_sigs is not None:
                    msg = "No match for registered cases:\n%s"
                    msg = msg % "\n".join(f" * {x}" for x in registered_sigs)
                else:
                    msg = "No match."
                failures.add_error(temp, True, msg, uselit)

    failures.raise_error()


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "call_types",
        CHECKED,
        _source_hash,
        "BaseFunction.get_call_type is not the one this patch was",
        "every builtin call typed afresh, as Numba does (slower cold compiles, same code)",
    ):
        return False
    _state["original"] = functions.BaseFunction.get_call_type
    functions.BaseFunction.get_call_type = get_call_type
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own ``get_call_type`` back (tests compare both)."""
    if _state["installed"]:
        functions.BaseFunction.get_call_type = _state["original"]
        _memo.clear()
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def counts() -> tuple[int, int]:
    """Calls answered from the memo and calls typed by the templates since the process started."""
    return _state["hits"], _state["misses"]
