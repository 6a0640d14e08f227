"""Load the Blessings & Curses card table and check parameters; every problem is one clear error."""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
    ValueBaseline,
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
    for key in ("open_hands", "midbattle_reshuffle", "blessing_before_curses", "value_swap"):
        if getattr(params, key) not in (0, 1):
            raise ParamError(f"parameter {key!r} must be true or false, got {getattr(params, key)}")
    if params.value_baseline not in set(ValueBaseline):
        raise ParamError(f"parameter 'value_baseline' = {params.value_baseline} is not a ValueBaseline code")


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` checked for ``params``; for a value run (``value_card`` >= 0) with the baseline row appended."""
    check_params(params)
    need = 2 if params.deck_mode == DeckMode.SPLIT_ONE_DECK else 1
    where = pool.path or "card pool"
    if len(pool) < 5 * need:
        raise CardDataError(f"{where}: {len(pool)} cards; a game needs at least {5 * need}")
    if params.value_card < 0:
        return pool
    if params.value_card >= len(pool):
        raise ParamError(f"parameter 'value_card' = {params.value_card}: {where} has cards 0..{len(pool) - 1}")
    if len(pool) + 1 > MAX_CARDS:
        raise CardDataError(f"{where}: {len(pool)} cards; a value run needs room for a baseline row (max {MAX_CARDS})")
    return with_baseline(pool, params.value_card, ValueBaseline(params.value_baseline))


VALUE_BASELINES = {  # GameSpec.value_baselines: name -> description; the first is the default
    "blank": "a blank card of the same type: Attack 0, Impact 0, not a face (adds nothing to any action)",
    "next_suit": "the same rank in the next suit of the table (heart > diamond > spade > club > heart), as a copy",
}


def with_baseline(pool: CardPool, card: int, baseline: ValueBaseline) -> CardPool:
    """Return ``pool`` with one row appended: the card that replaces ``card`` in a value run's arm 1.

    It is a row of its own (id ``len(pool)``), so the holder never owns two cards of one id.
    """
    row, src = pool.table[card].copy(), card
    if baseline == ValueBaseline.BLANK:
        row["attack"] = row["impact"] = row["face"] = 0
        name = f"blank {CardType(int(row['type'])).name.lower()} (baseline for {pool.names[card]})"
    else:
        suit = (int(row["suit"]) + 1) % len(Suit)
        match = [c for c in range(len(pool)) if pool.table[c]["suit"] == suit and pool.table[c]["rank"] == row["rank"]]
        if not match:
            raise CardDataError(
                f"{pool.path or 'card pool'}: no {Suit(suit).name.lower()} card of the rank of {pool.names[card]} "
                "for the next_suit baseline"
            )
        src = match[0]
        row = pool.table[src].copy()
        name = f"{pool.names[src]} (baseline for {pool.names[card]})"
    return CardPool(
        table=np.concatenate([pool.table, row[np.newaxis]]),
        names=(*pool.names, name),
        text={k: (*v, v[src]) for k, v in pool.text.items()},
        path=pool.path,
    )
