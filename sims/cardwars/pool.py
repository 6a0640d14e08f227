"""Load the Card Wars pool (cards.csv + abilities.csv) and prepare it for a run; errors name file:line.

``cards.csv`` has one row per deck and card; a card found in several decks is one card id
whose rows must agree on everything but ``deck``, ``copies`` and ``status`` (DATA.md).
``abilities.csv`` encodes each card's text as rows (RULES.md §3); ``encode_abilities``
writes them into the hidden fields of ``CARD_DTYPE``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from sims.cardwars.params import Params
from sims.cardwars.state import (
    CARD_DTYPE,
    MAX_CARDS,
    MAX_DECK,
    MAX_TURNS,
    SHOWN_FIELDS,
    TRIGGER_PARTS,
    AuraTo,
    CardType,
    Cost,
    Count,
    DeckBuilder,
    DeckChoice,
    Effect,
    Landscape,
    Mode,
    Part,
    Special,
    StarterDeck,
    Stat,
    Target,
    ValueBaseline,
)
from sims.core import CardDataError, CardPool, ParamError
from sims.core.cards import csv_header, csv_rows

ABILITIES = "abilities.csv"  # read next to the card file, else the game's own (RULES.md §3)
DECK_FIELDS = {d: f"in_{d.name.lower()}" for d in StarterDeck}
SHARED = ("type", "landscape", "cost", "atk", "def", "floop", "ability")  # must agree across a card's deck rows
VANILLA = {0: (1, 5), 1: (2, 7), 2: (3, 9)}  # cost -> ATK/DEF of the decks' vanilla Creatures (Evil Eye, Phyllis, ...)


def _rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """Return ``(line, row)`` for each non-blank row of a CSV; check the cell counts."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{path}: cannot read ({exc})") from None
    header = csv_header(text)
    out = []
    for line, raw in csv_rows(text):  # rows end only at \n / \r\n, as the other games' loaders read them
        if len(raw) != len(header):
            raise CardDataError(f"{path}:{line}: expected {len(header)} cells, found {len(raw)}")
        out.append((line, {h: v.strip() for h, v in zip(header, raw, strict=True)}))
    return [(0, dict.fromkeys(header, "")), *out]  # row 0 carries the header


def _need(path: Path, header: dict[str, str], columns: tuple[str, ...]) -> None:
    missing = [c for c in columns if c not in header]
    if missing:
        raise CardDataError(f"{path}:1: missing column(s) {', '.join(missing)}")


def _int(value: str, where: str, lo: int, hi: int, default: int | None = None) -> int:
    if value == "" and default is not None:
        return default
    digits = value[1:] if value[:1] in "+-" else value
    if not (digits.isascii() and digits.isdigit()):  # int() would also take "١" or "1_0"
        raise CardDataError(f"{where}: {value!r} is not a whole number")
    number = int(value)
    if not lo <= number <= hi:
        raise CardDataError(f"{where}: {number} is outside {lo}..{hi}")
    return number


def _member(enum_type, value: str, where: str, default: int | None = None) -> int:
    """Return the code of ``value`` (a member name, any case; spaces count as underscores)."""
    key = value.strip().replace(" ", "_").upper()
    if key == "" and default is not None:
        return default
    if key not in enum_type.__members__:
        known = ", ".join(m.lower() for m in enum_type.__members__)
        raise CardDataError(f"{where}: unknown value {value!r}; expected one of {known}")
    return int(enum_type[key])


def load_pool(path: Path | str) -> CardPool:
    """Load ``cards.csv`` and the ``abilities.csv`` beside it (else the game's own) into a ``CardPool``.

    Raises ``CardDataError`` naming file, line and column.
    """
    path = Path(path)
    rows = _rows(path)
    _need(path, rows[0][1], ("deck", "name", "type", "landscape", "cost", "atk", "def", "copies", "floop", "ability"))
    first: dict[str, tuple[int, dict[str, str]]] = {}
    copies: dict[str, dict[int, int]] = {}
    for line, row in rows[1:]:
        where = f"{path}:{line}"
        deck = _member(StarterDeck, row["deck"], f"{where}: column 'deck'")
        name = row["name"]
        if not name:
            raise CardDataError(f"{where}: column 'name': empty card name")
        if name in first:
            for col in SHARED:
                if row[col] != first[name][1][col]:
                    raise CardDataError(
                        f"{where}: column {col!r}: {name!r} is {row[col]!r} here but {first[name][1][col]!r} "
                        f"in its row at {path}:{first[name][0]}: (a card's rows must agree)"
                    )
            if deck in copies[name]:
                raise CardDataError(f"{where}: column 'deck': duplicate {name!r}, listed twice in deck {row['deck']!r}")
        else:
            first[name] = (line, row)
            copies[name] = {}
        copies[name][deck] = _int(row["copies"], f"{where}: column 'copies'", 1, 3)
    names = tuple(first)
    if len(names) > MAX_CARDS - 1:
        raise CardDataError(f"{path}: {len(names)} cards; the kernel supports at most {MAX_CARDS - 1}")
    table = np.zeros(len(names), dtype=CARD_DTYPE)
    for c, name in enumerate(names):
        line, row = first[name]
        _card_row(table[c], row, f"{path}:{line}")
        for deck, n in copies[name].items():
            table[c][DECK_FIELDS[StarterDeck(deck)]] = n
    for deck, field in DECK_FIELDS.items():
        total = int(table[field].sum())
        if total < 40:
            raise CardDataError(f"{path}: deck {deck.name.lower()!r} has {total} cards; a deck needs at least 40 (R1)")
        if total > MAX_DECK:
            raise CardDataError(f"{path}: deck {deck.name.lower()!r} has {total} cards; the kernel supports {MAX_DECK}")
    beside = path.with_name(ABILITIES)
    encode_abilities(table, names, beside if beside.exists() else Path(__file__).with_name(ABILITIES))
    return CardPool(table=table, names=names, text={}, path=path, shown=SHOWN_FIELDS)


def _card_row(rec, row: dict[str, str], where: str) -> None:
    """Fill the printed fields of one card record from its cards.csv row."""
    rec["type"] = _member(CardType, row["type"], f"{where}: column 'type'")
    land = _member(Landscape, row["landscape"], f"{where}: column 'landscape'")
    if land == Landscape.ANY:
        raise CardDataError(f"{where}: column 'landscape': 'any' is not a card Landscape")
    rec["land"] = land
    rec["cost"] = _int(row["cost"], f"{where}: column 'cost'", 0, 9)
    creature = rec["type"] == CardType.CREATURE
    for col, field in (("atk", "atk"), ("def", "def_")):
        if creature:
            rec[field] = _int(row[col], f"{where}: column {col!r}", 0, 99)
        elif row[col]:
            raise CardDataError(f"{where}: column {col!r}: only Creatures have {col.upper()}")
    flag = row["floop"].lower()
    if flag not in ("yes", "no", ""):
        raise CardDataError(f"{where}: column 'floop': {row['floop']!r} is not yes or no")
    rec["floop"] = flag == "yes"


def encode_abilities(table: np.ndarray, names: tuple[str, ...], path: Path) -> None:
    """Write the rows of ``abilities.csv`` into the hidden fields of ``table`` in place (RULES.md §3)."""
    rows = _rows(path)
    _need(path, rows[0][1], ("name", "part", "effect", "target", "amount", "count", "land", "n", "mode"))
    index = {n: i for i, n in enumerate(names)}
    seen: dict[int, list[int]] = {}
    for line, row in rows[1:]:
        where = f"{path}:{line}"
        if row["name"] not in index:
            raise CardDataError(f"{where}: column 'name': {row['name']!r} is not a card of cards.csv")
        c = index[row["name"]]
        part = _member(Part, row["part"], f"{where}: column 'part'")
        seen.setdefault(c, []).append(part)
        _encode_row(table[c], part, row, where, seen[c])
    missing = [n for i, n in enumerate(names) if i not in seen]
    if missing:
        raise CardDataError(f"{path}: no row for {missing[0]!r} (every card needs one; 'none' for no ability)")
    for c, name in enumerate(names):
        rec = table[c]
        floops = rec["trigger"] == Part.FLOOP
        if bool(rec["floop"]) != floops:
            raise CardDataError(f"{path}: {name!r}: cards.csv says floop={bool(rec['floop'])} but its rows disagree")
        if (rec["type"] == CardType.SPELL) != (rec["trigger"] == Part.SPELL):
            raise CardDataError(f"{path}: {name!r}: a Spell needs a 'spell' row, and only a Spell may have one")


def _encode_row(rec, part: int, row: dict[str, str], where: str, parts: list[int]) -> None:
    """Encode one abilities.csv row into card record ``rec`` (``parts``: this card's rows so far)."""
    amount = _int(row["amount"], f"{where}: column 'amount'", -99, 99, 0)
    count = _member(Count, row["count"], f"{where}: column 'count'", Count.ONE)
    land = _member(Landscape, row["land"], f"{where}: column 'land'", Landscape.ANY)
    n = _int(row["n"], f"{where}: column 'n'", 0, 99, 1)
    mode = _member(Mode, row["mode"], f"{where}: column 'mode'", Mode.PER)
    if mode == Mode.PER and n < 1:
        raise CardDataError(f"{where}: column 'n': 'per' needs n >= 1")
    quad = {"amount": amount, "count": count, "land": land, "n": n, "mode": mode}

    def put(prefix: str) -> None:
        for key, value in quad.items():
            rec[f"{prefix}_{key}"] = value

    def once(what: str, limit: int = 1) -> None:
        if parts.count(part) > limit:
            raise CardDataError(f"{where}: column 'part': more than {limit} {what} row(s) for this card")

    if part == Part.NONE:
        if len(parts) > 1:
            raise CardDataError(f"{where}: column 'part': 'none' must be a card's only row")
    elif part == Part.STAT:
        once("stat", 2)
        slot = "s1" if parts.count(part) == 1 else "s2"
        rec[f"{slot}_stat"] = _member(Stat, row["effect"], f"{where}: column 'effect'")
        put(slot)
    elif part == Part.AURA:
        once("aura")
        rec["au_stat"] = _member(Stat, row["effect"], f"{where}: column 'effect'")
        rec["au_amount"], rec["au_land"] = amount, land
        rec["au_to"] = _member(AuraTo, row["target"], f"{where}: column 'target'")
    elif part == Part.SPECIAL:
        once("special")
        rec["special"] = _member(Special, row["effect"], f"{where}: column 'effect'")
        rec["sp_land"] = land
    elif part == Part.PLAY_IF:
        once("play_if")
        rec["pf_on"] = 1
        put("pf")
    elif part == Part.DISCOUNT:
        once("discount")
        rec["dc_on"] = 1
        put("dc")
    elif part == Part.COST:
        once("cost", 2)
        cost = _member(Cost, row["effect"], f"{where}: column 'effect'")
        if cost == Cost.ACTIONS:
            rec["act_cost"] = _int(row["amount"], f"{where}: column 'amount'", 1, 9)
        else:
            rec["xcost"] = cost
    else:
        _encode_trigger(rec, part, row, where, parts, put, land)


def _encode_trigger(rec, part: int, row: dict[str, str], where: str, parts: list[int], put: Callable, land: int):
    """Encode a trigger row (enters, floop, spell ...) into the next free effect slot of ``rec``."""
    assert part in TRIGGER_PARTS
    if rec["trigger"] not in (Part.NONE, part):
        raise CardDataError(
            f"{where}: column 'part': a card has one trigger; it already has {Part(rec['trigger']).name}"
        )
    slot = "e1" if rec["e1_effect"] == Effect.NONE else "e2"
    if slot == "e2" and rec["e2_effect"] != Effect.NONE:
        raise CardDataError(f"{where}: column 'part': at most two effect rows per card")
    rec["trigger"] = part
    if part in (Part.ALLY_ENTERS, Part.ANY_ENTERS):
        rec["tland"] = land
    rec[f"{slot}_effect"] = _member(Effect, row["effect"], f"{where}: column 'effect'")
    rec[f"{slot}_target"] = _member(Target, row["target"], f"{where}: column 'target'", Target.NONE)
    if rec[f"{slot}_effect"] == Effect.NONE:
        raise CardDataError(f"{where}: column 'effect': a {Part(part).name.lower()} row needs an effect")
    put(slot)


# -- preparing a pool for a run ------------------------------------------------------------


def check_params(params: Params) -> None:
    """Raise ``ParamError`` if ``params`` exceed the kernel's array bounds or make no sense."""
    limits = {
        "max_turns": (1, MAX_TURNS),
        "hit_points": (1, 999),
        "actions_per_turn": (0, 20),
        "opening_hand": (0, 40),
        "series_length": (1, 1_000_000),
        "value_swap": (0, 1),
        "first_turn_draw": (0, 1),
    }
    for key, (lo, hi) in limits.items():
        value = getattr(params, key)
        if not lo <= value <= hi:
            raise ParamError(f"parameter {key!r} = {value} is outside {lo}..{hi}")


def baseline_row(pool: CardPool, card: int, baseline: int) -> tuple[np.void, str]:
    """Return the counterfactual baseline record for ``card`` and its name (issue 9, RULES.md §7)."""
    rec = np.zeros(1, dtype=CARD_DTYPE)[0]
    src = pool.table[card]
    for field in ("type", "land", "cost", "atk", "def_"):
        rec[field] = src[field]
    rec["baseline"] = 1
    if baseline == ValueBaseline.VANILLA:
        rec["type"] = CardType.CREATURE
        atk, def_ = VANILLA.get(int(src["cost"]), (int(src["cost"]) + 1, 2 * int(src["cost"]) + 5))
        rec["atk"], rec["def_"] = atk, def_
        return rec, f"vanilla for {pool.names[card]}"
    if rec["type"] == CardType.SPELL:
        rec["trigger"] = Part.SPELL  # a Spell that does nothing when it resolves
    return rec, f"no ability: {pool.names[card]}"


def prepare_pool(pool: CardPool, params: Params) -> CardPool:
    """Return ``pool`` checked for ``params``; in value mode with the baseline row appended (issue 9)."""
    check_params(params)
    if params.value_card < 0:
        return pool
    if params.value_card >= len(pool):
        raise ParamError(f"parameter 'value_card' = {params.value_card}: the pool has cards 0..{len(pool) - 1}")
    if params.deck_builder == DeckBuilder.FIXED:
        raise ParamError(
            "value mode plays the starter decks: fix decks by name with deck_0/deck_1 (or --deck-names), not --decks"
        )
    card = params.value_card
    for key in ("deck_0", "deck_1"):
        choice = getattr(params, key)
        if choice != DeckChoice.RANDOM and pool.table[card][DECK_FIELDS[StarterDeck(choice - 1)]] == 0:
            deck = DeckChoice(choice).name.lower()
            raise ParamError(
                f"value_card {pool.names[card]!r} is not in deck {deck!r} ({key}); the holder (seat game % 2) "
                "plays both seats in turn, so both fixed decks must hold it (or leave them random)"
            )
    if not any(pool.table[card][f] for f in DECK_FIELDS.values()):
        raise ParamError(f"value_card {pool.names[card]!r} is in no starter deck")
    rec, name = baseline_row(pool, card, params.value_baseline)
    table = np.concatenate([pool.table, rec[None]], dtype=CARD_DTYPE)  # (a promotion would drop the padding)
    return replace(pool, table=table, names=(*pool.names, name))
