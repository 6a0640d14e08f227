"""GameSpec parameter handling: symbolic values, flags, type checks, variants; GameInfo without the kernels."""

import subprocess
import sys

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


@pytest.mark.parametrize("name", sims.available())
def test_info_is_what_the_spec_says(name):
    info, game = sims.info(name), sims.load(name)
    assert (info.name, info.rules_version) == (game.name, game.rules_version)
    assert info.variants is game.variants
    assert info.card_events == tuple(game.extra.get("card_events") or ())


def test_info_of_an_unknown_game_lists_known_games():
    with pytest.raises(KeyError, match="known games: cardinger"):
        sims.info("chess")


def _modules_after(code):
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


# Cardia's variants are built from the enums of its state.py, which imports the jit: its INFO loads Numba.
@pytest.mark.parametrize("name", ["cardinger", "blessings", "cardrpg", "cardwars"])
def test_info_imports_neither_numba_nor_the_kernels(name):
    code = f"import sys, sims; sims.info({name!r}); print(*sys.modules)"
    loaded = _modules_after(code)
    assert "sims" in loaded
    assert not {"numba", f"sims.{name}.kernel", f"sims.{name}.bots", "sims.core.jit"} & loaded


def test_the_game_is_built_once_on_first_use_and_kernel_is_still_exported():
    loaded = _modules_after("import sys, sims.cardwars, sims.core; print(*sys.modules)")
    assert "numba" not in loaded
    assert "sims.cardwars.kernel" not in loaded
    import sims.cardwars
    from sims.core import kernel
    from sims.core.jit import kernel as jit_kernel

    assert kernel is jit_kernel
    game = sims.load("cardwars")
    assert sims.cardwars.GAME is game
    assert sims.load("cardwars") is game
    from sims.cardwars import GAME

    assert GAME is game
    with pytest.raises(AttributeError, match="no attribute 'GAMES'"):
        sims.cardwars.GAMES  # noqa: B018
