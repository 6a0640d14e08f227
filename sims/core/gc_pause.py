"""No full garbage collection while a kernel compiles (issue 13: cold compile).

Where the cost is. A cold compile allocates millions of short- and long-lived objects (Numba's
IR, types, typing templates, llvmlite's IR objects), so CPython's cyclic collector keeps
promoting survivors into its oldest generation and, every tenth collection of the middle one,
runs a full collection that walks the whole heap, which only grows while the compile runs. A
Card Wars games-only cold compile ran 18 full collections, 7.4 CPU-s of ~45 (measured with
``gc.callbacks``, load 3-5); the young generations cost 1.6 s.

The patch. While a top-level ``Dispatcher.compile`` runs (the outermost one; nested compiles
run inside it), the collector's third threshold is raised to ``FULL_EVERY`` middle-generation
collections, so no full collection runs during a compile of any size seen here; the young
generations are collected as before (cycles created and dropped within a pass are freed as
usual), and the thresholds are put back when the compile returns, so the next allocation
resumes CPython's normal schedule and collects whatever the compile left. Nothing the compiler
computes depends on when the collector runs: the compiled code is the same (the LLVM IR digest
of a whole game, ``benchmarks/cardia_ir_digest.py``). Cost: the heap grows more before it is
collected: Card Wars' peak RSS 531 -> 680 MB in a cold compile.

Safety: installed only on a Numba version whose ``Dispatcher.compile`` source hashes to the
checked value (the method it wraps); otherwise it warns once and does nothing. It wraps whatever
``Dispatcher.compile`` is when installed (``sims.core.lazy_emit``'s, installed first).
"""

from __future__ import annotations

import gc

from numba.core import dispatcher
from numba.core.compiler_lock import global_compiler_lock

from sims.core import patch_guard

CHECKED = {
    # numba version: sha256 of the files of Numba's own Dispatcher.compile
    "0.68.1": "853b7868d5eaca65155e997c63821b65e3b4ffaad733cd73bdf647c12f4d63a8",
}

FULL_EVERY = 100_000  # middle-generation collections between two full ones while a compile runs

_state: dict = {"installed": False, "wrapped": None, "depth": 0, "saved": None, "compiles": 0}


def _numbas_compile():
    from sims.core import lazy_emit

    return lazy_emit._state["original"].get("compile") or dispatcher.Dispatcher.__dict__["compile"]


def _source_hash() -> str:
    return patch_guard.source_hash((_numbas_compile(),))


def _compile(self, sig):
    """``Dispatcher.compile`` with full collections held off while the outermost compile runs."""
    with global_compiler_lock:
        if _state["depth"] == 0:
            saved = gc.get_threshold()
            _state["saved"] = saved
            gc.set_threshold(saved[0], saved[1], max(saved[2], FULL_EVERY))
            _state["compiles"] += 1
        _state["depth"] += 1
        try:
            return _state["wrapped"](self, sig)
        finally:
            _state["depth"] -= 1
            if _state["depth"] == 0:
                gc.set_threshold(*_state["saved"])
                _state["saved"] = None


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "gc_pause",
        CHECKED,
        _source_hash,
        "Dispatcher.compile is not the one this patch was",
        "the garbage collector runs full collections during compiles (slower cold compiles, same code)",
    ):
        return False
    _state["wrapped"] = dispatcher.Dispatcher.__dict__["compile"]
    dispatcher.Dispatcher.compile = _compile
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put the wrapped ``Dispatcher.compile`` back."""
    if _state["installed"]:
        dispatcher.Dispatcher.compile = _state["wrapped"]
        _state["wrapped"] = None
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]


def compiles() -> int:
    """Top-level compiles run with full collections held off since the process started."""
    return _state["compiles"]
