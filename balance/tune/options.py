"""What a ``balance tune`` run is asked (options) and what it returns (result)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

OBJECTIVES = ("cards", "first_seat", "gradient")
DEFAULT_BAND = {"cards": 0.02, "first_seat": 0.01, "gradient": 0.05}


@dataclass(frozen=True)
class TuneOptions:
    """Sizes, seeds and limits of a tune run."""

    band: float | None = None  # None: DEFAULT_BAND of the objective
    search_games: int = 20_000  # games (pairs for ``cards``) per candidate on the search seed
    verify_games: int = 40_000  # games (pairs) per arm on the verify seed
    seed: int = 1
    verify_seed: int = 0  # 0: seed + 1_000_003 (fresh seeds, never those of the search)
    workers: int = 0
    batch: int = 5_000
    max_proposals: int = 3  # proposals verified (first_seat, gradient); cards edited (cards)
    params: tuple[str, ...] = ()  # rule parameters the search may edit; empty = every eligible one
    value_half_width: float = 0.01  # cards: the half-width every card's Δ is first measured to
    outcome: str = ""  # gradient of a one-seat game: the games column compared [default kills, else the first]

    def fresh_seed(self) -> int:
        """Return the verification seed."""
        return self.verify_seed or self.seed + 1_000_003


# -- per-game measures played in workers ------------------------------------------------------


@dataclass
class TuneResult:
    """What ``tune`` found: searched candidates, verified proposals, a summary, the proposed card file."""

    search: pl.DataFrame
    verified: pl.DataFrame
    summary: dict[str, Any]
    proposed_file: Path | None = None
    extra: dict[str, pl.DataFrame] = field(default_factory=dict)
