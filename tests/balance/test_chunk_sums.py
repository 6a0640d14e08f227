"""ChunkSums against sums counted row by row in plain Python: card win-rate counts and hands, the tempo
histogram by turn and by round, turn order; rows in any order, game ids with gaps, sparse tempo keys."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from balance import aggregates
from balance.aggregates import Plan
from balance.chunk_sums import ChunkSums
from sims.core import sums

GAMES = np.dtype([("game", "<i8"), ("first_seat", "i1"), ("winner", "i1"), ("turns", "<i2")], align=True)
CARDS = np.dtype(
    [
        ("game", "<i8"),
        ("seat", "i1"),
        ("card", "<i2"),
        ("won", "i1"),
        ("in_opening_hand", "i1"),
        ("first_drawn_turn", "<i2"),
        ("first_played_turn", "<i2"),
        ("times_played", "<i2"),
        ("hits", "i1"),
    ],
    align=True,
)
TURNS = np.dtype([("game", "<i8"), ("turn", "<i2"), ("seat", "i1"), ("score_0", "<i2"), ("score_1", "<i2")], align=True)
N_CARDS = 5


def _plan(rounds: bool = True) -> Plan:
    return Plan(
        seats=2,
        n_cards=N_CARDS,
        turn_unit="turn",
        enums={},
        card_values=True,
        card_counters=("times_played", "hits"),
        card_events=("hits",),
        hands=True,
        tempo=True,
        rounds=rounds,
        step_keys=(),
        step_winner=False,
        step_counters=(),
        levels=False,
        per_game=("lead_changes", "lead_for_good"),
    )


def _batch(rng: np.random.Generator, ids: np.ndarray, spread: int = 6) -> dict[str, np.ndarray]:
    games = np.zeros(len(ids), GAMES)
    games["game"] = ids
    games["first_seat"] = rng.integers(0, 2, len(ids))
    games["winner"] = rng.integers(-1, 2, len(ids))
    games["turns"] = rng.integers(1, 9, len(ids))
    cards, turns = [], []
    for g, first, n_turns in zip(ids, games["first_seat"], games["turns"], strict=True):
        for seat in (0, 1):
            for card in rng.choice(N_CARDS, 3, replace=False):
                won, opening, drawn, played, times, hits = rng.integers([0, 0, -1, -1, 0, 0], [2, 2, 4, 4, 3, 2])
                cards.append((g, seat, card, won, opening, drawn, played, times, hits))
        for turn in range(1, n_turns + 1):
            seat = (first + turn - 1) % 2 if rng.random() < 0.9 else 1 - (first + turn - 1) % 2
            turns.append((g, turn, seat, rng.integers(0, spread), rng.integers(0, spread)))
    return {"games": games, "cards": np.array(cards, CARDS), "turns": np.array(turns, TURNS)}


def _expected(batches: list[dict[str, np.ndarray]], rounds: bool) -> dict[str, Counter]:
    """Count every sum row by row."""
    tempo, cards, order = Counter(), Counter(), Counter()
    hands: dict[tuple[int, int], list[int]] = {}
    for b in batches:
        games = {int(g["game"]): g for g in b["games"]}
        for c in b["cards"]:
            key = (int(c["card"]), int(c["seat"]), int(c["game"]) % 2)
            won, drawn = int(c["won"]) == 1, int(c["first_drawn_turn"])
            played, times = int(c["first_played_turn"]), int(c["times_played"])
            rates = {"gp": True, "oh": c["in_opening_hand"] == 1, "gd": drawn > 0, "gih": drawn >= 0}
            rates |= {"gns": drawn == -1, "played": times > 0}
            for name, hit in rates.items():
                cards[key, f"{name}_wr_n"] += int(hit)
                cards[key, f"{name}_wr_k"] += int(hit and won)
            cards[key, "turn_played_n"] += played >= 0
            cards[key, "turn_played_total"] += played if played >= 0 else 0
            cards[key, "turn_played_squares"] += played * played if played >= 0 else 0
            hit = times > 0 and c["hits"] > 0
            cards[key, "hits_event_n"] += hit
            cards[key, "hits_event_k"] += hit and won
            cards[key, "hits_event_w"] += times > 0 and not hit and won
            hand = hands.setdefault((int(c["game"]), int(c["seat"])), [0, 0, 0, int(games[int(c["game"])]["turns"])])
            hand[0 if drawn >= 0 else 1] += 1
            hand[2] |= won
        rows = sorted(b["turns"].tolist())
        for i, (g, turn, seat, s0, s1) in enumerate(rows):
            first, winner = int(games[g]["first_seat"]), int(games[g]["winner"])
            tempo["turn", turn, s0 - s1, first, winner] += 1
            rnd = (turn + 1) // 2
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            if rounds and (nxt is None or nxt[0] != g or (nxt[1] + 1) // 2 != rnd):
                tempo["round", rnd, s0 - s1, first, winner] += 1
            order["rows"] += 1
            order["off"] += seat != (first + turn - 1) % 2 if rounds else 1
    return {"tempo": tempo, "cards": cards, "hands": hands, "order": order}


def _check(batches: list[dict[str, np.ndarray]], rounds: bool = True) -> None:
    sums = ChunkSums(_plan(rounds))
    for b in batches:
        sums.add(b)
    tables = sums.tables()
    want = _expected(batches, rounds)
    t = tables[aggregates.TEMPO]
    keys = list(zip(*(t[c].tolist() for c in ("grain", "turn", "d", "first_seat", "winner")), strict=True))
    got = Counter()
    for key, count in zip(keys, t["count"].tolist(), strict=True):
        got[key] += count
    assert got == want["tempo"]
    assert keys == sorted(keys, key=lambda k: (k[0] != "turn", *k[1:]))  # in key order, each key once
    assert tables[aggregates.ORDER]["rows"].tolist() == [want["order"]["rows"]]
    assert tables[aggregates.ORDER]["off"].tolist() == [want["order"]["off"]]
    c = tables[aggregates.CARDS]
    for i, key in enumerate(zip(c["card"].tolist(), c["seat"].tolist(), c["half"].tolist(), strict=True)):
        for name in aggregates.card_columns(_plan()):
            if name.endswith(("_n", "_k", "_w", "_total", "_squares")):
                assert c[name][i] == want["cards"][key, name], (key, name)
        assert c["rows"][i] == c["gp_wr_n"][i]
    h = tables[aggregates.HANDS]
    for row in (0, 1):  # seen, not seen
        held = {key: v for key, v in want["hands"].items() if v[row]}
        assert h["n"][row] == sum(v[row] for v in held.values())
        assert h["wins"][row] == sum(v[row] * v[2] for v in held.values())
        assert h["hands"][row] == len(held)
        assert h["games"][row] == len({g for g, _ in held})
        assert h["length_sum"][row] == sum(v[row] * v[3] for v in held.values())
        assert h["length_sumsq"][row] == sum(v[row] * v[3] ** 2 for v in held.values())


@pytest.mark.parametrize("rounds", [True, False])
def test_sums_equal_row_by_row_counts(rounds):
    rng = np.random.default_rng(5)
    _check([_batch(rng, np.arange(0, 40)), _batch(rng, np.arange(40, 90))], rounds)


def test_sums_of_shuffled_rows_and_games_with_gaps():
    """Turn and card rows in any order, game ids not consecutive (a batch of a filtered run)."""
    rng = np.random.default_rng(7)
    batches = [_batch(rng, np.array([3, 8, 9, 20, 21, 50])), _batch(rng, np.arange(100, 130))]
    for b in batches:
        b["turns"] = b["turns"][rng.permutation(len(b["turns"]))]
        b["cards"] = b["cards"][rng.permutation(len(b["cards"]))]
    _check(batches)


def test_sparse_tempo_keys_are_counted_by_sorting(monkeypatch):
    """More key combinations than DENSE_LIMIT: the codes are counted by np.unique, to the same sums."""
    monkeypatch.setattr(sums, "DENSE_LIMIT", 8)  # read by ChunkSums on each call (and by group_index)
    rng = np.random.default_rng(9)
    _check([_batch(rng, np.arange(0, 30), spread=40)])


def test_card_counters_summed_in_the_card_pass_equal_row_by_row_sums():
    """The card counters' sums and squares, added in the win-rate pass for aligned signed fields and by numpy for the
    others (an unsigned byte, a field at an odd offset): the sums of every row, per card, seat and half."""
    mixed = np.dtype(
        {
            "names": [*CARDS.names, "bonus", "odd"],
            "formats": [*(CARDS.fields[n][0] for n in CARDS.names), "u1", "<i2"],
            "offsets": [*(CARDS.fields[n][1] for n in CARDS.names), 23, 21],  # odd: a 2-byte field at byte 21
            "itemsize": 24,
        }
    )
    rng = np.random.default_rng(11)
    batches = [_batch(rng, np.arange(0, 30)), _batch(rng, np.arange(30, 70))]
    for b in batches:
        cards = np.zeros(len(b["cards"]), mixed)
        for name in CARDS.names:
            cards[name] = b["cards"][name]
        cards["hits"] = rng.integers(-3, 4, len(cards))
        cards["bonus"] = rng.integers(0, 256, len(cards))
        cards["odd"] = rng.integers(-30000, 30000, len(cards))
        b["cards"] = cards
    counters = ("times_played", "hits", "bonus", "odd")
    plan = dataclasses.replace(_plan(), card_counters=counters, card_events=())
    chunk = ChunkSums(plan)
    for b in batches:
        chunk.add(b)
    c = chunk.tables()[aggregates.CARDS]
    want = Counter()
    for b in batches:
        for row in b["cards"]:
            key = (int(row["card"]), int(row["seat"]), int(row["game"]) % 2)
            for name in counters:
                want[key, f"{name}_sum"] += int(row[name])
                want[key, f"{name}_sumsq"] += int(row[name]) ** 2
    keys = list(zip(c["card"].tolist(), c["seat"].tolist(), c["half"].tolist(), strict=True))
    assert len(keys) == len({k for k, _ in want})
    for i, key in enumerate(keys):
        for name in counters:
            for x in ("sum", "sumsq"):
                assert c[f"{name}_{x}"][i] == want[key, f"{name}_{x}"], (key, name, x)


def test_buffer_views_name_the_aligned_signed_fields_and_read_them_back() -> None:
    rec = np.zeros(3, dtype=np.dtype([("a", "i2"), ("b", "u1"), ("c", "i4")], align=True))
    rec["a"], rec["b"], rec["c"] = [1, -2, 3], [4, 5, 6], [-7, 8, 90_000]
    fast, views, sizes, slots = sums.buffer_views(rec, ["a", "b", "c"])
    assert fast == [0, 2]  # the unsigned byte is summed with numpy instead
    assert (sizes.tolist(), slots.tolist()) == ([2, 4], [0, 1])
    assert [v.shape for v in views] == [(3, 8), (3, 4), (3, 2), (3, 1)]
    by_size = dict(zip((1, 2, 4, 8), views, strict=True))
    for j, size, slot in zip(fast, sizes, slots, strict=True):
        assert by_size[int(size)][:, slot].tolist() == rec[["a", "b", "c"][j]].tolist()
