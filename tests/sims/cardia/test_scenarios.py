"""Cardia's rules tests written as scenarios: one file per rulebook example, ruling, card and location.

Every file under ``scenarios/`` is played through the kernel's own rule functions
(``balance scenario`` does the same) and must PASS. The coverage tests check that every
card of both decks activates (or is copied) and every location is in play in at least
one file; the error tests check that positions the rules could not produce are one-line
errors naming the file and key.
"""

import tomllib
from pathlib import Path

import pytest

import sims
from balance.scenario import run_scenario
from sims.cardia.state import Location
from sims.core import ScenarioError

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.toml"))
GAME = sims.load("cardia")
POOL = GAME.load_pool(GAME.cards_path)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_passes(path):
    result = run_scenario(path)
    detail = [f"{m.key}: expected {m.expected!r}, observed {m.observed!r}" for m in result.mismatches]
    assert result.passed, "\n".join([*detail, *result.outcome.table])


def test_every_card_is_activated_or_copied_in_some_scenario():
    seen: set[str] = set()
    for path in FILES:
        outcome = run_scenario(path).outcome
        seen |= {entry.split(":", 1)[1] for entry in [*outcome.observed["activated"], *outcome.observed["copied"]]}
    assert set(POOL.names) - seen == set()


def test_every_location_is_played_in_some_scenario():
    played = set()
    for path in FILES:
        data = tomllib.loads(path.read_text())
        variant = GAME.variants[data.get("variant", GAME.default_variant)]
        played.add(data.get("position", {}).get("location") or variant.overrides.get("location", "none"))
    assert {loc.name.lower() for loc in Location if loc not in (Location.NONE, Location.SWEEP)} <= played


def test_every_rulebook_example_has_a_scenario():
    stems = {p.stem.split("_")[0].rstrip("ab") for p in FILES}
    assert {f"e{i:02d}" for i in range(1, 19)} <= stems


GOOD_POSITION = '[position]\nhand.0 = ["Saboteur"]\nhand.1 = ["Judge"]\n'
BAD = [
    ('[position]\nhand.0 = ["Judge"]\ndiscard.0 = ["Judge"]\n', "key 'seat 0': 'Judge' is already in 'seat 0'"),
    (
        '[position]\nencounters = [{ cards = ["Saboteur", "Judge"], signets = [1, 0] }]\n',
        "key 'position.encounters[1].signets': [1, 0] contradicts the derived [0, 1] (R5)",
    ),
    ('[position]\nhand.0 = ["Nobody"]\n', "key 'position.hand.0': unknown card 'Nobody'"),
    ('[position]\nhand.0 = ["Poisoner"]\n', "key 'position.hand.0': 'Poisoner' is not in the decks of this variant"),
    ('[position]\nhands.0 = ["Judge"]\n', "key 'position.hands' is unknown"),
    ('[position]\nhand.2 = ["Judge"]\n', "key 'position.hand.2': seats are 0 and 1"),
    ("[position]\nsignets = [1, 0]\n", "key 'position.signets': [1, 0] contradicts the derived [0, 0] (R5)"),
    ('[position]\nlocation = "moon"\n', "key 'position.location': unknown location 'moon'"),
    (GOOD_POSITION + '[[moves]]\nplay = ["Judge", "Judge"]\n', "key 'moves[1].play': seat 0 does not hold that card"),
    (
        GOOD_POSITION + '[[moves]]\nplay = ["Saboteur", "Judge"]\nchoices.0 = ["guild"]\n',
        "key 'moves': 1 choice(s) of seat 0 were never asked for",
    ),
    (GOOD_POSITION + '[[moves]]\nplay = ["Saboteur"]\n', "key 'moves[1].play': expected [seat 0's card"),
    (GOOD_POSITION + '[[moves]]\nplay = ["Saboteur", "Judge"]\nwhen = 1\n', "key 'moves[1].when' is unknown"),
]


@pytest.mark.parametrize(("body", "message"), BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_positions_the_rules_cannot_produce_are_one_line_errors(tmp_path, body, message):
    path = tmp_path / "bad.toml"
    path.write_text(f'game = "cardia"\n{body}[expect]\nover = false\n')
    with pytest.raises(ScenarioError) as info:
        run_scenario(path)
    text = str(info.value)
    assert message in text
    assert str(path) in text
    assert "\n" not in text


def test_a_scripted_choice_that_is_not_legal_names_the_move_and_choice(tmp_path):
    path = tmp_path / "illegal.toml"
    path.write_text(
        'game = "cardia"\n[position]\n'
        'encounters = [{ cards = ["Surgeon", "Mediator"] }, { cards = ["Saboteur", "Judge"] }]\n'
        'hand.0 = ["Swamp Guardian"]\nhand.1 = ["Djinn"]\n'
        '[[moves]]\nplay = ["Swamp Guardian", "Djinn"]\nchoices.0 = ["1:Mediator"]\n[expect]\nover = false\n'
    )
    with pytest.raises(ScenarioError, match=r"key 'moves\[1\]\.choices\.0': choice 1 \(swamp target\) is not a legal"):
        run_scenario(path)


def test_a_choice_of_the_wrong_kind_is_named(tmp_path):
    path = tmp_path / "kind.toml"
    path.write_text(
        'game = "cardia"\n[position]\nhand.0 = ["Ambusher"]\nhand.1 = ["Puppeteer", "Judge"]\n'
        '[[moves]]\nplay = ["Ambusher", "Puppeteer"]\nchoices.0 = ["Judge"]\n[expect]\nover = false\n'
    )
    with pytest.raises(ScenarioError, match=r"choice 1 \(ambush faction\) is the wrong kind of choice"):
        run_scenario(path)


def test_moves_after_the_game_ended_are_refused(tmp_path):
    path = tmp_path / "over.toml"
    path.write_text(
        'game = "cardia"\n[position]\nhand.0 = ["Puppeteer", "Judge"]\nhand.1 = ["Magistra"]\n'
        '[[moves]]\nplay = ["Puppeteer", "Magistra"]\n[[moves]]\nplay = ["Judge", "Magistra"]\n[expect]\nover = true\n'
    )
    with pytest.raises(ScenarioError, match=r"key 'moves\[2\]': the game is already over"):
        run_scenario(path)
