"""The generic scenario runner: TOML in, PASS/FAIL out, one-line errors for bad files.

A stand-in game (Cardinger's spec with a toy ``play_scenario``) isolates the runner from
any game's rules; each game's own scenarios live beside its rules tests.
"""

from dataclasses import replace

import pytest
from click.testing import CliRunner

import sims
from balance.cli import cli
from balance.scenario import run_scenario
from sims.core import Outcome, ScenarioError
from sims.core.scenario import card_ids, check_unique_places, flatten

REAL_LOAD = sims.load


def toy_scenario(params, pool, scenario, source):
    """Sum the costs of the cards in position.hand; report the sum and the hand size."""
    index = {n: i for i, n in enumerate(pool.names)}
    hand = card_ids(scenario.get("position", {}).get("hand", []), index, source, "position.hand")
    check_unique_places({"position.hand": hand}, pool.names, source)
    cost = int(pool.table["cost"][hand].sum())
    return Outcome({"hand.size": len(hand), "hand.cost": cost, "target": int(params.target_score)}, [f"hand {hand}"])


@pytest.fixture
def toy_game(monkeypatch):
    def load(name):
        game = REAL_LOAD(name)
        return replace(game, play_scenario=toy_scenario) if name == "cardinger" else game

    monkeypatch.setattr(sims, "load", load)


def write(tmp_path, body, name="s.toml"):
    path = tmp_path / name
    path.write_text(body)
    return path


def test_flatten_joins_nested_tables_with_dots():
    assert flatten({"a": {"b": 1, "c": {"d": [2]}}, "e": True}) == {"a.b": 1, "a.c.d": [2], "e": True}


def test_a_matching_scenario_passes_and_params_reach_the_game(toy_game, tmp_path):
    path = write(
        tmp_path,
        'game = "cardinger"\n[params]\ntarget_score = 25\n[position]\nhand = ["Bumblebee", "Pick Boy"]\n'
        "[expect]\nhand = { size = 2, cost = 0 }\ntarget = 25\n",
    )
    result = run_scenario(path)
    assert result.passed, result.mismatches
    assert result.name == "s"


def test_a_differing_value_fails_and_names_the_key(toy_game, tmp_path):
    path = write(tmp_path, 'game = "cardinger"\n[position]\nhand = ["Bumblebee"]\n[expect]\nhand.size = 2\n')
    result = run_scenario(path)
    assert not result.passed
    assert [(m.key, m.expected, m.observed) for m in result.mismatches] == [("hand.size", 2, 1)]


def test_true_is_not_one(toy_game, tmp_path):
    path = write(tmp_path, 'game = "cardinger"\n[position]\nhand = ["Bumblebee"]\n[expect]\nhand.size = true\n')
    assert not run_scenario(path).passed


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('game = "cardinger"\n[expect]\n', "needs an [expect] table"),
        ('game = "chess"\n[expect]\na = 1\n', "key 'game': expected one of"),
        ('game = "cardinger"\nmovez = 1\n[expect]\na = 1\n', "unknown key 'movez'"),
        ('game = "cardinger"\n[expect]\nnope = 1\n', "key 'expect.nope': cardinger reports no such key"),
        ('game = "cardinger"\n[position]\nhand = ["Nobody"]\n[expect]\ntarget = 20\n', "unknown card 'Nobody'"),
        (
            'game = "cardinger"\n[position]\nhand = ["Bumblebee", "Bumblebee"]\n[expect]\ntarget = 20\n',
            "'Bumblebee' is already in 'position.hand'",
        ),
        ('game = "cardinger"\nvariant = "ancient"\n[expect]\ntarget = 20\n', "unknown variant 'ancient'"),
        ('game = "cardinger"\n[params]\nwarp = 1\n[expect]\ntarget = 20\n', "unknown parameter 'warp'"),
        ("game = \n", "invalid TOML"),
    ],
)
def test_bad_scenarios_are_one_line_errors_naming_file_and_key(toy_game, tmp_path, body, message):
    path = write(tmp_path, body)
    with pytest.raises(ScenarioError, match=None) as info:
        run_scenario(path)
    text = str(info.value)
    assert message in text
    assert str(path) in text
    assert "\n" not in text


def test_cli_prints_pass_fail_and_exits_one_on_a_failure(toy_game, tmp_path):
    good = write(tmp_path, 'game = "cardinger"\n[expect]\ntarget = 20\n', "good.toml")
    bad = write(tmp_path, 'game = "cardinger"\n[expect]\ntarget = 21\n', "bad.toml")
    result = CliRunner().invoke(cli, ["scenario", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"PASS  {good}" in result.output
    assert f"FAIL  {bad}" in result.output
    assert "expected target = 21, observed 20" in result.output
    assert "1 passed, 1 failed" in result.output


def test_cli_bad_file_is_one_line_error(tmp_path):
    result = CliRunner().invoke(cli, ["scenario", str(tmp_path / "missing.toml")])
    assert result.exit_code != 0
    assert "missing.toml" in result.output
    assert "Traceback" not in result.output


def test_a_game_without_scenario_support_says_so(tmp_path):
    path = write(tmp_path, 'game = "cardinger"\n[expect]\ntarget = 20\n')
    with pytest.raises(ScenarioError, match="has no scenario support yet"):
        run_scenario(path)
