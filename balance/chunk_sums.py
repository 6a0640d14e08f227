"""One chunk's sufficient statistics (:class:`ChunkSums`), added batch by batch as the kernel writes the rows.

A run's pool worker sums every batch's card and turn rows (and counts its games) right
after the kernel wrote them, then writes :meth:`ChunkSums.tables` as the chunk's parts of
the aggregate tables :mod:`balance.aggregates` describes (which tables, keys and columns:
its :class:`~balance.aggregates.Plan`). The compiled loops are :mod:`balance.chunk_kernels`
and ``sims.core.sums``, imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from balance.aggregates import (
    CARD_VALUE_COLUMNS,
    CARDS,
    GAMES,
    HANDS,
    LEADS,
    LEVEL,
    LEVELS,
    ORDER,
    PER_GAME,
    RATES,
    SEATS,
    STEPS,
    TEMPO,
    Plan,
    card_columns,
    seat_columns,
    seat_key,
    step_columns,
)


def _group(keys: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Return ``sims.core.sums.group_index(keys)``: each row's group and each key's value per group, in key order.

    ``group_index`` counts every combination of the keys' ranges densely; when there are
    far more combinations than rows (many key columns: ``agg_games``), the rows' codes are
    sorted instead, or, beyond an int64 code, the rows themselves.
    """
    from sims.core.sums import group_index

    n = len(keys[0]) if keys else 0
    lows = [int(k.min()) for k in keys] if n else []
    widths = [int(k.max()) - lo + 1 for k, lo in zip(keys, lows, strict=True)] if n else []
    combinations = float(np.prod(np.array(widths, np.float64)))
    if combinations <= max(1 << 16, 8 * n):
        return group_index(keys)
    if combinations >= 2.0**62:
        stacked = np.stack([np.asarray(k, np.int64) for k in keys])
        uniq, index = np.unique(stacked, axis=1, return_inverse=True)
        return index.reshape(-1).astype(np.int64), list(uniq)
    code = np.zeros(n, np.int64)
    for key, lo, width in zip(keys, lows, widths, strict=True):
        code *= width
        code += key.astype(np.int64) - lo
    present, index = np.unique(code, return_inverse=True)
    values = []
    for lo, width in zip(reversed(lows), reversed(widths), strict=True):
        values.append(present % width + lo)
        present = present // width
    return index.reshape(-1).astype(np.int64), values[::-1]


class _Sparse:
    """Keyed integer sums collected batch by batch and reduced by key at the end."""

    def __init__(self, keys: Sequence[str], columns: Sequence[str]) -> None:
        self.keys, self.columns = tuple(keys), tuple(columns)
        self.parts: list[tuple[list[np.ndarray], np.ndarray]] = []

    def add(self, keys: list[np.ndarray], values: np.ndarray) -> None:
        if len(values):
            self.parts.append(([np.asarray(k, np.int64) for k in keys], np.asarray(values, np.int64)))

    def reduce(self) -> tuple[list[np.ndarray], np.ndarray]:
        if not self.parts:
            return [np.zeros(0, np.int64) for _ in self.keys], np.zeros((0, len(self.columns)), np.int64)
        keys = [np.concatenate([p[0][i] for p in self.parts]) for i in range(len(self.keys))]
        values = np.concatenate([p[1] for p in self.parts])
        if not self.keys:
            return [], values.sum(axis=0, keepdims=True)
        index, uniq = _group(keys)
        out = np.zeros((len(uniq[0]), values.shape[1]), np.int64)
        np.add.at(out, index, values)
        return uniq, out


class ChunkSums:
    """The sufficient statistics of one chunk, added batch by batch (:meth:`add`), then :meth:`tables`."""

    def __init__(self, plan: Plan) -> None:
        """Start empty sums for ``plan``."""
        self.plan = plan
        n_keys = plan.n_cards * plan.seats * 2
        self.cards = np.zeros((n_keys, len(card_columns(plan))), np.int64)
        self.hands = np.zeros((2, 6), np.int64)
        self.tempo = _Sparse(("grain", "turn", "d", "first_seat", "winner"), ("count",))
        self.order = np.zeros(2, np.int64)
        self.steps = _Sparse(plan.step_keys, step_columns(plan))
        self.levels = _Sparse(("level", "first"), ("count",))
        self.per_game: list[list[np.ndarray]] = []
        self.games: list[np.ndarray] = []  # per batch: the agg_games keys of its games, one row per key column
        self.kept = set(plan.tables)
        self.key_types: dict[str, np.dtype] = {}  # agg_games' integer keys: their record dtypes
        self.seats = np.zeros((plan.seats * max(len(plan.bots), 1), len(seat_columns(plan))), np.int64)  # seat, bot

    def add(self, rec: Mapping[str, np.ndarray]) -> None:
        """Add one batch's records (``games`` plus whichever of ``seats``/``cards``/``turns`` were recorded).

        The records may be views into buffers the next batch overwrites (``play_batches``):
        nothing of them is kept but copies.
        """
        games = rec["games"]
        if len(games) == 0:
            return
        ids = games["game"]
        dense = int(ids[-1]) - int(ids[0]) + 1 == len(ids) and bool(np.all(np.diff(ids) == 1))
        g0 = int(ids[0])

        def local(rows: np.ndarray) -> np.ndarray:
            return (rows - g0) if dense else np.searchsorted(ids, rows)

        cards = rec.get("cards")
        if cards is not None and len(cards):
            self._cards(cards, None if dense else local(cards["game"]), games)
        turns = rec.get("turns")
        if turns is not None:
            self._turns(turns, local(turns["game"]), games)
        seats = rec.get("seats")
        if seats is not None and self.plan.game_keys:
            self._games(games, seats, local(seats["game"]))

    def _games(self, games: np.ndarray, seats: np.ndarray, at: np.ndarray) -> None:
        """Count the games by their ``agg_games`` keys; sum the seats' counters by seat and bot."""
        p = self.plan
        keys = [games[c] for c in p.game_keys]
        if not self.key_types:
            self.key_types = {c: games.dtype[c] for c in p.game_keys}
            self.key_types |= {seat_key(s, c): seats.dtype[c] for s in range(p.seats) for c in p.seat_keys}
        seat = seats["seat"]
        regular = len(seats) == p.seats * len(games) and bool(np.all(seat.reshape(-1, p.seats) == np.arange(p.seats)))
        regular = regular and bool(np.all(at[:: p.seats] == np.arange(len(games))))
        for s in range(p.seats):
            rows = np.flatnonzero(seat == s) if not regular else None
            for c in p.seat_keys:
                if regular:  # one row per seat, game by game: seat s's rows are every seats-th
                    keys.append(seats[c][s :: p.seats])
                else:
                    column = np.full(len(games), -1, np.int64)  # a game without this seat's row (none is written so)
                    column[at[rows]] = seats[c][rows]
                    keys.append(column)
        self.games.append(np.stack(keys).astype(np.int64))  # a copy: grouped once, in tables()
        if SEATS in self.kept and len(seats):
            from sims.core.sums import group_moments

            n = len(self.seats)
            index = seat.astype(np.int64) * max(len(p.bots), 1) + seats["bot"]  # (seat, bot), dense
            moments = group_moments(seats, p.seat_counters, index, n)
            self.seats[:, 0] += np.bincount(index, minlength=n)
            self.seats[:, 1::2] += moments[0]
            self.seats[:, 2::2] += moments[1]

    def _cards(self, c: np.ndarray, at: np.ndarray | None, games: np.ndarray) -> None:
        """Add the card rows ``c``; ``at``: each row's game in the batch (None: its game - the batch's first)."""
        from balance.chunk_kernels import card_keys, card_values
        from sims.core.sums import buffer_views, group_moments

        p, seats = self.plan, self.plan.seats
        k = len(self.cards)
        key = np.empty(len(c), np.int64)
        g0, at = int(games["game"][0]), np.zeros(0, np.int64) if at is None else at.astype(np.int64)
        if p.card_values:  # the counters' moments in the same pass (group_moments' sums) but for unaligned fields
            counts = np.zeros((k, VALUE_COUNTS), np.int64)
            hands = np.zeros((len(games) * seats, 3), np.int64)  # rows seen, rows not seen, won
            fields = [c[f] for f in ("game", "card", "seat", *CARD_VALUE_COLUMNS)]
            fast, views, sizes, slots = buffer_views(c, p.card_counters)
            sums, squares = np.zeros((k, len(fast)), np.int64), np.zeros((k, len(fast)), np.int64)
            card_values(*fields, seats, g0, at, *views, sizes, slots, key, counts, hands, sums, squares)
            self._hands(hands, games)
            moments = np.zeros((2, k, len(p.card_counters)), np.int64)
            moments[0][:, fast], moments[1][:, fast] = sums, squares
            slow = [j for j in range(len(p.card_counters)) if j not in fast]
            if slow:
                moments[:, :, slow] = group_moments(c, [p.card_counters[j] for j in slow], key, k)
        else:
            card_keys(c["card"], c["seat"], c["game"], seats, key)
            counts = np.bincount(key, minlength=k)[:, None]
            moments = group_moments(c, p.card_counters, key, k)
        columns = [counts, *(m[:, j] for j in range(len(p.card_counters)) for m in moments)]
        if p.card_events:
            played, won = c["times_played"] > 0, c["won"] == 1
            for e in p.card_events:
                hit = played & (c[e] > 0)
                for rows in (hit, hit & won, played & ~hit & won):
                    columns.append(np.bincount(key[rows], minlength=k))
        self.cards += np.column_stack(columns)

    def _hands(self, hands: np.ndarray, games: np.ndarray) -> None:
        seats, n_games = self.plan.seats, len(games)
        w = hands[:, 2]
        length = np.repeat(games["turns"].astype(np.int64), seats)
        for row in (0, 1):  # seen, not seen
            count = hands[:, row]
            held = count > 0
            self.hands[row] += [
                count.sum(),
                (count * w).sum(),
                held.sum(),
                held.reshape(n_games, seats).any(axis=1).sum(),
                (count * length).sum(),
                (count * length * length).sum(),
            ]

    def _turns(self, t: np.ndarray, at: np.ndarray, games: np.ndarray) -> None:
        from balance.chunk_kernels import turn_order
        from sims.core.sums import group_index, group_moments, level_firsts

        p = self.plan
        turn = np.empty(len(t), np.int64)
        if not turn_order(at, t["turn"], turn):
            order = np.lexsort((turn, at))
            t, at, turn = t[order], at[order], turn[order]
        if p.tempo:
            self._tempo(t, at, turn, games)
        index, values = group_index([t[k] for k in p.step_keys]) if p.step_keys else (np.zeros(len(t), np.int64), [])
        n = len(values[0]) if p.step_keys else min(1, len(t))
        if n:
            cols = [np.bincount(index, minlength=n)]
            if p.step_winner:
                decided = t["winner"] >= 0
                cols += [
                    np.bincount(index[decided], minlength=n),
                    np.bincount(index[decided & (t["winner"] == t["seat"])], minlength=n),
                ]
            moments = group_moments(t, p.step_counters, index, n)
            for j in range(len(p.step_counters)):
                cols += [moments[0][:, j], moments[1][:, j]]
            self.steps.add(values, np.stack(cols, axis=1))
        if p.levels and len(t):
            level = t[LEVEL].astype(np.int64)
            room = len(t) + len(games) * (int(level.max()) - int(level.min()))
            out_level, out_turn = np.zeros(room, np.int64), np.zeros(room, np.int64)
            m = level_firsts(at, turn, level, out_level, out_turn)
            self._count(self.levels, [out_level[:m], out_turn[:m]])
        if "steps" in p.per_game:
            steps = np.bincount(at, minlength=len(games))
            self.per_game.append([games["game"].copy(), steps])  # a copy: the batch's buffer is reused

    def _tempo(self, t: np.ndarray, at: np.ndarray, turn: np.ndarray, games: np.ndarray) -> None:
        from balance.chunk_kernels import tempo_codes
        from sims.core.sums import NONE, lead_stats

        d = t["score_0"].astype(np.int64) - t["score_1"]
        first, winner = games["first_seat"].astype(np.int64), games["winner"].astype(np.int64)
        rounds = self.plan.rounds and len(t) > 0
        if len(t):  # (grain, turn, d, first seat, winner) of every row, and by round of each round's last row
            low, high = int(turn.min()), int(turn.max())
            low, high = min(low, (low + 1) // 2), max(high, (high + 1) // 2)  # rounds too
            lo = np.array([low, d.min(), first.min(), winner.min()], np.int64)
            shape = np.array([high, d.max(), first.max(), winner.max()], np.int64) - lo + 1
            codes = np.empty((2, len(t)), np.int64)
            seat = t["seat"] if rounds else t["turn"]  # (read with rounds only)
            n_last, off = tempo_codes(at, turn, d, seat, first, winner, rounds, lo, shape, codes)
            for grain, code in ((0, codes[0]), (1, codes[1, :n_last])):
                self._count_codes(grain, code, lo, shape)
            self.order += [len(t), off if rounds else len(t)]  # not alternating turns: never drawn by round
        changes = np.zeros(len(games), np.int64)
        good = np.full(len(games), NONE, np.int64)
        lead_stats(at.astype(np.int64), turn, d, games["winner"].astype(np.int64), changes, good)
        self.per_game.append(
            [games["game"].copy(), changes.astype(np.uint32), np.ma.masked_equal(good, NONE).astype(np.int32)]
        )

    def _count_codes(self, grain: int, code: np.ndarray, lo: np.ndarray, shape: np.ndarray) -> None:
        """Add the rows of one tempo grain, each given as its key's code (``chunk_kernels.tempo_codes``)."""
        from sims.core.sums import DENSE_LIMIT

        if not len(code):
            return
        cells = int(np.prod(shape, dtype=np.float64))
        if cells <= DENSE_LIMIT:
            counts = np.bincount(code, minlength=cells)
            present = np.flatnonzero(counts)
            counts = counts[present]
        else:
            present, counts = np.unique(code, return_counts=True)
        keys = [k + low for k, low in zip(np.unravel_index(present, tuple(shape)), lo, strict=True)]
        self.tempo.add([np.full(len(present), grain), *keys], counts[:, None])

    @staticmethod
    def _count(target: _Sparse, keys: list[np.ndarray]) -> None:
        if len(keys[0]):
            index, values = _group(keys)
            target.add(values, np.bincount(index)[:, None])

    def tables(self) -> dict[str, dict[str, np.ndarray]]:
        """Return each aggregate table of the plan as columns (keys first; enum keys as labels)."""
        p, out = self.plan, {}
        n = p.n_cards * p.seats * 2
        key = np.arange(n)
        columns: dict[str, np.ndarray] = {
            "card": (key // (2 * p.seats)).astype(np.int16),
            "seat": (key // 2 % p.seats).astype(np.int8),
            "half": (key % 2).astype(np.int8),
        }
        keep = self.cards[:, 0] > 0
        for j, name in enumerate(card_columns(p)):
            columns[name] = self.cards[:, j]
        out[CARDS] = {k: v[keep] for k, v in columns.items()}
        if p.hands:
            names = ("n", "wins", "hands", "games", "length_sum", "length_sumsq")
            out[HANDS] = {"seen": np.array([True, False]), **{c: self.hands[:, j] for j, c in enumerate(names)}}
        if p.tempo:
            keys, values = self.tempo.reduce()
            grain = np.array(["turn", "round"], dtype=object)[keys[0]] if len(keys[0]) else np.zeros(0, object)
            out[TEMPO] = {
                "grain": grain,
                "turn": keys[1].astype(np.int32),
                "d": keys[2].astype(np.int32),
                "first_seat": keys[3].astype(np.int8),
                "winner": keys[4].astype(np.int8),
                "count": values[:, 0],
            }
            out[ORDER] = {"rows": self.order[:1], "off": self.order[1:]}
        keys, values = self.steps.reduce()
        step = {k: self._labels("turns", k, v) for k, v in zip(p.step_keys, keys, strict=True)}
        out[STEPS] = step | {c: values[:, j] for j, c in enumerate(step_columns(p))}
        if p.levels:
            keys, values = self.levels.reduce()
            out[LEVELS] = {"level": keys[0], "first": keys[1], "count": values[:, 0]}
        if p.per_game:
            out[PER_GAME] = self._per_game()
        if GAMES in p.tables:
            rows = np.concatenate(self.games, axis=1) if self.games else np.zeros((len(p.games_columns), 0), np.int64)
            index, keys = _group(list(rows)) if rows.shape[1] else (rows[0], list(rows))
            out[GAMES] = {name: self._key_labels(name, v) for name, v in zip(p.games_columns, keys, strict=True)}
            out[GAMES]["count"] = np.bincount(index, minlength=len(keys[0])).astype(np.int64)
        if LEADS in p.tables:
            out[LEADS] = self._leads()
        if SEATS in p.tables:
            kept = np.flatnonzero(self.seats[:, 0] > 0)
            width = max(len(p.bots), 1)
            out[SEATS] = {"seat": (kept // width).astype(np.int8), "bot": np.array(p.bots, dtype=object)[kept % width]}
            out[SEATS] |= {c: self.seats[kept, j] for j, c in enumerate(seat_columns(p))}
        return out

    def _leads(self) -> dict[str, np.ndarray]:
        """Return ``agg_leads``: the per-game leads (:meth:`_tempo`'s blocks) counted by their values."""
        from sims.core.sums import NONE

        blocks = [b for b in self.per_game if len(b) == 3]
        changes = np.concatenate([b[1] for b in blocks]).astype(np.int64) if blocks else np.zeros(0, np.int64)
        good = np.concatenate([b[2].filled(NONE) for b in blocks]).astype(np.int64) if blocks else changes.copy()
        index, (changes, good) = _group([changes, good]) if len(changes) else (changes, [changes, good])
        return {
            "lead_changes": changes.astype(np.uint32),
            "lead_for_good": np.ma.masked_equal(good, NONE).astype(np.int32),  # no lead for good: null
            "count": np.bincount(index, minlength=len(changes)).astype(np.int64),
        }

    def _key_labels(self, name: str, codes: np.ndarray) -> np.ndarray:
        """Return an ``agg_games`` key column as its Parquet column has it: enum labels and bot names, else ints."""
        p = self.plan
        table, column = ("games", name) if name in p.game_keys else ("seats", name.split("_", 1)[1])
        if table == "seats" and column == "bot":
            return np.array([p.bots[c] if 0 <= c < len(p.bots) else str(c) for c in codes.tolist()], dtype=object)
        if column in p.enums.get(table, {}):
            return self._labels(table, column, codes)
        return codes.astype(self.key_types.get(name, np.int64))

    def _labels(self, table: str, column: str, codes: np.ndarray) -> np.ndarray:
        members = self.plan.enums.get(table, {}).get(column)
        if members is None:
            return codes
        labels = {int(m.value): m.name.lower() for m in members}
        distinct = np.unique(codes)  # each label made once (agg_games has thousands of rows, a few values)
        names = np.array([labels.get(int(c), str(int(c))) for c in distinct], dtype=object)
        return names[np.searchsorted(distinct, codes)] if len(codes) else np.zeros(0, object)

    def _per_game(self) -> dict[str, np.ndarray]:
        names = [n for n in self.plan.per_game if n != "steps"]
        leads = [b for b in self.per_game if len(b) == 3]
        steps = [b for b in self.per_game if len(b) == 2]
        source = leads or steps
        out = {"game": np.concatenate([b[0] for b in source]) if source else np.zeros(0, np.int64)}
        for i, name in enumerate(names, start=1):
            out[name] = np.ma.concatenate([b[i] for b in leads]) if leads else np.zeros(0, np.int64)
        if "steps" in self.plan.per_game:
            out["steps"] = np.concatenate([b[1] for b in steps]) if steps else np.zeros(0, np.int64)
        return out


VALUE_COUNTS = 1 + 2 * len(RATES) + 3  # rows, (n, k) per win rate, turn played n / total / squares
