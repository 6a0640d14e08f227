"""Shared pieces of the differential tests: load a pure-Python reference, compare its rows with the kernel's.

Each game's ``test_differential.py`` plays the same seeded games with its Numba kernel and
with ``benchmarks/<game>_reference.py``; these helpers load the reference by path and name
the first differing table, row and column of each differing game.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_reference(name: str) -> ModuleType:
    """Import ``benchmarks/<name>.py`` by path (``benchmarks`` is not a package), once."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module


def mismatches(
    kernel_out: Mapping,
    ref_rows: Mapping[str, Sequence[dict]],
    tables: Sequence[str],
    where: Callable[[int], str] = lambda g: f"game {g}",
    limit: int = 6,
) -> tuple[set[int], list[str]]:
    """Return (games that differ, readable notes on the first ``limit`` of them, lowest game first).

    Rows are grouped by the ``game`` column (the first of every dtype), so a game with a
    different number of rows (battles, card rows) is named as such; for each differing game
    the note gives the first table, row within the game, column and both values. Column
    sets must match exactly.
    """
    diffs: dict[int, str] = {}
    for table in tables:
        k_rows = kernel_out[table]
        names = k_rows.dtype.names
        r_rows = ref_rows[table]
        if r_rows:
            missing, extra = set(names) - set(r_rows[0]), set(r_rows[0]) - set(names)
            assert not missing, f"{table}: kernel columns the reference does not produce: {sorted(missing)}"
            assert not extra, f"{table}: reference columns the kernel does not have: {sorted(extra)}"
        kernel_games, ref_games = defaultdict(list), defaultdict(list)
        for row in k_rows.tolist():  # tuples of Python scalars in dtype order; column 0 is ``game``
            kernel_games[row[0]].append(row)
        for row in r_rows:
            ref_games[row["game"]].append(tuple(row[name] for name in names))
        for g in sorted(set(kernel_games) | set(ref_games)):
            if g in diffs:
                continue
            mine, theirs = kernel_games[g], ref_games[g]
            if len(mine) != len(theirs):
                diffs[g] = f"{where(g)}: {table} has {len(mine)} kernel rows, {len(theirs)} reference rows"
                continue
            for k, (a, b) in enumerate(zip(mine, theirs, strict=True)):
                if a != b:
                    col = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
                    diffs[g] = (
                        f"{where(g)}: {table} row {k} column {names[col]!r}: kernel {a[col]!r}, reference {b[col]!r}"
                    )
                    break
    bad = set(diffs)
    return bad, [diffs[g] for g in sorted(bad)[:limit]]
