"""Numba's LLVM-lock events told to its timers without building an event per LLVM call (issue 13: cold compile).

Where the cost is. llvmlite takes a lock around every call into LLVM (parsing a module, running
passes, reading a function's name or linkage, ...) and calls the callbacks registered on it.
Numba registers two (``numba.core.base._initialize_llvm_lock_event``) that broadcast a
``numba:llvm_lock`` start and end event: each builds an ``Event`` (its kind checked against
Numba's list), and ``broadcast`` hands it to every listener, whose ``notify`` compares the
event's status with an enum to call ``on_start`` or ``on_end``. The listeners are the
``TimingListener`` every compile in progress installs (nested compiles add theirs), which
time the LLVM lock for the compile's metadata (``cres.metadata["timers"]["llvm_lock"]``). A
Card Wars cold compile made ~104,000 LLVM calls, ~243,000 events (~1.3 CPU-s instrumented).

The patch. Numba's two callbacks replaced, in the lock's callback list, by two that do what they
do: each listener registered for ``numba:llvm_lock`` (read at every call, in order) is told of
the start or end; a ``TimingListener`` (exactly that class) by running its ``on_start`` /
``on_end`` body inline (the same depth count and the same clock, so the same durations), any
other listener through its ``notify`` with one start and one end ``Event`` made once (an event
of this kind carries no data; a listener that keeps events gets equal ones, the same object each
time). Nothing else reads these events: the compiled code is the same
(``tests/sims/core/test_lock_events.py`` compares the LLVM IR with and without, and checks that
the timers and a recording listener still see every lock).

Safety: as ``sims.core.inline_copy``: installed only on a Numba version whose source of
``_initialize_llvm_lock_event``, ``Event``, ``broadcast``, ``start_event``, ``end_event``,
``Listener.notify``, ``TimingListener`` and llvmlite's ``_LLVMLock`` hashes to the checked value,
and only if the lock holds Numba's two callbacks; otherwise it warns once and does nothing.
"""

from __future__ import annotations

import warnings

from numba.core import base, event

from sims.core import patch_guard

_ffi = base.ll.ffi  # llvmlite.binding.ffi, reached through numba (sims imports only numpy, numba and the stdlib)

KIND = "numba:llvm_lock"

CHECKED = {
    # numba version: sha256 of the files of the functions and classes in _relied_on()
    "0.68.1": "7814ea9c8ac4ab3b739bb5ad8692e1051c5cd480a4e383103ab2f831ab2271ae",
}

_state: dict = {"installed": False, "original": None}


def _relied_on():
    return (
        base._initialize_llvm_lock_event,
        event.Event,
        event.broadcast,
        event.start_event,
        event.end_event,
        event.Listener.notify,
        event.TimingListener,
        _ffi._LLVMLock,
    )


def _source_hash() -> str:
    return patch_guard.source_hash(_relied_on())


def _numbas_pair():
    """Numba's (enter, exit) callbacks in the LLVM lock's list, or None."""
    for pair in _ffi.lib._lock._cblist:
        acq, rel = pair
        if (
            getattr(acq, "__module__", None) == base.__name__
            and getattr(acq, "__qualname__", None) == "_initialize_llvm_lock_event.<locals>.enter_fn"
            and getattr(rel, "__qualname__", None) == "_initialize_llvm_lock_event.<locals>.exit_fn"
        ):
            return pair
    return None


_START = event.Event(KIND, event.EventStatus.START)
_END = event.Event(KIND, event.EventStatus.END)
_registered = event._registered
_Timing = event.TimingListener


def enter_fn():
    """Numba's ``enter_fn``: every ``numba:llvm_lock`` listener told of a start (see the module)."""
    for listener in _registered[KIND]:
        if type(listener) is _Timing:  # TimingListener.on_start
            if listener._depth == 0:
                listener._ts = event.timer()
            listener._depth += 1
        else:
            listener.notify(_START)


def exit_fn():
    """Numba's ``exit_fn``: every ``numba:llvm_lock`` listener told of an end (see the module)."""
    for listener in _registered[KIND]:
        if type(listener) is _Timing:  # TimingListener.on_end
            listener._depth -= 1
            if listener._depth == 0:
                last = getattr(listener, "_duration", 0)
                listener._duration = (event.timer() - listener._ts) + last
        else:
            listener.notify(_END)


def _replace(old, new) -> None:
    cblist = _ffi.lib._lock._cblist
    cblist[cblist.index(old)] = new


def install() -> bool:
    """Install the patch if this Numba is the checked one; return whether it is installed."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "lock_events",
        CHECKED,
        _source_hash,
        "LLVM-lock events are not the ones this patch was",
        "every LLVM call broadcasts its events, as Numba does (slower cold compiles, same code)",
    ):
        return False
    pair = _numbas_pair()
    if pair is None:
        warnings.warn(
            "sims.core.lock_events: Numba's LLVM-lock callbacks are not registered; the lock is left alone",
            RuntimeWarning,
            stacklevel=2,
        )
        return False
    _state["original"] = pair
    _replace(pair, (enter_fn, exit_fn))
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own callbacks back (tests compare both)."""
    if _state["installed"]:
        _replace((enter_fn, exit_fn), _state["original"])
        _state["installed"] = False


def installed() -> bool:
    """Whether the patch is installed."""
    return _state["installed"]
