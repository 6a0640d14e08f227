"""A nested compile's Python entry wrapper, built only when Python calls it (part of ``sims.core.lazy_emit``).

Where the cost is. After lowering a function, Numba builds its CPython wrapper: a second LLVM
function (``PyCallWrapper``: unbox the arguments, call, box the result, raise a pending error)
in a module of its own, printed, parsed and run through the function passes
(``CPUContext.create_cpython_wrapper``). Only Python calls that wrapper. A function compiled
*nested* (its caller's typing needed it) is called by compiled code, which calls the function
itself, never its wrapper; yet each nested compile built one, and every caller linked it into
its module until the optimiser dropped it. Card Wars: 93 wrappers (92 of them nested), 1.7 of
~35 CPU-s of a cold compile (``BaseLower.create_cpython_wrapper`` timed in one process).

The patch (installed by ``lazy_emit``, whose depth count says what is nested). In a nested
compile, ``BaseLower.create_cpython_wrapper`` builds nothing and marks the library
(``_sims_no_wrapper``: whether the wrapper releases the GIL, the compile's ``nogil``). When an
entry point is needed (``LazyEntry``: Python calls the function; or a top-level load of a cache
entry that was saved without one), :func:`entry_library` builds the wrapper in a library of its
own that links the function's library, as a caller would, and the entry point comes from that
library: its machine code holds the function (linked in) and the wrapper. A cache entry
rewritten then holds that library's object code, so a later process loads the wrapper with
nothing to build. Generators keep Numba's wrappers (their lowering builds two).
"""

from __future__ import annotations

from numba.core import codegen, lowering

_state: dict = {"skipped": 0, "built": 0, "original": None, "nested": None}

MARK = "_sims_no_wrapper"


def create_cpython_wrapper(self, release_gil=False):
    """``BaseLower.create_cpython_wrapper``: nothing built in a nested compile (see the module); else Numba's."""
    if _state["nested"]() and not self.genlower and isinstance(self.library, codegen.JITCodeLibrary):
        setattr(self.library, MARK, bool(release_gil))
        _state["skipped"] += 1
        return
    _state["original"](self, release_gil)


def _defines(library, name: str) -> bool:
    """Whether ``library``'s module (linkable: its whole IR) defines the function ``name``."""
    try:
        return not library._final_module.get_function(name).is_declaration
    except NameError:
        return False


def missing(library, fndesc, pending: bool, release_gil: bool) -> None:
    """Mark ``library`` as having no wrapper when it is only linkable (``pending``) and its module lacks
    ``fndesc``'s wrapper (a cache entry saved without one); ``release_gil``: the dispatcher's ``nogil``."""
    if MARK not in library.__dict__ and pending and not _defines(library, fndesc.llvm_cpython_wrapper_name):
        setattr(library, MARK, bool(release_gil))


def _uses_nrt(library) -> bool:
    """Whether ``library``'s module calls Numba's runtime (NRT): it was compiled with NRT on."""
    return any(f.name.startswith("NRT_") for f in library._final_module.functions)


def entry_library(context, library, fndesc, env):
    """The library to take ``fndesc``'s Python entry point from: ``library`` itself when it has the
    wrapper, else a new library holding the wrapper and linking ``library`` (built once)."""
    if MARK not in library.__dict__:
        return library
    built = library.__dict__.get("_sims_wrapper_library")
    if built is None:
        built = library.codegen.create_library(f"{library.name}.wrapper")
        built.enable_object_caching()
        # the context lowering built the wrapper in (``BaseLower``): a subtarget holding the
        # environment, with NRT as the function was compiled. A cache load passes the dispatcher's
        # plain target context, NRT off: its wrapper boxed a returned array as a borrowed view of a
        # Python object it does not have, and returned NULL without an exception.
        nrt = context.enable_nrt or _uses_nrt(library)
        lowering_context = context.subtarget(environment=env, fndesc=fndesc, enable_nrt=nrt)
        lowering_context.create_cpython_wrapper(built, fndesc, env, None, release_gil=getattr(library, MARK))
        built.add_linking_library(library)
        built.finalize()
        library._sims_wrapper_library = built
        _state["built"] += 1
    return built


def install(nested) -> None:
    """Replace ``BaseLower.create_cpython_wrapper`` (called by ``lazy_emit.install``, whose ``nested()``
    says whether a nested compile is running)."""
    _state["nested"] = nested
    if _state["original"] is None:
        _state["original"] = lowering.BaseLower.__dict__["create_cpython_wrapper"]
        lowering.BaseLower.create_cpython_wrapper = create_cpython_wrapper


def uninstall() -> None:
    """Put Numba's own back."""
    if _state["original"] is not None:
        lowering.BaseLower.create_cpython_wrapper = _state["original"]
        _state["original"] = None


def counts() -> tuple[int, int]:
    """Wrappers not built in nested compiles, and wrappers built later, since the process started."""
    return _state["skipped"], _state["built"]
