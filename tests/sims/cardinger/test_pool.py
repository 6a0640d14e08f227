"""Cardinger card pool: the shipped cards.csv, pool filtering per variant (R1, R2), loader errors."""

import shutil

import numpy as np
import pytest

import sims
from sims.cardinger.params import Params
from sims.cardinger.pool import load_pool, prepare_pool
from sims.cardinger.state import CardSet, Keyword
from sims.core import CardDataError, ParamError

GAME = sims.load("cardinger")
HEADER = "set,name,cost,hp,atk,def,draw,score,keywords,source,placeholder"
ROWS = [
    "Starter,Alpha,0,1,1,0,0,1,,inferred,no",
    "Starter,Beta,1,2,0,1,1,0,READY,inferred,no",
    "Booster 1,Gamma,2,1,2,0,0,0,STEAL|DECAY,inferred,no",
]


def same_table(a, b) -> bool:
    """Return True if two card tables hold the same numbers (field by field: padding bytes mean nothing)."""
    return all(np.array_equal(a[f], b[f]) for f in a.dtype.names) and a.dtype == b.dtype


def write_cards(tmp_path, rows, header=HEADER):
    """Write a cards.csv under ``tmp_path`` and return its path."""
    path = tmp_path / "cards.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def test_shipped_cards_load_with_75_rows_and_gun_imp_as_the_only_placeholder():
    pool = load_pool(GAME.cards_path)
    assert len(pool) == 75
    assert [pool.names[i] for i in np.flatnonzero(pool.table["placeholder"])] == ["Gun Imp"]
    counts = {s.name: int((pool.table["set"] == s).sum()) for s in CardSet}
    assert counts == {"STARTER": 19, "BOOSTER1": 20, "BOOSTER2": 17, "BOOSTER3": 19}


def test_shipped_sea_dragon_matches_the_rulebooks_card_example():
    pool = load_pool(GAME.cards_path)
    row = pool.table[pool.names.index("Sea Dragon")]
    stats = tuple(int(row[f]) for f in ("cost", "hp", "atk", "def_", "draw", "score"))
    assert stats == (4, 4, 0, 1, 2, 1)
    assert row["keywords"] == Keyword.PROSPERITY
    assert pool.text["source"][pool.names.index("Sea Dragon")] == "page"


@pytest.mark.parametrize(
    ("variant", "size", "zero_cost"),
    [("modern", 74, 29), ("starter_pool", 39, 16), ("with_gun_imp", 75, 30), ("uniform_decks", 74, 29)],
)
def test_prepare_pool_keeps_the_variants_sets_and_drops_placeholders(variant, size, zero_cost):
    params = GAME.make_params(variant)
    pool = prepare_pool(load_pool(GAME.cards_path), params)
    assert len(pool) == size
    assert int((pool.table["cost"] == 0).sum()) == zero_cost
    assert ("Gun Imp" in pool.names) == (variant == "with_gun_imp")


def test_starter_pool_holds_only_starter_and_booster_1_cards():
    pool = prepare_pool(load_pool(GAME.cards_path), GAME.make_params("starter_pool"))
    assert set(np.unique(pool.table["set"]).tolist()) == {int(CardSet.STARTER), int(CardSet.BOOSTER1)}
    assert not (pool.table["cost"] == 8).any()


def test_loader_reads_sets_keywords_and_the_def_column(tmp_path):
    pool = load_pool(write_cards(tmp_path, ROWS))
    assert pool.names == ("Alpha", "Beta", "Gamma")
    assert pool.table["set"].tolist() == [1, 1, 2]
    assert pool.table["def_"].tolist() == [0, 1, 0]
    assert pool.table["keywords"][2] == Keyword.STEAL | Keyword.DECAY
    assert pool.table["placeholder"].tolist() == [0, 0, 0]


def test_loader_marks_placeholders_from_the_card_file_itself(tmp_path):
    path = write_cards(tmp_path, [ROWS[0], ROWS[1].replace(",no", ",yes"), ROWS[2]])
    assert load_pool(path).table["placeholder"].tolist() == [0, 1, 0]


def test_a_notes_file_beside_the_card_file_changes_nothing(tmp_path):
    """Issue 14: a placeholder claimed by inference_notes.csv used to drop the card; the card file decides."""
    path = write_cards(tmp_path, ROWS)
    before = load_pool(path)
    (tmp_path / "inference_notes.csv").write_text(
        "name,raw_numbers_after_hearts,assigned_columns,confidence,reason\n"
        "Alpha,1 1,atk+score,low,x\nBeta,(missing),,very low (placeholder),y\n",
        encoding="utf-8",
    )
    after = load_pool(path)
    assert same_table(after.table, before.table)
    assert after.text == before.text


def test_a_copied_card_file_without_its_neighbours_loads_the_same_pool(tmp_path):
    """Issue 14: the shipped file copied alone loads 75 cards with Gun Imp still a placeholder."""
    shutil.copy(GAME.cards_path, tmp_path / "cards.csv")
    copy, shipped = load_pool(tmp_path / "cards.csv"), load_pool(GAME.cards_path)
    assert copy.names == shipped.names
    assert same_table(copy.table, shipped.table)
    assert copy.text == shipped.text
    params = GAME.make_params()
    assert prepare_pool(copy, params).names == prepare_pool(shipped, params).names
    assert len(prepare_pool(copy, params)) == 74


def test_loader_requires_the_placeholder_column(tmp_path):
    path = write_cards(tmp_path, [r.rsplit(",", 1)[0] for r in ROWS], HEADER.rsplit(",", 1)[0])
    with pytest.raises(CardDataError, match=r"cards\.csv:1: missing column\(s\) placeholder"):
        load_pool(path)


def test_loader_error_bad_placeholder_value_names_file_line_and_column(tmp_path):
    path = write_cards(tmp_path, [ROWS[0], ROWS[1].replace(",no", ",maybe")])
    with pytest.raises(CardDataError, match=r"cards\.csv:3: column 'placeholder': 'maybe' is not True or False"):
        load_pool(path)


def test_confidence_column_is_optional_and_page_rows_are_certain(tmp_path):
    rows = [ROWS[0], ROWS[1].replace("inferred", "page")]
    assert load_pool(write_cards(tmp_path, rows)).text["confidence"] == ("unknown", "certain")
    with_column = [r + ",medium" for r in rows]
    pool = load_pool(write_cards(tmp_path, with_column, HEADER + ",confidence"))
    assert pool.text["confidence"] == ("medium", "certain")


def test_prepare_pool_puts_cards_in_name_order_whatever_the_row_order(tmp_path):
    """Card id = rank of the name: a moved row gives the same prepared pool (issue 14)."""
    shipped = load_pool(GAME.cards_path)
    lines = GAME.cards_path.read_text(encoding="utf-8").splitlines()
    moved = tmp_path / "cards.csv"
    moved.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n", encoding="utf-8")
    params = GAME.make_params()
    a, b = prepare_pool(shipped, params), prepare_pool(load_pool(moved), params)
    assert a.names == tuple(sorted(a.names))
    assert a.names == b.names
    assert same_table(a.table, b.table)
    assert a.text == b.text


def test_prepare_pool_appends_the_blank_baseline_only_for_a_value_run():
    pool = load_pool(GAME.cards_path)
    normal = prepare_pool(pool, GAME.make_params())
    card = normal.names.index("Blood Knight")
    valued = prepare_pool(pool, GAME.make_params(overrides={"value_card": card}))
    assert valued.names[:-1] == normal.names
    assert valued.names[-1] == "(blank, cost 2)"
    blank = valued.table[-1]
    assert (int(blank["set"]), int(blank["cost"]), int(blank["hp"])) == (0, 2, 1)
    assert int(blank["atk"]) == int(blank["def_"]) == int(blank["draw"]) == int(blank["score"]) == 0
    assert int(blank["keywords"]) == 0
    assert valued.text["source"][-1] == "baseline"
    with pytest.raises(ParamError, match="value_card' = 74: the prepared pool has 74 cards"):
        prepare_pool(pool, GAME.make_params(overrides={"value_card": 74}))


def test_loader_error_missing_column_names_the_file_and_column(tmp_path):
    header = HEADER.replace(",hp", "")
    rows = [r.split(",") for r in ROWS]  # drop the hp cell
    path = write_cards(tmp_path, [",".join(r[:3] + r[4:]) for r in rows], header)
    with pytest.raises(CardDataError, match=r"cards\.csv:1: missing column\(s\) hp"):
        load_pool(path)


def test_loader_error_non_numeric_stat_names_file_line_and_column(tmp_path):
    rows = [*ROWS[:1], ROWS[1].replace(",2,0,1,1,0,", ",2,x,1,1,0,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:3: column 'atk': 'x' is not a whole number"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_out_of_range_stat_names_file_line_and_column(tmp_path):
    rows = [ROWS[0].replace("Alpha,0,1,", "Alpha,0,0,")]
    with pytest.raises(CardDataError, match=r"cards\.csv:2: column 'hp': 0 is outside 1\.\.9"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_unknown_keyword_names_file_line_and_column(tmp_path):
    rows = [*ROWS[:2], ROWS[2].replace("STEAL|DECAY", "STEAL|FLYING")]
    with pytest.raises(CardDataError, match=r"cards\.csv:4: column 'keywords': unknown keyword 'FLYING'"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_duplicate_name_names_file_line_and_column(tmp_path):
    rows = [*ROWS, ROWS[0].replace("Starter", "Booster 2")]
    with pytest.raises(CardDataError, match=r"cards\.csv:5: column 'name': duplicate card 'Alpha' \(first on line 2\)"):
        load_pool(write_cards(tmp_path, rows))


def test_loader_error_unknown_set_names_file_line_and_column(tmp_path):
    rows = [ROWS[0], ROWS[1].replace("Starter", "Booster X")]
    with pytest.raises(CardDataError, match=r"cards\.csv:3: column 'set': unknown set 'Booster X'"):
        load_pool(write_cards(tmp_path, rows))


def test_prepare_pool_rejects_a_pool_too_small_for_a_deck(tmp_path):
    pool = load_pool(write_cards(tmp_path, ROWS))
    with pytest.raises(CardDataError, match=r"cards\.csv: the filtered pool has 3 cards .* but 20 are needed"):
        prepare_pool(pool, Params())


def test_prepare_pool_rejects_shared_decks_from_the_starter_pool():
    params = GAME.make_params("starter_pool", {"deck_source": "shared_set"})
    with pytest.raises(CardDataError, match="39 cards the deck builder may use, but 40 are needed"):
        prepare_pool(load_pool(GAME.cards_path), params)


def test_prepare_pool_counts_only_cards_the_recommended_builder_may_use():
    params = Params(deck_size=40, card_sets=15)  # 74 cards, of which 70 are not cost 8
    pool = prepare_pool(load_pool(GAME.cards_path), params._replace(deck_builder=1))
    assert len(pool) == 74
    with pytest.raises(CardDataError, match="70 cards the deck builder may use"):
        prepare_pool(load_pool(GAME.cards_path), params._replace(deck_size=36, deck_source=1))


@pytest.mark.parametrize(
    ("key", "value"), [("deck_size", 41), ("field_limit", 9), ("max_turns", 0), ("prosperity_step", 0)]
)
def test_prepare_pool_rejects_parameters_beyond_the_kernels_bounds(key, value):
    with pytest.raises(ParamError, match=key):
        prepare_pool(load_pool(GAME.cards_path), Params()._replace(**{key: value}))


def test_every_card_carries_its_inference_confidence_for_reports():
    pool = load_pool(GAME.cards_path)
    confidence = dict(zip(pool.names, pool.text["confidence"], strict=True))
    assert confidence["Sea Dragon"] == "certain"  # source = page
    assert "placeholder" in confidence["Gun Imp"]
    assert confidence["Surprise Attack"] == "high"
    assert "unknown" not in confidence.values()
    kept = prepare_pool(pool, Params())
    assert len(kept.text["confidence"]) == len(kept)
