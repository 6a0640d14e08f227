"""The shared result schema: table names, core columns, the event log and trimming.

Every game declares one numpy record dtype per table (``GameSpec.tables``); each must
contain the core columns below (DESIGN.md: Results dataset). Games add their own
columns after them. ``balance.io`` derives the Parquet schema from these dtypes.
"""

import numpy as np

TABLES = ("games", "seats", "cards", "turns")

CORE_COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("game", "seed", "first_seat", "winner", "turns", "end_reason"),
    "seats": ("game", "seat", "score", "won"),
    "cards": (
        "game",
        "seat",
        "card",
        "won",
        "in_opening_hand",
        "first_drawn_turn",
        "first_played_turn",
        "times_played",
    ),
    "turns": ("game", "turn", "seat"),
}

# A one-seat game (CardRPG: one character against the deck) has no winner, no turn order
# and no deck list of its own: its outcome columns come from the game's own dtypes (the
# rulings define them), and only the keys are shared.
SOLO_CORE_COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("game", "seed", "end_reason", "turns"),
    "seats": ("game", "seat"),
    "cards": ("game", "seat", "card"),
    "turns": ("game", "turn", "seat"),
}


def core_columns(seats: int) -> dict[str, tuple[str, ...]]:
    """Return the core columns every table of a game with ``seats`` seats must carry."""
    return CORE_COLUMNS if seats > 1 else SOLO_CORE_COLUMNS


NO_WINNER = -1  # winner of a draw / timeout
NEVER = -1  # turn sentinel: never drawn / never played

# One line of a replay log: what happened, on which turn, by whom, to what.
EVENT_DTYPE = np.dtype(
    [
        ("turn", np.int16),  # global turn number (1 = first turn of the game; 0 = set-up)
        ("seat", np.int8),  # acting seat
        ("kind", np.int8),  # game-specific event enum
        ("card", np.int16),  # card id acting / moved (-1 none)
        ("target", np.int16),  # card id affected (-1 none)
        ("value", np.int16),  # amount (points, cards, HP ...)
        ("extra", np.int16),  # second amount (e.g. score after the event)
    ],
    align=True,
)


def check_core_columns(tables: dict[str, np.dtype], seats: int = 2) -> None:
    """Raise ``ValueError`` if a game's record dtypes miss a core column."""
    core = core_columns(seats)
    for table, dtype in tables.items():
        missing = [c for c in core.get(table, ()) if c not in (dtype.names or ())]
        if missing:
            raise ValueError(f"table {table!r} lacks core column(s) {missing}")


def empty_records(dtype: np.dtype, capacity: int) -> np.ndarray:
    """Return a zeroed record array of ``capacity`` rows (the kernel fills a prefix)."""
    return np.zeros(capacity, dtype=dtype)


NO_REPORT = np.zeros(0, np.int64)  # the audit report passed by a call that does not audit


def no_rows(*dtypes: np.dtype) -> tuple[np.ndarray, ...]:
    """Return one empty record array per dtype: the table buffers of a call that records none (audit, replay)."""
    return tuple(np.zeros(0, dtype) for dtype in dtypes)
