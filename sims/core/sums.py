"""Exact group sums over record arrays, and the per-game scans a report needs, for any game.

These are the building blocks of a run's sufficient statistics (``balance.aggregates``
says which sums a report needs; nothing here knows a game or a metric):

- :func:`group_index` turns small-integer key columns into dense group numbers, groups
  in key order;
- :func:`group_moments` adds every chosen integer field of a record array, and its
  square, into its row's group in one jitted pass over the record buffer (int64: exact,
  so sums merge across chunks in any order to the same totals);
- :func:`lead_stats` and :func:`level_firsts` are the sequential per-game scans over rows
  sorted by game then turn: lead changes and the turn the winner leads for good, and the
  first step at each level a game reaches.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.core.jit import hot, kernel

DENSE_LIMIT = 1 << 24  # key combinations up to this many are counted densely (bincount), beyond by sorting
NONE = -1  # "no value" in the per-game outputs (a game without a winner has no lead for good)


def group_index(keys: Sequence[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Return ``(index, values)``: each row's group (0 .. k-1) and each key's value per group.

    Groups are numbered in lexicographic order of the keys (first key most significant).

    Examples
    --------
    >>> index, values = group_index([np.array([3, 1, 3, 1]), np.array([0, 0, 0, 5])])
    >>> index.tolist(), [v.tolist() for v in values]
    ([2, 0, 2, 1], [[1, 1, 3], [0, 5, 0]])
    """
    n = len(keys[0]) if keys else 0
    if n == 0:
        return np.zeros(0, np.int64), [np.zeros(0, np.int64) for _ in keys]
    lows = [int(k.min()) for k in keys]
    widths = [int(k.max()) - lo + 1 for k, lo in zip(keys, lows, strict=True)]
    code = np.zeros(n, np.int64)
    for key, lo, width in zip(keys, lows, widths, strict=True):
        code *= width
        code += key.astype(np.int64) - lo
    total = int(np.prod(widths, dtype=np.float64))
    if total <= DENSE_LIMIT:
        present = np.flatnonzero(np.bincount(code, minlength=total))
        lookup = np.full(total, -1, np.int64)
        lookup[present] = np.arange(len(present))
        index = lookup[code]
    else:
        present, index = np.unique(code, return_inverse=True)
    values = []
    rest = present.copy()
    for lo, width in zip(reversed(lows), reversed(widths), strict=True):
        values.append(rest % width + lo)
        rest //= width
    return index.astype(np.int64), values[::-1]


def buffer_views(
    records: np.ndarray, fields: Sequence[str]
) -> tuple[list[int], list[np.ndarray], np.ndarray, np.ndarray]:
    """Return ``(fast, views, sizes, slots)``: which ``fields`` a compiled pass reads straight from the record buffer
    (their positions in ``fields``) and how: the buffer as rows of 1-, 2-, 4- and 8-byte integers, and each fast
    field's size and slot in those rows.

    The fast fields are the aligned signed integers; :func:`group_moments` sums the others
    with numpy, and so must any other pass that reads the buffer so.

    Examples
    --------
    >>> rec = np.zeros(3, dtype=np.dtype([("a", "i2"), ("b", "u1"), ("c", "i4")], align=True))
    >>> fast, views, sizes, slots = buffer_views(rec, ["a", "b", "c"])
    >>> fast, sizes.tolist(), slots.tolist(), [v.shape for v in views]
    ([0, 2], [2, 4], [0, 1], [(3, 8), (3, 4), (3, 2), (3, 1)])
    """
    fast = []
    for j, name in enumerate(fields):
        dtype, offset = records.dtype.fields[name][:2]
        ok = dtype.kind == "i" and dtype.shape == () and offset % dtype.itemsize == 0
        if ok and records.dtype.itemsize % dtype.itemsize == 0:
            fast.append(j)
    contiguous = np.ascontiguousarray(records)
    views = [
        contiguous.view(t).reshape(len(records), -1)
        if records.dtype.itemsize % np.dtype(t).itemsize == 0
        else np.zeros((1, 1), t)  # no field of this size can be read through it
        for t in (np.int8, np.int16, np.int32, np.int64)
    ]
    sizes = np.array([records.dtype.fields[fields[j]][0].itemsize for j in fast], np.int64)
    slots = np.array([records.dtype.fields[fields[j]][1] for j in fast], np.int64) // np.maximum(sizes, 1)
    return fast, views, sizes, slots


def group_moments(records: np.ndarray, fields: Sequence[str], index: np.ndarray, n_groups: int) -> np.ndarray:
    """Return int64 ``[2, n_groups, len(fields)]``: per group the sum and the sum of squares of each field.

    Rows with ``index < 0`` are left out. Signed integer fields of an aligned record array
    (every game's dtypes) are read straight from its buffer in one jitted pass; any other
    field is summed with numpy.

    Examples
    --------
    >>> rec = np.array([(1, 2), (3, -4), (5, 6)], dtype=[("a", "i2"), ("b", "i4")])
    >>> group_moments(rec, ["a", "b"], np.array([0, 0, 1]), 2).tolist()
    [[[4, -2], [5, 6]], [[10, 20], [25, 36]]]
    """
    out = np.zeros((2, n_groups, len(fields)), np.int64)
    if len(records) == 0 or not fields:
        return out
    if len(index) != len(records) or (len(index) and int(index.max()) >= n_groups):
        raise ValueError(f"group index out of range: {len(index)} rows, {n_groups} groups")
    fast, views, sizes, slots = buffer_views(records, fields)
    slow = [j for j in range(len(fields)) if j not in fast]
    if fast:
        sums = np.zeros((n_groups, len(fast)), np.int64)
        squares = np.zeros((n_groups, len(fast)), np.int64)
        _moments(index, *views, sizes, slots, sums, squares)
        out[0][:, fast], out[1][:, fast] = sums, squares
    keep = index >= 0
    for j in slow:
        x = records[fields[j]][keep].astype(np.int64)
        np.add.at(out[0][:, j], index[keep], x)
        np.add.at(out[1][:, j], index[keep], x * x)
    return out


@hot
def field_value(v1, v2, v4, v8, size, r, s) -> np.int64:
    """Row ``r``'s integer field at slot ``s`` of the typed views of its buffer (``size`` bytes wide), as int64."""
    if size == 1:
        return np.int64(v1[r, s])
    if size == 2:
        return np.int64(v2[r, s])
    if size == 4:
        return np.int64(v4[r, s])
    return np.int64(v8[r, s])


@kernel
def _moments(index, v1, v2, v4, v8, sizes, slots, sums, squares) -> None:
    """Add each row's fields (read from the typed views of its buffer) into its group in place."""
    for r in range(index.shape[0]):
        k = index[r]
        if k < 0:
            continue
        for j in range(sizes.shape[0]):
            x = field_value(v1, v2, v4, v8, sizes[j], r, slots[j])
            sums[k, j] += x
            squares[k, j] += x * x


@kernel
def lead_stats(row_game, turn, diff, winner, changes, good) -> None:
    """Fill ``changes[g]`` and ``good[g]`` in place from rows sorted by game then turn.

    ``row_game`` is each row's game number (0-based, an index into ``winner``, ``changes``
    and ``good``) and ``diff`` the score difference seat 0 − seat 1 at the row's end.
    ``changes[g]``: sign changes of the difference over the game's rows, ties skipped.
    ``good[g]``: the turn after the last row at whose end the winner (seat 0 or 1) was not
    strictly ahead, 1 if it never was behind; ``NONE`` without a winner, without rows, or
    when the winner is not ahead at the last row. Games without rows keep their values.
    """
    n = row_game.shape[0]
    r = 0
    while r < n:
        g = row_game[r]
        w = winner[g]
        sign = 0
        count = 0
        behind = -1
        last = 0
        while r < n and row_game[r] == g:
            d = diff[r]
            s = 1 if d > 0 else (-1 if d < 0 else 0)
            if s != 0:
                if sign != 0 and s != sign:
                    count += 1
                sign = s
            ahead = d if w == 0 else (-d if w == 1 else 1)
            if ahead <= 0:
                behind = turn[r]
            last = turn[r]
            r += 1
        changes[g] = count
        if w < 0:
            good[g] = NONE
        elif behind < 0:
            good[g] = 1
        elif behind < last:
            good[g] = behind + 1
        else:
            good[g] = NONE


@kernel
def level_firsts(row_game, turn, level, out_level, out_turn) -> int:
    """Write ``(level, turn)`` for the first row of each game at each level it reaches; return how many.

    Rows are sorted by game then turn. A game's first row counts for its own level only
    (lower levels were never played); a later row that raises the game's highest level so
    far counts for every level it passes. ``out_level``/``out_turn`` need room for every
    row plus each game's total rise.
    """
    n = 0
    best = 0
    for r in range(row_game.shape[0]):
        if r == 0 or row_game[r] != row_game[r - 1]:
            best = level[r]
            out_level[n] = best
            out_turn[n] = turn[r]
            n += 1
        elif level[r] > best:
            for lv in range(best + 1, level[r] + 1):
                out_level[n] = lv
                out_turn[n] = turn[r]
                n += 1
            best = level[r]
    return n
