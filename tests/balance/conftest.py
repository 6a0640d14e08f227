"""Fixtures for balance tests: small run directories with answers countable by hand.

``GAMES`` below is the whole dataset of the ``small_run`` fixture; the comments give the
answers the tests expect. ``build_run`` turns such a list into a real run directory
(Cardinger record dtypes -> ``records_to_table`` -> Parquet parts in two chunks ->
manifest -> ``load_run``), so tests exercise the same path as real runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # never require a display

import numpy as np
import polars as pl
import pytest

from balance.io import Run, load_run, records_to_table, write_json, write_part
from sims.cardinger.state import CARD_RECORD_DTYPE, GAME_DTYPE, SEAT_DTYPE, TURN_DTYPE, EndReason

BOTS = ("alpha", "beta")
SCRIPT = "<script>alert(1)</script>"
CARD_DIM = pl.DataFrame(
    {
        "card": pl.Series([0, 1, 2, 3], dtype=pl.Int16),
        "name": ["Bumblebee", SCRIPT, "Pick & Boy", "Unused"],
        "cost": [0, 1, 2, 3],
        "source": ["rulebook", "inferred", "inferred", "inferred"],
        "confidence": ["high", "low", "low", "low"],
    }
)

# Score path = (score_0, score_1) at the end of each turn; first_seat = game % 2; seat 0
# plays bot alpha in even games and beta in odd games. Answers per game:
#   game  winner  turns  lead changes  lead for good  first seat won
#   0     0       5      2 (+ - +)     5              yes
#   1     1       4      0             1              yes
#   2     0       5      1 (- +)       3              yes
#   3     0       4      2 (+ - +)     4              no
#   4     1       3      2 (- + -)     3              no
#   5     -1      3      0             -              (timeout)
# Win rates: seat 0 3/6, seat 1 2/6; alpha 3/6, beta 2/6; moved first 3/6, second 2/6.
GAMES: list[dict[str, Any]] = [
    {"winner": 0, "path": [(1, 0), (1, 2), (3, 2), (3, 3), (5, 3)]},
    {"winner": 1, "path": [(0, 1), (0, 2), (1, 2), (1, 3)]},
    {"winner": 0, "path": [(0, 0), (0, 1), (2, 1), (2, 1), (4, 1)]},
    {"winner": 0, "path": [(1, 0), (1, 1), (1, 2), (3, 2)]},
    {"winner": 1, "path": [(0, 1), (2, 1), (2, 3)]},
    {"winner": -1, "path": [(1, 0), (1, 1), (2, 2)]},
]

# Card rows: (game, seat, card, in_opening_hand, first_drawn_turn, first_played_turn, times_played, damage_dealt).
# Card 0 (seat 0, every game): OH in games 0-1, drawn on turn 2 in games 2-3, never seen in 4-5;
#   played in games 0 (turn 1) and 2 (turn 3). GP 3/6, OH 1/2, GD 2/2, GIH 3/4, GNS 0/2,
#   IWD 0.75, played 2/2, play rate 2/6, turn first played 2.0, damage_dealt mean 2.5.
# Card 1 (seat 1, every game): always in the opening hand; played in games 1 and 4 (turn 2).
#   GP 2/6, OH 2/6, GIH 2/6, GD and GNS n = 0, played 2/2, play rate 2/6.
# Card 2: game 0 only, in both decks: seat 0 drew it on turn 1 (won), seat 1 never (lost).
CARDS: list[tuple[int, ...]] = [
    *[(g, 0, 0, int(g < 2), (0, 0, 2, 2, -1, -1)[g], (1, -1, 3, -1, -1, -1)[g], int(g in (0, 2)), g) for g in range(6)],
    *[(g, 1, 1, 1, 0, 2 if g in (1, 4) else -1, int(g in (1, 4)), 0) for g in range(6)],
    (0, 0, 2, 0, 1, -1, 0, 0),
    (0, 1, 2, 0, -1, -1, 0, 0),
]


def _records(games: Sequence[dict[str, Any]], cards: Sequence[tuple[int, ...]]) -> dict[str, np.ndarray]:
    """Build the four record arrays (realistic Cardinger dtypes) for ``games``."""
    n = len(games)
    g = np.zeros(n, GAME_DTYPE)
    s = np.zeros(2 * n, SEAT_DTYPE)
    turns = np.zeros(sum(len(x["path"]) for x in games), TURN_DTYPE)
    row = 0
    for i, spec in enumerate(games):
        first, winner, path = i % 2, spec["winner"], spec["path"]
        final = path[-1]
        g[i] = (
            i,
            1000 + i,
            first,
            winner,
            len(path),
            EndReason.TIMEOUT if winner < 0 else EndReason.TARGET_SCORE,
            *final,
        )
        for seat in (0, 1):
            rec = s[2 * i + seat]
            rec["game"], rec["seat"], rec["bot"] = i, seat, (i + seat) % 2
            rec["score"], rec["won"], rec["first"] = final[seat], int(winner == seat), int(first == seat)
            rec["draws"], rec["deck"] = i + seat, -1
        for t, (s0, s1) in enumerate(path, start=1):
            turns[row]["game"], turns[row]["turn"], turns[row]["seat"] = i, t, (first + t - 1) % 2
            turns[row]["score_0"], turns[row]["score_1"] = s0, s1
            row += 1
    c = np.zeros(len(cards), CARD_RECORD_DTYPE)
    for j, (game, seat, card, oh, drawn, played, times, damage) in enumerate(cards):
        won = int(games[game]["winner"] == seat)
        c[j] = (game, seat, card, won, oh, drawn, played, times, 0, 0, 0, damage, 0, 0, 0, 0, 0)
    return {"games": g, "seats": s, "cards": c, "turns": turns}


def build_run(
    root: Path,
    games: Sequence[dict[str, Any]] = GAMES,
    cards: Sequence[tuple[int, ...]] = CARDS,
    *,
    variant: str = "modern & <i>new</i>",
    tables: Sequence[str] = ("games", "seats", "cards", "turns"),
    card_dim: pl.DataFrame = CARD_DIM,
) -> Run:
    """Write ``games`` as a two-chunk run directory under ``root`` and open it."""
    root.mkdir(parents=True)
    records = _records(games, cards)
    cut = (len(games) + 1) // 2
    for chunk, (lo, hi) in enumerate([(0, cut), (cut, len(games))]):
        for table in tables:
            rec = records[table]
            part = rec[(rec["game"] >= lo) & (rec["game"] < hi)]
            kwargs: dict[str, Any] = {}
            if table == "games":
                kwargs = {
                    "enums": {"end_reason": EndReason},
                    "constants": {"run_id": root.name, "variant": variant, "chunk": chunk},
                }
            elif table == "seats":
                kwargs = {"names": {"bot": BOTS}}
            write_part(records_to_table(part, **kwargs), root / table, chunk)
    card_dim.write_parquet(root / "cards.parquet")
    manifest = {
        "run_id": root.name,
        "game": "cardinger",
        "variant": variant,
        "rules_version": "1",
        "root_seed": 42,
        "created": "2026-11-22T12:00:00Z",
        "params": {"target_score": 20, "max_turns": 200, "note": "<b>bold</b>"},
        "chunks": [{"index": 0, "status": "done"}, {"index": 1, "status": "done"}],
    }
    write_json(root / "manifest.json", manifest)
    return load_run(root)


@pytest.fixture
def make_run(tmp_path: Path) -> Callable[..., Run]:
    """Return ``build_run`` writing under a fresh temporary directory (``name`` picks the folder)."""

    def make(name: str = "run", *args: Any, **kwargs: Any) -> Run:
        return build_run(tmp_path / name, *args, **kwargs)

    return make


@pytest.fixture
def small_run(make_run: Callable[..., Run]) -> Run:
    """The hand-countable run described by ``GAMES`` and ``CARDS``."""
    return make_run("small")


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``small_run`` written once per session, for tests that only read it."""
    return build_run(tmp_path_factory.mktemp("shared") / "small")


@pytest.fixture
def game_specs() -> list[dict[str, Any]]:
    """The per-game specification of ``small_run`` (``GAMES``), for tests that vary it."""
    return [dict(g) for g in GAMES]


@pytest.fixture
def card_specs() -> list[tuple[int, ...]]:
    """The card rows of ``small_run`` (``CARDS``)."""
    return list(CARDS)


@pytest.fixture
def script_name() -> str:
    """The card name that must come out HTML-escaped."""
    return SCRIPT
