"""The guard every ``sims.core`` patch of Numba's internals passes before it installs itself."""

from __future__ import annotations

import hashlib
import inspect
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

import numba


def checked(name: str, hashes: dict[str, str], source_hash: Callable[[], str], numba_part: str, fallback: str) -> bool:
    """Whether this Numba is one the patch ``sims.core.<name>`` was checked against: its version listed
    in ``hashes`` with the sha256 that ``source_hash()`` finds for the source the patch replaces or
    relies on. Otherwise warn (``numba_part`` names that source, ``fallback`` what happens instead)
    and return False: the caller then leaves Numba alone."""
    expected = hashes.get(numba.__version__)
    try:
        found = source_hash()
    except (OSError, TypeError):
        found = None
    if expected is not None and found == expected:
        return True
    warnings.warn(
        f"sims.core.{name}: Numba {numba.__version__}'s {numba_part} checked against; {fallback}",
        RuntimeWarning,
        stacklevel=3,
    )
    return False


def source_hash(parts: Iterable[object]) -> str:
    """The sha256 of the source files that hold ``parts`` (Numba functions a patch replaces or relies on),
    each file once, in the order of the parts.

    Whole files, not each function's text: ``inspect.getsource`` tokenizes every function it
    is given, 64 ms for the patches' 73 functions at each import of ``sims.core.jit`` (in a run,
    before its workers start), where reading and hashing their 21 files takes about 2 ms. A
    file also changes when anything else in it does, so the check is stricter, never looser.
    """
    digest = hashlib.sha256()
    for path in dict.fromkeys(_source_file(part) for part in parts):
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _source_file(part: object) -> str:
    path = inspect.getsourcefile(inspect.unwrap(part))  # type: ignore[arg-type]
    if path is None:
        raise OSError(f"no source file for {part!r}")
    return path
