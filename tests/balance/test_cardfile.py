"""Edited copies of card files find each card's own row(s), for every game's file layout."""

import csv
import io

import pytest

import sims
from balance.cardfile import card_columns, cell, edit_cards
from balance.spec import SpecError

GAMES = ["cardinger", "blessings", "cardrpg", "cardia", "cardwars"]


def _rows(path):
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def _rows_named(path, name):
    return [row for row in _rows(path) if row["name"] == name]


@pytest.mark.parametrize("game", GAMES)
def test_every_card_reads_its_own_row(game):
    spec = sims.load(game)
    path = spec.cards_path
    names = spec.load_pool(path).names
    columns = card_columns(path)
    key = "name" if "name" in columns else "id"
    assert [cell(game, path, name, key) for name in names] == list(names)


def test_a_card_listed_in_several_decks_is_edited_on_every_row_and_no_other_row(tmp_path):
    path = sims.load("cardwars").cards_path
    before = _rows_named(path, "Teleport")
    assert len(before) == 3
    assert len({row["cost"] for row in before}) == 1
    new_cost = str(int(before[0]["cost"]) + 1)
    out = edit_cards("cardwars", path, {("Teleport", "cost"): new_cost}, tmp_path / "cards.csv")
    assert [r["cost"] for r in _rows_named(out, "Teleport")] == [new_cost] * 3
    old, new = _rows(path), _rows(out)
    changed = [a["name"] for a, b in zip(old, new, strict=True) if a != b]
    assert changed == ["Teleport"] * 3
    assert cell("cardwars", out, "Teleport", "cost") == new_cost


def test_a_card_after_the_multi_deck_rows_edits_its_own_row(tmp_path):
    # The pool lists each card once, the file once per deck: the n-th card is not the n-th row.
    path = sims.load("cardwars").cards_path
    name = [row["name"] for row in _rows(path) if row["type"] == "Creature"][-1]
    out = edit_cards("cardwars", path, {(name, "atk"): "9"}, tmp_path / "cards.csv")
    old, new = _rows(path), _rows(out)
    assert [a["name"] for a, b in zip(old, new, strict=True) if a != b] == [name]


def test_unknown_card_and_column_are_one_line_errors(tmp_path):
    path = sims.load("cardwars").cards_path
    with pytest.raises(SpecError, match=r"no card named 'Telport'; did you mean Teleport"):
        edit_cards("cardwars", path, {("Telport", "cost"): "1"}, tmp_path / "c.csv")
    with pytest.raises(SpecError, match=r"no column 'speed'"):
        cell("cardwars", path, "Teleport", "speed")
    assert not (tmp_path / "c.csv").exists()
