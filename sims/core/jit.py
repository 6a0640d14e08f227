"""The single decorator preset for every kernel (STYLE.md 2.6)."""

import numba

kernel = numba.njit(cache=True, nogil=True)
