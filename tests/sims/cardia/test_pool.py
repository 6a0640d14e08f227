"""Cardia card data: the shipped tables, loader errors naming file:line, parameters, the value baselines."""

import csv
from pathlib import Path

import numpy as np
import pytest

import sims
from sims.cardia.pool import load_pool, prepare_pool, rule_of
from sims.cardia.state import LOCATION_DIFFICULTY, ONGOING_ABILITIES, Ability, Deck, Faction, Location
from sims.core import CardDataError, ParamError

GAME = sims.load("cardia")
POOL = load_pool(GAME.cards_path)
HEADER = "deck,influence,name,faction,ability_type,ability,status"


def write(tmp_path, rows, name="cards.csv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n")
    return path


def test_both_decks_hold_one_card_of_each_influence_1_to_16():
    for deck in Deck:
        rows = POOL.table[POOL.table["deck"] == deck]
        assert sorted(rows["influence"].tolist()) == list(range(1, 17))


def test_factions_cycle_with_influence_as_the_data_notes_say():
    expected = [Faction((i - 1) % 4) for i in POOL.table["influence"]]
    assert POOL.table["faction"].tolist() == [int(f) for f in expected]


def test_every_card_carries_the_rule_of_its_name_and_its_type():
    for c, name in enumerate(POOL.names):
        rule = rule_of(name)
        assert POOL.table[c]["effect"] == rule
        assert POOL.table[c]["ongoing"] == (rule in ONGOING_ABILITIES)
    assert set(POOL.table["effect"].tolist()) == {int(a) for a in Ability if a != Ability.NONE}


def test_the_six_ongoing_cards_are_the_rulings_ones():
    ongoing = {POOL.names[c] for c in np.flatnonzero(POOL.table["ongoing"])}
    assert ongoing == {"Mediator", "Judge", "Treasurer", "Aristocrat", "Counselor", "Mechanical Djinn"}


def test_locations_csv_matches_the_kernel_locations_and_difficulty():
    rows = list(csv.DictReader((Path(GAME.cards_path).parent / "locations.csv").read_text().splitlines()))
    names = [r["name"].upper().replace(" ", "_").replace("'", "") for r in rows]
    assert names == [loc.name for loc in Location if loc not in (Location.NONE, Location.SWEEP)]
    assert [int(r["difficulty"]) for r in rows] == list(LOCATION_DIFFICULTY[1:])


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("I,1,Hired Sword,Rebellion,instant,x,sourced", "column 'name': no rule for card 'Hired Sword'"),
        ("I,4,Mediator,Dynasty,instant,x,sourced", "column 'ability_type': Mediator's rule is ongoing"),
        ("III,1,Hired Blade,Rebellion,instant,x,sourced", "column 'deck': unknown value 'III'"),
        ("I,one,Hired Blade,Rebellion,instant,x,sourced", "column 'influence': 'one' is not a whole number"),
        ("I,1,Hired Blade,Swamp,instant,x,sourced", "column 'faction': unknown value 'Swamp'"),
    ],
)
def test_bad_rows_are_one_line_errors_naming_file_and_line(tmp_path, row, message):
    path = write(tmp_path, ["I,2,Void Mage,Academy,instant,x,sourced", row])
    with pytest.raises(CardDataError) as info:
        load_pool(path)
    assert f"{path}:3: {message}" in str(info.value)


def test_a_designer_may_change_influence_and_the_rule_follows_the_name(tmp_path):
    path = write(tmp_path, ["I,9,Djinn,Dynasty,instant,x,sourced", "I,1,Judge,Dynasty,ongoing,x,sourced"])
    pool = load_pool(path)
    assert pool.table["influence"].tolist() == [9, 1]
    assert pool.table["effect"].tolist() == [Ability.DJINN, Ability.JUDGE]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"max_rounds": 0}, "'max_rounds' = 0 is outside 1..64"),
        ({"match_games_cap": 10}, "'match_games_cap' = 10 is outside 1..9"),
        ({"value_card": 99}, "'value_card' = 99: the pool has cards 0..31"),
        ({"value_card": 19}, "Tax Collector (deck II) is not in the decks"),
        ({"value_card": 3, "deck": "sweep"}, "needs one deck"),
        ({"value_swap": 2}, "'value_swap' must be 0 or 1"),
    ],
)
def test_bad_parameters_are_clear_errors(overrides, message):
    with pytest.raises(ParamError, match=None) as info:
        prepare_pool(POOL, GAME.make_params(None, overrides))
    assert message in str(info.value)


def test_the_blank_baseline_is_the_card_under_test_without_its_ability():
    params = GAME.make_params(None, {"value_card": 15})
    pool = prepare_pool(POOL, params)
    assert len(pool) == len(POOL) + 1
    blank = pool.table[-1]
    assert pool.names[-1] == "Djinn (blank)"
    assert (blank["influence"], blank["faction"], blank["deck"]) == (16, Faction.DYNASTY, Deck.I)
    assert (blank["effect"], blank["ongoing"], blank["baseline"]) == (Ability.NONE, 0, 1)
    assert (pool.table[:-1] == POOL.table).all()


def test_the_counterpart_baseline_appends_nothing():
    params = GAME.make_params(None, {"value_card": 15, "value_baseline": "counterpart"})
    assert len(prepare_pool(POOL, params)) == len(POOL)


def test_mixed_decks_accept_the_card_of_the_chosen_faction_deck():
    params = GAME.make_params("mixed_I_I_I_II", {"value_card": POOL.names.index("Successor")})
    assert len(prepare_pool(POOL, params)) == len(POOL) + 1
    with pytest.raises(ParamError, match="Djinn"):
        prepare_pool(POOL, GAME.make_params("mixed_I_I_I_II", {"value_card": POOL.names.index("Djinn")}))


def test_the_game_spec_declares_the_value_interface():
    assert list(GAME.value_baselines) == ["blank", "counterpart"]
    assert GAME.choices["value_baseline"].BLANK == 0
    assert GAME.params.value_card == -1
    assert GAME.params.value_swap == 0
