"""Load and filter the Cardinger card pool (R1, R2); every problem is a ``CardDataError``."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import numpy as np

from sims.cardinger.params import Params
from sims.cardinger.state import (
    CARD_DTYPE,
    MAX_CARDS,
    MAX_DECK,
    MAX_FIELD,
    MAX_TURNS,
    CardSet,
    DeckBuilder,
    DeckSource,
    Keyword,
    ValueBaseline,
)
from sims.core import (
    TEXT,
    CardDataError,
    CardPool,
    ParamError,
    bool_column,
    flags_column,
    int_column,
    load_cards,
    row_lines,
)

COLUMNS = {
    "set": TEXT,  # mapped to CardSet below ("Booster 1" -> BOOSTER1)
    "cost": int_column(0, 8),
    "hp": int_column(1, 9),
    "atk": int_column(0, 9),
    "def": int_column(0, 9, field="def_"),
    "draw": int_column(0, 9),
    "score": int_column(0, 9),
    "keywords": flags_column(Keyword),
    "source": TEXT,
    "placeholder": bool_column(),  # yes = numbers guessed (R1); decides the pool, so it lives in the card file
}
OPTIONAL = {"confidence": TEXT}  # how sure the split is (DATA.md); "unknown" when the column is absent
BLANK_HP = 1  # the value baseline's blank card: the fewest hearts a printed card has


def _header(path: Path) -> list[str]:
    """Return the column names of the CSV at ``path`` (empty if unreadable; ``load_cards`` reports that)."""
    try:
        first = path.read_text(encoding="utf-8-sig").splitlines()[:1]
    except (OSError, UnicodeDecodeError):
        return []
    return [h.strip() for h in next(csv.reader(first), [])]


def load_pool(path: Path | str) -> CardPool:
    """Load ``cards.csv`` into a ``CardPool`` (CARD_DTYPE); raise ``CardDataError`` naming file:line.

    Everything that decides what a card is comes from this one file (issue 14): a copy of it
    loads the same pool wherever it is, whatever files sit beside it.
    """
    path = Path(path)
    optional = {k: v for k, v in OPTIONAL.items() if k in _header(path)}
    pool = load_cards(path, CARD_DTYPE, {**COLUMNS, **optional})
    sets = {m.name.lower(): int(m) for m in CardSet}
    for i, (value, line) in enumerate(zip(pool.text["set"], row_lines(path), strict=True)):
        key = value.replace(" ", "").lower()
        if key not in sets:
            raise CardDataError(f"{path}:{line}: column 'set': unknown set {value!r}; expected Starter or Booster 1-3")
        pool.table[i]["set"] = sets[key]
    confidence = pool.text.get("confidence", ("",) * len(pool))
    # R1: per-card figures are shown with the row's provenance; "page" rows are certain
    shown = tuple(
        "certain" if src == "page" else (conf or "unknown")
        for src, conf in zip(pool.text["source"], confidence, strict=True)
    )
    return replace(pool, text={**pool.text, "confidence": shown})


def deck_room(pool: CardPool, params: Params) -> int:
    """Return how many cards the deck builder may draw from (R2)."""
    printed = pool.table["set"] != 0  # not the value baseline's blank row
    if params.deck_builder == DeckBuilder.RECOMMENDED_RANDOM:
        return int(np.count_nonzero(printed & (pool.table["cost"] != params.builder_excluded_cost)))
    return int(np.count_nonzero(printed))


def check_params(params: Params) -> None:
    """Raise ``ParamError`` if ``params`` exceed the kernel's array bounds or make no sense."""
    limits = {
        "deck_size": (1, MAX_DECK),
        "opening_hand": (0, params.deck_size),
        "hand_limit": (1, MAX_DECK),
        "field_limit": (1, MAX_FIELD),
        "max_turns": (1, MAX_TURNS),
        "prosperity_step": (1, 99),
        "target_score": (1, 32000),
        "value_card": (-1, MAX_CARDS - 1),
        "value_swap": (0, 1),
        "value_baseline": (0, max(ValueBaseline)),
    }
    for key, (lo, hi) in limits.items():
        value = getattr(params, key)
        if not lo <= value <= hi:
            raise ParamError(f"parameter {key!r} = {value} is outside {lo}..{hi}")


def by_name(pool: CardPool) -> CardPool:
    """Return ``pool`` with its rows in name order (card id = rank of the name).

    The deck builder lays its piles out in card-id order and draws positions in them, so
    with ids in name order a seed's decks depend only on which names (and costs, R2) the
    pool holds: editing a card's stats, or moving its row, leaves every deck the same
    (issue 14).
    """
    order = sorted(range(len(pool)), key=lambda i: pool.names[i])
    return CardPool(
        table=pool.table[order].copy(),
        names=tuple(pool.names[i] for i in order),
        text={k: tuple(v[i] for i in order) for k, v in pool.text.items()},
        path=pool.path,
    )


def with_blank(pool: CardPool, cost: int) -> CardPool:
    """Return ``pool`` plus the value baseline's blank card last: ``cost``, 1 HP, no stats, in no set (RULES.md §10)."""
    blank = np.zeros(1, dtype=pool.table.dtype)
    blank[0]["cost"], blank[0]["hp"] = cost, BLANK_HP
    names = set(pool.names)
    name = next(n for k in range(1, 99) if (n := f"(blank{f' {k}' if k > 1 else ''}, cost {cost})") not in names)
    shown = {"source": "baseline", "confidence": "certain"}
    text = {k: (*v, shown.get(k, "")) for k, v in pool.text.items()}
    return CardPool(np.concatenate([pool.table, blank]), (*pool.names, name), text, pool.path)


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` restricted to ``card_sets`` without placeholders (unless included), in name order, checked.

    R1, R2; with ``value_card >= 0`` (``balance value``) the blank baseline card of the
    card's cost is appended as the last row.
    """
    check_params(params)
    keep = (pool.table["set"] & params.card_sets) != 0
    if not params.include_placeholders:
        keep &= pool.table["placeholder"] == 0
    chosen = by_name(pool.subset(keep))
    if len(chosen) + (params.value_card >= 0) > MAX_CARDS:
        raise CardDataError(f"{pool.path or 'card pool'}: {len(chosen)} cards; the kernel supports at most {MAX_CARDS}")
    if params.value_card >= len(chosen):
        raise ParamError(f"parameter 'value_card' = {params.value_card}: the prepared pool has {len(chosen)} cards")
    if params.value_card >= 0:
        chosen = with_blank(chosen, int(chosen.table[params.value_card]["cost"]))
    if params.deck_builder == DeckBuilder.FIXED:
        return chosen
    need = params.deck_size * (2 if params.deck_source == DeckSource.SHARED_SET else 1)
    room = deck_room(chosen, params)
    if room < need:
        where = pool.path or "card pool"
        raise CardDataError(
            f"{where}: the filtered pool has {room} cards the deck builder may use, but {need} are needed "
            f"(deck_size {params.deck_size}{', two decks from one shared set' if need > params.deck_size else ''})"
        )
    return chosen
