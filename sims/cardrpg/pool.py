"""Load the CardRPG deck and check parameters; every problem is one clear error."""

from __future__ import annotations

from pathlib import Path

from sims.cardrpg.params import Params
from sims.cardrpg.state import MAX_BATTLE_ROWS, MAX_BATTLES, MAX_CARDS, MAX_SESSIONS, RANKS, Kind, Suit
from sims.core import TEXT, CardDataError, CardPool, ParamError, enum_column, int_column, load_cards, row_lines

COLUMNS = {
    "suit": enum_column(Suit),
    "rank": TEXT,  # ace, 2-10, jack, queen, king, joker -> CARD_DTYPE.rank code
    "value": int_column(0, 10),
    "kind": enum_column(Kind),
}


def load_pool(path: Path | str) -> CardPool:
    """Load ``deck.csv`` (key column ``id``) into a ``CardPool``; raise ``CardDataError`` naming file:line."""
    from sims.cardrpg.state import CARD_DTYPE

    path = Path(path)
    pool = load_cards(path, CARD_DTYPE, COLUMNS, name_column="id")
    for i, (rank, line) in enumerate(zip(pool.text["rank"], row_lines(path), strict=True)):
        if rank.lower() not in RANKS:
            raise CardDataError(
                f"{path}:{line}: column 'rank': unknown rank {rank!r}; expected ace, 2-10, jack, queen, king or joker"
            )
        pool.table[i]["rank"] = RANKS[rank.lower()]
        check_card(path, line, pool.table[i])
    if len(pool) > MAX_CARDS:
        raise CardDataError(f"{path}: {len(pool)} cards; the kernel supports at most {MAX_CARDS}")
    return pool


def check_card(path: Path, line: int, card) -> None:
    """Raise ``CardDataError`` unless the card's value and kind agree with its rank (R3)."""
    rank, value, kind = int(card["rank"]), int(card["value"]), int(card["kind"])
    want_kind = Kind.ACE if rank == 1 else Kind.NUMBER if rank <= 10 else Kind.JOKER if rank == 14 else Kind.FACE
    want_value = rank if rank <= 10 else 0
    if kind != want_kind:
        raise CardDataError(f"{path}:{line}: column 'kind': {Kind(kind).name.lower()} does not fit the rank")
    if value != want_value:
        raise CardDataError(f"{path}:{line}: column 'value': {value}; the rulebook values this rank at {want_value}")


def check_params(params: Params) -> None:
    """Raise ``ParamError`` if ``params`` exceed the kernel's array bounds or make no sense."""
    limits = {
        "n_sessions": (1, MAX_SESSIONS),
        "max_battles": (1, MAX_BATTLES),
        "theft_chance_pct": (0, 100),
        "ace_diamond_buybacks": (-1, 100),
        "class_card": (0, 16 if params.class_ranks else 12),
    }
    for key, (lo, hi) in limits.items():
        value = getattr(params, key)
        if not lo <= value <= hi:
            raise ParamError(f"parameter {key!r} = {value} is outside {lo}..{hi}")
    if params.n_sessions * params.max_battles > MAX_BATTLE_ROWS:
        raise ParamError(
            f"n_sessions x max_battles = {params.n_sessions * params.max_battles} exceeds {MAX_BATTLE_ROWS}"
        )
    for key in ("death_ends_session", "affinity_includes_aces", "jokers", "class_powers", "inventory"):
        if getattr(params, key) not in (0, 1):
            raise ParamError(f"parameter {key!r} must be true or false, got {getattr(params, key)}")


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` (without Jokers when ``jokers = 0``) after checking it holds every class card."""
    check_params(params)
    if not params.jokers:
        pool = pool.subset(pool.table["kind"] != Kind.JOKER)
    ranks = (11, 12, 13, 1) if params.class_ranks else (11, 12, 13)
    have = {(int(r["suit"]), int(r["rank"])) for r in pool.table}
    missing = [(s, r) for s in range(4) for r in ranks if (s, r) not in have]
    if missing:
        raise CardDataError(f"{pool.path or 'deck'}: the deck lacks class card(s) {missing} (suit, rank)")
    return pool
