"""Load the Cardia card table and check parameters; every problem is one clear error.

``cards.csv`` (both decks, 32 rows) is read with its printed columns. A card's rule is
found by its name (``state.Ability``: "Hired Blade" -> HIRED_BLADE), so a designer may
change its influence, faction or deck and the rule follows the name; the ``ability_type``
column must agree with the rule's type (a Judge cannot be made instant by editing it).
``prepare_pool`` appends the baseline row a value run needs (``value_baseline = blank``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from sims.cardia.params import Params
from sims.cardia.state import (
    CARD_DTYPE,
    MAX_CARDS,
    MAX_DECK,
    MAX_MATCH_GAMES,
    MAX_ROUNDS,
    ONGOING_ABILITIES,
    Ability,
    AbilityType,
    Deck,
    DeckChoice,
    Faction,
    Location,
    ValueBaseline,
)
from sims.core import TEXT, CardDataError, CardPool, Column, ParamError, enum_column, int_column, load_cards, row_lines

COLUMNS = {
    "deck": enum_column(Deck),
    "influence": int_column(-20, 99),
    "faction": enum_column(Faction),
    "ability_type": Column("enum", enum=AbilityType, field="ongoing"),
    "ability": TEXT,
    "status": TEXT,
}


def rule_of(name: str) -> Ability | None:
    """Return the Ability a card name carries ("Hired Blade" -> HIRED_BLADE), or None."""
    key = name.strip().upper().replace(" ", "_").replace("'", "").replace("-", "_")
    return Ability.__members__.get(key)


def load_pool(path: Path | str) -> CardPool:
    """Load ``cards.csv`` into a ``CardPool``; raise ``CardDataError`` naming file:line."""
    path = Path(path)
    pool = load_cards(path, CARD_DTYPE, COLUMNS)
    lines = row_lines(path)
    for i, name in enumerate(pool.names):
        rule = rule_of(name)
        if rule is None or rule == Ability.NONE:
            known = ", ".join(m.name.replace("_", " ").title() for m in Ability if m != Ability.NONE)
            raise CardDataError(f"{path}:{lines[i]}: column 'name': no rule for card {name!r}; known: {known}")
        ongoing = rule in ONGOING_ABILITIES
        if bool(pool.table[i]["ongoing"]) != ongoing:
            kind = "ongoing" if ongoing else "instant"
            raise CardDataError(f"{path}:{lines[i]}: column 'ability_type': {name}'s rule is {kind} in the simulator")
        pool.table[i]["effect"] = int(rule)
    for deck in Deck:
        n = int(np.count_nonzero(pool.table["deck"] == deck))
        if n > MAX_DECK:
            raise CardDataError(f"{path}: deck {deck.name} has {n} cards; the kernel supports at most {MAX_DECK}")
    if len(pool) >= MAX_CARDS:
        raise CardDataError(f"{path}: {len(pool)} cards; the kernel supports at most {MAX_CARDS - 1}")
    return pool


def check_params(params: Params) -> None:
    """Raise ``ParamError`` if ``params`` exceed the kernel's array bounds or make no sense."""
    limits = {
        "max_rounds": (1, MAX_ROUNDS),
        "match_games_cap": (1, MAX_MATCH_GAMES),
        "win_signets": (1, 99),
        "opening_hand": (0, MAX_DECK),
        "library_opening_hand": (0, MAX_DECK),
        "round_draw": (0, MAX_DECK),
        "library_draw": (0, MAX_DECK),
        "scrapyard_draw": (2, MAX_DECK),
        "bazaar_threshold": (0, MAX_DECK),
        "bazaar_refill": (0, MAX_DECK),
        "founders_run": (1, MAX_ROUNDS),
        "faction_decks": (0, 15),
    }
    for key, (lo, hi) in limits.items():
        value = getattr(params, key)
        if not lo <= value <= hi:
            raise ParamError(f"parameter {key!r} = {value} is outside {lo}..{hi}")
    for key in ("value_swap", "serpent_current", "serpent_per_change"):
        if getattr(params, key) not in (0, 1):
            raise ParamError(f"parameter {key!r} must be 0 or 1, got {getattr(params, key)}")


def in_decks(pool: CardPool, params: Params, c: int) -> bool:
    """Return True if card ``c`` is in the decks ``params`` deal (R2)."""
    deck, faction = int(pool.table[c]["deck"]), int(pool.table[c]["faction"])
    if params.deck == DeckChoice.MIXED:
        return deck == (Deck.II if params.faction_decks & (1 << faction) else Deck.I)
    return deck == params.deck


def with_baseline(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` with the value run's baseline row appended (blank: the card under test without ability)."""
    c = params.value_card
    if not 0 <= c < len(pool):
        raise ParamError(f"parameter 'value_card' = {c}: the pool has cards 0..{len(pool) - 1}")
    name = pool.names[c]
    if params.deck == DeckChoice.SWEEP:
        raise ParamError("parameter 'value_card' needs one deck; deck = sweep deals different decks by game")
    if not in_decks(pool, params, c):
        raise ParamError(
            f"parameter 'value_card': {name} (deck {Deck(pool.table[c]['deck']).name}) is not in the decks"
        )
    if params.value_baseline == ValueBaseline.COUNTERPART:
        same = (pool.table["influence"] == pool.table[c]["influence"]) & (pool.table["deck"] != pool.table[c]["deck"])
        if not same.any():
            raise ParamError(f"parameter 'value_baseline' = counterpart: {name} has no card of equal influence")
        return pool
    row = pool.table[c : c + 1].copy()
    row["effect"], row["ongoing"], row["baseline"] = int(Ability.NONE), 0, 1
    text = {k: (*v, f"(no ability: baseline for {name})") for k, v in pool.text.items()}
    return replace(pool, table=np.concatenate([pool.table, row]), names=(*pool.names, f"{name} (blank)"), text=text)


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` checked for ``params``, with a baseline row when a value run needs one."""
    check_params(params)
    if params.location > Location.SWEEP or params.deck > DeckChoice.SWEEP:
        raise ParamError("parameters 'deck' / 'location' hold unknown codes")
    for deck in (Deck.I, Deck.II):
        if params.deck in (deck, DeckChoice.MIXED, DeckChoice.SWEEP) and not (pool.table["deck"] == deck).any():
            raise CardDataError(f"{pool.path or 'card pool'}: no card of deck {deck.name}")
    if params.value_card >= 0:
        return with_baseline(pool, params)
    return pool
