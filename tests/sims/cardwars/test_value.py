"""The counterfactual card-value interface (issue 9): paired arms that differ only in the holder's copies."""

import numpy as np
import pytest

import sims

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)
N = 24


def play(overrides, n=N, seed=5, tables=("games", "seats", "cards")):
    params = GAME.make_params(None, overrides)
    pool = GAME.prepare_pool(POOL, params)
    bots = np.array([1, 1], dtype=np.int64)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    out = GAME.play_chunk(params, pool, np.zeros((2, 1), np.int16), bots, weights, seed, 0, n, tables)
    return out, pool


def rows(cards, game, seat):
    sel = cards[(cards["game"] == game) & (cards["seat"] == seat)]
    return {int(r["card"]): int(r["copies"]) for r in sel}


@pytest.mark.parametrize("name", ["The Pig", "Blood Fortress", "Husker Knight"])
def test_arm_zero_puts_the_card_in_the_holders_deck(name):
    c = POOL.names.index(name)
    out, _ = play({"value_card": c, "value_swap": 0})
    for g in range(N):
        holder = g % 2
        assert rows(out["cards"], g, holder).get(c, 0) >= 1


@pytest.mark.parametrize("name", ["The Pig", "Gnome Snot", "Husker Knight"])
def test_arm_one_replaces_only_the_holders_copies(name):
    c = POOL.names.index(name)
    arm0, pool = play({"value_card": c, "value_swap": 0})
    arm1, _ = play({"value_card": c, "value_swap": 1})
    base = len(pool) - 1
    g0, g1 = arm0["games"], arm1["games"]
    assert np.array_equal(g0["first_seat"], g1["first_seat"])
    assert np.array_equal(g0["deck_0"], g1["deck_0"])
    assert np.array_equal(g0["deck_1"], g1["deck_1"])
    for g in range(N):
        holder = g % 2
        with_card, swapped = rows(arm0["cards"], g, holder), rows(arm1["cards"], g, holder)
        assert c not in swapped
        assert swapped[base] == with_card[c]
        assert {k: v for k, v in swapped.items() if k != base} == {k: v for k, v in with_card.items() if k != c}
        assert rows(arm0["cards"], g, 1 - holder) == rows(arm1["cards"], g, 1 - holder)  # the opponent's deck


def test_the_arms_diverge_only_once_the_card_matters():
    c = POOL.names.index("Travelin' Farmer")
    arm0, _ = play({"value_card": c, "value_swap": 0}, n=60)
    arm1, _ = play({"value_card": c, "value_swap": 1}, n=60)
    same = np.array_equal(arm0["games"]["winner"], arm1["games"]["winner"])
    differ = (arm0["games"]["turns"] != arm1["games"]["turns"]).sum()
    assert not same or differ > 0  # the swap changes some games ...
    assert differ < 60  # ... but not every one (the card is not always drawn)


def test_value_card_minus_one_plays_exactly_the_normal_games():
    normal, _ = play({})
    explicit, _ = play({"value_card": -1, "value_swap": 1, "value_baseline": "no_ability"})
    for table in ("games", "seats", "cards"):
        a, b = normal[table], explicit[table]
        assert all(np.array_equal(a[f], b[f]) for f in a.dtype.names), table


def test_the_value_baselines_are_declared_for_balance_value():
    assert list(GAME.value_baselines) == ["vanilla", "no_ability"]
    assert GAME.choices["value_baseline"]["VANILLA"].value == 0
