"""Cardia bots: each mechanic is taken when it clearly pays (greedy and expert), random is uniform, the skill gradient.

The mechanic tests are scenarios (``bot_scenarios/``) whose open choices (``"?"`` cards,
choices not stated) are made by the bots; each file must pass with greedy bots as
written and again with both seats played by the expert.
"""

from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import sims
from balance.scenario import run_scenario
from sims.cardia import kernel
from sims.cardia.state import EventKind

HERE = Path(__file__).parent / "bot_scenarios"
FILES = sorted(HERE.glob("*.toml"))
GAME = sims.load("cardia")
POOL = GAME.load_pool(GAME.cards_path)
GREEDY = 'bots = ["greedy", "greedy"]'


@pytest.mark.parametrize("bot", ["greedy", "expert"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_bot_takes_the_mechanic_when_it_pays(tmp_path, path, bot):
    text = path.read_text()
    assert GREEDY in text
    copy = tmp_path / path.name
    copy.write_text(text.replace(GREEDY, f'bots = ["{bot}", "{bot}"]'))
    result = run_scenario(copy)
    detail = [f"{m.key}: expected {m.expected!r}, observed {m.observed!r}" for m in result.mismatches]
    assert result.passed, "\n".join([*detail, *result.outcome.table])


def play(bots, n, seed=3, variant=None):
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(POOL, params)
    ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return GAME.play_chunk(params, pool, np.zeros((2, 0), np.int16), ids, weights, seed, 0, n)


@pytest.mark.slow  # 3 000 games and their replays: minutes with NUMBA_DISABLE_JIT (make test runs slow tests)
def test_random_plays_a_uniform_card_of_its_opening_hand():
    n = 3000
    cards = play(("greedy", "random"), n)["cards"]
    mine = cards[(cards["seat"] == 1) & (cards["in_opening_hand"] == 1)]
    held = np.bincount(mine["card"], minlength=16)
    params = GAME.make_params(None)
    pool = GAME.prepare_pool(POOL, params)
    ids = np.array([GAME.bots.index("greedy"), GAME.bots.index("random")], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in ("greedy", "random")])
    first = np.zeros(16, dtype=np.int64)
    for game in range(n):  # the log's first placement (the cards table also counts a Puppeteer's replacement)
        events = kernel.replay_game(params, pool.table, np.zeros((2, 0), np.int16), ids, weights, np.uint64(3), game)
        placed = events[(events["kind"] == EventKind.PLACE) & (events["seat"] == 1)]
        first[placed["card"][0]] += 1
        opening = mine["card"][mine["game"] == game]
        assert placed["card"][0] in opening
    expected = held / 5  # one of the 5 opening cards, uniformly
    assert stats.chisquare(first, expected * n / expected.sum()).pvalue > 0.001


@pytest.mark.slow  # 4 800 games
def test_greedy_beats_random_and_expert_beats_greedy():
    for bots, n, floor in ((("greedy", "random"), 2000, 0.80), (("expert", "greedy"), 400, 0.60)):
        for seat in (0, 1):
            lineup = bots if seat == 0 else bots[::-1]
            games = play(lineup, n, seed=11)["games"]
            assert (games["winner"] == seat).mean() > floor, (lineup, seat)
