"""Cards whose arm-0 games are the same games share them: the same sums as two-arm batches, fewer games."""

from dataclasses import replace

import numpy as np
import pytest

from balance.pairs import make_setup, pool_names
from balance.spec import SpecError
from balance.value import ValueOptions, arm_digest, card_values, group_batch, group_key, value_batch

CARDWARS = make_setup("cardwars")
CW_NAMES = pool_names(CARDWARS.with_params(value_card=-1))
JAKE = ("Archer Dan", "Big Foot", "Corn Dog")  # cards of Jake's starter deck only
CARDINGER = make_setup("cardinger")


def _ids(names):
    return [CW_NAMES.index(n) for n in names]


def test_card_wars_cards_of_one_starter_deck_share_arm_zero_and_others_do_not():
    cards = [*_ids(JAKE), CW_NAMES.index("Cool Dog")]  # Cool Dog: Finn's deck only
    groups = group_key({c: arm_digest(CARDWARS, c, "vanilla", 1, 64) for c in cards})
    jake = {groups[c] for c in _ids(JAKE)}
    assert len(jake) == 1
    assert groups[CW_NAMES.index("Cool Dog")] not in jake


def test_cardinger_cards_each_have_their_own_arm_zero():
    names = pool_names(CARDINGER.with_params(value_card=-1))
    cards = [names.index(n) for n in ("Shark", "Pick Boy", "Blood Knight")]
    groups = group_key({c: arm_digest(CARDINGER, c, "same_cost", 1, 64) for c in cards})
    assert sorted(groups.values()) == sorted(cards)


def test_a_shared_batch_gives_every_card_exactly_its_two_arm_sums():
    cards = _ids(JAKE)
    shared = group_batch(CARDWARS, cards, "vanilla", 3, 200, 150)
    for card, sums in zip(cards, shared, strict=True):
        assert np.array_equal(sums, value_batch(CARDWARS, card, "vanilla", 3, 200, 150))


def test_cards_that_do_not_share_arm_zero_are_refused_by_the_check():
    names = pool_names(CARDINGER.with_params(value_card=-1))
    with pytest.raises(SpecError, match="differ"):
        group_batch(CARDINGER, [names.index("Shark"), names.index("Pick Boy")], "same_cost", 1, 0, 100)


def test_sharing_changes_the_games_played_not_the_values():
    names = (*JAKE, "Cool Dog", "Ancient Scholar")
    options = ValueOptions(cards=names, workers=1, batch=300, min_pairs=600, half_width=0.08, budget=1e6, probe=64)
    shared, s_summary = card_values(CARDWARS, options)
    alone, a_summary = card_values(CARDWARS, replace(options, share_arms=False))
    assert shared.equals(alone)
    assert s_summary["arm_groups"] == 2
    assert a_summary["arm_groups"] == len(names)
    assert s_summary["pairs_played"] == a_summary["pairs_played"]
    assert s_summary["games_played"] < 0.8 * a_summary["games_played"]


def test_shared_results_do_not_depend_on_the_number_of_workers():
    options = ValueOptions(cards=JAKE, batch=300, min_pairs=600, half_width=0.08, budget=1e6, probe=64)
    one, _ = card_values(CARDWARS, replace(options, workers=1))
    two, _ = card_values(CARDWARS, replace(options, workers=2))
    assert one.equals(two)
