"""Known values: simulated opening hands against exact hypergeometric probabilities."""

import numpy as np
import pytest
from scipy import stats

import sims

N_GAMES = 20_000
pytestmark = pytest.mark.slow  # 20 000 games: minutes with NUMBA_DISABLE_JIT (make test runs slow tests)


@pytest.fixture(scope="module")
def opening_hands():
    """Return (K, k) per seat: 0-cost cards in the deck, and in the opening hand."""
    game = sims.load("cardinger")
    params = game.make_params()
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    weights = np.stack([game.make_weights("greedy")] * 2)
    out = game.play_chunk(
        params, pool, np.zeros((2, params.deck_size), np.int16), np.array([1, 1]), weights, 314, 0, N_GAMES,
        tables=("games", "seats", "cards"),
    )  # fmt: skip
    free = pool.table["cost"] == 0
    cards = out["cards"]
    seat_key = cards["game"] * 2 + cards["seat"]
    in_deck = np.bincount(seat_key, weights=free[cards["card"]], minlength=2 * N_GAMES)
    in_hand = np.bincount(
        seat_key, weights=free[cards["card"]] & (cards["in_opening_hand"] == 1), minlength=2 * N_GAMES
    )
    return in_deck.astype(int), in_hand.astype(int), params


def test_each_seat_has_exactly_the_opening_hand_size(opening_hands):
    _, _, params = opening_hands
    game = sims.load("cardinger")
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    out = game.play_chunk(
        params, pool, np.zeros((2, params.deck_size), np.int16), np.array([1, 1]),
        np.stack([game.make_weights("greedy")] * 2), 5, 0, 500, tables=("games", "seats", "cards"),
    )  # fmt: skip
    cards = out["cards"]
    per_seat = np.bincount(cards["game"] * 2 + cards["seat"], weights=cards["in_opening_hand"])
    assert (per_seat == params.opening_hand).all()


def test_zero_cost_cards_in_opening_hand_follow_the_hypergeometric_law(opening_hands):
    big_k, small_k, params = opening_hands
    deck, hand = params.deck_size, params.opening_hand
    observed, expected = [], []
    for k_deck in np.unique(big_k):
        rows = small_k[big_k == k_deck]
        law = stats.hypergeom(deck, k_deck, hand)  # population, successes, draws
        support = np.arange(0, min(hand, k_deck) + 1)
        probs = law.pmf(support)
        counts = np.bincount(rows, minlength=len(support))[: len(support)]
        assert counts.sum() == len(rows)  # never more 0-cost cards in hand than in deck
        keep = probs * len(rows) >= 5  # chi-square cells need expected counts >= 5
        observed += counts[keep].tolist()
        expected += (probs[keep] * len(rows)).tolist()
    observed, expected = np.array(observed), np.array(expected)
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    p = stats.chi2.sf(chi2, df=len(observed) - len(np.unique(big_k)))
    assert len(observed) >= 10
    assert p > 0.001, f"chi2 {chi2:.1f} over {len(observed)} cells"


def test_probability_of_at_least_one_zero_cost_card_matches_exact_value(opening_hands):
    big_k, small_k, params = opening_hands
    common = np.bincount(big_k).argmax()
    rows = small_k[big_k == common]
    exact = 1 - stats.hypergeom(params.deck_size, common, params.opening_hand).pmf(0)
    observed = (rows > 0).mean()
    se = np.sqrt(exact * (1 - exact) / len(rows))
    assert abs(observed - exact) < 4 * se
