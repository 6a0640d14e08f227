"""The compiled loops of :class:`balance.chunk_sums.ChunkSums`, over one batch's card and turn rows.

A module of their own, imported by ``ChunkSums`` on first use: ``balance.aggregates`` (its
plan, table names and column conventions) is read by every report and metric, which then
never load Numba (about 0.15 s of a report's start).
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import hot, kernel
from sims.core.sums import field_value


@kernel
def card_keys(card, seat, game, seats, key) -> None:
    """Write each card row's ``agg_cards`` key (:func:`_card_key`) into ``key``."""
    for r in range(card.shape[0]):
        key[r] = _card_key(card[r], seat[r], game[r], seats)


@hot
def _card_key(card, seat, game, seats) -> int:
    """Return a card row's ``agg_cards`` key: ``(card * seats + seat) * 2 + game % 2``."""
    return (np.int64(card) * seats + seat) * 2 + np.int64(game) % 2


@kernel
def card_values(
    game, card, seat, won, opening, drawn, played, times, seats, g0, at, v1, v2, v4, v8, sizes, slots, key, counts,
    hands, sums, squares,
) -> None:  # fmt: skip
    """Write each card row's key (:func:`card_keys`), add the row to its key's win-rate counts and to its hand's
    seen / not-seen counts, and add its counters and their squares to its key's sums, in one pass over the rows.

    ``counts`` columns (:func:`balance.aggregates.card_columns` after ``rows``, in ``balance.aggregates.RATES`` order):
    rows; n and wins of every card (GP), in the opening hand (OH), drawn later (GD, turn
    > 0), seen (GIH, drawn at any turn), never seen (GNS, -1), played at least once;
    then the rows played and the sum and sum of squares of their first turn played.
    ``hands`` rows are ``game-in-batch * seats + seat``, the game in the batch being
    ``at[r]``, or ``game - g0`` when ``at`` is empty: rows seen, rows not seen, won.
    ``sums`` / ``squares`` (keys x counters) add the counters ``sims.core.sums.group_moments``
    reads straight from the record buffer: counter ``j`` is the ``slots[j]``-th integer of
    ``sizes[j]`` bytes of the row in the views ``v1`` .. ``v8`` (the very sums it gives).

    Every count is added unconditionally (0 or 1 times the row's value), so the pass has no
    data-dependent branch: Card Wars' card rows took 13 ns each with one per count.
    """
    for r in range(key.shape[0]):
        g = np.int64(game[r])
        k = _card_key(card[r], seat[r], g, seats)
        key[r] = k
        w = np.int64(won[r] == 1)
        d = np.int64(drawn[r])
        o = np.int64(opening[r] == 1)
        later, seen, unseen = np.int64(d > 0), np.int64(d >= 0), np.int64(d == -1)
        used = np.int64(times[r] > 0)
        p = np.int64(played[r])
        q = np.int64(p >= 0)
        counts[k, 0] += 1
        counts[k, 1] += 1
        counts[k, 2] += w
        counts[k, 3] += o
        counts[k, 4] += o * w
        counts[k, 5] += later
        counts[k, 6] += later * w
        counts[k, 7] += seen
        counts[k, 8] += seen * w
        counts[k, 9] += unseen
        counts[k, 10] += unseen * w
        counts[k, 11] += used
        counts[k, 12] += used * w
        counts[k, 13] += q
        counts[k, 14] += q * p
        counts[k, 15] += q * p * p
        h = ((g - g0) if at.shape[0] == 0 else at[r]) * seats + seat[r]
        hands[h, 1 - seen] += 1
        hands[h, 2] |= w
        for j in range(sizes.shape[0]):
            x = field_value(v1, v2, v4, v8, sizes[j], r, slots[j])
            sums[k, j] += x
            squares[k, j] += x * x


@kernel
def tempo_codes(at, turn, d, seat, first, winner, rounds, lo, shape, codes) -> tuple[int, int]:
    """Write the tempo key of every turn row, and with ``rounds`` of every round's last row, as codes.

    A key ``(turn, d, first seat, winner)`` (the turn row's game is ``at``, an index into
    ``first`` and ``winner``) is coded ``((turn - lo[0]) * shape[1] + d - lo[1]) * ...`` in
    ``codes[0]``; by round (``(turn + 1) // 2``, rows sorted by game then turn) in
    ``codes[1]``, for the last row of each game's round only. Return how many round rows
    were written and how many turn rows' seat is not ``(first + turn - 1) % 2``.
    """
    n = at.shape[0]
    n_last = 0
    off = 0
    for r in range(n):
        a = at[r]
        f, w = first[a], winner[a]
        tail = ((d[r] - lo[1]) * shape[2] + f - lo[2]) * shape[3] + w - lo[3]
        codes[0, r] = (turn[r] - lo[0]) * shape[1] * shape[2] * shape[3] + tail
        if rounds:
            rr = (turn[r] + 1) // 2
            if r == n - 1 or at[r + 1] != a or (turn[r + 1] + 1) // 2 != rr:
                codes[1, n_last] = (rr - lo[0]) * shape[1] * shape[2] * shape[3] + tail
                n_last += 1
            if seat[r] != (f + turn[r] - 1) % 2:
                off += 1
    return n_last, off


@kernel
def turn_order(at, turn, out) -> bool:
    """Copy ``turn`` into ``out`` (int64); return whether the rows are sorted by game (``at``) then turn, strictly."""
    ordered = True
    for r in range(at.shape[0]):
        out[r] = turn[r]
        if r and (at[r] < at[r - 1] or (at[r] == at[r - 1] and out[r] <= out[r - 1])):
            ordered = False
    return ordered
