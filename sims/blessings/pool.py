"""Load the Blessings & Curses card table and check parameters; every problem is one clear error."""

from __future__ import annotations

from pathlib import Path

from sims.blessings.params import Params
from sims.blessings.state import (
    CARD_DTYPE,
    MAX_BATTLES,
    MAX_CARDS,
    MAX_TURNS_PER_BATTLE,
    RANKS,
    CardType,
    DeckMode,
    Suit,
)
from sims.core import (
    TEXT,
    CardDataError,
    CardPool,
    ParamError,
    bool_column,
    enum_column,
    int_column,
    load_cards,
    row_lines,
)

COLUMNS = {
    "suit": enum_column(Suit),
    "rank": TEXT,  # jack, queen, king, ace or 2-10 -> CARD_DTYPE.rank code below
    "attack": int_column(0, 99),
    "impact": int_column(0, 99),
    "type": enum_column(CardType),
    "face": bool_column(),
}


def load_pool(path: Path | str) -> CardPool:
    """Load ``cards.csv`` (key column ``id``) into a ``CardPool``; raise ``CardDataError`` naming file:line."""
    path = Path(path)
    pool = load_cards(path, CARD_DTYPE, COLUMNS, name_column="id")
    for i, (rank, line) in enumerate(zip(pool.text["rank"], row_lines(path), strict=True)):
        if rank.lower() not in RANKS:
            raise CardDataError(
                f"{path}:{line}: column 'rank': unknown rank {rank!r}; expected jack, queen, king, ace or 2-10"
            )
        pool.table[i]["rank"] = RANKS[rank.lower()]
    if len(pool) > MAX_CARDS:
        raise CardDataError(f"{path}: {len(pool)} cards; the kernel supports at most {MAX_CARDS}")
    return pool


def check_params(params: Params) -> None:
    """Raise ``ParamError`` if ``params`` exceed the kernel's array bounds or make no sense."""
    limits = {
        "card_health": (1, 1_000_000),
        "turn_draw": (0, MAX_CARDS),
        "face_bonus": (0, 99),
        "max_turns_per_battle": (1, MAX_TURNS_PER_BATTLE),
        "max_battles": (1, MAX_BATTLES),
    }
    for key, (lo, hi) in limits.items():
        value = getattr(params, key)
        if not lo <= value <= hi:
            raise ParamError(f"parameter {key!r} = {value} is outside {lo}..{hi}")
    for key in ("open_hands", "midbattle_reshuffle", "blessing_before_curses"):
        if getattr(params, key) not in (0, 1):
            raise ParamError(f"parameter {key!r} must be true or false, got {getattr(params, key)}")


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` unchanged after checking it can be played under ``params``."""
    check_params(params)
    need = 2 if params.deck_mode == DeckMode.SPLIT_ONE_DECK else 1
    if len(pool) < 5 * need:
        raise CardDataError(f"{pool.path or 'card pool'}: {len(pool)} cards; a game needs at least {5 * need}")
    return pool
