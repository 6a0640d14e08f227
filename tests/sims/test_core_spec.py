"""GameSpec parameter handling: symbolic values, flags, type checks, variants."""

import pytest

import sims
from sims.core import ParamError


@pytest.fixture(scope="module")
def game():
    return sims.load("cardinger")


def test_variant_overrides_apply_on_top_of_modern_defaults(game):
    modern, digital = game.make_params("modern"), game.make_params("digital")
    assert modern._replace(replenish_timing=digital.replenish_timing) == digital
    assert modern.replenish_timing != digital.replenish_timing


def test_symbolic_values_and_flag_lists_become_codes(game):
    params = game.make_params(overrides={"card_sets": "starter,booster1", "play_limit": "unlimited"})
    names = game.describe_params(params)
    assert names["card_sets"] == "starter,booster1"
    assert names["play_limit"] == "unlimited"
    assert game.make_params(overrides={"idle_extra_draw": "false"}).idle_extra_draw == 0
    assert game.make_params(overrides={"max_turns": "300"}).max_turns == 300


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"max_turn": 3}, "unknown parameter 'max_turn'"),
        ({"max_turns": 2.5}, "is not a whole number"),
        ({"play_limit": "half_hand_up,unlimited"}, "expected one of"),
        ({"card_sets": "starter,booster9"}, "unknown value 'booster9'"),
    ],
)
def test_bad_overrides_are_rejected_with_the_parameter_name(game, overrides, message):
    with pytest.raises(ParamError, match=message):
        game.make_params(overrides=overrides)


def test_classic_is_named_but_not_runnable(game):
    assert "classic" in game.variants
    with pytest.raises(ParamError, match="not runnable"):
        game.make_params("classic")


def test_unknown_game_lists_known_games():
    with pytest.raises(KeyError, match="known games: cardinger"):
        sims.load("chess")
