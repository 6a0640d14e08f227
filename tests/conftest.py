"""Shared fixtures: headless matplotlib, small run specs and runs in tmp dirs."""

import matplotlib

matplotlib.use("Agg")

import pytest

from balance.spec import RunSpec


@pytest.fixture
def small_spec(tmp_path):
    """A 600-game greedy-vs-greedy Cardinger spec writing under tmp_path."""
    return RunSpec(game="cardinger", n_games=600, seed=3, out=str(tmp_path / "runs"), chunk_size=250, workers=1)
