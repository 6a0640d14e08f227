"""Card pools: a CSV a designer can edit -> a numpy structured array + names.

Card id = row index. Kernels see only the numeric table; names and texts stay in
Python (``CardPool.names`` / ``CardPool.text``) and are joined back by analytics.
Every problem is reported as one ``CardDataError`` naming file, line and column.
"""

from __future__ import annotations

import csv
import enum
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


class CardDataError(ValueError):
    """A card or deck file is malformed; the message names file, line and column."""


@dataclass(frozen=True)
class Column:
    """How one CSV column is parsed.

    ``kind`` is ``int`` (range ``lo..hi``), ``enum`` (member name of ``enum``, case-
    insensitive), ``flags`` (``sep``-separated member names of an ``IntFlag``, empty
    allowed), ``bool`` (``True``/``False``, ``1``/``0``, ``yes``/``no``; stored as 1/0) or
    ``text`` (kept as a string in ``CardPool.text``).
    """

    kind: str
    lo: int = 0
    hi: int = 127
    enum: type[enum.Enum] | None = None
    sep: str = "|"
    field: str | None = None  # dtype field to fill, when it differs from the column name


def int_column(lo: int, hi: int, field: str | None = None) -> Column:
    """Return an integer column accepting ``lo..hi`` (stored in dtype field ``field``)."""
    return Column("int", lo=lo, hi=hi, field=field)


def enum_column(enum_type: type[enum.Enum]) -> Column:
    """Return a categorical column whose values are member names of ``enum_type``."""
    return Column("enum", enum=enum_type)


def flags_column(flag_type: type[enum.Enum], sep: str = "|") -> Column:
    """Return a column of ``sep``-separated ``IntFlag`` member names (bitmask)."""
    return Column("flags", enum=flag_type, sep=sep)


def bool_column(field: str | None = None) -> Column:
    """Return a yes/no column (``True``/``False``, ``1``/``0``, ``yes``/``no``), stored as 1/0."""
    return Column("bool", field=field)


TEXT = Column("text")
_BOOLS = {"true": 1, "false": 0, "1": 1, "0": 0, "yes": 1, "no": 0}


@dataclass(frozen=True)
class CardPool:
    """A loaded card pool: ``table[c]`` holds card ``c``'s numbers, ``names[c]`` its name."""

    table: np.ndarray
    names: tuple[str, ...]
    text: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    path: Path | None = None
    shown: tuple[str, ...] | None = (
        None  # table fields for the card dimension (None = all); the rest are kernel encoding
    )

    def __len__(self) -> int:
        """Return the number of distinct cards."""
        return len(self.names)

    def ids(self, names: list[str]) -> np.ndarray:
        """Return the card ids of ``names`` (KeyError naming the first unknown one)."""
        index = {n: i for i, n in enumerate(self.names)}
        return np.array([index[n] for n in names], dtype=np.int16)

    def subset(self, keep: np.ndarray) -> CardPool:
        """Return the pool restricted to the rows where ``keep`` is true (ids renumbered)."""
        rows = np.flatnonzero(keep)
        return CardPool(
            table=self.table[rows].copy(),
            names=tuple(self.names[i] for i in rows),
            text={k: tuple(v[i] for i in rows) for k, v in self.text.items()},
            path=self.path,
            shown=self.shown,
        )


def _parse(value: str, col: Column, where: str) -> int | str:
    value = value.strip()
    if col.kind == "text":
        return value
    if col.kind == "int":
        digits = value[1:] if value[:1] in "+-" else value
        if not (digits.isascii() and digits.isdigit()):  # int() would also take "١" or "1_0"
            raise CardDataError(f"{where}: {value!r} is not a whole number")
        number = int(value)
        if not col.lo <= number <= col.hi:
            raise CardDataError(f"{where}: {number} is outside {col.lo}..{col.hi}")
        return number
    if col.kind == "bool":
        if value.lower() not in _BOOLS:
            raise CardDataError(f"{where}: {value!r} is not True or False")
        return _BOOLS[value.lower()]
    assert col.enum is not None
    members = {m.name.lower(): int(m.value) for m in col.enum}
    if col.kind == "enum":
        if value.lower() not in members:
            raise CardDataError(f"{where}: unknown value {value!r}; expected one of {', '.join(members)}")
        return members[value.lower()]
    bits = 0
    for part in filter(None, (p.strip() for p in value.split(col.sep))):
        if part.lower() not in members:
            known = ", ".join(m.upper() for m in members)
            raise CardDataError(f"{where}: unknown keyword {part!r}; expected any of {known}")
        bits |= members[part.lower()]
    return bits


def csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """Return ``(file line, cells)`` of every CSV row after the header, blank rows left out.

    Rows end only at ``\\n``/``\\r\\n`` (the csv module's own rule), so a stray form feed or
    Unicode line separator inside a cell stays in that cell and is reported there.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    next(reader, None)
    rows = []
    start = reader.line_num + 1
    for raw in reader:
        if any(cell.strip() for cell in raw):
            rows.append((start, raw))
        start = reader.line_num + 1
    return rows


def csv_header(text: str) -> list[str]:
    """Return the stripped header cells of a CSV text (empty list for an empty text)."""
    return [h.strip() for h in next(csv.reader(io.StringIO(text, newline="")), [])]


def row_lines(path: Path | str) -> list[int]:
    """Return the file line of each card row of a CSV, counted the way ``load_cards`` counts them.

    For errors found after loading (a text column parsed by the game): blank lines are
    skipped by the loader, so row ``i`` is not always line ``i + 2``.
    """
    return [line for line, _ in csv_rows(Path(path).read_text(encoding="utf-8-sig"))]


def load_cards(path: Path | str, dtype: np.dtype, columns: Mapping[str, Column], name_column: str = "name") -> CardPool:
    """Load a card CSV into a ``CardPool``; raise ``CardDataError`` on any bad cell.

    ``columns`` names every column the file must have: those that are fields of ``dtype``
    fill the table, ``text`` columns go to ``CardPool.text``. The ``name_column`` (``name``
    unless the file calls its card key e.g. ``id``) is required and must be unique.

    Examples
    --------
    >>> import numpy as np, tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "c.csv"
    >>> _ = f.write_text("name,cost\\nFootman,1\\nKnight,3\\n")
    >>> pool = load_cards(f, np.dtype([("cost", np.int8)]), {"name": TEXT, "cost": int_column(0, 9)})
    >>> pool.names, pool.table["cost"].tolist()
    (('Footman', 'Knight'), [1, 3])
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{path}: cannot read card file ({exc})") from None
    header = csv_header(text)
    missing = [c for c in (name_column, *columns) if c not in header]
    if missing:
        raise CardDataError(f"{path}:1: missing column(s) {', '.join(dict.fromkeys(missing))}")
    rows: list[dict[str, int | str]] = []
    names: dict[str, int] = {}
    for line, raw in csv_rows(text):
        if len(raw) != len(header):
            raise CardDataError(f"{path}:{line}: expected {len(header)} cells, found {len(raw)}")
        cells = dict(zip(header, raw, strict=True))
        row = {c: _parse(cells[c], col, f"{path}:{line}: column '{c}'") for c, col in columns.items()}
        name = cells[name_column].strip()
        where = f"{path}:{line}: column '{name_column}'"
        if not name:
            raise CardDataError(f"{where}: empty card name")
        if name in names:
            raise CardDataError(f"{where}: duplicate card {name!r} (first on line {names[name]})")
        names[name] = line
        row["name"] = name
        rows.append(row)
    if not rows:
        raise CardDataError(f"{path}: no cards")
    table = np.zeros(len(rows), dtype=dtype)
    targets = {c: col.field or c for c, col in columns.items() if col.kind != "text"}
    for i, row in enumerate(rows):
        for c, f in targets.items():
            if f in (dtype.names or ()):
                table[i][f] = row[c]
    texts = {c: tuple(str(r[c]) for r in rows) for c, col in columns.items() if col.kind == "text"}
    return CardPool(table=table, names=tuple(str(r["name"]) for r in rows), text=texts, path=path)


@dataclass(frozen=True)
class DeckRules:
    """What a game's fixed deck lists may hold (``GameSpec.deck_rules``): a size range and copies per card."""

    min_size: int
    max_size: int
    max_copies: int = 1


def load_decks(
    path: Path | str, pool: CardPool, deck_size: int | None = None, *, rules: DeckRules | None = None
) -> dict[str, np.ndarray]:
    """Load fixed deck lists from a CSV with columns ``deck,card`` (and optionally ``copies``).

    Returns deck name -> int16 card ids, each card's copies together in the order the
    file first names it. Without ``rules`` a deck must have exactly ``deck_size`` distinct
    cards (one row each); with ``rules`` a card may repeat (rows add up, or a ``copies``
    column) up to ``rules.max_copies`` and a deck's size must be in
    ``rules.min_size..rules.max_size``. Errors name the file and line.
    """
    path = Path(path)
    rules = rules or DeckRules(deck_size or 0, deck_size or 0, 1)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{path}: cannot read deck file ({exc})") from None
    header = csv_header(text)
    if header[:2] != ["deck", "card"] or (len(header) > 2 and header[2:] != ["copies"]):
        raise CardDataError(f"{path}:1: header must be 'deck,card' (or 'deck,card,copies'), found {','.join(header)!r}")
    index = {n: i for i, n in enumerate(pool.names)}
    decks: dict[str, dict[int, int]] = {}
    first_line: dict[str, int] = {}
    for line, raw in csv_rows(text):
        if len(raw) < 2:
            raise CardDataError(f"{path}:{line}: expected 'deck,card'")
        deck, card = raw[0].strip(), raw[1].strip()
        if card not in index:
            raise CardDataError(f"{path}:{line}: column 'card': {card!r} is not in the card pool")
        copies = 1
        if len(header) > 2 and len(raw) > 2 and raw[2].strip():
            copies = int(_parse(raw[2], int_column(1, 2**31 - 1), f"{path}:{line}: column 'copies'"))
        counts = decks.setdefault(deck, {})
        first_line.setdefault(deck, line)
        if rules.max_copies == 1 and index[card] in counts:
            raise CardDataError(f"{path}:{line}: column 'card': {card!r} appears twice in deck {deck!r}")
        counts[index[card]] = counts.get(index[card], 0) + copies
        if counts[index[card]] > rules.max_copies:
            raise CardDataError(
                f"{path}:{line}: column 'card': deck {deck!r} has {counts[index[card]]} copies of {card!r}; "
                f"the rules allow {rules.max_copies}"
            )
    if not decks:
        raise CardDataError(f"{path}: no decks")
    for deck, counts in decks.items():
        size = sum(counts.values())
        if rules.min_size == rules.max_size and size != rules.min_size:
            raise CardDataError(
                f"{path}:{first_line[deck]}: deck {deck!r} has {size} cards; the rules require {rules.min_size}"
            )
        if not rules.min_size <= size <= rules.max_size:
            bound = f"at least {rules.min_size}" if size < rules.min_size else f"at most {rules.max_size}"
            raise CardDataError(f"{path}:{first_line[deck]}: deck {deck!r} has {size} cards; the rules require {bound}")
    return {
        d: np.array([c for c, n in counts.items() for _ in range(n)], dtype=np.int16) for d, counts in decks.items()
    }
