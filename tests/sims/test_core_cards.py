"""Card-pool and deck-file loading: good files load, every bad cell is a one-line error."""

from enum import IntFlag

import numpy as np
import pytest

from sims.core import TEXT, CardDataError, flags_column, int_column, load_cards, load_decks


class Kw(IntFlag):
    FAST = 1
    TOUGH = 2


DTYPE = np.dtype([("cost", np.int8), ("def_", np.int8), ("kw", np.int16)])
COLUMNS = {"name": TEXT, "cost": int_column(0, 8), "def": int_column(0, 9, field="def_"), "kw": flags_column(Kw)}
GOOD = "name,cost,def,kw\nFootman,1,0,\nKnight,3,2,FAST|TOUGH\n"


def _write(tmp_path, text, name="cards.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_load_cards_fills_table_names_and_flags(tmp_path):
    pool = load_cards(_write(tmp_path, GOOD), DTYPE, COLUMNS)
    assert pool.names == ("Footman", "Knight")
    assert pool.table["cost"].tolist() == [1, 3]
    assert pool.table["def_"].tolist() == [0, 2]
    assert pool.table["kw"].tolist() == [0, Kw.FAST | Kw.TOUGH]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name,cost,kw\nFootman,1,\n", ":1: missing column(s) def"),
        ("name,cost,def,kw\nFootman,one,0,\n", ":2: column 'cost': 'one' is not a whole number"),
        ("name,cost,def,kw\nFootman,1,0,\nKnight,12,0,\n", ":3: column 'cost': 12 is outside 0..8"),
        ("name,cost,def,kw\nFootman,1,0,FLYING\n", ":2: column 'kw': unknown keyword 'FLYING'"),
        (
            "name,cost,def,kw\nFootman,1,0,\nFootman,2,0,\n",
            ":3: column 'name': duplicate card 'Footman' (first on line 2)",
        ),
        ("name,cost,def,kw\nFootman,1,0\n", ":2: expected 4 cells, found 3"),
        ("name,cost,def,kw\n", ": no cards"),
    ],
)
def test_load_cards_bad_cell_names_file_line_and_column(tmp_path, text, expected):
    path = _write(tmp_path, text)
    with pytest.raises(CardDataError) as info:
        load_cards(path, DTYPE, COLUMNS)
    message = str(info.value)
    assert message.startswith(str(path))
    assert expected in message
    assert "\n" not in message


def test_pool_subset_renumbers_ids_and_keeps_texts(tmp_path):
    pool = load_cards(_write(tmp_path, GOOD), DTYPE, COLUMNS)
    sub = pool.subset(np.array([False, True]))
    assert sub.names == ("Knight",)
    assert sub.table["cost"].tolist() == [3]
    assert sub.text["name"] == ("Knight",)


def test_load_decks_reads_named_decks(tmp_path):
    pool = load_cards(_write(tmp_path, GOOD), DTYPE, COLUMNS)
    decks = load_decks(_write(tmp_path, "deck,card\na,Footman\na,Knight\nb,Knight\nb,Footman\n", "d.csv"), pool, 2)
    assert decks["a"].tolist() == [0, 1]
    assert decks["b"].tolist() == [1, 0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("deck,card\na,Footman\na,Squire\n", ":3: column 'card': 'Squire' is not in the card pool"),
        ("deck,card\na,Footman\na,Footman\n", ":3: column 'card': 'Footman' appears twice in deck 'a'"),
        ("deck,card\na,Footman\n", ":2: deck 'a' has 1 cards; the rules require 2"),
        ("name,card\na,Footman\n", ":1: header must be 'deck,card'"),
    ],
)
def test_load_decks_bad_line_is_one_line_error(tmp_path, text, expected):
    pool = load_cards(_write(tmp_path, GOOD), DTYPE, COLUMNS)
    path = _write(tmp_path, text, "d.csv")
    with pytest.raises(CardDataError, match=expected.replace("(", r"\(").replace(")", r"\)")) as info:
        load_decks(path, pool, 2)
    assert str(info.value).startswith(str(path))
