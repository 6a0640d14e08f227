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
)
from sims.core import TEXT, CardDataError, CardPool, ParamError, flags_column, int_column, load_cards, row_lines

NOTES_FILE = "inference_notes.csv"  # read next to the card file, if present

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
}


def _confidence(path: Path) -> dict[str, str]:
    """Return each card's inference confidence from ``path`` (inference_notes.csv), by name."""
    rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    if rows and not {"name", "confidence"} <= set(rows[0]):
        raise CardDataError(f"{path}:1: missing column(s) name, confidence")
    return {r["name"].strip(): (r["confidence"] or "").strip() for r in rows}


def load_pool(path: Path | str) -> CardPool:
    """Load ``cards.csv`` into a ``CardPool`` (CARD_DTYPE); raise ``CardDataError`` naming file:line."""
    path = Path(path)
    pool = load_cards(path, CARD_DTYPE, COLUMNS)
    sets = {m.name.lower(): int(m) for m in CardSet}
    for i, (value, line) in enumerate(zip(pool.text["set"], row_lines(path), strict=True)):
        key = value.replace(" ", "").lower()
        if key not in sets:
            raise CardDataError(f"{path}:{line}: column 'set': unknown set {value!r}; expected Starter or Booster 1-3")
        pool.table[i]["set"] = sets[key]
    notes = path.with_name(NOTES_FILE)
    confidence = _confidence(notes) if notes.exists() else {}
    pool.table["placeholder"] = ["placeholder" in confidence.get(name, "").lower() for name in pool.names]
    # R1: per-card figures are shown with the row's provenance; "page" rows are certain
    shown = tuple(
        "certain" if src == "page" else confidence.get(name, "unknown")
        for name, src in zip(pool.names, pool.text["source"], strict=True)
    )
    return replace(pool, text={**pool.text, "confidence": shown})


def deck_room(pool: CardPool, params: Params) -> int:
    """Return how many cards the deck builder may draw from (R2)."""
    if params.deck_builder == DeckBuilder.RECOMMENDED_RANDOM:
        return int(np.count_nonzero(pool.table["cost"] != params.builder_excluded_cost))
    return len(pool)


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
    }
    for key, (lo, hi) in limits.items():
        value = getattr(params, key)
        if not lo <= value <= hi:
            raise ParamError(f"parameter {key!r} = {value} is outside {lo}..{hi}")


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` restricted to ``card_sets`` without placeholders (unless included), checked (R1, R2)."""
    check_params(params)
    keep = (pool.table["set"] & params.card_sets) != 0
    if not params.include_placeholders:
        keep &= pool.table["placeholder"] == 0
    chosen = pool.subset(keep)
    if len(chosen) > MAX_CARDS:
        raise CardDataError(f"{pool.path or 'card pool'}: {len(chosen)} cards; the kernel supports at most {MAX_CARDS}")
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
