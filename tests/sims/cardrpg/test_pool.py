"""CardRPG Advanced deck: the shipped deck.csv against the rulebook's 54-card deck, loader and parameter errors."""

import pytest

import sims
from sims.cardrpg.params import Params
from sims.cardrpg.pool import check_params, load_pool, prepare_pool
from sims.cardrpg.state import Kind, Suit
from sims.core import CardDataError, ParamError

GAME = sims.load("cardrpg")
HEADER = "id,suit,rank,value,kind"
ROWS = [
    "spade:ace,spade,ace,1,ace",
    "spade:7,spade,7,7,number",
    "heart:queen,heart,queen,0,face",
    "joker:1,none,joker,0,joker",
]


def rulebook_deck() -> list[dict]:
    """Return the deck as the rulebook describes it, kept independent of deck.csv and the kernel's tables.

    "One standard 54-card deck with French suits, including two jokers." Aces count 1, numbered
    cards (2-10) their face value, face cards and Jokers have no value (R3).
    """
    deck = []
    for suit in ("spade", "heart", "diamond", "club"):
        for number, rank in enumerate(["ace", *map(str, range(2, 11)), "jack", "queen", "king"], start=1):
            if rank == "ace":
                value, kind = 1, "ace"
            elif number <= 10:
                value, kind = number, "number"
            else:
                value, kind = 0, "face"
            deck.append({"id": f"{suit}:{rank}", "suit": suit, "rank": number, "value": value, "kind": kind})
    for j in (1, 2):
        deck.append({"id": f"joker:{j}", "suit": "none", "rank": 14, "value": 0, "kind": "joker"})
    return deck


def loaded_rows(pool) -> list[dict]:
    """Return the loaded pool as rulebook-style rows (names for the enum codes)."""
    return [
        {
            "id": name,
            "suit": Suit(int(r["suit"])).name.lower(),
            "rank": int(r["rank"]),
            "value": int(r["value"]),
            "kind": Kind(int(r["kind"])).name.lower(),
        }
        for name, r in zip(pool.names, pool.table, strict=True)
    ]


def write_deck(tmp_path, rows, header=HEADER):
    """Write a deck.csv under ``tmp_path`` and return its path."""
    path = tmp_path / "deck.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


# -- the shipped deck ----------------------------------------------------------------------------------------------


def test_loaded_deck_is_the_standard_54_card_deck_valued_by_the_rulebook():
    pool = GAME.load_pool(GAME.cards_path)
    expected = sorted(rulebook_deck(), key=lambda r: r["id"])
    got = sorted(loaded_rows(pool), key=lambda r: r["id"])
    assert len(expected) == 54
    assert len(got) == len(expected)
    for row, want in zip(got, expected, strict=True):
        assert row == want


def test_deck_counts_by_kind_and_suit():
    table = GAME.load_pool(GAME.cards_path).table
    kinds = {k: int((table["kind"] == k).sum()) for k in Kind}
    assert kinds == {Kind.NUMBER: 36, Kind.FACE: 12, Kind.ACE: 4, Kind.JOKER: 2}
    for suit in (Suit.SPADE, Suit.HEART, Suit.DIAMOND, Suit.CLUB):
        assert int((table["suit"] == suit).sum()) == 13
    assert int(table["value"].sum()) == 4 * (1 + sum(range(2, 11)))


def test_every_class_card_is_in_the_deck_once():
    pool = GAME.load_pool(GAME.cards_path)
    faces = sorted(n for n, r in zip(pool.names, pool.table, strict=True) if r["kind"] == Kind.FACE)
    assert faces == sorted(f"{s}:{r}" for s in ("spade", "heart", "diamond", "club") for r in ("jack", "queen", "king"))
    assert prepare_pool(pool, Params()) is pool


def test_loader_reads_a_small_deck(tmp_path):
    pool = load_pool(write_deck(tmp_path, ROWS))
    assert pool.names == ("spade:ace", "spade:7", "heart:queen", "joker:1")
    assert pool.table["suit"].tolist() == [Suit.SPADE, Suit.SPADE, Suit.HEART, Suit.NONE]
    assert pool.table["rank"].tolist() == [1, 7, 12, 14]
    assert pool.table["value"].tolist() == [1, 7, 0, 0]
    assert pool.table["kind"].tolist() == [Kind.ACE, Kind.NUMBER, Kind.FACE, Kind.JOKER]


def test_classic_deck_leaves_the_jokers_out():
    params = GAME.make_params("classic")
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    assert len(pool) == 52
    assert not any(n.startswith("joker") for n in pool.names)
    assert int((pool.table["kind"] == Kind.JOKER).sum()) == 0


# -- malformed deck files: each error names file:line and the column ---------------------------------------------


def test_loader_error_bad_suit_names_file_line_and_column(tmp_path):
    rows = [ROWS[0], ROWS[1].replace("spade:7,spade,", "spade:7,star,")]
    with pytest.raises(CardDataError, match=r"deck\.csv:3: column 'suit': unknown value 'star'"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_bad_rank_names_file_line_and_column(tmp_path):
    rows = [*ROWS[:2], ROWS[2].replace(",queen,", ",duchess,")]
    with pytest.raises(CardDataError, match=r"deck\.csv:4: column 'rank': unknown rank 'duchess'"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_bad_rank_after_a_blank_line_names_the_rows_real_line(tmp_path):
    """Line 1 header, 2 spade:ace, 3 blank, 4 spade:7, 5 the bad rank."""
    rows = [ROWS[0], "", ROWS[1], ROWS[2].replace(",queen,", ",duchess,")]
    with pytest.raises(CardDataError, match=r"deck\.csv:5: column 'rank': unknown rank 'duchess'"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_value_out_of_range_names_file_line_and_column(tmp_path):
    rows = [ROWS[0], ROWS[1].replace(",7,number", ",11,number")]
    with pytest.raises(CardDataError, match=r"deck\.csv:3: column 'value': 11 is outside 0\.\.10"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_non_numeric_value_names_file_line_and_column(tmp_path):
    rows = [ROWS[0].replace(",1,ace", ",one,ace"), *ROWS[1:]]
    with pytest.raises(CardDataError, match=r"deck\.csv:2: column 'value': 'one' is not a whole number"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_bad_kind_names_file_line_and_column(tmp_path):
    rows = [*ROWS[:3], ROWS[3].replace(",joker,0,joker", ",joker,0,wild")]
    with pytest.raises(CardDataError, match=r"deck\.csv:5: column 'kind': unknown value 'wild'"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_duplicate_id_names_file_line_and_column(tmp_path):
    rows = [*ROWS, ROWS[1]]
    with pytest.raises(CardDataError, match=r"deck\.csv:6: column 'id': duplicate card 'spade:7' \(first on line 3\)"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_missing_column_names_the_file_and_column(tmp_path):
    rows = [r.rsplit(",", 1)[0] for r in ROWS]
    with pytest.raises(CardDataError, match=r"deck\.csv:1: missing column\(s\) kind"):
        load_pool(write_deck(tmp_path, rows, HEADER.replace(",kind", "")))


def test_loader_error_short_row_names_file_and_line(tmp_path):
    rows = [ROWS[0], "spade:7,spade,7,7"]
    with pytest.raises(CardDataError, match=r"deck\.csv:3: expected 5 cells, found 4"):
        load_pool(write_deck(tmp_path, rows))


def test_loader_error_more_cards_than_the_kernel_holds(tmp_path):
    rows = [f"extra:{i},spade,7,7,number" for i in range(55)]
    with pytest.raises(CardDataError, match=r"deck\.csv: 55 cards; the kernel supports at most 54"):
        load_pool(write_deck(tmp_path, rows))


def test_prepare_pool_rejects_a_deck_without_the_class_cards(tmp_path):
    pool = load_pool(write_deck(tmp_path, ROWS))
    with pytest.raises(CardDataError, match=r"deck\.csv: the deck lacks class card\(s\)"):
        prepare_pool(pool, Params())


def test_prepare_pool_with_ace_classes_needs_the_aces(tmp_path):
    rows = [f"{s}:{r},{s},{r},0,face" for s in ("spade", "heart", "diamond", "club") for r in ("jack", "queen", "king")]
    pool = load_pool(write_deck(tmp_path, rows))
    assert prepare_pool(pool, Params()) is pool
    with pytest.raises(CardDataError, match=r"lacks class card\(s\) \[\(0, 1\), \(1, 1\), \(2, 1\), \(3, 1\)\]"):
        prepare_pool(pool, Params(class_ranks=1))


# -- parameters -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_sessions": 0}, r"'n_sessions' = 0 is outside 1\.\.64"),
        ({"max_battles": 2001}, r"'max_battles' = 2001 is outside 1\.\.2000"),
        ({"theft_chance_pct": 101}, r"'theft_chance_pct' = 101 is outside 0\.\.100"),
        ({"class_card": 13}, r"'class_card' = 13 is outside 0\.\.12"),
        ({"ace_diamond_buybacks": -2}, r"'ace_diamond_buybacks' = -2 is outside -1\.\.100$"),
        ({"ace_diamond_buybacks": 101}, r"'ace_diamond_buybacks' = 101 is outside -1\.\.100$"),
        ({"n_sessions": 64, "max_battles": 500}, r"n_sessions x max_battles = 32000 exceeds 16384"),
        ({"death_ends_session": 2}, r"'death_ends_session' must be true or false, got 2"),
        ({"affinity_includes_aces": -1}, r"'affinity_includes_aces' must be true or false, got -1"),
    ],
)
def test_check_params_rejects_values_outside_the_kernels_bounds(change, message):
    with pytest.raises(ParamError, match=message):
        check_params(Params()._replace(**change))


def test_every_named_variant_passes_the_parameter_check():
    for name, variant in GAME.variants.items():
        if variant.runnable:
            check_params(GAME.make_params(name))


def test_make_params_reads_choice_names_and_rejects_unknown_ones():
    params = GAME.make_params("advanced", {"monster_hp": "preset", "both_out": "forfeit", "class_card": "club_queen"})
    assert (params.monster_hp, params.both_out, params.class_card) == (1, 1, 11)
    with pytest.raises(ParamError, match=r"parameter 'monster_hp': unknown value 'fixed'"):
        GAME.make_params("advanced", {"monster_hp": "fixed"})
    with pytest.raises(ParamError, match=r"unknown variant 'expert'"):
        GAME.make_params("expert")
