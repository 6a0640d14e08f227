"""The small public core shared by every game.

Index letters: ``g`` game, ``p`` player/seat, ``c`` card id, ``t`` turn, ``z`` zone/pile.
"""

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
from sims.core.jit import kernel
from sims.core.records import CORE_COLUMNS, EVENT_DTYPE, NEVER, NO_WINNER, SOLO_CORE_COLUMNS, TABLES, core_columns
from sims.core.scenario import Outcome, ScenarioError
from sims.core.spec import GameSpec, ParamError, Variant

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
