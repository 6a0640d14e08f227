"""Shared fixtures: headless matplotlib, small run specs and runs in tmp dirs."""

import matplotlib

matplotlib.use("Agg")

import pytest

from balance.spec import RunSpec
from sims.core import TABLES


@pytest.fixture
def small_spec(tmp_path):
    """A 600-game greedy-vs-greedy Cardinger spec writing under tmp_path: every raw table and the sums."""
    out = str(tmp_path / "runs")
    return RunSpec(game="cardinger", n_games=600, seed=3, out=out, chunk_size=250, workers=1, tables=TABLES)
