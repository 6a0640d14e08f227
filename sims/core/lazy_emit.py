"""Emit a library's machine code only when something runs it (issue 13: cold compile).

Where the cost is. When a kernel's typing meets a call of another compiled function, Numba
compiles the callee right there (a *nested* compile) and the caller later links the callee's
optimised LLVM IR into its own module: the callee's code runs as part of the caller's machine
code. Numba emits the callee's own machine code anyway: ``NativeLowering`` asks
``targetctx.get_executable`` for a Python entry point (a ``PyCFunction`` around the address of
the callee's CPython wrapper), which finalises the library through MCJIT (``add_module`` and
``finalize_object``: instruction selection, register allocation, an object file); the
dispatcher's cache then stores that object file. Nothing calls that code unless Python calls
the callee itself. The same holds for the libraries Numba compiles only to be linked (internal
subroutines, finalised when a caller links them). A Card Wars cold compile spent 4.9 of 44.5
CPU-s on the machine code of its 128 nested libraries (``benchmarks/compile_llvm_split.py``,
load 1.4; with the patch 0.1 of 40.4, load 1.3).

Figures (2026-11-24, side by side against 6f4cc2f, ``benchmarks/compile_time.py --game G
--against DIR --rounds 2``, medians, every entry point, load 3.3-5.7 from other jobs): cold
compile CPU-s Card Wars 46.9 -> 43.1 (x0.918), Cardia 24.1 -> 21.7 (x0.903), Blessings 14.5 ->
13.1 (x0.900), CardRPG 18.7 -> 14.9 (x0.800), Cardinger 16.4 -> 14.8 (x0.903); Card Wars' warm
start 0.74 CPU-s. Quiet (load 0.1-0.9): Card Wars 46.9 -> 42.2 (x0.899). Kernel: Card Wars
greedy/greedy 21,275 -> 21,282 games per CPU-second quiet (x1.00, 3 alternating rounds; x0.99 at
load 4), 335,816 -> 334,021 instructions a game under callgrind.

The patch. A library's life is split in two: *linkable* (linked, verified, its dynamic globals
scanned: everything a caller needs to link it) and *emitted* (O3 module passes, added to MCJIT
and finalised). A library that a caller links before it was finalised, one whose entry
point a nested compile asks for, and one loaded from a ``bitcode`` cache entry are only
linkable; they are emitted the first time something asks for an address
(``get_pointer_to_function``) or for their object code. A nested compile's entry point is a
``LazyEntry``: the dispatcher records the overload (callers type and link it as before) but
leaves it out of its C dispatch table, which accepts only a real ``PyCFunction``. If Python
calls that signature, the C dispatcher finds no exact match (it requires one while it may
compile) and calls ``_compile_for_args``, which returns the ``LazyEntry``; calling it emits the
library, makes Numba's own ``PyCFunction`` and puts it in the C table (later calls take the
fast path), and rewrites the cache entry with the object code. ``disable_compile`` emits them
all first (the C table then resolves by conversion and must see every overload). The
``LazyEntry`` stays the overload's ``entry_point``: it is the key under which Numba registered
the implementation that callers link (``insert_user_function``).

Module passes once, at the top (opt-in: ``optimise_at_top``, the ``top_kernel`` preset). While a
marked top-level dispatcher compiles, a linkable library's module is not optimised (each
function's own passes ran when its IR was added): the top-level library runs the module passes
(O3) once over the linked module, callees included, where Numba optimised each library's module at
its own finalisation and then again inside every ancestor's, once per level. Card Wars: O3 7.3
CPU-s over 132 libraries, 1.5 of them for ``drive``; after, 1.5 for ``drive`` alone (load 3-4);
cold compile 45.2 -> 39.0 CPU-s side by side with the cfunc wrappers gone too (load 4, 2 pairs);
kernel x1.01. Opt-in because the code differs: the same change for every game cost Blessings'
kernel x0.97 side by side (3 rounds) and Cardinger, Cardia and CardRPG about x0.99. A library
emitted later (a Python call) runs its module passes first, as Numba would have.

Cache. A library not yet emitted has no object code: its cache entry is Numba's ``bitcode``
kind (the linkable module), which Numba's own loader reads too; this patch loads it
linkable only (a nested load stays lazy; a Python call emits it). A top-level entry (called
from Python) is emitted at once, as before, so a warm start loads its object code with nothing
to compile.

Environments. Each compiled function has an environment slot (a global variable); a
function's code reads its own slot only to raise an exception with run-time values or to print.
A callee's code copied into a caller refers to the callee's slot, and MCJIT resolved that name
to the callee's own emitted module, whose slot Numba had filled. With the callee never emitted
the caller's object holds the only copy, so after emitting a library the patch fills every
slot its module refers to, as Numba does when it loads a library from the cache
(``CompileResult._rebuild``, ``referenced_envs``).

What changes in the code. Numba's emission is not read-only: MCJIT runs the code generator's
IR passes (``CodeGenPrepare`` and others: an atomic decrement becomes an x86 intrinsic, returns
are duplicated, ...) on the module in place, and a caller links its callees' modules as they are
then, rewritten. Without the emission, callers link their callees as optimised (since the
module passes moved to the top: as lowered), so every module that links a callee differs from
Numba's (``benchmarks/cardia_ir_digest.py --game G --without lazy_emit``; Card Wars: the first
9 of 132 modules identical, 47 different; ``drive``, the one top-level module, 71 functions and
34,001 instruction lines instead of 72 and 34,859). No lazy
scheme avoids that: the rewritten IR exists only by running the code generator, whose cost is
what is saved. Optimising once at the top inlines differently (Card Wars' ``drive``: 71 functions
left instead of 70). The code generator's rewrites and the inlining keep the semantics: every game's digest
(``benchmarks/<game>_digest.py``) is the same, cold and warm.

Safety. As ``sims.core.inline_copy``: installed only on a Numba version whose source of the
functions replaced or relied on hashes to the checked value; otherwise it warns once and
does nothing. ``tests/sims/core/test_lazy_emit.py``.

Python wrappers. ``sims.core.lazy_wrapper`` (installed with this patch) leaves out the CPython
wrapper of a nested compile too; a ``LazyEntry`` or a top-level load of an entry saved without one
takes its entry point from the wrapper library it builds then.
"""

from __future__ import annotations

import weakref

from numba.core import codegen, compiler, config, cpu, dispatcher, environment, lowering, typed_passes
from numba.core.compiler_lock import global_compiler_lock

from sims.core import lazy_wrapper, patch_guard

CHECKED = {
    # numba version: sha256 of the files of the functions listed in _RELIED_ON
    "0.68.1": "94b52c216ba0aeb7d8479cb710d15260f7b168f0cb960a79912e1bb5c1e247b6",
}

_state: dict = {
    "installed": False,
    "original": {},
    "depth": 0,
    "top": None,
    "compiling": [],  # (dispatcher, signature) of each compile running, outermost first
    "deferred": 0,
    "emitted_later": 0,
    "unoptimised": 0,
    "optimised_later": 0,
    "entries": 0,
    "called": 0,
}

ENV_PREFIX = "_ZN08NumbaEnv"


def _relied_on():
    """The Numba functions this patch replaces (Numba's own, also once installed) or whose
    behaviour it relies on."""

    def own(cls, name):
        found = _state["original"].get(name) or cls.__dict__[name]
        return getattr(found, "__func__", found)

    lib, jit, disp = codegen.CPUCodeLibrary, codegen.JITCodeLibrary, dispatcher.Dispatcher
    return (
        lib.finalize,
        own(lib, "_optimize_final_module"),
        own(lib, "_finalize_final_module"),
        own(lib, "add_linking_library"),
        own(lib, "serialize_using_object_code"),
        lib.serialize_using_bitcode,
        own(lib, "_unserialize"),
        lib._object_compiled_hook,
        lib._get_module_for_linking,
        own(codegen.CodeLibrary, "_get_compiled_object"),
        own(jit, "get_pointer_to_function"),
        jit._finalize_specific,
        codegen.JITCPUCodegen._add_module,
        own(codegen.JITCPUCodegen, "set_env"),
        codegen.JitEngine.is_symbol_defined,
        own(cpu.CPUContext, "get_executable"),
        typed_passes.BaseNativeLowering.run_pass,
        lazy_wrapper._state["original"] or lowering.BaseLower.create_cpython_wrapper,
        cpu.CPUContext.create_cpython_wrapper,
        compiler.CompileResult._reduce,
        compiler.CompileResult._rebuild,
        own(disp, "compile"),
        own(dispatcher._DispatcherBase, "add_overload"),
        own(dispatcher._DispatcherBase, "disable_compile"),
        disp.get_overload,
        disp._compile_for_args,
    )


def _source_hash() -> str:
    return patch_guard.source_hash(_relied_on())


class LazyEntry:
    """Stands in for the ``PyCFunction`` of a nested compile until something calls it.

    Calling it emits the library, makes Numba's own entry point (``get_executable``), puts it
    in the dispatcher's C table (when the overload belongs to one) and calls it."""

    __slots__ = ("__weakref__", "_args", "_context", "_dispatcher", "_env", "_fndesc", "_library", "_real", "_sig")

    def __init__(self, context, library, fndesc, env):
        self._context, self._library, self._fndesc, self._env = context, library, fndesc, env
        self._real = None
        self._dispatcher = None
        self._sig = self._args = None

    def __repr__(self) -> str:
        state = "emitted" if self._real is not None else "not emitted"
        return f"<LazyEntry {self._fndesc.qualname!r} ({state})>"

    def bind(self, owner, sig, args) -> None:
        """Remember the dispatcher whose overload this is, the signature it was asked to compile
        (its cache key) and the argument types (its key in ``overloads``)."""
        self._dispatcher = weakref.ref(owner)
        self._sig, self._args = sig, args

    @property
    def emitted(self) -> bool:
        """Whether the real entry point exists (the library's machine code was emitted)."""
        return self._real is not None

    def materialize(self):
        """Return the real ``PyCFunction``, emitting the library and registering it first if needed."""
        if self._real is not None:
            return self._real
        with global_compiler_lock:
            if self._real is None:
                library = lazy_wrapper.entry_library(self._context, self._library, self._fndesc, self._env)
                real = _state["original"]["get_executable"](self._context, library, self._fndesc, self._env)
                owner = self._dispatcher() if self._dispatcher is not None else None
                if owner is not None:
                    owner._insert([a._code for a in self._args], real, False)
                    cres = owner.overloads.get(self._args)
                    cache = getattr(owner, "_cache", None)
                    if cache is not None and cres is not None and self._library._object_caching_enabled:
                        # now with its object code (and its Python wrapper's: ``sims.core.lazy_wrapper``)
                        cache.save_overload(self._sig, cres._replace(library=library))
                self._real = real
                _state["called"] += 1
        return self._real

    def __call__(self, *args, **kws):
        return self.materialize()(*args, **kws)


def _pending(library) -> bool:
    return library.__dict__.get("_lazy_pending", False)


def _set_referenced_envs(library) -> None:
    """Fill the environment slot of every function the library's module refers to (see the module)."""
    for gv in library._final_module.global_variables:
        if gv.name.startswith(ENV_PREFIX):
            env = environment.lookup_environment(gv.name)
            if env is not None:
                library.codegen.set_env(gv.name, env)


def _emit(library) -> None:
    """Run the module passes a linkable library skipped, add it to MCJIT and finalise it (what
    Numba did at finalisation)."""
    if not _pending(library):
        return
    library._lazy_pending = False
    if library.__dict__.pop("_lazy_unoptimised", False):
        _state["original"]["_optimize_final_module"](library)
        library._final_module.verify()
        _state["optimised_later"] += 1
    cleanup = library._codegen._add_module(library._final_module)
    if cleanup:
        weakref.finalize(library, cleanup)
    library._finalize_specific()
    _set_referenced_envs(library)
    _state["emitted_later"] += 1


def _optimize_final_module(self):
    """``CPUCodeLibrary._optimize_final_module``: skipped for a library marked to defer while a
    dispatcher marked by ``optimise_at_top`` compiles (its module is linked into callers, whose
    module passes optimise it; ``_emit`` runs them if something runs it); otherwise Numba's."""
    top = _state["top"]
    if self.__dict__.get("_lazy_defer", False) and getattr(top, "_sims_optimise_at_top", False):
        self._lazy_unoptimised = True
        _state["unoptimised"] += 1
        return
    _state["original"]["_optimize_final_module"](self)


def _finalize_final_module(self):
    """``CPUCodeLibrary._finalize_final_module``: linkable only when the library was marked to
    defer; otherwise Numba's, then the referenced environments filled."""
    if not self.__dict__.pop("_lazy_defer", False):
        _state["original"]["_finalize_final_module"](self)
        if isinstance(self, codegen.JITCodeLibrary):
            _set_referenced_envs(self)
        return
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    # what Numba's own sets as ``self._final_module.__library`` (name-mangled), for the object cache hooks
    self._final_module._CPUCodeLibrary__library = weakref.proxy(self)
    self._lazy_pending = True
    self._finalized = True
    _state["deferred"] += 1
    if config.DUMP_OPTIMIZED:
        codegen.dump(f"OPTIMIZED DUMP {self.name}", self.get_llvm_str(), "llvm")
    if config.DUMP_ASSEMBLY:
        codegen.dump(f"ASSEMBLY {self.name}", self.get_asm_str(), "asm")


def _defer(library) -> None:
    """Mark a JIT library not finalised yet to stop at linkable when it is finalised."""
    if isinstance(library, codegen.JITCodeLibrary) and not library._finalized:
        library._lazy_defer = True


def _add_linking_library(self, library):
    """``CPUCodeLibrary.add_linking_library``: a library finalised because a caller links it is
    only linkable."""
    _defer(library)
    return _state["original"]["add_linking_library"](self, library)


def _get_pointer_to_function(self, name):
    """``JITCodeLibrary.get_pointer_to_function``: emit first if only linkable."""
    self._ensure_finalized()
    _emit(self)
    return _state["original"]["get_pointer_to_function"](self, name)


def _get_compiled_object(self):
    """``CodeLibrary._get_compiled_object``: emit first if only linkable."""
    _emit(self)
    return _state["original"]["_get_compiled_object"](self)


def _serialize_using_object_code(self):
    """``CPUCodeLibrary.serialize_using_object_code``: a library not emitted is cached as Numba's
    ``bitcode`` kind (its linkable module) instead of being emitted for its object code."""
    self._ensure_finalized()
    if _pending(self):
        return self.serialize_using_bitcode()
    return _state["original"]["serialize_using_object_code"](self)


def _unserialize(cls, codegen_, state):
    """``CPUCodeLibrary._unserialize``: a ``bitcode`` entry is loaded linkable only."""
    name, kind, data = state
    if kind != "bitcode":
        return _state["original"]["_unserialize"].__func__(cls, codegen_, state)
    self = codegen_.create_library(name)
    assert isinstance(self, cls)
    self._final_module = codegen.ll.parse_bitcode(data)  # llvmlite.binding: sims imports only numba
    self._lazy_defer = isinstance(self, codegen.JITCodeLibrary)
    self._lazy_unoptimised = True  # cached before its module passes (see _optimize_final_module)
    self._finalize_final_module()
    return self


def nested() -> bool:
    """Whether a nested compile (or cache load) is running: one that another compile's typing asked for."""
    return _state["depth"] >= 2


def _nogil() -> bool:
    """The ``nogil`` option of the dispatcher compiling now (what a Python wrapper built for it follows)."""
    compiling = _state["compiling"]
    return bool(compiling and compiling[-1][0].targetoptions.get("nogil", False))


def _get_executable(self, library, fndesc, env):
    """``CPUContext.get_executable``: a nested compile's library is only linkable and its entry
    point is a ``LazyEntry``; an entry point of a library without a Python wrapper is taken from
    the library ``lazy_wrapper`` builds for it."""
    lazy = nested() and isinstance(library, codegen.JITCodeLibrary)
    if lazy:
        _defer(library)
        library._ensure_finalized()
    lazy_wrapper.missing(library, fndesc, _pending(library), _nogil())
    if lazy and _pending(library):
        _state["entries"] += 1
        return LazyEntry(self, library, fndesc, env)
    library = lazy_wrapper.entry_library(self, library, fndesc, env)
    return _state["original"]["get_executable"](self, library, fndesc, env)


def _set_env(self, env_name, env):
    """``JITCPUCodegen.set_env``: a slot only a library not emitted yet defines is left alone (MCJIT
    has no address for it; it is filled when that library is emitted). Numba's cache loader
    fills the slots a loaded library refers to, and a nested load stays unemitted."""
    if self._engine.is_symbol_defined(env_name):
        _state["original"]["set_env"](self, env_name, env)


def _compile(self, sig):
    """``Dispatcher.compile``: counts how deep compiles nest (2 and more: a nested compile), under
    the compiler lock (which Numba's takes too), so a thread waiting for it is not counted."""
    with global_compiler_lock:
        _state["depth"] += 1
        _state["compiling"].append((self, sig))
        if _state["depth"] == 1:
            _state["top"] = self
        try:
            return _state["original"]["compile"](self, sig)
        finally:
            _state["compiling"].pop()
            _state["depth"] -= 1
            if _state["depth"] == 0:
                _state["top"] = None


def optimise_at_top(dispatcher):
    """Mark ``dispatcher`` (a top-level entry) so that, while it compiles, the libraries compiled
    nested skip their module passes: its own run them once over the linked tree (see the module).
    Returns it."""
    dispatcher._sims_optimise_at_top = True
    return dispatcher


def _add_overload(self, cres):
    """``Dispatcher.add_overload``: a ``LazyEntry`` is recorded but kept out of the C table."""
    entry = cres.entry_point
    if not isinstance(entry, LazyEntry):
        return _state["original"]["add_overload"](self, cres)
    args = tuple(cres.signature.args)
    compiling = _state["compiling"]
    entry.bind(self, compiling[-1][1] if compiling else args, args)
    self.overloads[args] = cres
    return None


def _disable_compile(self, val=True):
    """``Dispatcher.disable_compile``: emit every lazy overload first (the C table then resolves
    calls by conversion and must hold them all)."""
    if val:
        for cres in list(self.overloads.values()):
            if isinstance(cres.entry_point, LazyEntry):
                cres.entry_point.materialize()
    return _state["original"]["disable_compile"](self, val)


_PATCHES = (
    (codegen.CPUCodeLibrary, "_optimize_final_module", _optimize_final_module),
    (codegen.CPUCodeLibrary, "_finalize_final_module", _finalize_final_module),
    (codegen.CPUCodeLibrary, "add_linking_library", _add_linking_library),
    (codegen.CPUCodeLibrary, "serialize_using_object_code", _serialize_using_object_code),
    (codegen.CPUCodeLibrary, "_unserialize", classmethod(_unserialize)),
    (codegen.CodeLibrary, "_get_compiled_object", _get_compiled_object),
    (codegen.JITCodeLibrary, "get_pointer_to_function", _get_pointer_to_function),
    (cpu.CPUContext, "get_executable", _get_executable),
    (codegen.JITCPUCodegen, "set_env", _set_env),
    (dispatcher.Dispatcher, "compile", _compile),
    (dispatcher._DispatcherBase, "add_overload", _add_overload),
    (dispatcher._DispatcherBase, "disable_compile", _disable_compile),
)


def install() -> bool:
    """Install the patch if this Numba is one it was checked against; return whether it is active."""
    if _state["installed"]:
        return True
    if not patch_guard.checked(
        "lazy_emit",
        CHECKED,
        _source_hash,
        "code libraries / dispatcher are not the ones this patch was",
        "every compiled library's machine code is emitted, Numba's way (slower cold compiles, same code)",
    ):
        return False
    original = {}
    for cls, name, _ in _PATCHES:
        original[name] = cls.__dict__[name]
    _state["original"] = original
    for cls, name, fn in _PATCHES:
        setattr(cls, name, fn)
    lazy_wrapper.install(nested)
    _state["installed"] = True
    return True


def uninstall() -> None:
    """Put Numba's own functions back (tests compare both). Libraries already only linkable stay
    so and are emitted by ``LazyEntry`` or not at all; compile afresh after this."""
    if not _state["installed"]:
        return
    for cls, name, _ in _PATCHES:
        setattr(cls, name, _state["original"][name])
    lazy_wrapper.uninstall()
    _state["original"] = {}
    _state["installed"] = False


def installed() -> bool:
    """Whether the patch is active."""
    return _state["installed"]


def counts() -> dict[str, int]:
    """Libraries only linkable, emitted later, lazy entry points made and called since the process started."""
    return {k: _state[k] for k in ("deferred", "emitted_later", "entries", "called")}


def module_passes() -> tuple[int, int]:
    """Libraries whose module passes were skipped (linked into callers) and run later (before emission)
    since the process started."""
    return _state["unoptimised"], _state["optimised_later"]
