"""Blessings & Curses counterfactual card value (issue 9): ``value_card``, ``value_swap``, ``value_baseline``.

The holder is seat ``game % 2``. Arm 0 deals the holder the card under test; arm 1 deals
the same cards with the holder's copy replaced by the baseline row that ``prepare_pool``
appends. Everything else (the opponent's cards, every shuffle's permutation) is the same.
"""

import numpy as np
import pytest

from sims.blessings import kernel
from sims.blessings.params import Params
from sims.blessings.state import CardType, DeckMode, ValueBaseline
from sims.core import CardDataError, ParamError

SPLIT = Params(deck_mode=DeckMode.SPLIT_ONE_DECK)


def value_params(base: Params, card: str, swap: int, baseline: ValueBaseline = ValueBaseline.BLANK, *, bl):
    return base._replace(value_card=bl.card(card), value_swap=swap, value_baseline=int(baseline))


def set_up(bl, params: Params, game: int, seed: int = 3):
    """Return ``(state, s, pool)``: game ``game`` of ``seed`` dealt and at its first decision."""
    pool = bl.GAME.prepare_pool(bl.POOL, params)
    weights = np.stack([bl.GAME.make_weights("greedy")] * 2)
    state = kernel.prepare(pool.table, params, weights, 1)
    s = state[0]
    kernel.set_up(s, game, np.uint64(seed))
    return state, s, pool


def owned(s, p: int) -> list[int]:
    return s["piles"]["owned"][p, : s["piles"]["owned_n"][p]].tolist()


def zone(s, name: str, p: int) -> list[int]:
    return s["piles"][name][p, : s["piles"][f"{name}_n"][p]].tolist()


# -- the baseline row -------------------------------------------------------------------------------------------


def test_value_baselines_are_registered_with_blank_first(bl):
    assert list(bl.GAME.value_baselines) == [b.name.lower() for b in ValueBaseline] == ["blank", "next_suit"]
    assert bl.GAME.choices["value_baseline"] is ValueBaseline
    assert bl.GAME.make_params().value_card == -1
    assert bl.GAME.make_params("split_deck", {"value_baseline": "next_suit"}).value_baseline == ValueBaseline.NEXT_SUIT


def test_normal_play_leaves_the_pool_as_it_is(bl):
    assert bl.GAME.prepare_pool(bl.POOL, Params()) is bl.POOL


@pytest.mark.parametrize(("card", "kind"), [("heart:9", CardType.CURSE), ("diamond:king", CardType.BLESSING)])
def test_blank_baseline_is_a_card_of_the_same_type_with_no_attack_impact_or_face(bl, card, kind):
    pool = bl.GAME.prepare_pool(bl.POOL, value_params(SPLIT, card, 1, bl=bl))
    assert len(pool) == 53
    row = pool.table[52]
    assert (int(row["attack"]), int(row["impact"]), int(row["face"]), int(row["type"])) == (0, 0, 0, kind)
    assert pool.names[52] == f"blank {kind.name.lower()} (baseline for {card})"
    assert (pool.table[:52] == bl.POOL.table).all()


@pytest.mark.parametrize(("card", "mate"), [("heart:9", "diamond:9"), ("club:queen", "heart:queen")])
def test_next_suit_baseline_copies_the_same_rank_of_the_next_suit(bl, card, mate):
    pool = bl.GAME.prepare_pool(bl.POOL, value_params(SPLIT, card, 1, ValueBaseline.NEXT_SUIT, bl=bl))
    assert pool.table[52].tolist() == bl.POOL.table[bl.card(mate)].tolist()
    assert pool.names[52] == f"{mate} (baseline for {card})"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"value_card": 52}, "parameter 'value_card' = 52: .* has cards 0..51"),
        ({"value_card": 3, "value_swap": 2}, "parameter 'value_swap' must be true or false, got 2"),
        ({"value_card": 3, "value_baseline": 5}, "parameter 'value_baseline' = 5 is not a ValueBaseline code"),
    ],
)
def test_bad_value_parameters_are_one_clear_error(bl, overrides, message):
    with pytest.raises(ParamError, match=message):
        bl.GAME.prepare_pool(bl.POOL, Params(**overrides))


def test_next_suit_baseline_needs_a_card_of_that_rank(bl):
    pool = bl.POOL.subset(np.array([bl.POOL.table[c]["suit"] != 1 for c in range(52)]))  # no diamonds
    params = SPLIT._replace(value_card=pool.names.index("heart:9"), value_swap=1, value_baseline=1)
    with pytest.raises(CardDataError, match="no diamond card of the rank of heart:9"):
        bl.GAME.prepare_pool(pool, params)


# -- the deal: arm 0 holds the card, arm 1 the baseline, nothing else differs -----------------------------------


@pytest.mark.parametrize("game", range(8))
def test_split_deck_arm_0_deals_the_card_to_the_holder_and_arm_1_the_baseline_in_its_place(bl, game):
    card = bl.card("heart:9")
    _, s0, _ = set_up(bl, value_params(SPLIT, "heart:9", 0, bl=bl), game)
    _, s1, _ = set_up(bl, value_params(SPLIT, "heart:9", 1, bl=bl), game)
    holder, other = game % 2, 1 - game % 2
    assert card in owned(s0, holder)
    assert card not in owned(s0, other)
    swapped = [52 if c == card else c for c in owned(s0, holder)]
    assert owned(s1, holder) == swapped  # the baseline row (id 52) where the card was
    assert owned(s1, other) == owned(s0, other)  # the opponent's cards are the same


def test_split_deck_arms_shuffle_alike(bl):
    card = bl.card("spade:5")
    for game in range(12):
        _, s0, _ = set_up(bl, value_params(SPLIT, "spade:5", 0, bl=bl), game)
        _, s1, _ = set_up(bl, value_params(SPLIT, "spade:5", 1, bl=bl), game)
        holder, other = game % 2, 1 - game % 2
        for name in ("hand", "deck"):
            assert zone(s1, name, other) == zone(s0, name, other), (game, name)
            assert zone(s1, name, holder) == [52 if c == card else c for c in zone(s0, name, holder)], (game, name)


def test_split_deck_without_a_value_card_deals_as_before_when_the_holder_already_has_it(bl):
    """The swap into the holder's half touches nothing when the shuffle dealt it there: arm 0 = normal play."""
    card = bl.card("club:7")
    same = 0
    for game in range(16):
        _, plain, _ = set_up(bl, SPLIT, game)
        if card not in owned(plain, game % 2):
            continue
        _, arm0, _ = set_up(bl, value_params(SPLIT, "club:7", 0, bl=bl), game)
        for p in range(2):
            assert owned(arm0, p) == owned(plain, p)
            assert zone(arm0, "deck", p) == zone(plain, "deck", p)
            assert zone(arm0, "hand", p) == zone(plain, "hand", p)
        same += 1
    assert same >= 4


def test_split_deck_a_card_dealt_to_the_opponent_trades_places_with_the_holders_card_at_the_same_position(bl):
    card = bl.card("club:7")
    moved = 0
    for game in range(16):
        _, plain, _ = set_up(bl, SPLIT, game)
        holder = game % 2
        if card in owned(plain, holder):
            continue
        _, arm0, _ = set_up(bl, value_params(SPLIT, "club:7", 0, bl=bl), game)
        gained = set(owned(arm0, holder)) - set(owned(plain, holder))
        lost = set(owned(plain, holder)) - set(owned(arm0, holder))
        assert gained == {card}
        assert len(lost) == 1
        assert set(owned(arm0, 1 - holder)) == set(owned(plain, 1 - holder)) - {card} | lost  # one card each way
        moved += 1
    assert moved >= 4


def test_own_52_arm_1_replaces_the_holders_copy_and_the_opponent_keeps_its_own(bl):
    card = bl.card("diamond:10")
    params = value_params(Params(), "diamond:10", 1, bl=bl)
    for game in (0, 1):
        _, s, _ = set_up(bl, params, game)
        holder = game % 2
        assert owned(s, holder) == [52 if c == card else c for c in range(52)]
        assert owned(s, 1 - holder) == list(range(52))


def test_the_baseline_card_is_played_like_any_card(bl):
    """A blank curse-type card: it may attack for 0, curse for 0 or be discarded for 0 (R7, R9)."""
    params = value_params(SPLIT, "heart:9", 1, bl=bl)
    pool = bl.GAME.prepare_pool(bl.POOL, params)
    assert kernel.attack_damage(set_up(bl, params, 0)[1], 52) == 0
    out = bl.GAME.play_chunk(
        params, pool, np.zeros((2, 0), np.int16), np.array([2, 1]), np.stack([bl.GAME.make_weights("tactician"),
        bl.GAME.make_weights("greedy")]), 5, 0, 40, ("games", "seats", "cards"),
    )  # fmt: skip
    cards = out["cards"]
    blank = cards[cards["card"] == 52]
    assert len(blank) == 40  # one row a game: the holder's
    assert (blank["seat"] == blank["game"] % 2).all()
    assert blank["times_played"].sum() > 0
    assert blank["curse_sent"].sum() == 0
    assert blank["damage_dealt"].sum() == 0


def test_paired_arms_agree_until_the_card_matters(bl):
    """Over 400 paired games the arms differ in some games, not in all (the card is 1 of the holder's 26)."""
    outs = []
    for swap in (0, 1):
        params = value_params(SPLIT, "heart:10", swap, bl=bl)
        pool = bl.GAME.prepare_pool(bl.POOL, params)
        weights = np.stack([bl.GAME.make_weights("greedy")] * 2)
        outs.append(bl.GAME.play_chunk(params, pool, np.zeros((2, 0), np.int16), np.array([1, 1]), weights, 9, 0, 400))
    a, b = outs[0]["games"], outs[1]["games"]
    differ = (a["winner"] != b["winner"]) | (a["turns"] != b["turns"])
    assert 0 < differ.sum() < 400
    assert (a["first_seat"] == b["first_seat"]).mean() > 0.8  # the reveal draws the same places in both arms
