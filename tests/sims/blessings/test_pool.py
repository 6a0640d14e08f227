"""Blessings & Curses card pool: the shipped table against the rulebook's generator (E1), loader errors."""

import pytest

import sims
from sims.blessings.params import Params
from sims.blessings.pool import load_pool, prepare_pool
from sims.blessings.state import RANKS, CardType, Suit
from sims.core import CardDataError, ParamError

GAME = sims.load("blessings")
HEADER = "id,suit,rank,attack,impact,type,face"
ROWS = [
    "heart:2,heart,2,2,3,blessing,False",
    "heart:3,heart,3,3,3,curse,False",
    "spade:king,spade,king,0,4,curse,True",
]


def rulebook_cards() -> list[dict]:
    """Return the card table as the rulebook's generating script builds it (E1), in its order.

    A re-statement of the script printed at the end of the rulebook, kept independent of
    cards.csv: faces J, Q, K, A first (Attack 0, Impact 4, blessings in red suits and
    curses in black ones), then 2-10 (Attack = rank, even blessing, odd curse, spades all
    curses; Impact 3 hearts, 2 diamonds, 1 spades and clubs).
    """
    cards = []
    for suit in ["heart", "diamond", "spade", "club"]:
        for face in ["jack", "queen", "king", "ace"]:
            kind = "blessing" if suit in ["heart", "diamond"] else "curse"
            cards.append({"id": f"{suit}:{face}", "suit": suit, "attack": 0, "impact": 4, "type": kind, "face": True})
        for i in range(2, 11):
            kind = "blessing" if i % 2 == 0 else "curse"
            if suit == "spade":
                kind = "curse"
            impact = {"heart": 3, "diamond": 2}.get(suit, 1)
            card = {"id": f"{suit}:{i}", "suit": suit, "attack": i, "impact": impact, "type": kind, "face": False}
            cards.append(card)
    return cards


def loaded_rows(pool) -> list[dict]:
    """Return the loaded pool as rulebook-style rows (names for the enum codes)."""
    rows = []
    for c, name in enumerate(pool.names):
        r = pool.table[c]
        rows.append(
            {
                "id": name,
                "suit": Suit(int(r["suit"])).name.lower(),
                "attack": int(r["attack"]),
                "impact": int(r["impact"]),
                "type": CardType(int(r["type"])).name.lower(),
                "face": bool(r["face"]),
            }
        )
    return rows


def write_cards(tmp_path, rows, header=HEADER):
    """Write a cards.csv under ``tmp_path`` and return its path."""
    path = tmp_path / "cards.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


# -- E1: the shipped table ------------------------------------------------------------------------


def test_e1_loaded_pool_equals_the_rulebooks_generating_rule_row_by_row():
    pool = GAME.load_pool(GAME.cards_path)
    expected = rulebook_cards()
    assert len(expected) == 52
    got = loaded_rows(pool)
    assert len(got) == len(expected)
    for row, want in zip(got, expected, strict=True):
        assert row == want


def test_e1_pool_has_29_curse_23_blessing_and_16_face_cards():
    table = GAME.load_pool(GAME.cards_path).table
    assert len(table) == 52
    assert int((table["type"] == CardType.CURSE).sum()) == 29
    assert int((table["type"] == CardType.BLESSING).sum()) == 23
    assert int(table["face"].sum()) == 16


def test_e1_faces_attack_0_impact_4_and_aces_are_faces():
    pool = GAME.load_pool(GAME.cards_path)
    faces = [pool.names[c] for c in range(len(pool)) if pool.table[c]["face"]]
    suits = ("heart", "diamond", "spade", "club")
    assert sorted(faces) == sorted(f"{s}:{r}" for s in suits for r in ("jack", "queen", "king", "ace"))
    stats = {(int(pool.table[c]["attack"]), int(pool.table[c]["impact"])) for c in range(52) if pool.table[c]["face"]}
    assert stats == {(0, 4)}


def test_rank_column_agrees_with_the_card_id():
    pool = GAME.load_pool(GAME.cards_path)
    for c, name in enumerate(pool.names):
        assert pool.table[c]["rank"] == RANKS[name.split(":")[1]], name


def test_loader_reads_a_small_table(tmp_path):
    pool = load_pool(write_cards(tmp_path, ROWS))
    assert pool.names == ("heart:2", "heart:3", "spade:king")
    assert pool.table["suit"].tolist() == [Suit.HEART, Suit.HEART, Suit.SPADE]
    assert pool.table["rank"].tolist() == [2, 3, 13]
    assert pool.table["type"].tolist() == [CardType.BLESSING, CardType.CURSE, CardType.CURSE]
    assert pool.table["face"].tolist() == [0, 0, 1]


# -- malformed card files ------------------------------------------------------------------------------


def test_loader_error_bad_suit_names_file_line_and_column(tmp_path):
    rows = [ROWS[0], ROWS[1].replace("heart:3,heart,", "heart:3,star,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:3: column 'suit': unknown value 'star'"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_bad_rank_names_file_line_and_column(tmp_path):
    rows = [*ROWS[:2], ROWS[2].replace(",king,", ",kaiser,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:4: column 'rank': unknown rank 'kaiser'"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_bad_rank_after_a_blank_line_names_the_rows_real_line(tmp_path):
    """Blank lines are skipped by the loader, but a card's line number must still be its line in the file.

    Line 1 header, 2 heart:2, 3 blank, 4 heart:3, 5 spade:kaiser.
    """
    rows = [ROWS[0], "", ROWS[1], ROWS[2].replace(",king,", ",kaiser,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:5: column 'rank': unknown rank 'kaiser'"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_non_boolean_face_names_file_line_and_column(tmp_path):
    rows = [ROWS[0].replace(",False", ",maybe"), *ROWS[1:]]
    with pytest.raises(CardDataError, match=r"cards\.csv:2: column 'face': 'maybe' is not True or False"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_duplicate_id_names_file_line_and_column(tmp_path):
    rows = [*ROWS, ROWS[0].replace(",2,3,", ",2,2,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:5: column 'id': duplicate card 'heart:2' \(first on line 2\)"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_bad_type_names_file_line_and_column(tmp_path):
    rows = [ROWS[0].replace(",blessing,", ",hex,"), *ROWS[1:]]
    with pytest.raises(CardDataError, match=r"cards\.csv:2: column 'type': unknown value 'hex'"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_non_numeric_attack_names_file_line_and_column(tmp_path):
    rows = [*ROWS[:1], ROWS[1].replace(",3,3,3,", ",3,x,3,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:3: column 'attack': 'x' is not a whole number"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_missing_column_names_the_file_and_column(tmp_path):
    header = HEADER.replace(",face", "")
    rows = [r.rsplit(",", 1)[0] for r in ROWS]
    with pytest.raises(CardDataError, match=r"cards\.csv:1: missing column\(s\) face"):
        load_pool(write_cards(tmp_path, rows, header))


def test_prepare_pool_rejects_a_pool_too_small_to_deal_opening_hands(tmp_path):
    pool = load_pool(write_cards(tmp_path, ROWS))
    with pytest.raises(CardDataError, match=r"3 cards; a game needs at least 5"):
        prepare_pool(pool, Params())


def test_prepare_pool_rejects_a_battle_cap_beyond_the_kernels_bound():
    pool = load_pool(GAME.cards_path)
    with pytest.raises(ParamError, match=r"'max_battles' = 256 is outside 1\.\.255"):
        prepare_pool(pool, Params(max_battles=256))
