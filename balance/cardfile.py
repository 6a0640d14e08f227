"""Edited copies of a card file: change one card's cell, write the copy elsewhere, never touch the original.

``sweep`` and ``tune`` vary card stats by writing copies (``DIR/cards/*.csv``) that the
game's own loader then checks like any card file, so a bad value is reported as the usual
one-line error naming the copy, its line and the column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from pathlib import Path

import sims
from balance.spec import SpecError
from sims.core import CardDataError


def card_file(game: str, cards_file: str | Path | None) -> Path:
    """Return the card file a run of ``game`` uses (``cards_file``, or the game's own)."""
    return Path(cards_file) if cards_file else sims.load(game).cards_path


def card_columns(path: Path) -> list[str]:
    """Return the header of the card file at ``path``."""
    rows = _rows(path)
    return [h.strip() for h in rows[0]] if rows else []


def _rows(path: Path) -> list[list[str]]:
    """Return every row of the CSV at ``path``, split the way the games' loaders split them.

    Rows end only at ``\\n``/``\\r\\n`` (the csv module's own rule), as in ``sims.core.csv_rows``.
    """
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))


def _locate(game: str, source: Path, names: Iterable[str], column: str) -> tuple[list[list[str]], dict, int]:
    """Return the rows of ``source``, each named card's row indices, and ``column``'s index.

    A card is found by its ``name`` (else ``id``) cell when the file has that column: a card
    listed on several rows (Card Wars' cards in more than one starter deck) has every row edited
    alike, as the game's loader requires. A file without either holds one row per card, in the
    order the loader gives the cards.
    """
    spec = sims.load(game)
    try:
        pool = spec.load_pool(source)
    except CardDataError as exc:
        raise SpecError(str(exc)) from None
    rows = _rows(source)
    header = [h.strip() for h in rows[0]] if rows else []
    if column not in header:
        raise SpecError(f"{source}: no column {column!r}; columns: {', '.join(header)}")
    data = [i for i, row in enumerate(rows) if i and any(c.strip() for c in row)]
    found = {}
    for name in names:
        if name not in pool.names:
            close = [n for n in pool.names if n.lower().startswith(name.lower()[:3])][:3]
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise SpecError(f"{source}: no card named {name!r}{hint}")
        key = next((header.index(k) for k in ("name", "id") if k in header), None)
        if key is not None:
            found[name] = [i for i in data if rows[i][key].strip() == name]
        elif len(data) == len(pool.names):
            found[name] = [data[pool.names.index(name)]]
        else:
            found[name] = []
        if not found[name]:
            raise SpecError(f"{source}: cannot tell which row holds card {name!r}")
    return rows, found, header.index(column)


def edit_cards(game: str, source: Path, edits: Mapping[tuple[str, str], str], dest: Path) -> Path:
    """Write ``source`` to ``dest`` with ``edits`` applied: ``{(card name, column): new value}``; return ``dest``.

    Cards are found by the name the game's loader gives them (every row of a card listed on
    several rows), columns by their header name. The copy is loaded with the game's loader
    before returning, so a value the game refuses raises ``SpecError`` naming ``dest``, the
    line and the column.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "cards.csv"
    >>> src = sims.load("cardinger").cards_path
    >>> _ = edit_cards("cardinger", src, {("Sea Dragon", "cost"): "3"}, out)
    >>> [line for line in out.read_text().splitlines() if ",Sea Dragon," in line][0][:26]
    'Booster 2,Sea Dragon,3,4,0'
    """
    rows = None
    for (name, column), value in edits.items():
        located, found, col = _locate(game, source, [name], column)
        rows = rows or located
        for i in found[name]:
            rows[i][col] = str(value)
    rows = rows if rows is not None else _rows(source)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(buffer.getvalue(), encoding="utf-8")
    try:
        sims.load(game).load_pool(dest)
    except CardDataError as exc:
        raise SpecError(str(exc)) from None
    return dest


def cell(game: str, source: Path, name: str, column: str) -> str:
    """Return card ``name``'s ``column`` cell of the card file ``source`` (as written; its first row)."""
    rows, found, col = _locate(game, source, [name], column)
    return rows[found[name][0]][col].strip()
