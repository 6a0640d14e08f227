"""The counterfactual card-value arms (``value_card``/``value_swap``/``value_baseline``, RULES.md §10).

Hand-built pools: each test states the cards it needs. The contract: arm 0 puts the card in
the holder's (seat ``game % 2``) deck; arm 1 is the same deck with the card replaced by the
baseline, everything else identical (opponent's deck, first seat, every RNG lane); with
``value_card = -1`` the game is the one it always was.
"""

import numpy as np
import pytest

from sims.cardinger import kernel
from sims.cardinger.params import Params
from sims.cardinger.state import DeckSource, ValueBaseline
from sims.core import rng

COSTS = (0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 8, 8)  # card c costs COSTS[c]
CARD = 9  # a cost-2 card; the other cost-2 cards are 10 and 11
SMALL = Params(deck_size=6, opening_hand=2, builder_cost_target=3)


def pool(cg, blank: bool = True):
    """Return the test pool: one card per cost in COSTS, plus (``blank``) the blank row of CARD's cost last."""
    specs = [{"cost": c, "atk": 1} for c in COSTS]
    table = cg.make_cards(*specs, *([{"cost": COSTS[CARD]}] if blank else []))
    if blank:
        table[-1]["set"] = 0  # in no printed set: only a baseline
    return table


def set_up(cg, params: Params, game: int, cards=None, decks=None):
    """Return the state after ``set_up`` of game ``game`` (seeded as ``play_games`` seeds it)."""
    cards = pool(cg) if cards is None else cards
    weights = np.stack([cg.GAME.make_weights("greedy")] * 2)
    state = kernel.prepare(cards, params, weights, 0)
    decks = np.zeros((2, params.deck_size), np.int16) if decks is None else decks
    kernel.set_up(state[0], decks, game, np.uint64(int(rng.game_seed(np.uint64(5), game))))
    return state


def deck(state, p: int, size: int) -> list[int]:
    """Return seat ``p``'s deck list."""
    return state[0]["piles"]["built"][p, :size].tolist()


@pytest.mark.parametrize("game", range(12))
@pytest.mark.parametrize("baseline", [ValueBaseline.SAME_COST, ValueBaseline.BLANK])
def test_arm_0_holds_the_card_and_arm_1_swaps_only_that_card(cg, game, baseline):
    size = SMALL.deck_size
    arm = [set_up(cg, SMALL._replace(value_card=CARD, value_swap=s, value_baseline=baseline), game) for s in (0, 1)]
    holder = game % 2
    with_card, without = deck(arm[0], holder, size), deck(arm[1], holder, size)
    assert CARD in with_card
    assert CARD not in without
    changed = [k for k in range(size) if with_card[k] != without[k]]
    assert changed == [with_card.index(CARD)]  # the baseline sits exactly where the card was
    b = without[changed[0]]
    if baseline == ValueBaseline.BLANK:
        assert b == len(COSTS)  # the blank row
    else:
        assert b in (10, 11)
        assert b not in with_card
    assert deck(arm[0], 1 - holder, size) == deck(arm[1], 1 - holder, size)
    s0, s1 = arm[0][0], arm[1][0]
    assert s0["meta"]["first_seat"] == s1["meta"]["first_seat"]
    assert s0["scratch"]["rng"].tolist() == s1["scratch"]["rng"].tolist()  # every lane drew the same values
    assert s0["tally"]["seats"][holder]["deck_total_cost"] == s1["tally"]["seats"][holder]["deck_total_cost"]
    for p in range(2):  # the shuffles permuted the same positions
        order = [deck(arm[0], p, size).index(c) for c in s0["piles"]["deck"][p, : s0["piles"]["deck_n"][p]]]
        again = [deck(arm[1], p, size).index(c) for c in s1["piles"]["deck"][p, : s1["piles"]["deck_n"][p]]]
        assert order == again


def test_the_card_is_the_holders_first_deck_card_and_the_rest_follows_the_builder(cg):
    for game in range(20):
        state = set_up(cg, SMALL._replace(value_card=CARD), game)
        built = deck(state, game % 2, SMALL.deck_size)
        assert built[0] == CARD
        assert len(set(built)) == SMALL.deck_size  # the card left the piles: no second copy
        assert 14 not in built
        assert 15 not in built


def test_a_cost_8_card_under_test_is_forced_in_although_the_builder_excludes_its_cost(cg):
    state = set_up(cg, SMALL._replace(value_card=14, value_swap=1), 3)
    built = deck(state, 1, SMALL.deck_size)
    assert 14 not in built
    assert 15 in built  # the only other cost-8 card is the baseline


def test_same_cost_baseline_falls_back_to_the_blank_when_no_other_card_has_the_cost(cg):
    cards = pool(cg)
    cards[10]["cost"] = cards[11]["cost"] = 1  # CARD is now the only cost-2 printed card
    state = set_up(cg, SMALL._replace(value_card=CARD, value_swap=1), 0, cards)
    assert len(COSTS) in deck(state, 0, SMALL.deck_size)


def test_same_cost_baseline_is_uniform_over_the_cards_not_in_the_deck(cg):
    seen = {10: 0, 11: 0}
    for game in range(0, 400, 2):
        state = set_up(cg, SMALL._replace(value_card=CARD, value_swap=1), game)
        built = deck(state, 0, SMALL.deck_size)
        for c in (10, 11):
            if c in built and not {10, 11} <= set(built):
                seen[c] += 1
    assert seen[10] > 40
    assert seen[11] > 40


def test_shared_set_baseline_is_in_neither_deck(cg):
    params = SMALL._replace(value_card=CARD, value_swap=1, deck_source=DeckSource.SHARED_SET)
    for game in range(30):
        state = set_up(cg, params, game)
        holder, size = game % 2, params.deck_size
        mine, theirs = deck(state, holder, size), deck(state, 1 - holder, size)
        assert CARD not in mine
        assert CARD not in theirs
        assert not set(mine) & set(theirs)


def test_fixed_decks_hold_the_card_in_place_of_the_first_card_when_it_is_missing(cg):
    fixed = np.array([[0, 1, 5, 6, 10, 12], [2, 3, 7, 8, 11, 13]], np.int16)
    params = SMALL._replace(deck_builder=2, value_card=CARD)
    holder_0 = set_up(cg, params, 0, decks=fixed)
    assert deck(holder_0, 0, 6) == [CARD, 1, 5, 6, 10, 12]
    assert deck(holder_0, 1, 6) == fixed[1].tolist()
    has_it = fixed.copy()
    has_it[1, 4] = CARD
    assert deck(set_up(cg, params, 1, decks=has_it), 1, 6) == has_it[1].tolist()
    swapped = deck(set_up(cg, params._replace(value_swap=1), 1, decks=has_it), 1, 6)
    assert swapped[:4] + swapped[5:] == has_it[1, :4].tolist() + has_it[1, 5:].tolist()
    assert swapped[4] == 10  # cards 10 and 11 cost 2; 11 is in the deck


def test_the_blank_row_never_enters_a_builder_pile(cg):
    for game in range(30):
        state = set_up(cg, SMALL._replace(value_card=3), game)
        for p in range(2):
            assert len(COSTS) not in deck(state, p, SMALL.deck_size)


@pytest.mark.parametrize("extra", [{"value_swap": 1}, {"value_baseline": 1}, {"value_swap": 1, "value_baseline": 1}])
def test_value_card_minus_one_plays_exactly_the_normal_games(cg, extra):
    params = cg.GAME.make_params()
    normal = cg.chunk(params, n=150, tables=("games", "seats", "cards", "turns"))
    other = cg.chunk(params._replace(**extra), n=150, tables=("games", "seats", "cards", "turns"))
    for table in normal:
        assert normal[table].tobytes() == other[table].tobytes(), table


def test_arms_of_the_shipped_pool_are_paired_games(cg):
    """Real pool, greedy mirror: the arms share every opponent deck and first seat, and often the winner."""
    game = cg.GAME
    base = game.load_pool(game.cards_path)
    arms = []
    for swap in (0, 1):
        params = game.make_params(overrides={"value_card": 7, "value_swap": swap})
        pool_ = game.prepare_pool(base, params)
        weights = np.stack([game.make_weights("greedy")] * 2)
        arms.append(game.play_chunk(params, pool_, np.zeros((2, 20), np.int16), np.array([1, 1]), weights, 3, 0, 300))
    a, b = arms
    assert (a["games"]["first_seat"] == b["games"]["first_seat"]).all()
    opp = a["seats"]["seat"] != a["seats"]["game"] % 2
    assert (a["seats"]["deck"][opp] == b["seats"]["deck"][opp]).all()
    assert (a["games"]["winner"] == b["games"]["winner"]).mean() > 0.7  # paired: most games end alike
