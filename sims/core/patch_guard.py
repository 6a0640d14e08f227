"""The guard every ``sims.core`` patch of Numba's internals passes before it installs itself."""

from __future__ import annotations

import hashlib
import inspect
import warnings
from collections.abc import Callable, Iterable

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
    """The sha256 of the source of ``parts`` (Numba functions a patch replaces or relies on), joined in order."""
    text = "".join(inspect.getsource(part) for part in parts)
    return hashlib.sha256(text.encode()).hexdigest()
