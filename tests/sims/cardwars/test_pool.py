"""Card Wars card data: the pool, the starter decks, abilities.csv, custom deck lists, value-mode baselines."""

import shutil
from pathlib import Path

import numpy as np
import pytest

import sims
from balance.spec import RunSpec, SpecError, resolve
from sims.cardwars import pool as cw_pool
from sims.cardwars.state import CardType, Effect, Landscape, Part, StarterDeck, Target
from sims.core import CardDataError, ParamError

GAME = sims.load("cardwars")
HERE = Path(GAME.cards_path).parent


@pytest.fixture(scope="module")
def pool():
    return GAME.load_pool(GAME.cards_path)


def test_the_pool_has_87_distinct_cards_and_four_40_card_starters(pool):
    assert len(pool) == 87
    for deck in ("in_finn", "in_jake", "in_bmo", "in_rainicorn"):
        assert int(pool.table[deck].sum()) == 40
        assert int(pool.table[deck].max()) <= 3


def test_cards_shared_by_decks_are_one_card_with_each_decks_copies(pool):
    row = pool.table[pool.names.index("Blood Fortress")]
    assert (row["in_finn"], row["in_jake"], row["in_bmo"], row["in_rainicorn"]) == (1, 2, 2, 2)
    teleport = pool.table[pool.names.index("Teleport")]
    assert (teleport["in_finn"], teleport["in_jake"], teleport["in_bmo"], teleport["in_rainicorn"]) == (2, 2, 0, 2)


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("Husker Knight", {"type": CardType.CREATURE, "land": Landscape.CORNFIELD, "cost": 2, "atk": 0, "def_": 0}),
        ("The Pig", {"land": Landscape.RAINBOW, "cost": 1, "atk": 1, "def_": 4, "floop": 1}),
        ("Abraca Amadeus", {"type": CardType.SPELL, "cost": 2}),  # corrected from the scans (DATA.md)
        ("Sand Sphinx", {"type": CardType.BUILDING, "cost": 2, "floop": 1}),
    ],
)
def test_printed_fields_are_read(pool, name, fields):
    row = pool.table[pool.names.index(name)]
    for key, value in fields.items():
        assert row[key] == value, key


def test_abilities_are_encoded_as_data(pool):
    husker = pool.table[pool.names.index("Husker Knight")]
    assert (husker["s1_stat"], husker["s1_amount"], husker["s2_stat"], husker["s2_amount"]) == (1, 1, 2, 2)
    assert husker["s1_land"] == Landscape.CORNFIELD
    scholar = pool.table[pool.names.index("Ancient Scholar")]
    assert scholar["trigger"] == Part.FLOOP
    assert (scholar["e1_effect"], scholar["e2_effect"]) == (Effect.RETURN_RANDOM, Effect.GAIN_ACTION)
    assert pool.table[pool.names.index("Corn Scepter")]["e1_target"] == Target.CREATURE


def test_every_card_has_an_ability_row_and_only_vanilla_creatures_have_none(pool):
    vanilla = {"Drooling Dude", "Evil Eye", "Phyllis", "Blonde MerWitch", "Sand Angel"}
    for c, name in enumerate(pool.names):
        row = pool.table[c]
        encoded = any(
            row[f] for f in ("s1_stat", "au_stat", "special", "pf_on", "dc_on", "trigger", "xcost", "act_cost")
        )
        assert encoded == (name not in vanilla), name


def test_the_card_dimension_shows_printed_fields_only(pool):
    from balance.parts import card_dimension

    dim = card_dimension(pool, GAME.enums["card_dim"])
    assert dim.columns == [
        "card", "name", "type", "land", "cost", "atk", "def", "floop", "in_finn", "in_jake", "in_bmo", "in_rainicorn"
    ]  # fmt: skip
    assert dim.filter(dim["name"] == "Shark")["land"].item() == "sandylands"


def _copy_data(tmp_path, edit_cards=None, edit_abilities=None):
    for name in ("cards.csv", "abilities.csv"):
        shutil.copy(HERE / name, tmp_path / name)
    for name, edit in (("cards.csv", edit_cards), ("abilities.csv", edit_abilities)):
        if edit:
            path = tmp_path / name
            path.write_text(edit(path.read_text()))
    return tmp_path / "cards.csv"


@pytest.mark.parametrize(
    ("cards", "abilities", "message"),
    [
        (lambda t: t.replace("finn,Cool Dog,Creature", "finn,Cool Dog,Spaceship"), None, ":3: column 'type'"),
        (lambda t: t.replace("Blue Plains,2,2,7,2,no", "Blue Plains,2,2,7,4,no"), None, ":3: column 'copies'"),
        (
            lambda t: t.replace("jake,Teleport,Spell,Rainbow,0", "jake,Teleport,Spell,Rainbow,1"),
            None,
            "column 'cost': 'Teleport' is '1' here but '0' in its row at",
        ),
        (lambda t: t.replace("bmo,Abraca", "bmoo,Abraca"), None, "column 'deck': unknown value 'bmoo'"),
        (None, lambda t: t.replace("Gnome Snot,spell,draw", "Gnome Snot,spell,drawz"), "column 'effect'"),
        (None, lambda t: t.replace("Sand Angel,none,,,,,,,\n", ""), "no row for 'Sand Angel'"),
        (None, lambda t: t.replace("Fummy,floop", "Fummy,activate"), "'Fummy': cards.csv says floop=True"),
        (None, lambda t: t + "Nobody,none,,,,,,,\n", "column 'name': 'Nobody' is not a card"),
    ],
)
def test_bad_card_data_is_a_one_line_error_naming_file_and_line(tmp_path, cards, abilities, message):
    path = _copy_data(tmp_path, cards, abilities)
    with pytest.raises(CardDataError) as info:
        cw_pool.load_pool(path)
    text = str(info.value)
    assert message in text
    assert str(tmp_path) in text
    assert "\n" not in text


def _deck_file(tmp_path, rows, name="decks.csv"):
    path = tmp_path / name
    path.write_text("deck,card,copies\n" + "".join(f"{d},{c},{n}\n" for d, c, n in rows))
    return path


def _forty(deck="mine"):
    names = [
        "Phyllis", "Evil Eye", "Sand Angel", "The Pig", "Cool Dog", "Dragon Claw", "Fummy", "Shark",
        "Gnome Snot", "Teleport", "Blood Fortress", "Celestial Castle", "Punk Cat",
    ]  # fmt: skip
    rows = [(deck, n, 3) for n in names]  # 39
    return [*rows, (deck, "Husker Knight", 1)]


def test_custom_decks_load_with_copies_and_play_padded(tmp_path):
    path = _deck_file(tmp_path, _forty("a") + _forty("b") + [("b", "Cornataur", 1)])
    r = resolve(RunSpec(game="cardwars", decks_file=str(path), deck_names=("a", "b"), bots=("random", "random")))
    assert r.params.deck_builder == 1
    assert (r.decks[0] >= 0).sum() == 40
    assert (r.decks[1] >= 0).sum() == 41  # E18: 41 cards are fine
    ids = r.decks[0][r.decks[0] >= 0]
    assert (ids == r.pool.names.index("Phyllis")).sum() == 3


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (_forty()[:-1], "deck 'mine' has 39 cards; the rules require at least 40"),  # E18
        ([*_forty(), ("mine", "The Pig", 1)], "deck 'mine' has 4 copies of 'The Pig'; the rules allow 3"),  # E18
        ([*_forty(), ("mine", "Pigg", 1)], "'Pigg' is not in the card pool"),
    ],
)
def test_bad_custom_decks_are_one_line_errors(tmp_path, rows, message):
    path = _deck_file(tmp_path, rows)
    with pytest.raises(SpecError) as info:
        resolve(RunSpec(game="cardwars", decks_file=str(path), deck_names=("mine", "mine")))
    assert message in str(info.value)
    assert str(path) in str(info.value)


def test_starter_decks_by_name_and_bad_names(tmp_path):
    r = resolve(RunSpec(game="cardwars", deck_names=("bmo", "rainicorn")))
    assert (r.params.deck_0, r.params.deck_1) == (3, 4)
    with pytest.raises(SpecError, match="has no deck 'bmoo'; its decks: finn, jake, bmo, rainicorn"):
        resolve(RunSpec(game="cardwars", deck_names=("bmoo", "finn")))


def test_value_mode_appends_the_vanilla_baseline(pool):
    c = pool.names.index("Husker Knight")
    params = GAME.make_params(None, {"value_card": c})
    prepared = GAME.prepare_pool(pool, params)
    assert len(prepared) == len(pool) + 1
    base = prepared.table[-1]
    assert (base["type"], base["land"], base["cost"], base["atk"], base["def_"]) == (0, Landscape.CORNFIELD, 2, 3, 9)
    assert base["trigger"] == 0
    assert base["s1_stat"] == 0
    assert prepared.names[-1] == "vanilla for Husker Knight"
    assert int(base["in_jake"]) == 0


def test_value_mode_baseline_for_a_spell_and_no_ability(pool):
    c = pool.names.index("Gnome Snot")
    vanilla = GAME.prepare_pool(pool, GAME.make_params(None, {"value_card": c})).table[-1]
    assert (vanilla["type"], vanilla["land"], vanilla["atk"], vanilla["def_"]) == (0, Landscape.BLUE_PLAINS, 2, 7)
    bare = GAME.prepare_pool(pool, GAME.make_params(None, {"value_card": c, "value_baseline": "no_ability"})).table[-1]
    assert (bare["type"], bare["trigger"], bare["e1_effect"]) == (CardType.SPELL, Part.SPELL, 0)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"value_card": 500}, "the pool has cards 0..86"),
        ({"value_card": 0, "deck_0": "jake"}, "is not in deck 'jake' (deck_0)"),  # Ancient Scholar is Finn's
        ({"value_card": 0, "deck_builder": "fixed"}, "value mode plays the starter decks"),
        ({"max_turns": 5000}, "'max_turns' = 5000 is outside 1..1000"),
    ],
)
def test_bad_parameters_are_refused(pool, overrides, message):
    with pytest.raises(ParamError, match=None) as info:
        GAME.prepare_pool(pool, GAME.make_params(None, overrides))
    assert message in str(info.value)


def test_starter_names_match_the_deck_enum():
    assert [d.name.lower() for d in StarterDeck] == ["finn", "jake", "bmo", "rainicorn"]
    assert np.array_equal(
        [GAME.choices["deck_0"][n.upper()].value for n in ("random", "finn", "jake", "bmo", "rainicorn")], range(5)
    )
