"""Every table of a run directory as sorted frames, for comparing two runs (raw rows and merged sums)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from balance.aggregates import PER_GAME
from balance.io import load_run

SORT = {"games": ["game"], "seats": ["game", "seat"], "cards": ["game", "seat", "card"], "turns": ["game", "turn"]}


def run_tables(path: Path | str) -> dict[str, pl.DataFrame]:
    """Return the run's raw tables (sorted, chunk columns dropped) and its aggregates merged over chunks."""
    loaded = load_run(path)
    frames = {"games": loaded.games, "seats": loaded.seats, "cards": loaded.cards, "turns": loaded.turns}
    out = {
        t: lf.collect().drop("run_id", "chunk", strict=False).sort(SORT[t])
        for t, lf in frames.items()
        if lf is not None
    }
    if loaded.sums is not None:
        for name in loaded.sums.keys:
            per_game = loaded.sums.per_game if name == PER_GAME else None
            frame = per_game.collect().sort("game") if per_game is not None else loaded.sums.frame(name)
            assert frame is not None, name
            out[name] = frame
    return out


def assert_same_tables(a: dict[str, pl.DataFrame], b: dict[str, pl.DataFrame]) -> None:
    """Assert two runs have the same tables, each non-empty and equal row for row."""
    assert sorted(a) == sorted(b)
    for table, frame in a.items():
        assert frame.height > 0, table
        assert frame.equals(b[table]), table
