"""Cardinger's hot-path decorator: the ``sims.core.jit.kernel`` preset plus Numba's IR inlining.

A function decorated ``@hot`` stays a named rule or bot function in its module (and callable
on its own, as the tests do), but every call site from another kernel gets its body inlined
before type inference, so the game loop compiles to one function without Numba's calling
convention (status word, output pointer, spilled records) between a decision and its parts.
Only the functions called inside a decision's loops (over the hand, the field, the targets)
and the one-per-decision dispatch (``choose``, ``greedy``, ``apply_action`` and the actions)
are ``@hot``; the per-turn and once-per-decision helpers (``best_field_action``,
``play_or_retire``, ``end_turn``, ``self_effects``, ...) stay calls, as inlining them cost
about 14 s more cold compilation for about 5 % speed. Inlining everything made cold
compilation take minutes (issue 13). Measured with ``benchmarks/cardinger_speed.py``.
"""

import numba

from sims.core import jit  # noqa: F401  (imported first: it points Numba's cache at the source-keyed directory)

hot = numba.njit(cache=True, nogil=True, inline="always")
