"""Edited copies of a card file: change one card's cell, write the copy elsewhere, never touch the original.

``sweep`` and ``tune`` vary card stats by writing copies (``DIR/cards/*.csv``) that the
game's own loader then checks like any card file, so a bad value is reported as the usual
one-line error naming the copy, its line and the column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from pathlib import Path

import sims
from balance.spec import SpecError
from sims.core import CardDataError, row_lines


def card_file(game: str, cards_file: str | Path | None) -> Path:
    """Return the card file a run of ``game`` uses (``cards_file``, or the game's own)."""
    return Path(cards_file) if cards_file else sims.load(game).cards_path


def card_columns(path: Path) -> list[str]:
    """Return the header of the card file at ``path``."""
    first = path.read_text(encoding="utf-8-sig").splitlines()[:1]
    return [h.strip() for h in next(csv.reader(first), [])]


def edit_cards(game: str, source: Path, edits: Mapping[tuple[str, str], str], dest: Path) -> Path:
    """Write ``source`` to ``dest`` with ``edits`` applied: ``{(card name, column): new value}``; return ``dest``.

    Cards are found by the name the game's loader gives them (its key column), columns by
    their header name. The copy is loaded with the game's loader before returning, so a value
    the game refuses raises ``SpecError`` naming ``dest``, the line and the column.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "cards.csv"
    >>> src = sims.load("cardinger").cards_path
    >>> _ = edit_cards("cardinger", src, {("Sea Dragon", "cost"): "3"}, out)
    >>> [line for line in out.read_text().splitlines() if ",Sea Dragon," in line][0][:26]
    'Booster 2,Sea Dragon,3,4,0'
    """
    spec = sims.load(game)
    try:
        pool = spec.load_pool(source)
    except CardDataError as exc:
        raise SpecError(str(exc)) from None
    header = card_columns(source)
    rows = list(csv.reader(source.read_text(encoding="utf-8-sig").splitlines()))
    lines = row_lines(source)
    for (name, column), value in edits.items():
        if name not in pool.names:
            close = [n for n in pool.names if n.lower().startswith(name.lower()[:3])][:3]
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise SpecError(f"{source}: no card named {name!r}{hint}")
        if column not in header:
            raise SpecError(f"{source}: no column {column!r}; columns: {', '.join(header)}")
        rows[lines[pool.names.index(name)] - 1][header.index(column)] = str(value)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(buffer.getvalue(), encoding="utf-8")
    try:
        spec.load_pool(dest)
    except CardDataError as exc:
        raise SpecError(str(exc)) from None
    return dest


def cell(game: str, source: Path, name: str, column: str) -> str:
    """Return card ``name``'s ``column`` cell of the card file ``source`` (as written)."""
    pool = sims.load(game).load_pool(source)
    if name not in pool.names:
        raise SpecError(f"{source}: no card named {name!r}")
    header = card_columns(source)
    if column not in header:
        raise SpecError(f"{source}: no column {column!r}; columns: {', '.join(header)}")
    rows = list(csv.reader(source.read_text(encoding="utf-8-sig").splitlines()))
    return rows[row_lines(source)[pool.names.index(name)] - 1][header.index(column)].strip()
