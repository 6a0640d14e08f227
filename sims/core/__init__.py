"""The small public core shared by every game.

Index letters: ``g`` game, ``p`` player/seat, ``c`` card id, ``t`` turn, ``z`` zone/pile.

Importing it does not import Numba: ``kernel`` (``sims.core.jit``) is imported when first
asked for, so that game metadata (``GameInfo``, card pools, variants) and the reports that
read it load no compiler.
"""

from typing import Any

from sims.core.cards import (
    TEXT,
    CardDataError,
    CardPool,
    Column,
    DeckRules,
    bool_column,
    enum_column,
    flags_column,
    int_column,
    load_cards,
    load_decks,
    row_lines,
)
from sims.core.records import CORE_COLUMNS, EVENT_DTYPE, NEVER, NO_WINNER, SOLO_CORE_COLUMNS, TABLES, core_columns
from sims.core.scenario import Outcome, ScenarioError
from sims.core.spec import GameInfo, GameSpec, ParamError, Variant

__all__ = [
    "CORE_COLUMNS",
    "EVENT_DTYPE",
    "NEVER",
    "NO_WINNER",
    "SOLO_CORE_COLUMNS",
    "TABLES",
    "TEXT",
    "CardDataError",
    "CardPool",
    "Column",
    "DeckRules",
    "GameInfo",
    "GameSpec",
    "Outcome",
    "ParamError",
    "ScenarioError",
    "Variant",
    "bool_column",
    "core_columns",
    "enum_column",
    "flags_column",
    "int_column",
    "kernel",
    "load_cards",
    "load_decks",
    "row_lines",
]


def __getattr__(name: str) -> Any:
    """Import ``kernel`` (and with it Numba) on first use."""
    if name != "kernel":
        raise AttributeError(f"module 'sims.core' has no attribute {name!r}")
    from sims.core.jit import kernel

    return kernel
