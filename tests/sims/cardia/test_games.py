"""Cardia batch runs: decks and locations per game (R2, R3), value arms, matches (R1), caps, records, replay."""

import numpy as np
import pytest

import sims
from sims.cardia.state import DECK_DIFFICULTY, LOCATION_DIFFICULTY, EndReason, FactionSet

GAME = sims.load("cardia")
POOL = GAME.load_pool(GAME.cards_path)
NO_DECKS = np.zeros((2, 0), dtype=np.int16)


def play(variant=None, overrides=None, bots=("greedy", "greedy"), n=60, seed=11, first=0, tables=None):
    """Return the record tables of ``n`` games (kernel inputs built as ``balance.spec.resolve`` does)."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(POOL, params)
    bot_ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return GAME.play_chunk(params, pool, NO_DECKS, bot_ids, weights, seed, first, n, tables or GAME_TABLES)


GAME_TABLES = ("games", "seats", "cards", "turns")


def deck_of(cards, game, seat):
    """Return the card ids of one seat's deck in one game (one cards row per deck card)."""
    rows = cards[(cards["game"] == game) & (cards["seat"] == seat) & (cards["match_game"] == 1)]
    return sorted(rows["card"].tolist())


def test_deck_i_and_deck_ii_are_identical_for_both_seats():
    for variant, ids in (("first_games", range(16)), ("deck_ii", range(16, 32))):
        out = play(variant, n=5)
        for g in range(5):
            assert deck_of(out["cards"], g, 0) == deck_of(out["cards"], g, 1) == list(ids)
        assert set(out["games"]["deck"].tolist()) == {0 if variant == "first_games" else 1}


def test_mixed_decks_take_deck_ii_for_the_flagged_factions():
    out = play("mixed_I_II_I_II", n=3)
    expected = sorted(
        c for c in range(32) if POOL.table[c]["deck"] == (1 if (2 | 8) & (1 << POOL.table[c]["faction"]) else 0)
    )
    assert deck_of(out["cards"], 0, 0) == deck_of(out["cards"], 2, 1) == expected
    assert int(FactionSet.ACADEMY | FactionSet.DYNASTY) == GAME.make_params("mixed_I_II_I_II").faction_decks


def test_the_grid_sweeps_both_decks_and_every_location_with_its_difficulty():
    out = play("grid", n=36, bots=("random", "random"))
    games = out["games"]
    assert games["location"].tolist() == [g % 9 for g in range(36)]
    assert games["deck"].tolist() == [(g // 9) % 2 for g in range(36)]
    expected = [DECK_DIFFICULTY[(g // 9) % 2] + LOCATION_DIFFICULTY[g % 9] for g in range(36)]
    assert games["difficulty"].tolist() == expected


def test_a_sweep_gives_each_game_the_same_setting_whatever_the_chunk():
    whole = play("locations", n=20, bots=("random", "random"))["games"]
    part = play("locations", n=5, first=15, bots=("random", "random"))["games"]
    assert (whole[15:] == part).all()


# -- the counterfactual value interface (issue 9) ---------------------------------------------------

DJINN, SUCCESSOR, BLANK = POOL.names.index("Djinn"), POOL.names.index("Successor"), len(POOL)


def test_value_arm_0_puts_the_card_in_the_holders_deck_and_plays_the_normal_games():
    normal = play(n=40)
    arm0 = play(overrides={"value_card": DJINN}, n=40)
    assert (normal["games"] == arm0["games"]).all()
    assert (normal["cards"] == arm0["cards"]).all()
    assert arm0["seats"]["holder"].tolist() == [int(s == g % 2) for g in range(40) for s in (0, 1)]
    assert normal["seats"]["holder"].sum() == 0


@pytest.mark.parametrize(("baseline", "replacement"), [("blank", BLANK), ("counterpart", SUCCESSOR)])
def test_value_arm_1_replaces_only_the_holders_copy(baseline, replacement):
    overrides = {"value_card": DJINN, "value_baseline": baseline}
    arm0 = play(overrides={**overrides, "value_swap": 0}, n=30)
    arm1 = play(overrides={**overrides, "value_swap": 1}, n=30)
    for g in range(30):
        holder = g % 2
        deck0, deck1 = deck_of(arm0["cards"], g, holder), deck_of(arm1["cards"], g, holder)
        assert DJINN in deck0
        assert DJINN not in deck1
        assert replacement in deck1
        assert sorted(set(deck0) - {DJINN}) == sorted(set(deck1) - {replacement})
        assert deck_of(arm0["cards"], g, 1 - holder) == deck_of(arm1["cards"], g, 1 - holder)


def test_value_arms_deal_the_same_opening_hands_and_share_many_games():
    """The arms share every random lane: the same shuffles put the baseline where the card was.

    The opponent knows the holder's deck list (identical decks are public, R4), so its
    bot may play differently as soon as the card is swapped: games are paired, not equal.
    """
    overrides = {"value_card": DJINN}
    arm0, arm1 = play(overrides=overrides, n=200), play(overrides={**overrides, "value_swap": 1}, n=200)
    c0, c1 = arm0["cards"], arm1["cards"]
    opening0 = c0[c0["in_opening_hand"] == 1]
    opening1 = c1[c1["in_opening_hand"] == 1]
    assert (opening0["game"] == opening1["game"]).all()
    assert (opening0["seat"] == opening1["seat"]).all()
    assert np.where(opening1["card"] == BLANK, DJINN, opening1["card"]).tolist() == opening0["card"].tolist()
    same = (arm0["games"] == arm1["games"]).mean()
    assert 0.2 < same < 1.0  # unpaired arms would share almost no game


# -- matches, caps, records ---------------------------------------------------------------------------


def test_best_of_3_plays_until_a_seat_has_won_two_games():
    out = play("best_of_3", n=40)
    games = out["games"]
    won = np.stack([games["games_won_0"], games["games_won_1"]], axis=1)
    decided = games["winner"] >= 0
    assert (won.max(axis=1)[decided] == 2).all()
    assert ((games["match_games"] >= 2) & (games["match_games"] <= 5)).all()
    assert games["winner"][decided].tolist() == won[decided].argmax(axis=1).tolist()
    assert len(out["cards"]) == 32 * games["match_games"].sum()
    assert out["turns"]["turn"].tolist() == [t for n in games["turns"] for t in range(1, n + 1)]


def test_the_first_game_of_a_match_is_the_single_game_of_the_same_seed():
    single, match = play(n=20), play("best_of_3", n=20)
    first = match["cards"][match["cards"]["match_game"] == 1]
    assert (first == single["cards"]).all()


def test_the_round_cap_records_a_timeout():
    out = play(overrides={"max_rounds": 3}, n=20, bots=("random", "random"))
    games = out["games"]
    capped = games["end_reason"] == EndReason.TIMEOUT
    assert capped.any()
    assert (games["turns"][capped] == 3).all()
    assert (games["winner"][capped] == -1).all()


def test_records_add_up():
    out = play(n=50)
    games, seats, cards, turns = out["games"], out["seats"], out["cards"], out["turns"]
    assert (games["first_seat"] == -1).all()
    assert (turns["seat"] == -1).all()
    last = turns[np.r_[turns["game"][1:] != turns["game"][:-1], True]]
    assert (last["score_0"] == games["score_0"]).all()
    assert (last["score_1"] == games["score_1"]).all()
    for p in (0, 1):
        mine = cards[cards["seat"] == p]
        signets = np.bincount(mine["game"], weights=mine["signets_end"], minlength=50)
        assert (signets == games[f"score_{p}"]).all()
        assert (seats[seats["seat"] == p]["score"] == games[f"score_{p}"]).all()
    played = cards[cards["times_played"] > 0]
    reveals = played["reveals_won"] + played["reveals_lost"] + played["reveals_tied"]
    assert (reveals <= played["times_played"]).all()
    assert (cards["activations"][cards["reveals_lost"] == 0] <= cards["copied"][cards["reveals_lost"] == 0] + 1).all()


def test_replay_prints_the_game_with_card_names():
    params = GAME.make_params()
    bots = np.array([1, 1], dtype=np.int64)
    weights = np.stack([GAME.make_weights("greedy")] * 2)
    lines = GAME.replay(params, POOL, NO_DECKS, bots, weights, 11, 3)
    out = play(n=4)
    text = "\n".join(lines)
    assert "-- round 1" in text
    assert "reveal: P0" in text
    assert "deck list:" in text
    winner = int(out["games"]["winner"][3])
    assert (f"P{winner} WINS" if winner >= 0 else "DRAW") in text
