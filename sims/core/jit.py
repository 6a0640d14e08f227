"""The single decorator preset for every kernel (STYLE.md 2.6), and a cache that cannot go stale.

Numba's on-disk cache checks only the source file of each function, so after an edit
of ``state.py`` or ``bots.py`` a cached ``kernel.play_games`` would keep running the old
rules. The cache directory is therefore keyed by a hash of every ``sims`` source file:
any edit gives a fresh cache (``NUMBA_CACHE_DIR``, if set, is respected as is).

Importing this module installs ``sims.core.inline_copy`` (checked against Numba 0.68.1): Numba
copied every ``@hot`` body it inlines twice, block by block, each block with the callee's whole
variable scope, so a copy cost the square of the body's size; the patch edits the callee's
private, freshly built IR in place and makes the one copy Numba returns in a single pass. The
compiled code is the same (the test compares the LLVM IR); Cardia's cold compile fell x0.86
(44.8 -> 38.5 CPU-s side by side, load 8). On another Numba version it warns and does nothing.

It also installs ``sims.core.numba_speedups`` (same guard): the compiler flags' dict
(``TargetConfig.values``, built ~150,000 times a Cardia compile to key the typing templates'
cache) and the IR statements' variable lists (``Inst._rec_list_vars``, ~2.8 million recursive
calls) computed without a Python call per item; same results, same code (the LLVM IR of a
whole game's compile is identical: ``benchmarks/cardia_ir_digest.py``).

And ``sims.core.lazy_emit`` (same guard): the machine code of a function compiled only because a
caller's typing needed it (a nested compile, whose IR the caller links) is emitted only when
something runs it (a Python call of that function); Card Wars' cold compile spent 4.9 CPU-s on
it. Under a ``top_kernel`` their module passes (O3) are not run either: the top-level library's run
over the linked module, so the tree is optimised once instead of once per level (Card Wars O3 7.3
-> 1.5 CPU-s). The games are the same; the top-level IR is not byte-identical (see that module).

And ``sims.core.call_slots`` (same guard): the two stack slots of each call (the callee's return
value and exception pointer) are zeroed just before the call instead of in the caller's entry
block, where Numba stored zeros into every call site's slots at each entry whether the call ran
or not (Card Wars' ``greedy.decide``: ~67 stores a call). The same computation: every game's
digests and golden results are unchanged; callgrind, instructions a game: Card Wars -4.8 %,
CardRPG -4.7 %, Blessings -3.2 %, Cardia -1.1 %, Cardinger +0.2 % (few call sites, each call one
store).

And ``sims.core.call_types`` (same guard): a builtin operation's typing (``getitem``, ``==``, ``+``,
...) answered from a memo when one of Numba's own pure templates answered it before for the same
argument types and flags (Card Wars: 16,146 of 18,404 calls); ``@overload`` typing runs as before.
And ``sims.core.ssa_skip`` (same guard): Numba's SSA reconstruction skips, for each variable it
fixes, the blocks that never name it (Card Wars: 198,448 block rewrites skipped, 4,834 visited).
And ``sims.core.type_reprs`` (same guard): a record type's ``repr`` (every field spelt out, which
Numba formats at every pass and every failed implementation lookup) built once per type (Card
Wars: 15,653 reprs, ~2 CPU-s). And ``sims.core.live_maps`` (same guard): the variables live at each
block's entry (``compute_live_map``, after nearly every IR pass) found on bit masks instead of sets
of names (Card Wars: 1,791 maps, 3.1 -> 0.6 CPU-s), and ``sims.core.use_defs`` (same guard): each
block's uses and definitions (``compute_use_defs``, as often) listing a plain assignment's variables
once instead of twice (1.44 -> 0.80 CPU-s), and ``sims.core.lazy_postproc`` (same guard): the
variables alive on entry to each block, which every post-processing run computed and the nopython
pipeline never reads, computed only if something reads them (Card Wars: 1,588 runs, none read; cold
compile x0.93). And ``sims.core.abi_sizes`` (same guard): an LLVM
type's ABI size (which llvmlite finds by parsing a throw-away module) kept per type text (Card Wars:
3,081 asked, 36 distinct, 0.69 -> 0.04 CPU-s). And ``sims.core.lock_events`` (same guard): the
``numba:llvm_lock`` start and end that Numba broadcasts at every LLVM call (~104,000 calls in Card
Wars) told to the compiles' timers without building an event each. These leave the IR the same (their tests;
``benchmarks/cardia_ir_digest.py``).

And ``sims.core.gc_pause``: no full garbage collection while a top-level compile runs (CPython's
third threshold raised for its duration; the young generations collected as before): Card Wars'
cold compile ran 18 full collections, 7.4 of ~45 CPU-s; peak RSS 531 -> 680 MB. Same code.

``inline_copy`` also makes a ``@hot`` callee's untyped IR once per function and reuses it for every
inlined call (Card Wars: 92 made, 311 reused, instead of 730 made).

Every preset compiles no cfunc wrapper (``no_cfunc_wrapper``: a C entry point for first-class
function use, which nothing here takes): one LLVM module fewer per compiled function.
"""

import hashlib
import os
from pathlib import Path

import numba

from sims.core import (
    abi_sizes,
    call_slots,
    call_types,
    gc_pause,
    inline_copy,
    lazy_emit,
    lazy_postproc,
    live_maps,
    lock_events,
    numba_speedups,
    ssa_skip,
    type_reprs,
    use_defs,
)

SIMS = Path(__file__).resolve().parents[1]


def source_digest() -> str:
    """Return a short hash of every ``sims/**/*.py`` file (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(SIMS.rglob("*.py")):
        digest.update(str(path.relative_to(SIMS)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


if not os.environ.get("NUMBA_CACHE_DIR"):
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    numba.config.CACHE_DIR = str(cache_home / "balance-lab" / "numba" / source_digest())

inline_copy.install()
numba_speedups.install()
lazy_emit.install()
call_slots.install()
call_types.install()
ssa_skip.install()
type_reprs.install()
live_maps.install()
lazy_postproc.install()
use_defs.install()
abi_sizes.install()
lock_events.install()
gc_pause.install()  # after lazy_emit: it wraps lazy_emit's Dispatcher.compile

# Every preset: cached on disk, releases the GIL, and no cfunc wrapper (nothing takes a kernel's C
# address; one LLVM module fewer per compiled function).
_COMMON = {"cache": True, "nogil": True, "no_cfunc_wrapper": True}

kernel = numba.njit(**_COMMON)


def top_kernel(fn):
    """The ``kernel`` preset for a game's one top-level loop (called from Python) whose callees are
    optimised only in its module (``lazy_emit.optimise_at_top``): LLVM's module passes run once over
    the linked tree instead of once per level. Card Wars' ``drive``: cold compile about -5 CPU-s,
    kernel x1.01 side by side; it changes the code, so measure a game's kernel before using it
    (Blessings' ran x0.97)."""
    return lazy_emit.optimise_at_top(kernel(fn))


hot = numba.njit(**_COMMON, inline="always")
"""The preset for a small function on a kernel's per-decision path: Numba copies its body
into every caller (``inline="always"``, at the IR level) instead of compiling a call.

A call between two compiled functions costs tens of instructions (Numba's calling
convention: status code, return slot, spilled registers) and hides the callee from
LLVM's optimiser. Copying a body costs compile time at every call site, so use it only
for functions that are small or called from few places, and measure the cold compile
(``benchmarks/compile_time.py``). Called from Python, such a function runs as any other.
"""

nonzero_div = numba.njit(**_COMMON, error_model="numpy")
"""The ``kernel`` preset for a small function whose every division is by a value proven non-zero
(a validated parameter >= 1, or an operand its own branch has shown to be >= 2): Numba's numpy
error model compiles each division without the zero test and the exception path behind it.
Never use it where a divisor could be 0: the division would then return inf/nan or garbage
instead of raising. Cardinger's ``appraise.hit_value`` and ``prosperity_bonus`` (per target and
per play, inlined by LLVM into the bots' evaluation): kernel CPU x1.01 side by side.
"""


inlined = numba.njit(**_COMMON, forceinline=True)
"""The preset for a small function copied into many callers (as ``hot``'s are), compiled once per
signature instead: LLVM inlines it (``alwaysinline``) into every caller when the caller's module
is optimised, so the kernel's code keeps no call, but Numba types and lowers its body once
instead of at every call site (``hot`` copies the IR, and each copy is typed, lowered and
optimised again). Each library that links it inlines it again in its own module passes, so keep
it to small leaves. Use it for a leaf of the per-decision path called from many places (Card
Wars' fight and creature values, 5 functions: see its RULES.md §13 for the figures: with 11
leaves its kernel measured x0.97 side by side, with these 5 x0.99). It must not call a
``kernel``: Numba compiles a callee with its caller's ``forceinline`` when it sets none, so that
kernel would be inlined into every caller too (``tests/sims/core/test_presets.py``).
"""
